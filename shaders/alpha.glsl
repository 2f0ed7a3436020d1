/* Put before every shader's own text, after the defines, so it may hold
 * only preprocessor lines: it comes before a shader's #extension lines.
 *
 * A straight-alpha texel premultiplied as babl turns RGBA float into
 * RaGaBaA float: an alpha within ALPHA_FLOOR of zero (CBLUR_ALPHA_FLOOR,
 * defined by cblur-gl-program.c) multiplies as ALPHA_FLOOR, so that a
 * transparent pixel keeps a trace of its colour, and alpha itself stays.
 * cblur_premultiply_pixels() is the CPU's copy of the rule.  texel: a
 * variable, named four times. */
#define PREMULTIPLIED(texel) vec4 ((texel).rgb * (abs ((texel).a) <= ALPHA_FLOOR ? ALPHA_FLOOR : (texel).a), (texel).a)
