#version 430 core

/* A region of the passes' result, premultiplied linear RGBA float, into
 * the output's cblur-format, a 32-bit word of `words` an invocation (rows
 * `stride` bytes apart, laid out as in its staging), as the CPU encodes
 * (cblur_format_encode): unpremultiplied by babl's rule, its alpha floor
 * included, then each sample rounded.  An integer sample takes the
 * greatest code whose threshold in cblur-format's tables (the least linear
 * value babl's curve rounds to that code) is at or below it, found by
 * bisection; half and float colours with `srgb` go on srgb.glsl's curve
 * first; half rounds to nearest even; float is as it is.  A word's
 * bytes outside the region are left 0: only the region's go down.
 *
 * The format is the dispatch's uniforms, as for decode.comp. */

layout (local_size_x = 64, local_size_y = 4) in;

layout (rgba32f, binding = 0) uniform readonly image2D image;

layout (std430, binding = 0) writeonly buffer Native { uint words[]; };
layout (std430, binding = 1) readonly buffer Tables { float thresholds[]; };

/* at the locations cblur-gl-convert.c sets, the same in decode.comp */
layout (location = 0)  uniform ivec2 origin;   /* the region's first texel */
layout (location = 1)  uniform ivec2 size;     /* its texels */
layout (location = 2)  uniform int   column;   /* the stored column of its first texel */
layout (location = 3)  uniform uint  base;     /* the byte of its first row's column 0 */
layout (location = 4)  uniform uint  stride;   /* bytes from one row to the next */
layout (location = 5)  uniform int   n_components;
layout (location = 6)  uniform int   sample_bytes;
layout (location = 7)  uniform bool  tables;
layout (location = 8)  uniform bool  grey;
layout (location = 9)  uniform bool  has_alpha;
layout (location = 10) uniform int   codes;    /* a power of two; each component's table
                                                * holds codes + 1 thresholds, -inf first */
layout (location = 11) uniform bool  srgb;     /* half or float colours on the sRGB curve */

/* What texel's samples are multiplied by to unpremultiply them: 1 /
 * alpha, babl's floor for alphas near 0, rounded as the CPU's division
 * rounds.  GLSL's float division may be an approximation (NVIDIA's is),
 * and its fma need not be fused (llvmpipe's is not) to correct one; in
 * double precision the quotient lies far closer to the float it rounds to
 * than to the next halfway point. */
float
unpremultiplier (vec4 texel)
{
  float alpha = abs (texel.a) <= CBLUR_ALPHA_FLOOR ? CBLUR_ALPHA_FLOOR : texel.a;

  return float (1.0lf / double (alpha));
}

/* sample c of texel as the format stores it, before rounding; a grey
 * result has R = G = B, bit for bit, of which the CPU takes G */
float
straight (vec4  texel,
          float unpremultiply,
          int   c)
{
  precise float value = texel[grey ? 1 : c] * unpremultiply;

  if (has_alpha && c == n_components - 1)
    return texel.a;
  return srgb ? srgb_encoded (value) : value;
}

/* the greatest k whose threshold is at or below value, 0 for NaN */
uint
code_of (float value,
         int   c)
{
  int first = c * (codes + 1);
  int k = 0;

  for (int step = codes / 2; step > 0; step /= 2)
    if (thresholds[first + k + step] <= value)
      k += step;
  return uint (k);
}

/* value's half, rounded to nearest even as the CPU's conversion rounds,
 * which packHalf2x16 need not */
uint
half_of (float value)
{
  uint bits = floatBitsToUint (value);
  uint sign = (bits >> 16u) & 0x8000u;
  uint magnitude = bits & 0x7fffffffu;

  /* NaN stays NaN, quiet, with the top of its payload */
  if (magnitude > 0x7f800000u)
    return sign | 0x7e00u | ((magnitude >> 13u) & 0x3ffu);
  /* from halfway between the largest half and 2^16 on, infinity */
  if (magnitude >= 0x477ff000u)
    return sign | 0x7c00u;
  /* below 2^-14, a subnormal half: a count of 2^-24 */
  if (magnitude < 0x38800000u)
    return sign | uint (roundEven (uintBitsToFloat (magnitude) * 16777216.0));
  /* the exponent's bias from 127 to 15, and 13 bits rounded off */
  magnitude -= 0x38000000u;
  return sign | ((magnitude + 0xfffu + ((magnitude >> 13u) & 1u)) >> 13u);
}

uint
encoded (float value,
         int   c)
{
  if (sample_bytes == 4)
    return floatBitsToUint (value);
  if (!tables)
    return half_of (value);
  return code_of (value, c);
}

void
main ()
{
  int   row = int (gl_GlobalInvocationID.y);
  int   pixel_bytes = n_components * sample_bytes;
  uint  first = uint (column * pixel_bytes);
  uint  end = uint ((column + size.x) * pixel_bytes);
  uint  word = first / 4u + gl_GlobalInvocationID.x;
  uint  bits = 0u;
  int   loaded = -1;
  vec4  texel = vec4 (0.0);
  float unpremultiply = 1.0;

  if (row >= size.y || word * 4u >= end)
    return;

  for (uint lane = 0u; lane < 4u; lane += uint (sample_bytes))
    {
      uint byte = word * 4u + lane;
      int  s = int (byte) / sample_bytes;
      int  pixel = s / n_components;
      int  c = s % n_components;

      if (byte < first || byte >= end)
        continue;
      if (pixel != loaded)
        {
          texel = imageLoad (image, origin + ivec2 (pixel - column, row));
          unpremultiply = unpremultiplier (texel);
          loaded = pixel;
        }
      bits |= encoded (straight (texel, unpremultiply, c), c) << (lane * 8u);
    }
  words[(base + uint (row) * stride) / 4u + word] = bits;
}
