#version 430 core

/* One level blended into the base's output, as cblur-cpu-variable-levels.c
 * blends it: a pixel whose sigma lies between the level below (lower,
 * or the base) and this one (upper) takes
 *   low + (high - low) * (sigma^2 - lower^2) / (upper^2 - lower^2)
 * where high and low are the levels' grids sampled bilinearly between
 * their cells' centres, and low is the output itself below the first
 * level.  The first level the band makes takes every pixel below it
 * (weight 0), the last every pixel above it (weight 1): float's sigma
 * may land a hair beside double's, and the blend is continuous there. */

layout (local_size_x = 8, local_size_y = 8) in;

layout (rgba32f, binding = 0) uniform restrict image2D result;
layout (rgba32f, binding = 1) uniform restrict readonly image2D upper_grid;
layout (rgba32f, binding = 2) uniform restrict readonly image2D lower_grid;

/* The band's mask values, row after row; with CODES the boxes of
 * variable.comp, whose bytes, four to a word with the first in the
 * lowest bits, are each pixel's, and the value of each byte. */
#ifdef CODES
layout (std430, binding = 0) readonly buffer Widths
{
  uvec2 widths[256];
  uint  codes[];
};
layout (std430, binding = 1) readonly buffer Grey
{
  float grey[256];
};
#else
layout (std430, binding = 0) readonly buffer Masks
{
  float masks[];
};
#endif

uniform ivec2 n_out;         /* result's texels */
uniform ivec2 origin;        /* absolute coordinates of result's texel 0 */
uniform ivec4 band;          /* the masks' (or bytes') rectangle: x, y, width, height */
uniform float radius;        /* sigma where the mask is 1 */
uniform float base;
uniform float lower;         /* the sigmas of the two levels */
uniform float upper;
uniform int   first;         /* 1: the band's first level */
uniform int   last;          /* 1: its last */
uniform int   lower_is_base; /* 1: low is the output itself */
uniform ivec4 upper_cells;   /* the grid's first cell x, y and its factor */
uniform ivec4 lower_cells;

/* floor (a / b), b > 0, with divisions of non-negative numbers only */
int
floor_div (int a,
           int b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* the grid's texel before pixel p among the cells' centres, and p's
 * distance from it in cells */
ivec2
cell_before (ivec2     p,
             ivec4     cells,
             out vec2  t)
{
  int   f = cells.z;
  ivec2 twice = 2 * p - (f - 1);
  ivec2 cell = ivec2 (floor_div (twice.x, 2 * f), floor_div (twice.y, 2 * f));

  t = vec2 (twice - 2 * f * cell) / float (2 * f);
  return cell - cells.xy;
}

vec4
bilinear (vec4 p00,
          vec4 p10,
          vec4 p01,
          vec4 p11,
          vec2 t)
{
  vec4 top = p00 + (p10 - p00) * t.x;
  vec4 bottom = p01 + (p11 - p01) * t.x;

  return top + (bottom - top) * t.y;
}

float
mask_at (ivec2 p)
{
  uint n = uint ((p.y - band.y) * band.z + p.x - band.x);

#ifdef CODES
  return grey[bitfieldExtract (codes[n >> 2], int (n & 3u) * 8, 8)];
#else
  return masks[n];
#endif
}

void
main ()
{
  ivec2 o = ivec2 (gl_GlobalInvocationID.xy);
  ivec2 p = origin + o;
  float mask, m, sigma, t;
  vec2  at;
  ivec2 c;
  vec4  high, low;

  if (o.x >= n_out.x || o.y >= n_out.y)
    return;
  mask = mask_at (p);
  /* NaN fails the comparison and counts as 0 */
  m = mask > 0.0 ? min (mask, 1.0) : 0.0;
  sigma = m * radius;
  if (sigma <= base || (first == 0 && sigma <= lower) || (last == 0 && sigma > upper))
    return;
  t = clamp ((sigma * sigma - lower * lower) / (upper * upper - lower * lower), 0.0, 1.0);

  c = cell_before (p, upper_cells, at);
  high = bilinear (imageLoad (upper_grid, c), imageLoad (upper_grid, c + ivec2 (1, 0)),
                   imageLoad (upper_grid, c + ivec2 (0, 1)),
                   imageLoad (upper_grid, c + ivec2 (1, 1)), at);
  if (lower_is_base == 1)
    low = imageLoad (result, o);
  else
    {
      c = cell_before (p, lower_cells, at);
      low = bilinear (imageLoad (lower_grid, c), imageLoad (lower_grid, c + ivec2 (1, 0)),
                      imageLoad (lower_grid, c + ivec2 (0, 1)),
                      imageLoad (lower_grid, c + ivec2 (1, 1)), at);
    }
  imageStore (result, o, low + (high - low) * t);
}
