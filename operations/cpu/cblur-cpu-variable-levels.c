#include "cblur-cpu-variable-levels.h"

#include <string.h>

#include "cblur-cpu.h"
#include "cblur-kernel.h"
#include "cblur-memory.h"
#include "cblur-parallel.h"
#include "cblur-pixel.h"

/* a level's cells around the band, blurred, their absolute indices from
 * image.x and image.y */
typedef struct
{
  const CblurVariableLevel *level;
  CblurImage                image;
} Grid;

/* Where dst's pixels lie in a grid along one axis: the grid's cell
 * (counted from its first) of each one's neighbour before it among the
 * cells' centres, and its distance from it in cells. */
typedef struct
{
  gint   *cells;
  gfloat *t;
} Positions;

/* a level's grid and dst's positions in it along both axes */
typedef struct
{
  const Grid *grid;
  Positions   columns;
  Positions   rows;
} Sampled;

struct _CblurCpuVariableLevels
{
  const CblurVariable      *variable;
  const CblurImage         *src;
  GeglAbyssPolicy           abyss;
  CblurPixel                colour;
  const CblurImage         *dst;      /* the output's rectangle */
  const CblurVariableMasks *masks;    /* of dst's pixels */
  const guint8             *codes;    /* the boxes' bytes, src's rows, where masks has grey */
  /* levels [least, most] made, by index; the others unset */
  Grid                      grids[CBLUR_VARIABLE_LEVELS_MAX];
  Sampled                   sampled[CBLUR_VARIABLE_LEVELS_MAX];
  /* the source's means over cells of means_factor pixels, around dst
   * by the reach */
  CblurImage                means;
  gint                      means_factor;
  /* src's column of each pixel of a row of cells, -1 the colour */
  gint                     *columns;
};

