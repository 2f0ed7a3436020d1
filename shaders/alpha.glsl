/* Put before every shader's own text, after the defines, so it may hold
 * only preprocessor lines: it comes before common.glsl's #extension lines.
 *
 * A straight-alpha texel premultiplied as babl turns RGBA float into
 * RaGaBaA float: an alpha within CBLUR_ALPHA_FLOOR of zero (cblur-pixel.h's,
 * which cblur-gl-program.c defines here) multiplies as CBLUR_ALPHA_FLOOR, so
 * that a transparent pixel keeps a trace of its colour, and alpha itself
 * stays.  cblur_premultiply_pixels() is the CPU's side of the rule.  texel: a
 * variable, named four times. */
#define PREMULTIPLIED(texel) vec4 ((texel).rgb * (abs ((texel).a) <= CBLUR_ALPHA_FLOOR ? CBLUR_ALPHA_FLOOR : (texel).a), (texel).a)
