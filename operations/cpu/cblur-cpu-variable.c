#include "cblur-cpu-variable.h"

#include <string.h>
#include <gegl.h>

#include "cblur-cpu-variable-levels.h"
#include "cblur-cpu-variable-line.h"
#include "cblur-format.h"
#include "cblur-memory.h"
#include "cblur-parallel.h"
#include "cblur-pixel.h"

/* The pass between lies in strips of this many columns, all rows high,
 * and the vertical pass takes a strip at a time: it reads each strip in
 * one run, where rows would make it a page a pixel. */
#define STRIP_COLUMNS (4 * CBLUR_VARIABLE_COLUMNS)

typedef struct
{
  const CblurVariable          *variable;
  const CblurImage             *src;
  const CblurVariableBoxes     *boxes;
  GeglAbyssPolicy               abyss;
  const CblurImage             *dst;
  const CblurCpuVariableLevels *levels;   /* blended into the base's results, or NULL */
  CblurPixel                    colour;   /* the abyss's, under none, black and white */
  /* under loop, the rows of src the halo above and below repeats, each
   * blurred along its length again with the boxes of src's edge row */
  gint                          above;
  gint                          below;
  /* src's rows at dst's width, one row of the abyss's colour, then the
   * halo's rows above and below, in strips */
  CblurPixel                   *between;
} Job;

/* the row of src's boxes that row y (absolute) takes: the mask is
 * clamped at src's edges, whatever the pixels' abyss */
static gint
boxes_row (const Job *job,
           gint64     y)
{
  return CLAMP (y - job->src->y, 0, job->src->height - 1);
}

/* the box of src's pixel (x, y), counted from src's corner */
static inline CblurBoxWidth
box_at (const Job *job,
        gint       y,
        gint       x)
{
  gsize at = (gsize) y * job->src->width + x;

  return job->boxes->codes != NULL ? job->boxes->table[job->boxes->codes[at]]
                                   : job->boxes->widths[at];
}

/* where src's box (x, y) is held, to be fetched ahead */
static const void *
box_address (const Job *job,
             gint       y,
             gint       x)
{
  gsize at = (gsize) y * job->src->width + x;

  return job->boxes->codes != NULL ? (const void *) (job->boxes->codes + at)
                                   : (const void *) (job->boxes->widths + at);
}

/* the rows of each strip of the pass between */
static gint
between_rows (const Job *job)
{
  return job->src->height + 1 + job->above + job->below;
}

/* row y of strip g of the pass between: src's row y, the colour's row at
 * src->height, then the halo's */
static CblurPixel *
strip_row (const Job *job,
           gint       g,
           gint       y)
{
  return job->between + ((gsize) g * between_rows (job) + y) * STRIP_COLUMNS;
}

/* the pass between's row for row y (absolute): beyond src under loop, the
 * row of the halo above or below that repeats src's row there */
static gint
between_row (const Job *job,
             gint64     y)
{
  gint64 i = y - job->src->y;
  gint   own = cblur_abyss_index (job->abyss, i, job->src->height);

  if (own < 0)
    return job->src->height;
  if (job->abyss != GEGL_ABYSS_LOOP || (i >= 0 && i < job->src->height))
    return own;
  if (i < 0)
    return job->src->height + 1 + own - (job->src->height - job->above);
  return job->src->height + 1 + job->above + own;
}

/* The row of src that row r of the pass between blurs, and the row of
 * src whose boxes it takes: its own, or for a row of the halo under loop
 * the row it repeats with the boxes of src's edge row there, as a mask
 * clamped at src's edges gives them. */
static void
halo_source (const Job *job,
             gint       r,
             gint      *pixels,
             gint      *boxes)
{
  gint height = job->src->height;

  *pixels = *boxes = r;
  if (r < height)
    return;
  r -= height + 1;
  if (r < job->above)
    {
      *pixels = height - job->above + r;
      *boxes = 0;
    }
  else
    {
      *pixels = r - job->above;
      *boxes = height - 1;
    }
}

