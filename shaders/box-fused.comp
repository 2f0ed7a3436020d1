#version 430 core

/* Every box pass along one axis for one segment of one line, without
 * leaving shared memory: the image is read once and written once per axis,
 * where box-scan.comp and box.comp go through memory twice per pass.
 *
 * The window sums are cblur-cpu.c's: inside blocks of `block` pixels (the
 * window's whole width) anchored at absolute coordinates, S sums from a
 * pixel to its block's end and P from its block's start to it, so a window
 * is the tail of one block plus the head of the next,
 *   (S[o + 1] + P[hi] + fraction * (x[o] + x[hi + 1])) * scale,  hi = o + block,
 * where P drops out when the window is one whole block.  The sums never
 * grow past one window, and a NaN or Inf reaches only the windows that
 * hold it.  They run in another order than the CPU's, so GL and CPU differ
 * by rounding.
 *
 * Each invocation holds SHARE pixels in a row in registers through all the
 * passes and sums them there both ways; the shares' running totals are
 * scanned across the work group (segmented at block ends, with subgroup
 * shuffles where the GL has them) and carried into each share's pixels up
 * to its first block boundary.  Only P, and each share's first S, go
 * through shared memory, once per pass, for the windows to read.
 *
 * With PAIRS, a work group blurs red and green, then blue and alpha: half
 * the shared memory per pixel, so a segment twice as long for the same
 * memory, which at long reaches spends less of it on halo.  The first
 * pair's outputs wait in registers for the second's.
 *
 * Defines: CACHE_LEN, the segment's input pixels (a multiple of THREADS);
 * VERTICAL for the column pass; PAIRS; PREMULTIPLY where src holds
 * straight alpha. */

/* pixels[] and suffix[] stay in registers only if every loop over them is
 * unrolled */
#pragma optionNV (unroll all)

#define THREADS 256
#define SHARE (CACHE_LEN / THREADS)

#ifdef PAIRS
#define Texel  vec2
#define HALVES 2
#else
#define Texel  vec4
#define HALVES 1
#endif

layout (local_size_x = THREADS) in;

layout (rgba32f, binding = 0) uniform readonly  image2D src;
layout (rgba32f, binding = 1) uniform writeonly image2D dst;

uniform int   n_in;           /* input pixels along the line */
uniform int   n_lines;
uniform int   first_line;      /* of this dispatch's lines */
uniform int   first_segment;   /* ... and segments, so that a band can go alone */
uniform int   origin_phase;   /* floor_mod (absolute coordinate of input 0, block) */
uniform int   outputs;        /* per segment: CACHE_LEN - 2 * reach */
uniform int   iterations;
uniform int   box_half;
uniform int   block;
uniform float fraction;
uniform float scale;

shared Texel prefix[CACHE_LEN];
shared Texel share_suffix[THREADS];   /* S at each share's first pixel */
shared Texel carries[THREADS];
shared bool closes[THREADS];         /* a block boundary lies in the shares summed */

/* this invocation's share, its pixels t * SHARE on in the segment, and
 * their S */
Texel pixels[SHARE];
Texel suffix[SHARE];
#ifdef PAIRS
vec2  first_pair[SHARE];   /* as stored: this invocation's k-th is t + k * THREADS */
#endif

/* pos: a coordinate counted from the block start at or before input 0, so
 * never negative, where GLSL leaves % undefined */
int
phase_of (int pos)
{
  return pos % block;
}

/* The running sum that reaches this invocation's share from the shares
 * before it (after it, backward) up to the last block boundary: a
 * segmented exclusive scan of (total, closed) over the work group.  Every
 * `block` pixels hold a boundary, so the scan's doubling steps stop once
 * they span block / SHARE + 1 shares: beyond, every total is closed. */
