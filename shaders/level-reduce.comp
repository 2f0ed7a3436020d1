#version 430 core

/* A level's cells, as cblur-cpu-variable-levels.c makes them: cell (i, j)
 * of dst is absolute cell first_cell + (i, j), the mean of its factor x
 * factor pixels of src, those beyond it as the abyss makes them.  src
 * holds the part of the tile's input inside the image from its corner,
 * or the means of smaller cells that make up larger ones. */

layout (local_size_x = 8, local_size_y = 8) in;

layout (rgba32f, binding = 0) uniform restrict readonly image2D src;
layout (rgba32f, binding = 1) uniform restrict writeonly image2D dst;

uniform ivec2 n_cells;
uniform ivec2 first_cell;
uniform int   factor;
uniform ivec4 inside;   /* src's pixels: absolute x, y, width, height */
uniform int   abyss;    /* GeglAbyssPolicy */
uniform vec4  colour;   /* the abyss's, under none, black and white */

/* where pixel j of a line, counted from the first inside, lies in src:
 * -1 for the abyss's colour */
int
placed (int j,
        int len)
{
  if (abyss == CBLUR_ABYSS_LOOP)
    return floor_mod (j, len);
  if (abyss == CBLUR_ABYSS_CLAMP)
    return clamp (j, 0, len - 1);
  return j >= 0 && j < len ? j : -1;
}

void
main ()
{
  ivec2 cell = ivec2 (gl_GlobalInvocationID.xy);
  ivec2 corner = (first_cell + cell) * factor - inside.xy;
  precise vec4 sum = vec4 (0.0);

  if (cell.x >= n_cells.x || cell.y >= n_cells.y)
    return;
  for (int v = 0; v < factor; v++)
    {
      int y = placed (corner.y + v, inside.w);
      precise vec4 row = vec4 (0.0);

      for (int u = 0; u < factor; u++)
        {
          int x = placed (corner.x + u, inside.z);

          row += x < 0 || y < 0 ? colour : imageLoad (src, ivec2 (x, y));
        }
      sum += row;
    }
  imageStore (dst, cell, sum / float (factor * factor));
}
