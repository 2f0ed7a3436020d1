#version 430 core

/* The outputs of one box pass along one axis, cblur-cpu.c's box_pass:
 * output o is
 *   (suffix[o + 1] + prefix[o + 2k + 1]
 *    + fraction * (x[o] + x[o + 2k + 2])) * scale
 * from the block sums that box-scan.comp made, where the prefix term drops
 * out when the window is one whole block.  Invocations run along the
 * image's rows in both passes, so neighbours touch neighbouring texels.
 *
 * Defines: VERTICAL for the column pass. */

layout (local_size_x = 64) in;

layout (rgba32f, binding = 0) uniform readonly image2D src;
layout (rgba32f, binding = 1) uniform writeonly image2D dst;
layout (rgba32f, binding = 2) uniform readonly image2D prefix;
layout (rgba32f, binding = 3) uniform readonly image2D suffix;

uniform int   n_in;
uniform int   n_lines;
uniform int   box_half;
uniform int   block;
uniform int   block_phase;   /* floor_mod (origin, block) */
uniform float fraction;
uniform float scale;

void
main ()
{
#ifdef VERTICAL
  int   o = int (gl_GlobalInvocationID.y);
  int   line = int (gl_GlobalInvocationID.x);
#else
  int   o = int (gl_GlobalInvocationID.x);
  int   line = int (gl_GlobalInvocationID.y);
#endif
  int   hi = o + 2 * box_half + 1;
  precise vec4 sum;
  precise vec4 outer;

  if (o >= n_in - 2 * (box_half + 1) || line >= n_lines)
    return;

  sum = imageLoad (suffix, at (o + 1, line));
  if ((block_phase + o + 1) % block != 0)
    sum = sum + imageLoad (prefix, at (hi, line));
  outer = (load (o, line) + load (hi + 1, line)) * fraction;
  imageStore (dst, at (o, line), (sum + outer) * scale);
}
