#version 430 core

/* One pass of the variable blur along one axis, in two dispatches, as
 * cblur-cpu-variable-line.c's variable_pass computes it.
 *
 * With SCAN, the line's running sums: inside blocks of `block` pixels (a
 * power of two at least as long as the widest window), anchored at
 * absolute coordinates and clipped to the line, sums[i] adds the line's
 * pixels from the first of i's block up to i.  An invocation walks one
 * block of one line in order, loading BATCH pixels ahead of adding them;
 * neighbouring invocations take neighbouring lines.
 *
 * Without, the outputs: output o is pixel j = o + reach of the line
 * through a box of j's own half-width k and end fraction a, from the
 * widths table,
 *   (sum of [j - k, j + k] + a * (x[j - k - 1] + x[j + k + 1])) / (2k + 1 + 2a)
 * the window's sum from at most three running sums, as it spans at most
 * two blocks; a box of one pixel and no fraction hands j on as it is.
 * Invocations run along the image's rows in both passes, so neighbours
 * touch neighbouring texels.
 *
 * The first pass of each axis reads its texture through common.glsl's
 * map; where the map points beyond the image under none, black and white
 * the pixel is `colour`.  Under loop the texture between the axes holds
 * the image's rows and, above and below them, the rows the halo repeats,
 * blurred along their length with the boxes of the image's edge rows
 * there; the column pass's first pass reads a row of the halo from them
 * (loop_above, the rows held above; -1 elsewhere).  Defines: VERTICAL for
 * the column pass, SCAN for the running sums, CODES for boxes looked up
 * by a byte a pixel. */

layout (local_size_x = 64) in;

/* a pass's three images are always three textures */
layout (rgba32f, binding = 0) uniform restrict readonly image2D src;
#ifdef SCAN
layout (rgba32f, binding = 2) uniform restrict writeonly image2D sums;
#else
layout (rgba32f, binding = 1) uniform restrict writeonly image2D dst;
layout (rgba32f, binding = 2) uniform restrict readonly image2D sums;

/* the band's boxes, row after row: half-width, and the fraction's bits;
 * with CODES the box of each byte, then the pixels' bytes, four to a word
 * with the first in the lowest bits */
layout (std430, binding = 0) readonly buffer Widths
{
#ifdef CODES
  uvec2 widths[256];
  uint  codes[];
#else
  uvec2 widths[];
#endif
};
#endif

uniform int   n_in;
uniform int   n_lines;
uniform int   block;
uniform int   block_phase;   /* floor_mod (origin, block) */
uniform int   reach;         /* the widest box's half-width plus one */
uniform vec4  colour;
uniform ivec2 line_origin;   /* absolute coordinates of pixel 0 of line 0 */
uniform ivec4 table;         /* the widths table's rectangle: x, y, width, height */
uniform int   loop_above;    /* see above */
uniform int   src_line;      /* line l reads src's line l + src_line */
uniform int   store_line;    /* output line l goes to dst's line l + store_line */

/* where pixel i of a line of the image and its halo lies under loop:
 * the rows held above the image's, its own, the rows held below */
int
looped (int i)
{
  int j = i - map_first;
  int side = j < 0 ? -1 : (j >= map_len ? 1 : 0);

  return loop_above + floor_mod (j, map_len) + side * map_len;
}

vec4
pixel (int i,
       int line)
{
  int m = loop_above >= 0 ? looped (i) : mapped (i);

  if (loop_above < 0 && m == map_len)
    return colour;
  return imageLoad (src, at (m, line + src_line));
}

#ifdef SCAN

/* pixels loaded ahead of their sums */
#define BATCH 8

void
main ()
{
  int line = int (gl_GlobalInvocationID.x);
  int b = int (gl_GlobalInvocationID.y);
  int first = max (b * block - block_phase, 0);
  int last = min ((b + 1) * block - block_phase, n_in) - 1;
  precise vec4 sum = vec4 (0.0);

  if (line >= n_lines || first > last)
    return;
  /* the loads of a batch wait on nothing, so their latencies overlap */
  for (int i = first; i <= last; i += BATCH)
    {
      vec4 p[BATCH];
      int  n = min (BATCH, last + 1 - i);

      for (int k = 0; k < BATCH; k++)
        if (k < n)
          p[k] = pixel (i + k, line);
      for (int k = 0; k < BATCH; k++)
        if (k < n)
          {
            sum = sum + p[k];
            imageStore (sums, at (i + k, line), sum);
          }
    }
}

#else

/* the box of pixel i of a line: its own, or beyond the table the box of
 * the table's nearest pixel */
uvec2
box_of (int i,
        int line)
{
#ifdef VERTICAL
  ivec2 p = ivec2 (line_origin.x + line, line_origin.y + i);
#else
  ivec2 p = ivec2 (line_origin.x + i, line_origin.y + line);
#endif

  p = clamp (p - table.xy, ivec2 (0), table.zw - 1);
#ifdef CODES
  uint n = uint (p.y * table.z + p.x);

  return widths[bitfieldExtract (codes[n >> 2], int (n & 3u) * 8, 8)];
#else
  return widths[p.y * table.z + p.x];
#endif
}

void
main ()
{
#ifdef VERTICAL
  int o = int (gl_GlobalInvocationID.y);
  int line = int (gl_GlobalInvocationID.x);
#else
  int o = int (gl_GlobalInvocationID.x);
  int line = int (gl_GlobalInvocationID.y);
#endif
  int   j = o + reach;
  uvec2 box;
  int   k, l, r, offset, block_end;
  float a;
  precise vec4 sum;

  if (o >= n_in - 2 * reach || line >= n_lines)
    return;

  box = box_of (j, line);
  k = int (box.x);
  a = uintBitsToFloat (box.y);
  if (k == 0 && a == 0.0)
    {
      imageStore (dst, at (o, line + store_line), pixel (j, line));
      return;
    }

  l = j - k;
  r = j + k;
  offset = (block_phase + l) & (block - 1);
  block_end = l + block - 1 - offset;
  sum = imageLoad (sums, at (r, line));
  if (offset != 0)
    sum = sum - imageLoad (sums, at (l - 1, line));
  if (block_end < r)
    sum = sum + imageLoad (sums, at (block_end, line));
  sum = sum + (pixel (l - 1, line) + pixel (r + 1, line)) * a;
  imageStore (dst, at (o, line + store_line), sum * (1.0 / (float (2 * k + 1) + 2.0 * a)));
}

#endif