#if defined (GL_KHR_shader_subgroup_shuffle)
Texel
carry_in (Texel total,
          bool closed,
          bool backward)
{
  uint lane = backward ? gl_SubgroupSize - 1u - gl_SubgroupInvocationID
                       : gl_SubgroupInvocationID;
  int  group = int (backward ? gl_NumSubgroups - 1u - gl_SubgroupID : gl_SubgroupID);
  Texel carry;
  bool  carry_closed;

  uint span = uint (block / SHARE + 1);

  for (uint d = 1u; d < min (gl_SubgroupSize, span); d *= 2u)
    {
      uint from = backward ? min (gl_SubgroupInvocationID + d, gl_SubgroupSize - 1u)
                           : gl_SubgroupInvocationID - min (d, gl_SubgroupInvocationID);
      Texel before = subgroupShuffle (total, from);
      bool before_closed = subgroupShuffle (closed, from);

      if (lane >= d && !closed)
        {
          total += before;
          closed = before_closed;
        }
    }

  /* the previous call's readers are done with carries[] */
  barrier ();
  if (lane == gl_SubgroupSize - 1u)
    {
      carries[group] = total;
      closes[group] = closed;
    }
  {
    uint from = backward ? min (gl_SubgroupInvocationID + 1u, gl_SubgroupSize - 1u)
                         : gl_SubgroupInvocationID - min (1u, gl_SubgroupInvocationID);

    carry = subgroupShuffle (total, from);
    carry_closed = subgroupShuffle (closed, from);
  }
  barrier ();

  if (lane == 0u)
    {
      carry = Texel (0.0);
      carry_closed = false;
    }
  for (int g = group - 1; g >= 0 && !carry_closed; g--)
    {
      carry += carries[g];
      carry_closed = closes[g];
    }
  return carry;
}
#else
Texel
carry_in (Texel total,
          bool closed,
          bool backward)
{
  int t = int (backward ? THREADS - 1 - gl_LocalInvocationID.x : gl_LocalInvocationID.x);

  /* the previous call's readers are done with carries[] */
  barrier ();
  carries[t] = total;
  closes[t] = closed;
  barrier ();
  for (int d = 1; d < min (THREADS, block / SHARE + 1); d *= 2)
    {
      if (t >= d && !closed)
        {
          total += carries[t - d];
          closed = closes[t - d];
        }
      barrier ();
      carries[t] = total;
      closes[t] = closed;
      barrier ();
    }
  return t > 0 ? carries[t - 1] : Texel (0.0);
}
#endif

/* a pair of channels with PAIRS, else all four */
Texel
channels (vec4 texel,
          int  pair)
{
#ifdef PAIRS
  return pair == 0 ? texel.xy : texel.zw;
#else
  return texel;
#endif
}

/* The segment's n input pixels from start (a pair of channels with PAIRS)
 * into pixels[], through prefix[], so that neighbouring invocations load
 * neighbouring pixels. */
void
load_segment (int start,
              int n,
              int line,
              int pair)
{
  int t = int (gl_LocalInvocationID.x);

  for (int i = t; i < n; i += THREADS)
    prefix[i] = channels (load (start + i, line), pair);
  barrier ();
  for (int j = 0; j < SHARE; j++)
    pixels[j] = prefix[t * SHARE + j];
}

/* S of the share's pixels into suffix[]: summed in the share backwards,
 * then the later shares' carried in up to the share's last block end.
 * pos: the coordinate of the segment's pixel 0, counted as phase_of's. */
void
suffix_sums (int n,
             int pos)
{
  int   first = int (gl_LocalInvocationID.x) * SHARE;
  int   phase = phase_of (pos + first + SHARE - 1);
  int   tail = -1;      /* the share's pixels after it are before a block end */
  Texel run = Texel (0.0);
  Texel carry;

  /* pixels beyond n are left over from other work; no sum crosses n - 1 */
  for (int j = SHARE - 1; j >= 0; j--)
    {
      if (phase == block - 1 || first + j == n - 1)
        {
          run = Texel (0.0);
          tail = max (tail, j);
        }
      run += pixels[j];
      suffix[j] = run;
      phase = phase == 0 ? block - 1 : phase - 1;
    }
  carry = carry_in (run, tail >= 0, true);
  for (int j = 0; j < SHARE; j++)
    if (j > tail)
      suffix[j] += carry;
}

/* P of the share's pixels in place in pixels[], and into prefix[], with
 * each share's first S into share_suffix[], for the windows to read:
 * summed in the share, then the preceding shares' carried in up to the
 * share's first block start.  first_phase: the share's first pixel's. */
