#version 430 core

/* Premultiplies straight-alpha texels in place (alpha.glsl's rule) where
 * the passes cannot as they load them: before the two-dispatch box. */

layout (local_size_x = 16, local_size_y = 16) in;

layout (rgba32f, binding = 0) uniform image2D image;

uniform ivec4 rect;          /* x, y, width, height */

void
main ()
{
  ivec2 offset = ivec2 (gl_GlobalInvocationID.xy);
  ivec2 p = rect.xy + offset;
  vec4  texel;

  if (any (greaterThanEqual (offset, rect.zw)))
    return;

  texel = imageLoad (image, p);
  imageStore (image, p, PREMULTIPLIED (texel));
}