/* n pixels of row r of src, the first at absolute column origin, into
 * line: src's own, decoded and premultiplied where src is stored in a
 * format, and the abyss beyond them (the line holds src's row whole) */
static void
make_line (const Job  *job,
           gint        r,
           gint64      origin,
           gint        n,
           CblurPixel *line)
{
  const CblurImage *src = job->src;
  gint              first = src->x - origin;
  gint              i;

  if (src->format != NULL)
    cblur_format_decode_spread (src->format, cblur_image_bytes (src, 0, r),
                                (gfloat *) (line + first), src->width, 1, TRUE);
  else
    memcpy (line + first, cblur_image_row (src, r), (gsize) src->width * sizeof *line);
  for (i = 0; i < n; i++)
    if (i < first || i >= first + src->width)
      {
        gint own = cblur_abyss_index (job->abyss, origin + i - src->x, src->width);

        line[i] = own < 0 ? job->colour : line[first + own];
      }
}

/* the boxes of n pixels of row r of src, the first at absolute column
 * origin, those beyond it the boxes of its edge */
static void
make_boxes (const Job     *job,
            gint           r,
            gint64         origin,
            gint           n,
            CblurBoxWidth *boxes)
{
  gint last = job->src->width - 1;
  gint i;

  for (i = 0; i < n; i++)
    boxes[i] = box_at (job, r, CLAMP (origin + i - job->src->x, 0, last));
}

/* A row's result into its strips of the pass between, around the cache
 * (cblur_pixel_store_non_temporal): the strips are read only once every row is
 * done. */
static void
put_row (const Job        *job,
         gint              r,
         const CblurPixel *result)
{
  gint x, c;

  for (x = 0; x < job->dst->width; x += STRIP_COLUMNS)
    {
      CblurPixel *row = strip_row (job, x / STRIP_COLUMNS, r);

      for (c = 0; c < MIN (STRIP_COLUMNS, job->dst->width - x); c++)
        cblur_pixel_store_non_temporal ((gfloat *) (row + c),
                                        (const gfloat *) (result + x + c));
    }
}

/* the pass between's rows that are blurred along their length: src's,
 * then the halo's, past the colour's row */
static gint
blurred_row (const Job *job,
             gsize      i)
{
  return i < (gsize) job->src->height ? (gint) i : (gint) i + 1;
}

/* src's rows (and the halo's) into the pass between, at dst's width:
 * rows that hold the whole line go through as they lie, the rest through
 * a line made of them and the abyss */
static void
horizontal_rows (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job     *job = user_data;
  gint           n_in = job->dst->width + 2 * job->variable->reach;
  gint64         origin = job->dst->x - job->variable->reach;
  gboolean       whole = job->src->x == origin && job->src->width == n_in &&
                         job->src->format == NULL;
  gsize          scratch_bytes = cblur_variable_line_scratch_bytes (n_in, 1);
  guint8        *memory = cblur_pixels_take (scratch_bytes + (gsize) n_in *
                                             (2 * sizeof (CblurPixel) + sizeof (CblurBoxWidth)));
  CblurPixel    *line = (CblurPixel *) (memory + scratch_bytes);
  CblurPixel    *result = line + n_in;
  CblurBoxWidth *boxes = (CblurBoxWidth *) (result + n_in);
  gsize          i;

  for (i = first; i < first + count; i++)
    {
      gint                 r = blurred_row (job, i), pixels, box_row;
      const CblurPixel    *in;
      const CblurBoxWidth *in_boxes;

      halo_source (job, r, &pixels, &box_row);
      in = whole ? (const CblurPixel *) cblur_image_row (job->src, pixels) : line;
      in_boxes = whole && job->boxes->widths != NULL
                 ? job->boxes->widths + (gsize) box_row * n_in : boxes;
      if (!whole)
        make_line (job, pixels, origin, n_in, line);
      if (in_boxes == boxes)
        make_boxes (job, box_row, origin, n_in, boxes);
      cblur_variable_lines (job->variable, in, n_in, 1, origin, in_boxes, result, 1, memory);
      put_row (job, r, result);
    }
  cblur_non_temporal_stores_fence ();
  cblur_pixels_free (memory);
}

