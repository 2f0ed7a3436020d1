#include "cblur-cpu-variable.h"

#include <string.h>
#include <gegl.h>

#include "cblur-cpu-variable-line.h"
#include "cblur-memory.h"

/* Columns gathered into lines together: a row of them is a few cache
 * lines, read and written whole. */
#define COLUMN_GROUP 16

typedef struct
{
  const CblurVariable *variable;
  const CblurImage    *src;
  const CblurBoxWidth *widths;
  gint                 top;      /* src's rows [top, bottom) are its own, */
  gint                 bottom;   /* the rest repeat the nearest of them */
  const CblurImage    *dst;
  CblurPixel          *between;  /* rows [top, bottom), at dst's width */
} Job;

/* the row of src that row y is, or repeats */
static gint
own_row (const Job *job,
         gint       y)
{
  return CLAMP (y, job->top, job->bottom - 1);
}

static const CblurBoxWidth *
widths_row (const Job *job,
            gint       y)
{
  return job->widths + (gsize) own_row (job, y) * job->src->width;
}

/* the pass between's row for src's row y: a repeated row's result is
 * the row's it repeats */
static const CblurPixel *
between_row (const Job *job,
             gint       y)
{
  return job->between + (gsize) (own_row (job, y) - job->top) * job->dst->width;
}

/* src's own rows into the pass between, at dst's width */
static void
horizontal_rows (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job  *job = user_data;
  gint        n_in = job->src->width;
  gpointer    scratch = cblur_pixels_take (cblur_variable_line_scratch_bytes (n_in));
  gsize       y;

  for (y = job->top + first; y < job->top + first + count; y++)
    cblur_variable_line (job->variable, (const CblurPixel *) cblur_image_row (job->src, y),
                         n_in, job->src->x, widths_row (job, y),
                         (CblurPixel *) between_row (job, y), scratch);
  cblur_pixels_free (scratch);
}

/* Columns [x, x + columns) of dst, each gathered from the pass between
 * with its boxes into a line of its own, blurred, and put back. */
static void
vertical_group (const Job     *job,
                gint           x,
                gint           columns,
                CblurPixel    *lines,
                CblurBoxWidth *boxes,
                CblurPixel    *results,
                gpointer       scratch)
{
  const CblurVariable *variable = job->variable;
  gint                 n_in = job->src->height;
  gint                 n_out = job->dst->height;
  gint                 y, c;

  for (y = 0; y < n_in; y++)
    {
      const CblurPixel    *row = between_row (job, y) + x;
      const CblurBoxWidth *box = widths_row (job, y) + x + variable->reach;

      for (c = 0; c < columns; c++)
        {
          lines[(gsize) c * n_in + y] = row[c];
          boxes[(gsize) c * n_in + y] = box[c];
        }
    }
  for (c = 0; c < columns; c++)
    cblur_variable_line (variable, lines + (gsize) c * n_in, n_in, job->src->y,
                         boxes + (gsize) c * n_in, results + (gsize) c * n_out, scratch);
  for (y = 0; y < n_out; y++)
    {
      CblurPixel *row = (CblurPixel *) cblur_image_pixel (job->dst, x, y);

      for (c = 0; c < columns; c++)
        row[c] = results[(gsize) c * n_out + y];
    }
}

static void
vertical_groups (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job     *job = user_data;
  gint           n_in = job->src->height;
  gsize          line_bytes = (gsize) COLUMN_GROUP * n_in * sizeof (CblurPixel);
  gsize          box_bytes = (gsize) COLUMN_GROUP * n_in * sizeof (CblurBoxWidth);
  gsize          scratch_bytes = cblur_variable_line_scratch_bytes (n_in);
  guint8        *memory = cblur_pixels_take (scratch_bytes + 2 * line_bytes + box_bytes);
  CblurPixel    *lines = (CblurPixel *) (memory + scratch_bytes);
  CblurPixel    *results = lines + (gsize) COLUMN_GROUP * n_in;
  CblurBoxWidth *boxes = (CblurBoxWidth *) (results + (gsize) COLUMN_GROUP * n_in);
  gsize          g;

  for (g = first; g < first + count; g++)
    {
      gint x = g * COLUMN_GROUP;

      vertical_group (job, x, MIN (COLUMN_GROUP, job->dst->width - x), lines, boxes, results,
                      memory);
    }
  cblur_pixels_free (memory);
}

void
cblur_cpu_variable_blur (const CblurVariable *variable,
                         const CblurImage    *src,
                         const CblurBoxWidth *widths,
                         gint                 top,
                         gint                 bottom,
                         const CblurImage    *dst)
{
  Job  job = { variable, src, widths, top, bottom, dst, NULL };
  gint groups = (dst->width + COLUMN_GROUP - 1) / COLUMN_GROUP;

  g_return_if_fail (src->format == NULL && dst->format == NULL);
  g_return_if_fail (src->width == dst->width + 2 * variable->reach);
  g_return_if_fail (src->height == dst->height + 2 * variable->reach);
  g_return_if_fail (0 <= top && top < bottom && bottom <= src->height);

  if (dst->width <= 0 || dst->height <= 0)
    return;

  job.between = cblur_pixels_take ((gsize) dst->width * (bottom - top) * sizeof (CblurPixel));

  /* a pixel costs a few dozen operations a pass: a thread is worth it
   * from a few rows or columns on */
  gegl_parallel_distribute_range (bottom - top, 16384.0 / ((gsize) src->width + 1),
                                  horizontal_rows, &job);
  gegl_parallel_distribute_range (groups, 16384.0 / ((gsize) COLUMN_GROUP * src->height + 1),
                                  vertical_groups, &job);

  cblur_pixels_free (job.between);
}
