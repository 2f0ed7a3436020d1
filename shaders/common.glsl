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

/* a - b * floor (a / b), for b > 0, both below 2^24.  GLSL's float
 * division may be approximate (NVIDIA's multiplies by the reciprocal), so
 * the quotient of a multiple of b may land just below the whole number as
 * well as just above it: one step either way puts r back in [0, b).
 * GLSL's % is undefined for negatives, and divides integers one lane at a
 * time on a CPU. */
int
floor_mod (int a,
           int b)
{
  int r = a - b * int (floor (float (a) / float (b)));

  if (r < 0)
    return r + b;
  return r >= b ? r - b : r;
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

/* The first pass of each axis reads a texture that holds only the lines'
 * pixels inside the image, and under none, black and white one texel more
 * a line after them: the abyss's colour, or in the texture between the
 * axes the horizontal passes' result of a row of it.  Pixel i of a line,
 * counted from the tile's input, is texel mapped (i) there, as the abyss
 * policy makes it.  The other passes read their whole input: map_first 0,
 * map_len n_in. */
uniform int map_first;   /* the first pixel inside */
uniform int map_len;     /* the pixels inside */
uniform int map_abyss;   /* GeglAbyssPolicy */

int
mapped (int i)
{
  int j = i - map_first;
  int edge = clamp (j, 0, map_len - 1);

  if (map_abyss == CBLUR_ABYSS_LOOP)
    return floor_mod (j, map_len);
  return j == edge || map_abyss == CBLUR_ABYSS_CLAMP ? edge : map_len;
}

/* pixel i of a line of src, as the passes sum it; a macro, since each
 * shader declares its src after this */
#define load(i, line) summed (imageLoad (src, at (mapped (i), (line))))