/* the columns of a strip's panel p, CBLUR_VARIABLE_COLUMNS or fewer */
static gint
panel_columns (gint columns,
               gint p)
{
  return MIN (CBLUR_VARIABLE_COLUMNS, columns - p * CBLUR_VARIABLE_COLUMNS);
}

/* Rows of boxes a strip's walk asks for ahead: each is a page of its
 * own, and the processor fetches ahead only within a page. */
#define PREFETCH_ROWS 16

static void
prefetch_boxes (const Job *job,
                gint64     y,
                gint       x,
                gint       columns)
{
  const guint8 *box = box_address (job, boxes_row (job, y),
                                   CLAMP (job->dst->x + x - job->src->x, 0, job->src->width - 1));
  gint          box_bytes = job->boxes->codes != NULL ? 1 : sizeof (CblurBoxWidth);
  gint          at;

  for (at = 0; at < columns * box_bytes; at += 64)
    __builtin_prefetch (box + at);
}

/* Columns [x, x + columns) of dst: their pixels in the pass between and
 * their boxes gathered into panels of lines side by side, each panel's
 * lines blurred together into dst, or into results (dst's height of
 * STRIP_COLUMNS pixels) that go into dst's format a row at a time. */
static void
vertical_strip (const Job     *job,
                gint           x,
                gint           columns,
                CblurPixel    *lines,
                CblurBoxWidth *boxes,
                CblurPixel    *results,
                gpointer       scratch)
{
  const CblurVariable *variable = job->variable;
  const CblurImage    *src = job->src;
  const CblurImage    *dst = job->dst;
  gboolean             encoded = dst->format != NULL;
  CblurPixel          *out = encoded ? results : (CblurPixel *) cblur_image_pixel (dst, x, 0);
  gsize                out_step = encoded ? (gsize) columns : dst->stride / CBLUR_CHANNELS;
  gint                 n_in = dst->height + 2 * variable->reach;
  gsize                panel = (gsize) CBLUR_VARIABLE_COLUMNS * n_in;
  gint64               origin = dst->y - variable->reach;
  /* the columns' boxes in src's rows, clamped at its edges */
  gint64               left = (gint64) dst->x + x - src->x;
  gint                 y, p, c;

  /* a few pixels a panel a row: copied here, where a call to memcpy
   * would cost more than the copy */
  for (y = 0; y < n_in; y++)
    {
      const CblurPixel *row = strip_row (job, x / STRIP_COLUMNS, between_row (job, origin + y));
      gint              box_row = boxes_row (job, origin + y);

      prefetch_boxes (job, origin + y + PREFETCH_ROWS, x, columns);

      for (p = 0; p * CBLUR_VARIABLE_COLUMNS < columns; p++)
        {
          gint w = panel_columns (columns, p);
          gint at = p * CBLUR_VARIABLE_COLUMNS;

          for (c = 0; c < w; c++)
            {
              lines[p * panel + (gsize) y * w + c] = row[at + c];
              boxes[p * panel + (gsize) y * w + c] =
                box_at (job, box_row, CLAMP (left + at + c, 0, src->width - 1));
            }
        }
    }
  for (p = 0; p * CBLUR_VARIABLE_COLUMNS < columns; p++)
    cblur_variable_lines (variable, lines + p * panel, n_in, panel_columns (columns, p), origin,
                          boxes + p * panel, out + p * CBLUR_VARIABLE_COLUMNS, out_step,
                          scratch);
  if (job->levels != NULL)
    cblur_cpu_variable_levels_blend (job->levels, x, columns, (gfloat *) out,
                                     out_step * CBLUR_CHANNELS);
  for (y = 0; encoded && y < dst->height; y++)
    cblur_format_encode (dst->format, (const gfloat *) (out + (gsize) y * out_step),
                         cblur_image_bytes (dst, x, y), columns);
}

