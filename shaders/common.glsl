/* Put before every shader's own text, after the defines and alpha.glsl:
 * the helpers the shaders share.  An #extension line must come before any
 * code, so the subgroup extensions box-fused.comp may use are enabled
 * here for every shader; a shader that uses none is the same with them. */

#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable

/* pixel i of a line: of a row, or with VERTICAL of a column */
ivec2
at (int i, int line)
{
#ifdef VERTICAL
  return ivec2 (line, i);
#else
  return ivec2 (i, line);
#endif
}

/* GLSL's % is undefined for negatives: shift them past zero first */
ivec2
floor_mod (ivec2 a,
           ivec2 b)
{
  return (a + b * (abs (a) / b + 1)) % b;
}

/* a texel of src as the passes sum it: premultiplied with PREMULTIPLY,
 * where src holds straight alpha */
vec4
summed (vec4 texel)
{
#ifdef PREMULTIPLY
  texel = PREMULTIPLIED (texel);
#endif
  return texel;
}

/* The first pass of each axis reads a texture that holds only the part of
 * its lines inside the image, and, under none, black and white, one line
 * or texel of the abyss's colour (or that line's horizontal blur) after
 * them: pixel i of a line, counted from the tile's input, is texel
 * mapped (i) of the texture's line, as the abyss policy makes it.  The
 * other passes read their whole input: map_first 0 and map_len n_in. */
uniform int map_first;   /* the first pixel inside */
uniform int map_len;     /* the pixels inside */
uniform int map_abyss;   /* GeglAbyssPolicy */

int
mapped (int i)
{
  int j = i - map_first;

  if (j >= 0 && j < map_len)
    return j;
  if (map_abyss == CBLUR_ABYSS_CLAMP)
    return clamp (j, 0, map_len - 1);
  if (map_abyss == CBLUR_ABYSS_LOOP)
    return floor_mod (ivec2 (j), ivec2 (map_len)).x;
  return map_len;
}

/* pixel i of a line of src, as the passes sum it; a macro, since each
 * shader declares its src after this */
#define load(i, line) summed (imageLoad (src, at (mapped (i), (line))))
