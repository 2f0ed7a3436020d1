#version 430 core

/* Direct convolution along one axis.  A work group makes SEGMENT outputs of
 * one line; their input window is read from the image once into shared
 * memory.  The sum runs in cblur-cpu.c's order (centre, then the pairs
 * outwards) and is precise, so it rounds like the CPU's.
 *
 * Defines: CACHE_LEN, the shared vec4s; VERTICAL for the column pass;
 * PREMULTIPLY where src holds straight alpha. */

#define SEGMENT 256

layout (local_size_x = SEGMENT) in;

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

/* a window too wide for the cache is summed in chunks of TAPS pairs, the
 * left and right halves of the cache holding each side's pixels */
const int HALF = CACHE_LEN / 2;
const int TAPS = HALF - SEGMENT + 1;

ivec2
at (int i, int line)
{
#ifdef VERTICAL
  return ivec2 (line, i);
#else
  return ivec2 (i, line);
#endif
}

vec4
load (int i, int line)
{
  vec4 texel = imageLoad (src, at (i, line));

#ifdef PREMULTIPLY
  texel = PREMULTIPLIED (texel);
#endif
  return texel;
}

void
main ()
{
  int t = int (gl_LocalInvocationID.x);
  int line = first_line + int (gl_WorkGroupID.y);
  int first = (first_segment + int (gl_WorkGroupID.x)) * SEGMENT;
  int window = SEGMENT + 2 * half_width;
  precise vec4 sum;

  if (window <= CACHE_LEN)
    {
      for (int m = t; m < window; m += SEGMENT)
        cache[m] = load (first + m, line);
      barrier ();

      sum = cache[t + half_width] * weights[0];
      for (int j = 1; j <= half_width; j++)
        sum += (cache[t + half_width - j] + cache[t + half_width + j]) * weights[j];
    }
  else
    {
      sum = load (first + t + half_width, line) * weights[0];

      for (int j0 = 1; j0 <= half_width; j0 += TAPS)
        {
          int j1 = min (j0 + TAPS - 1, half_width);
          int len = SEGMENT + j1 - j0;

          /* the previous chunk is summed before its pixels are replaced */
          barrier ();
          for (int m = t; m < len; m += SEGMENT)
            {
              cache[m] = load (first + half_width - j1 + m, line);
              cache[HALF + m] = load (first + half_width + j0 + m, line);
            }
          barrier ();

          for (int j = j0; j <= j1; j++)
            sum += (cache[t + j1 - j] + cache[HALF + t + j - j0]) * weights[j];
        }
    }

  if (first + t < n_out)
    imageStore (dst, at (first + t, line), sum);
}
