#version 430 core

/* The running sums of one box pass along one axis, cblur-cpu.c's: inside
 * each block of `block` pixels, anchored at absolute coordinates and
 * clipped to the line, `prefix` sums from the block's first pixel and
 * `suffix` from its last.  An invocation walks one block of one line in
 * order, adding as the CPU does, so GL and CPU sums are the same bits and
 * tiles meet without seams.  Blocks restart the sums, so they run side by
 * side; invocations next to each other take neighbouring lines.
 *
 * Defines: VERTICAL for the column pass. */

layout (local_size_x = 64) in;

layout (rgba32f, binding = 0) uniform readonly  image2D src;
layout (rgba32f, binding = 2) uniform writeonly image2D prefix;
layout (rgba32f, binding = 3) uniform writeonly image2D suffix;

uniform int n_in;
uniform int n_lines;
uniform int block;
uniform int block_phase;   /* floor_mod (origin, block) */

void
main ()
{
  int line = int (gl_GlobalInvocationID.x);
  int b = int (gl_GlobalInvocationID.y);
  int first = max (b * block - block_phase, 0);
  int last = min ((b + 1) * block - block_phase, n_in) - 1;
  precise vec4 sum;

  if (line >= n_lines || first > last)
    return;

  sum = load (first, line);
  imageStore (prefix, at (first, line), sum);
  for (int i = first + 1; i <= last; i++)
    {
      sum = sum + load (i, line);
      imageStore (prefix, at (i, line), sum);
    }

  sum = load (last, line);
  imageStore (suffix, at (last, line), sum);
  for (int i = last - 1; i >= first; i--)
    {
      sum = sum + load (i, line);
      imageStore (suffix, at (i, line), sum);
    }
}
