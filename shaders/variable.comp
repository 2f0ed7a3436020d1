#version 430 core

/* One pass of the variable blur along one axis, in two dispatches, as
 * cblur-cpu-variable-line.c's variable_pass computes it.
 *
 * With SCAN, the line's running sums: inside blocks of `block` pixels (a
 * power of two at least as long as the widest window), anchored at
 * absolute coordinates and clipped to the line, sums[i] adds the line's
 * pixels from the first of i's block up to i.  A work group takes LINES
 * lines side by side and sums ALONG pixels of each at a time, one an
 * invocation, in shared memory: a scan in log2 (ALONG) doubling steps,
 * segmented at block starts, the last step's total carried into the next
 * while a block goes on.  Its stretch of each line is `span` pixels, the
 * longer of a block and ALONG, anchored as the blocks are, so it holds
 * whole blocks.  Neighbouring invocations touch neighbouring texels: along
 * a row in the row pass, across the columns in the column pass.
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
 * the pixel is `colour`.  Defines: VERTICAL for the column pass, SCAN for
 * the running sums. */

#ifdef SCAN
#ifdef VERTICAL
#define LINES 16
#define ALONG 16
layout (local_size_x = LINES, local_size_y = ALONG) in;
#else
#define LINES 4
#define ALONG 64
layout (local_size_x = ALONG, local_size_y = LINES) in;
#endif
#else
layout (local_size_x = 64) in;
#endif

layout (rgba32f, binding = 0) uniform readonly image2D src;
#ifdef SCAN
layout (rgba32f, binding = 2) uniform writeonly image2D sums;
layout (rgba32f, binding = 3) uniform writeonly image2D sums_lo;

uniform int span;
uniform int span_phase;   /* floor_mod (origin, span) */

shared vec4 partial_hi[LINES][ALONG];
shared vec4 partial_lo[LINES][ALONG];
#else
layout (rgba32f, binding = 1) uniform writeonly image2D dst;
layout (rgba32f, binding = 2) uniform readonly image2D sums;
layout (rgba32f, binding = 3) uniform readonly image2D sums_lo;

/* the band's boxes, row after row: half-width, and the fraction's bits */
layout (std430, binding = 0) readonly buffer Widths
{
  uvec2 widths[];
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

vec4
pixel (int i,
       int line)
{
  int m = mapped (i);

  if (m == map_len)
    return colour;
  return imageLoad (src, at (m, line));
}

#ifdef SCAN

/* Sums as an unevaluated pair hi + lo, hi the float nearest: a work
 * group adds along a tree, not in order, and two running sums then come
 * from different additions, so that their difference, a window's sum,
 * would carry the rounding of the whole block's sums, which a narrow
 * window divides by little.  Pairs carry that rounding along (Knuth's
 * two-sum) and leave a window only its own. */
struct Pair
{
  vec4 hi;
  vec4 lo;
};

Pair
add (Pair a,
     Pair b)
{
  precise vec4 s = a.hi + b.hi;
  precise vec4 v = s - a.hi;
  precise vec4 e = ((a.hi - (s - v)) + (b.hi - v)) + (a.lo + b.lo);
  precise vec4 hi = s + e;
  precise vec4 lo = e - (hi - s);

  return Pair (hi, lo);
}

/* The running sum at invocation t of x, over the ALONG pixels that the
 * work group's line w holds in shared memory, from the start of t's
 * block: `run` of them lie in its block before it. */
Pair
scan (Pair x,
      int  t,
      int  w,
      int  run)
{
  for (int d = 1; d < ALONG; d *= 2)
    {
      partial_hi[w][t] = x.hi;
      partial_lo[w][t] = x.lo;
      barrier ();
      if (run >= d)
        x = add (x, Pair (partial_hi[w][t - d], partial_lo[w][t - d]));
      barrier ();
    }
  return x;
}

void
main ()
{
#ifdef VERTICAL
  int w = int (gl_LocalInvocationID.x);
  int t = int (gl_LocalInvocationID.y);
  int line = int (gl_WorkGroupID.x) * LINES + w;
  int start = int (gl_WorkGroupID.y) * span - span_phase;
#else
  int t = int (gl_LocalInvocationID.x);
  int w = int (gl_LocalInvocationID.y);
  int line = int (gl_WorkGroupID.y) * LINES + w;
  int start = int (gl_WorkGroupID.x) * span - span_phase;
#endif
  Pair carry = Pair (vec4 (0.0), vec4 (0.0));

  /* every invocation meets every barrier: none returns early */
  for (int base = start; base < start + span && base < n_in; base += ALONG)
    {
      int  i = base + t;
      bool inside = i >= 0 && i < n_in && line < n_lines;
      /* the pixels before i in its block, clipped to the line, and here */
      int  run = min (min ((block_phase + i) & (block - 1), i), t);
      Pair sum = scan (Pair (inside ? pixel (i, line) : vec4 (0.0), vec4 (0.0)), t, w, run);

      /* a step of a block longer than ALONG lies in that one block */
      sum = add (sum, carry);
      if (inside)
        {
          imageStore (sums, at (i, line), sum.hi);
          imageStore (sums_lo, at (i, line), sum.lo);
        }
      partial_hi[w][t] = sum.hi;
      partial_lo[w][t] = sum.lo;
      barrier ();
      carry = Pair (partial_hi[w][ALONG - 1], partial_lo[w][ALONG - 1]);
      barrier ();
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
  return widths[p.y * table.z + p.x];
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
  int   k, l, r, offset, block_end, end;
  float a;
  precise vec4 hi, lo, sum;

  if (o >= n_in - 2 * reach || line >= n_lines)
    return;

  box = box_of (j, line);
  k = int (box.x);
  a = uintBitsToFloat (box.y);
  if (k == 0 && a == 0.0)
    {
      imageStore (dst, at (o, line), pixel (j, line));
      return;
    }

  l = j - k;
  r = j + k;
  offset = (block_phase + l) & (block - 1);
  block_end = l + block - 1 - offset;
  /* the window's part in l's block first, a difference of neighbours */
  end = min (r, block_end);
  hi = imageLoad (sums, at (end, line));
  lo = imageLoad (sums_lo, at (end, line));
  if (offset != 0)
    {
      hi = hi - imageLoad (sums, at (l - 1, line));
      lo = lo - imageLoad (sums_lo, at (l - 1, line));
    }
  if (block_end < r)
    {
      hi = hi + imageLoad (sums, at (r, line));
      lo = lo + imageLoad (sums_lo, at (r, line));
    }
  sum = hi + lo + (pixel (l - 1, line) + pixel (r + 1, line)) * a;
  imageStore (dst, at (o, line), sum * (1.0 / (float (2 * k + 1) + 2.0 * a)));
}

#endif
