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

typedef struct
{
  const CblurVariable *variable;
  const CblurImage    *src;
  GeglAbyssPolicy      abyss;
  CblurPixel           colour;
  const gfloat        *masks;
  const CblurImage    *blended;
  Grid                *lower;     /* NULL: the base */
  Grid                *upper;
  gint                 upper_index;
  const CblurImage    *cells;     /* the cells being made, factor x factor pixels each */
  gint                 factor;
  gint                *columns;   /* src's column of each of their pixels, -1 the colour */
} Job;

/* floor (a / b), b > 0 */
static inline gint64
floor_div (gint64 a,
           gint64 b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* the cell of a pixel's left (upper) neighbour among the centres, and
 * its distance from it in cells */
static inline gint64
cell_before (gint64   x,
             gint     factor,
             gdouble *t)
{
  gint64 twice = 2 * x - (factor - 1);
  gint64 cell = floor_div (twice, 2 * factor);

  *t = (gdouble) (twice - 2 * factor * cell) / (2 * factor);
  return cell;
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

  *first = cell_before (x, factor, &t);
  *last = cell_before (x + n - 1, factor, &t) + 1;
}

/* the rows of src that cell row j's pixels take, each with the count of
 * its pixels there, into weights (src's height of them); returns the
 * count of the abyss's colour */
static gint
row_weights (const Job *job,
             gsize      j,
             gint      *weights)
{
  const CblurImage *src = job->src;
  gint              f = job->factor, colour = 0, v;

  memset (weights, 0, (gsize) src->height * sizeof (gint));
  for (v = 0; v < f; v++)
    {
      gint r = cblur_abyss_index (job->abyss, ((gint64) job->cells->y + j) * f + v - src->y,
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
  const Job        *job = user_data;
  const CblurImage *src = job->src, *cells = job->cells;
  gint              f = job->factor;
  CblurPixel       *row = cblur_pixels_take ((gsize) src->width * sizeof (CblurPixel));
  CblurPixel       *sums = cblur_pixels_take ((gsize) src->width * sizeof (CblurPixel));
  gint             *weights = g_new (gint, src->height);
  gsize             j;
  gint              i, c, r;

  for (j = first; j < first + count; j++)
    {
      gint       colour_rows = row_weights (job, j, weights);
      CblurPixel colour_sum = job->colour * (gfloat) f;

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
        sums[c] += job->colour * (gfloat) colour_rows;
      for (i = 0; i < cells->width; i++)
        {
          const gint *columns = job->columns + (gsize) i * f;
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

/* level's cells around blended, averaged from src and blurred */
static void
make_grid (Job                      *job,
           const CblurVariableLevel *level,
           Grid                     *grid)
{
  const CblurImage         *blended = job->blended;
  gint                      f = level->factor, reach = level->grid_reach;
  gint64                    x0, x1, y0, y1;
  CblurImage                cells;
  g_autoptr (CblurKernel)   kernel = cblur_kernel_new (level->grid_radius, CBLUR_MODE_BOX,
                                                       job->variable->iterations);
  gsize                     i;

  cells_of (blended->x, blended->width, f, &x0, &x1);
  cells_of (blended->y, blended->height, f, &y0, &y1);
  grid->level = level;
  grid->image = float_image (x0, y0, x1 - x0 + 1, y1 - y0 + 1);
  cells = float_image (x0 - reach, y0 - reach, grid->image.width + 2 * reach,
                       grid->image.height + 2 * reach);
  job->cells = &cells;
  job->factor = f;
  job->columns = g_new (gint, (gsize) cells.width * f);
  for (i = 0; i < (gsize) cells.width * f; i++)
    job->columns[i] = cblur_abyss_index (job->abyss, cells.x * f + (gint64) i - job->src->x,
                                         job->src->width);
  cblur_parallel_distribute_range (cells.height, 4096.0 / ((gsize) cells.width * f * f + 1),
                                   average_rows, job);
  g_clear_pointer (&job->columns, g_free);
  g_assert (kernel->reach <= reach);
  cblur_cpu_blur (kernel, &cells, NULL, GEGL_ABYSS_CLAMP, FALSE, &grid->image);
  cblur_pixels_free (cells.data);
}

/* grid's value at the absolute pixel (x, y), bilinear between its cells'
 * centres */
static CblurPixel
sample (const Grid *grid,
        gint64      x,
        gint64      y)
{
  gint              f = grid->level->factor;
  gdouble           tx, ty;
  gint64            cx = cell_before (x, f, &tx) - grid->image.x;
  gint64            cy = cell_before (y, f, &ty) - grid->image.y;
  const CblurPixel *p0 = (const CblurPixel *) cblur_image_pixel (&grid->image, cx, cy);
  const CblurPixel *p1 = (const CblurPixel *) cblur_image_pixel (&grid->image, cx, cy + 1);
  CblurPixel        top = p0[0] + (p0[1] - p0[0]) * (gfloat) tx;
  CblurPixel        bottom = p1[0] + (p1[1] - p1[0]) * (gfloat) tx;

  return top + (bottom - top) * (gfloat) ty;
}

/* rows of blended whose pixels blend the upper level with the one below */
static void
blend_rows (gsize    first,
            gsize    count,
            gpointer user_data)
{
  const Job        *job = user_data;
  const CblurImage *blended = job->blended;
  gsize             y;
  gint              x;

  for (y = first; y < first + count; y++)
    for (x = 0; x < blended->width; x++)
      {
        gfloat     *to = cblur_image_pixel (blended, x, y);
        gdouble     t;
        gint        lower, upper;
        CblurPixel  low, high, mixed;

        if (!cblur_variable_blend (job->variable,
                                   cblur_variable_sigma (job->variable,
                                                         job->masks[y * blended->width + x]),
                                   &lower, &upper, &t) ||
            upper != job->upper_index)
          continue;
        high = sample (job->upper, blended->x + x, blended->y + (gint64) y);
        if (lower < 0)
          memcpy (&low, to, sizeof low);
        else
          low = sample (job->lower, blended->x + x, blended->y + (gint64) y);
        mixed = low + (high - low) * (gfloat) t;
        memcpy (to, &mixed, sizeof mixed);
      }
}

/* the least and greatest sigma of n mask values */
static void
sigma_range (const CblurVariable *variable,
             const gfloat        *masks,
             gsize                n,
             gdouble             *least,
             gdouble             *most)
{
  gsize i;

  *least = G_MAXDOUBLE;
  *most = 0.0;
  for (i = 0; i < n; i++)
    {
      gdouble sigma = cblur_variable_sigma (variable, masks[i]);

      *least = MIN (*least, sigma);
      *most = MAX (*most, sigma);
    }
}

void
cblur_cpu_variable_levels (const CblurVariable *variable,
                           const CblurImage    *src,
                           GeglAbyssPolicy      abyss,
                           const gfloat        *masks,
                           const CblurImage    *blended)
{
  Job     job = { variable, src, abyss, { 0 }, masks, blended, NULL, NULL, 0, NULL, 1, NULL };
  Grid    grids[2] = { { NULL, { 0 } }, { NULL, { 0 } } };
  gfloat  colour[CBLUR_CHANNELS];
  gdouble least, most;
  gint    k;

  cblur_abyss_colour (abyss, colour);
  job.colour = (CblurPixel) { colour[0], colour[1], colour[2], colour[3] };
  sigma_range (variable, masks, (gsize) blended->width * blended->height, &least, &most);
  /* level k blends the pixels whose sigma lies between it and the level
   * below, and is the level below for those up to the next */
  for (k = 0; k < variable->n_levels; k++)
    {
      gdouble below = k > 0 ? variable->levels[k - 1].sigma : variable->base;
      gdouble above = k + 1 < variable->n_levels ? variable->levels[k + 1].sigma : G_MAXDOUBLE;
      Grid   *grid = &grids[k % 2];

      if (below >= most)
        break;
      if (least >= above)
        continue;
      if (grid->level != NULL)
        cblur_pixels_free (grid->image.data);
      make_grid (&job, &variable->levels[k], grid);
      job.upper = grid;
      job.upper_index = k;
      job.lower = k > 0 && grids[(k + 1) % 2].level == &variable->levels[k - 1]
                  ? &grids[(k + 1) % 2] : NULL;
      cblur_parallel_distribute_range (blended->height,
                                       4096.0 / ((gsize) blended->width + 1), blend_rows, &job);
    }
  for (k = 0; k < 2; k++)
    if (grids[k].level != NULL)
      cblur_pixels_free (grids[k].image.data);
}