/* floor (a / b), b > 0 */
static inline gint64
floor_div (gint64 a,
           gint64 b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* the cells [first, last] that upsampling [x, x + n) reads */
static void
cells_of (gint64  x,
          gint    n,
          gint    factor,
          gint64 *first,
          gint64 *last)
{
  gdouble t;

  *first = cblur_variable_cell_before (x, factor, &t);
  *last = cblur_variable_cell_before (x + n - 1, factor, &t) + 1;
}

/* the rows of src that cell row j's pixels take, each with the count of
 * its pixels there, into weights (src's height of them); returns the
 * count of the abyss's colour */
static gint
row_weights (const CblurCpuVariableLevels *levels,
             gsize                         j,
             gint                         *weights)
{
  const CblurImage *src = levels->src;
  gint              f = levels->means_factor, colour = 0, v;

  memset (weights, 0, (gsize) src->height * sizeof (gint));
  for (v = 0; v < f; v++)
    {
      gint r = cblur_abyss_index (levels->abyss, ((gint64) levels->means.y + j) * f + v - src->y,
                                  src->height);

      if (r < 0)
        colour++;
      else
        weights[r]++;
    }
  return colour;
}

/* Cell rows [first, first + count) of the grid being made: each cell the
 * mean of its f x f pixels of src and its abyss.  The pixels' rows go
 * into a sum a column of src first, each row of src once however often
 * the abyss repeats it, then the cells' columns gather those sums: the
 * work goes with src's pixels and the cells', not with the halo's. */
static void
average_rows (gsize    first,
              gsize    count,
              gpointer user_data)
{
  const CblurCpuVariableLevels *levels = user_data;
  const CblurImage             *src = levels->src, *cells = &levels->means;
  gint                          f = levels->means_factor;
  CblurPixel                   *row = cblur_pixels_take ((gsize) src->width *
                                                         sizeof (CblurPixel));
  CblurPixel                   *sums = cblur_pixels_take ((gsize) src->width *
                                                          sizeof (CblurPixel));
  gint                         *weights = g_new (gint, src->height);
  gsize                         j;
  gint                          i, c, r;

  for (j = first; j < first + count; j++)
    {
      gint       colour_rows = row_weights (levels, j, weights);
      CblurPixel colour_sum = levels->colour * (gfloat) f;

      memset (sums, 0, (gsize) src->width * sizeof (CblurPixel));
      for (r = 0; r < src->height; r++)
        {
          if (weights[r] == 0)
            continue;
          if (src->format != NULL)
            cblur_format_decode_spread (src->format, cblur_image_bytes (src, 0, r),
                                        (gfloat *) row, src->width, 1, TRUE);
          else
            memcpy (row, cblur_image_row (src, r), (gsize) src->width * sizeof (CblurPixel));
          for (c = 0; c < src->width; c++)
            sums[c] += row[c] * (gfloat) weights[r];
        }
      for (c = 0; c < src->width; c++)
        sums[c] += levels->colour * (gfloat) colour_rows;
      for (i = 0; i < cells->width; i++)
        {
          const gint *columns = levels->columns + (gsize) i * f;
          CblurPixel  sum = { 0 };
          gint        u;

          for (u = 0; u < f; u++)
            sum += columns[u] < 0 ? colour_sum : sums[columns[u]];
          sum /= (gfloat) (f * f);
          memcpy (cblur_image_pixel (cells, i, j), &sum, sizeof sum);
        }
    }
  g_free (weights);
  cblur_pixels_free (sums);
  cblur_pixels_free (row);
}

static CblurImage
float_image (gint64 x,
             gint64 y,
             gint   width,
             gint   height)
{
  CblurImage image = { NULL, x, y, width, height, (gsize) width * CBLUR_CHANNELS, NULL };

  image.data = cblur_pixels_take ((gsize) width * height * sizeof (CblurPixel));
  return image;
}

/* cells of f pixels, from multiples of f, that hold [x - reach, x + n + reach) */
static void
cells_around (gint64  x,
              gint    n,
              gint    reach,
              gint    f,
              gint64 *first,
              gint    *count)
{
  *first = floor_div (x - reach, f);
  *count = floor_div (x + n + reach - 1, f) - *first + 1;
}

static void
means_from_src (CblurCpuVariableLevels *levels,
                gint                    f)
{
  const CblurImage *dst = levels->dst;
  gint              reach = levels->variable->reach, width, height;
  gint64            x0, y0;
  gsize             i;

  cells_around (dst->x, dst->width, reach, f, &x0, &width);
  cells_around (dst->y, dst->height, reach, f, &y0, &height);
  levels->means = float_image (x0, y0, width, height);
  levels->means_factor = f;
  levels->columns = g_new (gint, (gsize) width * f);
  for (i = 0; i < (gsize) width * f; i++)
    levels->columns[i] = cblur_abyss_index (levels->abyss,
                                            x0 * f + (gint64) i - levels->src->x,
                                            levels->src->width);
  cblur_parallel_distribute_range (height, 4096.0 / ((gsize) width * f * f + 1),
                                   average_rows, levels);
  g_clear_pointer (&levels->columns, g_free);
}

/* the finer means' pixel (x, y), absolute, its index clamped to them:
 * the cells at their edges that a coarser cell takes beyond them are
 * cells no level reads */
static CblurPixel
finer (const CblurImage *finer,
       gint64            x,
       gint64            y)
{
  CblurPixel pixel;

  memcpy (&pixel, cblur_image_pixel (finer, CLAMP (x - finer->x, 0, finer->width - 1),
                                     CLAMP (y - finer->y, 0, finer->height - 1)),
          sizeof pixel);
  return pixel;
}

typedef struct
{
  const CblurImage *finer;
  const CblurImage *coarser;
} Halving;

static void
halve_rows (gsize    first,
            gsize    count,
            gpointer user_data)
{
  const Halving *h = user_data;
  gsize          j;
  gint           i;

  for (j = first; j < first + count; j++)
    for (i = 0; i < h->coarser->width; i++)
      {
        gint64     x = 2 * (h->coarser->x + i), y = 2 * (h->coarser->y + (gint64) j);
        CblurPixel mean = (finer (h->finer, x, y) + finer (h->finer, x + 1, y) +
                           finer (h->finer, x, y + 1) + finer (h->finer, x + 1, y + 1)) * 0.25f;

        memcpy (cblur_image_pixel (h->coarser, i, j), &mean, sizeof mean);
      }
}

/* the means over cells of f pixels: from src where none are made, else
 * by halving those made as often as it takes (a cell of 2f pixels at a
 * multiple of 2f is the mean of four of f) */
static void
means_of (CblurCpuVariableLevels *levels,
          gint                    f)
{
  if (levels->means.data == NULL)
    means_from_src (levels, f);
  while (levels->means_factor < f)
    {
      CblurImage coarser;
      Halving    h = { &levels->means, &coarser };
      gint64     x0, y0;
      gint       width, height;

      cells_around (levels->dst->x, levels->dst->width, levels->variable->reach,
                    2 * levels->means_factor, &x0, &width);
      cells_around (levels->dst->y, levels->dst->height, levels->variable->reach,
                    2 * levels->means_factor, &y0, &height);
      coarser = float_image (x0, y0, width, height);
      cblur_parallel_distribute_range (height, 4096.0 / ((gsize) width * 4 + 1), halve_rows,
                                       &h);
      cblur_pixels_free (levels->means.data);
      levels->means = coarser;
      levels->means_factor *= 2;
    }
}

/* level's cells around dst, from the means, blurred */
static void
make_grid (CblurCpuVariableLevels   *levels,
           const CblurVariableLevel *level,
           Grid                     *grid)
{
  const CblurImage       *dst = levels->dst;
  gint                    f = level->factor, reach = level->grid_reach;
  gint64                  x0, x1, y0, y1;
  CblurImage              cells;
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (level->grid_radius, CBLUR_MODE_BOX,
                                                     levels->variable->iterations);

  means_of (levels, f);
  cells_of (dst->x, dst->width, f, &x0, &x1);
  cells_of (dst->y, dst->height, f, &y0, &y1);
  grid->level = level;
  grid->image = float_image (x0, y0, x1 - x0 + 1, y1 - y0 + 1);
  /* the means hold the cells the grid's blur reads */
  cells = levels->means;
  cells.data = cblur_image_pixel (&levels->means, x0 - reach - levels->means.x,
                                  y0 - reach - levels->means.y);
  cells.x = x0 - reach;
  cells.y = y0 - reach;
  cells.width = grid->image.width + 2 * reach;
  cells.height = grid->image.height + 2 * reach;
  g_assert (kernel->reach <= reach);
  g_assert (cells.x >= levels->means.x && cells.y >= levels->means.y &&
            cells.x + cells.width <= levels->means.x + levels->means.width &&
            cells.y + cells.height <= levels->means.y + levels->means.height);
  cblur_cpu_blur (kernel, &cells, NULL, GEGL_ABYSS_CLAMP, FALSE, &grid->image);
}

static void
positions_init (Positions *positions,
                gint64     first,
                gint       n,
                gint       factor,
                gint64     grid_first)
{
  gint i;

  positions->cells = g_new (gint, n);
  positions->t = g_new (gfloat, n);
  for (i = 0; i < n; i++)
    {
      gdouble t;

      positions->cells[i] = cblur_variable_cell_before (first + i, factor, &t) - grid_first;
      positions->t[i] = (gfloat) t;
    }
}

static void
positions_clear (Positions *positions)
{
  g_clear_pointer (&positions->cells, g_free);
  g_clear_pointer (&positions->t, g_free);
}

static void
sampled_init (Sampled          *sampled,
              const Grid       *grid,
              const CblurImage *dst)
{
  gint f = grid->level->factor;

  sampled->grid = grid;
  positions_init (&sampled->columns, dst->x, dst->width, f, grid->image.x);
  positions_init (&sampled->rows, dst->y, dst->height, f, grid->image.y);
}

static void
sampled_clear (Sampled *sampled)
{
  positions_clear (&sampled->columns);
  positions_clear (&sampled->rows);
}

/* the grid's value at dst's pixel (x, y), bilinear between its
 * cells' centres */
static inline CblurPixel
sample (const Sampled *sampled,
        gint           x,
        gint           y)
{
  const CblurImage *image = &sampled->grid->image;
  gint              cx = sampled->columns.cells[x];
  gfloat            tx = sampled->columns.t[x], ty = sampled->rows.t[y];
  const CblurPixel *p0 = (const CblurPixel *) cblur_image_pixel (image, cx,
                                                                 sampled->rows.cells[y]);
  const CblurPixel *p1 = p0 + image->stride / CBLUR_CHANNELS;
  CblurPixel        top = p0[0] + (p0[1] - p0[0]) * tx;
  CblurPixel        bottom = p1[0] + (p1[1] - p1[0]) * tx;

  return top + (bottom - top) * ty;
}

/* the mask value of pixel (x, y) of the output */
static inline gfloat
mask_at (const CblurCpuVariableLevels *levels,
         gint                          x,
         gint                          y)
{
  const CblurImage *out = levels->dst, *src = levels->src;

  if (levels->masks->values != NULL)
    return levels->masks->values[(gsize) y * out->width + x];
  return levels->masks->grey[levels->codes[(gsize) (out->y + y - src->y) * src->width +
                                           (out->x + x - src->x)]];
}

void
cblur_cpu_variable_levels_blend (const CblurCpuVariableLevels *levels,
                                 gint                          x,
                                 gint                          columns,
                                 gfloat                       *pixels,
                                 gsize                         stride)
{
  gint     lower = -1, upper = -1, y, c;
  gdouble  t = 0.0;
  gfloat   mask = 0.0f;
  gboolean known = FALSE;

  for (y = 0; y < levels->dst->height; y++)
    for (c = 0; c < columns; c++)
      {
        gfloat    *to = pixels + (gsize) y * stride + (gsize) c * CBLUR_CHANNELS;
        gfloat     value = mask_at (levels, x + c, y);
        CblurPixel pixel, low, high;

        if (!known || value != mask)
          {
            mask = value;
            known = TRUE;
            if (!cblur_variable_blend (levels->variable,
                                       cblur_variable_sigma (levels->variable, mask), &lower,
                                       &upper, &t))
              upper = -1;
          }
        if (upper < 0)
          continue;
        memcpy (&pixel, to, sizeof pixel);
        high = sample (&levels->sampled[upper], x + c, y);
        low = lower < 0 ? pixel : sample (&levels->sampled[lower], x + c, y);
        pixel = low + (high - low) * (gfloat) t;
        memcpy (to, &pixel, sizeof pixel);
      }
}

CblurCpuVariableLevels *
cblur_cpu_variable_levels_new (const CblurVariable      *variable,
                               const CblurImage         *src,
                               const CblurVariableBoxes *boxes,
                               GeglAbyssPolicy           abyss,
                               const CblurVariableMasks *masks,
                               const CblurImage         *dst)
{
  CblurCpuVariableLevels *levels = g_new0 (CblurCpuVariableLevels, 1);
  gfloat                  colour[CBLUR_CHANNELS];
  gint                    k;

  *levels = (CblurCpuVariableLevels) { variable, src, abyss, { 0 }, dst, masks, boxes->codes };
  cblur_abyss_colour (abyss, colour);
  levels->colour = (CblurPixel) { colour[0], colour[1], colour[2], colour[3] };
  /* a pixel whose upper level is k blends it with the one below */
  for (k = MAX (masks->least - 1, 0); k <= masks->most; k++)
    {
      make_grid (levels, &variable->levels[k], &levels->grids[k]);
      sampled_init (&levels->sampled[k], &levels->grids[k], dst);
    }
  cblur_pixels_free (levels->means.data);
  levels->means.data = NULL;
  return levels;
}

void
cblur_cpu_variable_levels_free (CblurCpuVariableLevels *levels)
{
  gint k;

  for (k = MAX (levels->masks->least - 1, 0); k <= levels->masks->most; k++)
    {
      cblur_pixels_free (levels->grids[k].image.data);
      sampled_clear (&levels->sampled[k]);
    }
  g_free (levels);
}
