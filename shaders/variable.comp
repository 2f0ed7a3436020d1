#version 430 core

/* One pass of the variable blur along one axis, in two dispatches, as
 * cblur-cpu-variable-line.c's variable_pass computes it.
 *
 * With SCAN, the line's running sums: inside blocks of `block` pixels (a
 * power of two at least as long as the widest window), anchored at
 * absolute coordinates and clipped to the line, sums[i] adds the line's
 * pixels from the first of i's block up to i.  A work group takes LINES
 * lines side by side, and THREADS invocations each sum CHUNK pixels of a
 * line in order; the chunks' totals are scanned across the work group in
 * shared memory, segmented at block starts, and carried into each chunk's
 * pixels up to its first block start.  Its stretch of each line is `span`
 * pixels, the longer of a block and THREADS * CHUNK, anchored as the
 * blocks are, so it holds whole blocks, which a step carries into the
 * next.  Neighbouring invocations take neighbouring lines in the column
 * pass, where a line's pixels lie a row apart.
 *
 * The sums are pairs hi + lo, hi the float nearest (Knuth's two-sum): two
 * running sums that come from different chunks would otherwise each carry
 * the rounding of a whole block's sums into their difference, a window's
 * sum, which a narrow window divides by little.
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
#define LINES   16
#define THREADS 8
layout (local_size_x = LINES, local_size_y = THREADS) in;
#else
#define LINES   2
#define THREADS 32
layout (local_size_x = THREADS, local_size_y = LINES) in;
#endif
#define CHUNK 8
#else
layout (local_size_x = 64) in;
#endif

layout (rgba32f, binding = 0) uniform readonly image2D src;
#ifdef SCAN
layout (rgba32f, binding = 2) uniform writeonly image2D sums;
layout (rgba32f, binding = 3) uniform writeonly image2D sums_lo;

uniform int span;
uniform int span_phase;   /* floor_mod (origin, span) */

shared vec4 totals_hi[LINES][THREADS];
shared vec4 totals_lo[LINES][THREADS];
shared bool closes[LINES][THREADS];   /* a block starts in the chunks summed */
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

/* pragma: chunk[] stays in registers only where its loops are unrolled */
#pragma optionNV (unroll all)

struct Pair
{
  vec4 hi;
  vec4 lo;
};

Pair
add (Pair a,
     vec4 b_hi,
     vec4 b_lo)
{
  precise vec4 s = a.hi + b_hi;
  precise vec4 v = s - a.hi;
  precise vec4 e = ((a.hi - (s - v)) + (b_hi - v)) + (a.lo + b_lo);
  precise vec4 hi = s + e;
  precise vec4 lo = e - (hi - s);

  return Pair (hi, lo);
}

/* What reaches chunk t of line w from the chunks before it, back to the
 * last block start, `before` reaching the first: a segmented scan of
 * (total, closed) over the work group's chunks.  The chunks' inclusive
 * scan stays in totals[] for the caller to carry on. */
Pair
carry_in (Pair total,
          bool closed,
          int  t,
          int  w,
          Pair before)
{
  for (int d = 1; d < THREADS; d *= 2)
    {
      totals_hi[w][t] = total.hi;
      totals_lo[w][t] = total.lo;
      closes[w][t] = closed;
      barrier ();
      if (t >= d && !closed)
        {
          total = add (total, totals_hi[w][t - d], totals_lo[w][t - d]);
          closed = closes[w][t - d];
        }
      barrier ();
    }
  totals_hi[w][t] = total.hi;
  totals_lo[w][t] = total.lo;
  closes[w][t] = closed;
  barrier ();
  if (t == 0)
    return before;
  if (closes[w][t - 1])
    return Pair (totals_hi[w][t - 1], totals_lo[w][t - 1]);
  return add (before, totals_hi[w][t - 1], totals_lo[w][t - 1]);
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
  Pair step = Pair (vec4 (0.0), vec4 (0.0));   /* from the steps before */
  Pair chunk[CHUNK];

  /* every invocation meets every barrier: none returns early */
  for (int base = start; base < start + span && base < n_in; base += THREADS * CHUNK)
    {
      int  first = base + t * CHUNK;
      int  head = CHUNK;   /* the chunk's pixels before it take the carry */
      Pair run = Pair (vec4 (0.0), vec4 (0.0));
      Pair carry;

      for (int j = 0; j < CHUNK; j++)
        {
          int i = first + j;

          if (((block_phase + i) & (block - 1)) == 0 || i == 0)
            {
              run = Pair (vec4 (0.0), vec4 (0.0));
              head = min (head, j);
            }
          if (i >= 0 && i < n_in && line < n_lines)
            run = add (run, pixel (i, line), vec4 (0.0));
          chunk[j] = run;
        }
      carry = carry_in (run, head < CHUNK, t, w, step);
      for (int j = 0; j < CHUNK; j++)
        {
          int  i = first + j;
          Pair sum = j < head ? add (chunk[j], carry.hi, carry.lo) : chunk[j];

          if (i >= 0 && i < n_in && line < n_lines)
            {
              imageStore (sums, at (i, line), sum.hi);
              imageStore (sums_lo, at (i, line), sum.lo);
            }
        }
      /* a block longer than the step goes on into the next */
      step = closes[w][THREADS - 1] ? Pair (totals_hi[w][THREADS - 1], totals_lo[w][THREADS - 1])
                                    : add (step, totals_hi[w][THREADS - 1],
                                           totals_lo[w][THREADS - 1]);
      /* the next step's scan overwrites totals[] */
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
