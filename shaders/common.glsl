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

/* pixel i of a line of src, as the passes sum it; a macro, since each
 * shader declares its src after this */
#define load(i, line) summed (imageLoad (src, at ((i), (line))))
