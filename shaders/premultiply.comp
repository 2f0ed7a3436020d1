#version 430 core

/* Premultiplies straight-alpha texels in place (alpha.glsl's rule) where
 * the passes cannot as they load them: before the two-dispatch box. */

layout (local_size_x = 16, local_size_y = 16) in;

layout (rgba32f, binding = 0) uniform image2D image;

uniform ivec2 size;   /* the tile's input, from the texture's corner */

void
main ()
{
  ivec2 p = ivec2 (gl_GlobalInvocationID.xy);
  vec4  texel;

  if (any (greaterThanEqual (p, size)))
    return;

  texel = imageLoad (image, p);
  imageStore (image, p, PREMULTIPLIED (texel));
}
