#version 430 core

/* Premultiplies straight-alpha texels in place, as babl turns RGBA float
 * into RaGaBaA float: an alpha within alpha_floor of zero multiplies as
 * alpha_floor, so that a transparent pixel keeps a trace of its colour,
 * and alpha itself stays.  GEGL then reads a straight source without
 * converting it on the CPU (cblur_premultiply() is the CPU's copy of the
 * rule). */

layout (local_size_x = 16, local_size_y = 16) in;

layout (rgba32f, binding = 0) uniform image2D image;

uniform ivec4 rect;          /* x, y, width, height */
uniform float alpha_floor;

void
main ()
{
  ivec2 offset = ivec2 (gl_GlobalInvocationID.xy);
  ivec2 p = rect.xy + offset;
  vec4  texel;
  float used;

  if (any (greaterThanEqual (offset, rect.zw)))
    return;

  texel = imageLoad (image, p);
  used = abs (texel.a) <= alpha_floor ? alpha_floor : texel.a;
  imageStore (image, p, vec4 (texel.rgb * used, texel.a));
}
