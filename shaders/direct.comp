#version 430 core

/* Direct convolution along one axis.  A work group makes SEGMENT outputs of
 * one line; their input window is read from the image once into shared
 * memory.  The sum runs in cblur-cpu.c's order (centre, then the pairs
 * outwards) and is precise, so it rounds like the CPU's.
 *
 * Each invocation makes OUTPUTS neighbouring outputs.  Tap j of output r
 * reads the pixels r - j and r + j from its centre, so from one tap to the
 * next the invocation's pixels on each side shift by one: it keeps them in
 * registers and reads two new ones from shared memory a tap, not two an
 * output.  Shared memory, not the arithmetic, bounded the sums.  An odd
 * OUTPUTS spreads the invocations' reads over all banks.
 *
 * Defines: CACHE_LEN, the shared vec4s; VERTICAL for the column pass;
 * PREMULTIPLY where src holds straight alpha. */

#define THREADS 128
#define OUTPUTS 3
#define SEGMENT (THREADS * OUTPUTS)

layout (local_size_x = THREADS) in;

layout (rgba32f, binding = 0) uniform readonly  image2D src;
layout (rgba32f, binding = 1) uniform writeonly image2D dst;

layout (std430, binding = 0) readonly buffer Weights
{
  float weights[];
};

uniform int half_width;
uniform int n_out;
uniform int first_line;      /* of this dispatch's lines */
uniform int first_segment;   /* ... and segments, so that a band can go alone */

shared vec4 cache[CACHE_LEN];

/* a window too wide for the cache is summed in parts of TAPS pairs, the
 * left and right halves of the cache holding each side's pixels */
const int HALF = CACHE_LEN / 2;
const int TAPS = HALF - SEGMENT + 1;

/* this invocation's outputs, precise so that no multiply-add is fused */
precise vec4 sums[OUTPUTS];

/* Taps first_tap..last_tap, if any, into sums[], where cache[left] holds
 * output 0's pixel first_tap to the left of its centre and cache[right] the
 * one first_tap to the right; the pixels of later outputs follow each. */
void
add_taps (int first_tap,
          int last_tap,
          int left,
          int right)
{
  vec4 lefts[OUTPUTS];
  vec4 rights[OUTPUTS];

  /* with no taps, left may lie before the cache */
  if (first_tap > last_tap)
    return;
  for (int r = 0; r < OUTPUTS; r++)
    {
      lefts[r] = cache[left + r];
      rights[r] = cache[right + r];
    }
  for (int j = first_tap; j <= last_tap; j++)
    {
      float weight = weights[j];
      int   step = j - first_tap;

      if (step > 0)
        {
          for (int r = OUTPUTS - 1; r > 0; r--)
            lefts[r] = lefts[r - 1];
          lefts[0] = cache[left - step];
          for (int r = 0; r < OUTPUTS - 1; r++)
            rights[r] = rights[r + 1];
          rights[OUTPUTS - 1] = cache[right + step + OUTPUTS - 1];
        }
      for (int r = 0; r < OUTPUTS; r++)
        sums[r] += (lefts[r] + rights[r]) * weight;
    }
}

void
main ()
{
  int t = int (gl_LocalInvocationID.x);
  int own = t * OUTPUTS;   /* this invocation's first output in the segment */
  int line = first_line + int (gl_WorkGroupID.y);
  int first = (first_segment + int (gl_WorkGroupID.x)) * SEGMENT;
  int window = SEGMENT + 2 * half_width;

  if (window <= CACHE_LEN)
    {
      for (int m = t; m < window; m += THREADS)
        cache[m] = load (first + m, line);
      barrier ();

      for (int r = 0; r < OUTPUTS; r++)
        sums[r] = cache[own + half_width + r] * weights[0];
      add_taps (1, half_width, own + half_width - 1, own + half_width + 1);
    }
  else
    {
      for (int r = 0; r < OUTPUTS; r++)
        sums[r] = load (first + own + half_width + r, line) * weights[0];

      for (int j0 = 1; j0 <= half_width; j0 += TAPS)
        {
          int j1 = min (j0 + TAPS - 1, half_width);
          int len = SEGMENT + j1 - j0;

          /* the previous part is summed before its pixels are replaced */
          barrier ();
          for (int m = t; m < len; m += THREADS)
            {
              cache[m] = load (first + half_width - j1 + m, line);
              cache[HALF + m] = load (first + half_width + j0 + m, line);
            }
          barrier ();

          add_taps (j0, j1, own + j1 - j0, HALF + own);
        }
    }

  /* out through shared memory, so that neighbouring invocations store
   * neighbouring pixels: stores three apart cost more at short reaches,
   * where the image's memory bounds the pass */
  barrier ();
  for (int r = 0; r < OUTPUTS; r++)
    cache[own + r] = sums[r];
  barrier ();
  for (int m = t; m < SEGMENT; m += THREADS)
    if (first + m < n_out)
      imageStore (dst, at (first + m, line), cache[m]);
}
