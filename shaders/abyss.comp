#version 430 core

/* Fills the texels of the tile's input that lie beyond the input image
 * (outside `inside`) as GEGL's abyss policy says, from the texels inside:
 * GEGL need not read, nor the bus carry, a halo that is all edge pixels
 * or one colour.  Reads only inside, writes only outside, so in place.
 *
 * policy: GeglAbyssPolicy's values (CBLUR_ABYSS_CLAMP and CBLUR_ABYSS_LOOP,
 * which cblur-gl-program.c defines from GEGL's); colour:
 * cblur_abyss_colour()'s, for the policies that fill with one. */

layout (local_size_x = 16, local_size_y = 16) in;

layout (rgba32f, binding = 0) uniform image2D image;

uniform ivec2 size;        /* the tile's input */
uniform ivec4 inside;      /* x, y, width, height */
uniform int   policy;
uniform vec4  colour;
uniform int   first_row;   /* of this dispatch's rows */

void
main ()
{
  ivec2 p = ivec2 (gl_GlobalInvocationID.x, first_row + int (gl_GlobalInvocationID.y));
  ivec2 low = inside.xy;
  ivec2 high = inside.xy + inside.zw;
  vec4  value = colour;

  if (any (greaterThanEqual (p, size)) ||
      (all (greaterThanEqual (p, low)) && all (lessThan (p, high))))
    return;

  if (policy == CBLUR_ABYSS_CLAMP)
    value = imageLoad (image, clamp (p, low, high - 1));
  else if (policy == CBLUR_ABYSS_LOOP)
    value = imageLoad (image, low + floor_mod (p - low, inside.zw));
  imageStore (image, p, value);
}
