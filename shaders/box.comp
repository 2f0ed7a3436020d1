#version 430 core

/* One box pass along one axis, cblur-cpu.c's box_pass: output o is
 *   (suffix[o + 1] + prefix[o + 2k + 1]
 *    + fraction * (x[o] + x[o + 2k + 2])) * scale,
 * where the sums restart at blocks of length `block` anchored at absolute
 * coordinates, and the prefix term drops out when the window is one block.
 *
 * A work group owns one line.  It scans the line in chunks of CHUNK pixels
 * (a segmented Hillis-Steele scan in shared memory, carried from chunk to
 * chunk) forwards into `prefix` and backwards into `suffix`, then makes the
 * line's outputs from them.  Chunks are anchored at absolute multiples of
 * CHUNK like the blocks, so a pixel's sums take the same additions in any
 * tile and tiles meet without seams.
 *
 * Defines: VERTICAL for the column pass. */

#define CHUNK 256

layout (local_size_x = CHUNK) in;

layout (rgba32f, binding = 0) uniform readonly  image2D src;
layout (rgba32f, binding = 1) uniform writeonly image2D dst;
layout (rgba32f, binding = 2) uniform coherent  image2D prefix;
layout (rgba32f, binding = 3) uniform coherent  image2D suffix;

uniform int   n_in;
uniform int   box_half;
uniform int   block;
uniform int   block_phase;   /* floor_mod (origin, block) */
uniform int   chunk_phase;   /* floor_mod (origin, CHUNK) */
uniform float fraction;
uniform float scale;

shared vec4 scan[CHUNK];

ivec2
at (int i, int line)
{
#ifdef VERTICAL
  return ivec2 (line, i);
#else
  return ivec2 (i, line);
#endif
}

/* ends of i's block, clipped to the line like the CPU's running sums */
int
block_first (int i)
{
  return max (i - (block_phase + i) % block, 0);
}

int
block_last (int i)
{
  return min (i - (block_phase + i) % block + block - 1, n_in - 1);
}

void
prefix_sums (int t, int line)
{
  precise vec4 carry = vec4 (0.0);

  for (int c = -chunk_phase; c < n_in; c += CHUNK)
    {
      int  i = c + t;
      bool inside = i >= 0 && i < n_in;
      int  from = inside ? max (block_first (i), c) : i;
      precise vec4 v = inside ? imageLoad (src, at (i, line)) : vec4 (0.0);

      scan[t] = v;
      barrier ();
      for (int d = 1; d < CHUNK; d *= 2)
        {
          vec4 add = i - d >= from ? scan[t - d] : vec4 (0.0);

          barrier ();
          v += add;
          scan[t] = v;
          barrier ();
        }

      if (inside && block_first (i) < c)
        v = carry + v;
      if (inside)
        imageStore (prefix, at (i, line), v);

      if (c + CHUNK < n_in)
        carry = block_first (c + CHUNK - 1) < c ? carry + scan[CHUNK - 1]
                                                : scan[CHUNK - 1];
      barrier ();
    }
}

void
suffix_sums (int t, int line)
{
  precise vec4 carry = vec4 (0.0);
  int last_chunk = (n_in - 1 + chunk_phase) / CHUNK * CHUNK - chunk_phase;

  for (int c = last_chunk; c + CHUNK > 0; c -= CHUNK)
    {
      int  i = c + t;
      int  end = c + CHUNK - 1;
      bool inside = i >= 0 && i < n_in;
      int  to = inside ? min (block_last (i), end) : i;
      precise vec4 v = inside ? imageLoad (src, at (i, line)) : vec4 (0.0);

      scan[t] = v;
      barrier ();
      for (int d = 1; d < CHUNK; d *= 2)
        {
          vec4 add = i + d <= to ? scan[t + d] : vec4 (0.0);

          barrier ();
          v += add;
          scan[t] = v;
          barrier ();
        }

      if (inside && block_last (i) > end)
        v = carry + v;
      if (inside)
        imageStore (suffix, at (i, line), v);

      if (c > 0)
        carry = block_last (c) > end ? carry + scan[0] : scan[0];
      barrier ();
    }
}

void
main ()
{
  int t = int (gl_LocalInvocationID.x);
  int line = int (gl_WorkGroupID.x);
  int n_out = n_in - 2 * (box_half + 1);

  prefix_sums (t, line);
  suffix_sums (t, line);
  /* the outputs read sums that other invocations of the group wrote */
  memoryBarrierImage ();
  barrier ();

  for (int o = t; o < n_out; o += CHUNK)
    {
      int  lo = o + 1;
      int  hi = o + 2 * box_half + 1;
      vec4 outer = imageLoad (src, at (o, line)) + imageLoad (src, at (hi + 1, line));
      precise vec4 sum = imageLoad (suffix, at (lo, line));

      if ((block_phase + lo) % block != 0)
        sum += imageLoad (prefix, at (hi, line));

      precise vec4 result = (sum + outer * fraction) * scale;
      imageStore (dst, at (o, line), result);
    }
}
