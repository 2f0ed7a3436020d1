#version 430 core

/* A region of a source stored in a cblur-format, as it came up into
 * `words` (rows `stride` bytes apart, laid out as in its staging), into
 * the passes' texels: premultiplied linear RGBA float, as the CPU makes
 * them (cblur_format_decode, then alpha.glsl's rule).  Integer samples go
 * through cblur-format's decode tables, babl's curve at every code; half
 * and float ones are taken as they are, or with `srgb` decoded from
 * srgb.glsl's curve.  A grey sample fills R, G and B, and a format without
 * alpha has alpha 1.
 *
 * The format is the dispatch's uniforms: n_components samples a pixel
 * (alpha last where has_alpha) of sample_bytes each, integers where
 * `tables`, else half (2 bytes) or float (4). */

layout (local_size_x = 16, local_size_y = 16) in;

layout (rgba32f, binding = 0) uniform writeonly image2D image;

layout (std430, binding = 0) readonly buffer Native { uint words[]; };
layout (std430, binding = 1) readonly buffer Tables { float decode[]; };

/* at the locations cblur-gl-convert.c sets, the same in encode.comp */
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
layout (location = 10) uniform int   codes;    /* each component's table: a value per code */
layout (location = 11) uniform bool  srgb;     /* half or float colours on the sRGB curve */

/* sample c of stored pixel `pixel` of the row that starts at byte `row`,
 * as it is stored */
float
sample_of (uint row,
           int  pixel,
           int  c)
{
  uint byte = row + uint ((pixel * n_components + c) * sample_bytes);
  uint bits = words[byte >> 2u];

  if (sample_bytes == 4)
    return uintBitsToFloat (bits);
  bits = bitfieldExtract (bits, int (byte & 3u) * 8, sample_bytes * 8);
  if (!tables)
    return unpackHalf2x16 (bits).x;
  return decode[c * codes + int (bits)];
}

void
main ()
{
  ivec2 p = ivec2 (gl_GlobalInvocationID.xy);
  uint  row = base + uint (p.y) * stride;
  int   pixel = column + p.x;
  vec4  texel;

  if (any (greaterThanEqual (p, size)))
    return;

  texel.r = sample_of (row, pixel, 0);
  if (!grey)
    texel.gb = vec2 (sample_of (row, pixel, 1), sample_of (row, pixel, 2));
  if (srgb)
    {
      texel.r = srgb_decoded (texel.r);
      if (!grey)
        texel.gb = vec2 (srgb_decoded (texel.g), srgb_decoded (texel.b));
    }
  if (grey)
    texel.gb = vec2 (texel.r);
  texel.a = has_alpha ? sample_of (row, pixel, n_components - 1) : 1.0;
  imageStore (image, origin + p, PREMULTIPLIED (texel));
}