static void
vertical_strips (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job     *job = user_data;
  gint           n_in = job->dst->height + 2 * job->variable->reach;
  gsize          elements = (gsize) STRIP_COLUMNS * n_in;
  /* a strip's results wait there only to be encoded */
  gsize          results_size = job->dst->format != NULL
                                ? (gsize) STRIP_COLUMNS * job->dst->height : 0;
  gsize          scratch_bytes = cblur_variable_line_scratch_bytes (n_in, CBLUR_VARIABLE_COLUMNS);
  guint8        *memory = cblur_pixels_take (scratch_bytes +
                                             (elements + results_size) * sizeof (CblurPixel) +
                                             elements * sizeof (CblurBoxWidth));
  CblurPixel    *lines = (CblurPixel *) (memory + scratch_bytes);
  CblurPixel    *results = lines + elements;
  CblurBoxWidth *boxes = (CblurBoxWidth *) (results + results_size);
  gsize          s;

  for (s = first; s < first + count; s++)
    {
      gint x = s * STRIP_COLUMNS;

      vertical_strip (job, x, MIN (STRIP_COLUMNS, job->dst->width - x), lines, boxes, results,
                      memory);
    }
  cblur_pixels_free (memory);
}

/* the base's passes of src into dst, the levels blended in */
static void
base_passes (const CblurVariable          *variable,
             const CblurImage             *src,
             const CblurVariableBoxes     *boxes,
             GeglAbyssPolicy               abyss,
             const CblurCpuVariableLevels *levels,
             const CblurImage             *dst)
{
  Job    job = { variable, src, boxes, abyss, dst, levels, { 0 }, 0, 0, NULL };
  gint   strips = (dst->width + STRIP_COLUMNS - 1) / STRIP_COLUMNS;
  gint   reach = variable->reach;
  gfloat colour[CBLUR_CHANNELS];
  gint   x;

  cblur_abyss_colour (abyss, colour);
  job.colour = (CblurPixel) { colour[0], colour[1], colour[2], colour[3] };
  if (abyss == GEGL_ABYSS_LOOP)
    {
      job.above = MIN (src->y - (dst->y - reach), src->height);
      job.below = MIN (dst->y + dst->height + reach - (src->y + src->height), src->height);
    }
  job.between = cblur_pixels_take ((gsize) strips * between_rows (&job) * STRIP_COLUMNS *
                                  sizeof (CblurPixel));
  for (x = 0; x < strips * STRIP_COLUMNS; x++)
    strip_row (&job, x / STRIP_COLUMNS, src->height)[x % STRIP_COLUMNS] = job.colour;

  /* a pixel costs a few dozen operations a pass: a thread is worth it
   * from a few rows or columns on */
  cblur_parallel_distribute_range (src->height + job.above + job.below,
                                  16384.0 / ((gsize) dst->width + 2 * reach + 1),
                                  horizontal_rows, &job);
  cblur_parallel_distribute_range (strips,
                                  16384.0 / ((gsize) STRIP_COLUMNS * (dst->height + 2 * reach) + 1),
                                  vertical_strips, &job);

  cblur_pixels_free (job.between);
}

void
cblur_cpu_variable_blur (const CblurVariable      *variable,
                         const CblurImage         *src,
                         const CblurVariableBoxes *boxes,
                         const CblurVariableMasks *masks,
                         GeglAbyssPolicy           abyss,
                         const CblurImage         *dst)
{
  gint                                reach = variable->reach;
  g_autoptr (CblurCpuVariableLevels) levels = NULL;

  g_return_if_fail (src->width > 0 && src->height > 0);
  g_return_if_fail (src->x >= dst->x - reach && src->y >= dst->y - reach &&
                    src->x + src->width <= dst->x + dst->width + reach &&
                    src->y + src->height <= dst->y + dst->height + reach);

  if (dst->width <= 0 || dst->height <= 0)
    return;
  if (masks->most >= 0)
    levels = cblur_cpu_variable_levels_new (variable, src, boxes, abyss, masks, dst);
  base_passes (variable, src, boxes, abyss, levels, dst);
}
