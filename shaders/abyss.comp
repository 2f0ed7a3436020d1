#version 430 core

/* Fills a rectangle of the texture with the abyss's colour under none,
 * black and white (cblur_abyss_colour()'s): the column and the row after
 * the inside of a tile's first texture, where common.glsl's map points
 * beyond the image.  The rest of the abyss is never made as texels: the
 * map reads it from the inside. */

layout (local_size_x = 16, local_size_y = 16) in;

layout (rgba32f, binding = 0) uniform writeonly image2D image;

uniform ivec4 rect;   /* x, y, width, height */
uniform vec4  colour;

void
main ()
{
  ivec2 p = ivec2 (gl_GlobalInvocationID.xy);

  if (all (lessThan (p, rect.zw)))
    imageStore (image, rect.xy + p, colour);
}