void
prefix_sums (int first_phase)
{
  int   t = int (gl_LocalInvocationID.x);
  int   first = t * SHARE;
  int   phase = first_phase;
  int   head = SHARE;   /* the share's pixels before it are after a block start */
  Texel run = Texel (0.0);
  Texel carry;

  for (int j = 0; j < SHARE; j++)
    {
      if (phase == 0 || first + j == 0)
        {
          run = Texel (0.0);
          head = min (head, j);
        }
      run += pixels[j];
      pixels[j] = run;
      phase = phase + 1 == block ? 0 : phase + 1;
    }
  carry = carry_in (run, head < SHARE, false);
  for (int j = 0; j < SHARE; j++)
    {
      if (j < head)
        pixels[j] += carry;
      prefix[first + j] = pixels[j];
    }
  share_suffix[t] = suffix[0];
  barrier ();
}

/* The windows of the share's outputs, the first n_out of the segment, from
 * S and P (the sum at the top): pixels[] becomes this pass's outputs. */
void
window_sums (int n_out,
             int first_phase)
{
  int t = int (gl_LocalInvocationID.x);
  int first = t * SHARE;
  int phase = first_phase;

  for (int j = 0; j < SHARE; j++)
    {
      int   o = first + j;
      int   hi = o + block;
      Texel sum = Texel (0.0);

      if (o < n_out)
        {
          bool  whole = phase == block - 1;   /* o + 1 starts a block */
          Texel after = j + 1 < SHARE ? suffix[j + 1] : share_suffix[t + 1];
          Texel x_o = whole ? suffix[j] : suffix[j] - after;
          /* hi + 1 is a whole block after o + 1 */
          Texel x_hi = whole ? prefix[hi + 1] : prefix[hi + 1] - prefix[hi];

          sum = after + fraction * (x_o + x_hi);
          if (!whole)
            sum += prefix[hi];
          sum *= scale;
        }
      pixels[j] = sum;
      phase = phase + 1 == block ? 0 : phase + 1;
    }
  barrier ();
}

/* One box pass over the segment's first n pixels, from pos: pixels[]
 * becomes its n - 2 * (box_half + 1) outputs. */
void
box_pass (int n,
          int pos)
{
  int first_phase = phase_of (pos + int (gl_LocalInvocationID.x) * SHARE);

  suffix_sums (n, pos);
  prefix_sums (first_phase);
  window_sums (n - 2 * (box_half + 1), first_phase);
}

/* pixels[] into prefix[], for neighbouring invocations to store
 * neighbouring pixels; with PAIRS, the first pair's from there into
 * first_pair[] for the second's to join. */
void
gather_outputs (int pair)
{
  int t = int (gl_LocalInvocationID.x);

  for (int j = 0; j < SHARE; j++)
    prefix[t * SHARE + j] = pixels[j];
  barrier ();
#ifdef PAIRS
  if (pair == 0)
    {
      for (int k = 0; k < SHARE; k++)
        first_pair[k] = prefix[t + k * THREADS];
      /* before the second pair's pixels take prefix[] */
      barrier ();
    }
#endif
}

/* the segment's n outputs from start, gathered, into dst */
void
store_segment (int start,
               int n,
               int line)
{
  int t = int (gl_LocalInvocationID.x);

  for (int k = 0; k < SHARE; k++)
    {
      int i = t + k * THREADS;

      if (i < n)
#ifdef PAIRS
        imageStore (dst, at (start + i, line), vec4 (first_pair[k], prefix[i]));
#else
        imageStore (dst, at (start + i, line), prefix[i]);
#endif
    }
}

void
main ()
{
  int line = first_line + int (gl_WorkGroupID.y);
  int start = (first_segment + int (gl_WorkGroupID.x)) * outputs;
  int n_segment = min (CACHE_LEN, n_in - start);
  int n = n_segment;

  if (line >= n_lines)
    return;

  for (int pair = 0; pair < HALVES; pair++)
    {
      int pos = origin_phase + start;

      n = n_segment;
      load_segment (start, n, line, pair);
      for (int pass = 0; pass < iterations; pass++)
        {
          box_pass (n, pos);
          n -= 2 * (box_half + 1);
          pos += box_half + 1;
        }
      gather_outputs (pair);
    }
  store_segment (start, n, line);
}
