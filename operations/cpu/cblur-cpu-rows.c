/* The CPU blur's horizontal pass: GEGL's rows gathered a row group at a
 * time (read through io or from the kept source, decoded, premultiplied,
 * interleaved), the abyss's columns made beside them, blurred along the
 * row and written into the pass between in strips. */
#include <string.h>
#include <gegl.h>

#include "cblur-cpu-job.h"
#include "cblur-memory.h"

/* Rows to and from a line of interleaved rows, two cache lines of each row
 * at a time: row by row, each element's cache line would leave the cache
 * before the next row writes to it. */
#define TRANSPOSE_PIXELS 8

/* elements [begin, end) of the line from the sources' first pixels on,
 * premultiplied on the way where they are straight */
static void
transpose_in (CblurPixel        *line,
              gint               rows,
              const CblurPixel **sources,
              gint               begin,
              gint               end,
              gboolean           straight)
{
  gint x, r, i;

  for (x = begin; x < end; x += TRANSPOSE_PIXELS)
    for (r = 0; r < rows; r++)
      for (i = x; i < MIN (x + TRANSPOSE_PIXELS, end); i++)
        line[(gsize) i * rows + r] = straight ? cblur_premultiplied (sources[r][i - begin])
                                              : sources[r][i - begin];
}

/* Elements [0, end) of the line, dst's columns, into rows [row, row +
 * rows) of the pass between: in strips, CBLUR_STRIP_PIXELS columns wide
 * and all rows high, so that the vertical pass reads each strip in one
 * run rather than a few pixels from every row (a miss, and a page, each). */
static void
transpose_out (const CblurCpuJob *job,
               const CblurPixel  *line,
               gint               rows,
               gint               row,
               gint               end)
{
  gint first = job->lead / CBLUR_STRIP_PIXELS;
  gint last = (job->lead + end - 1) / CBLUR_STRIP_PIXELS;
  gint s, r, i;

  for (s = first; s <= last; s++)
    {
      gint        begin = MAX (s * CBLUR_STRIP_PIXELS, job->lead) - job->lead;
      gint        stop = MIN ((s + 1) * CBLUR_STRIP_PIXELS - job->lead, end);
      /* column i at its place in the strip's rows */
      CblurPixel *strip = cblur_cpu_strip_row (job, s, row) + job->lead - s * CBLUR_STRIP_PIXELS;

      for (r = 0; r < rows; r++)
        for (i = begin; i < stop; i++)
          cblur_pixel_store_non_temporal ((gfloat *) (strip + (gsize) r * CBLUR_STRIP_PIXELS + i),
                                          (const gfloat *) (line + (gsize) i * rows + r));
    }
}

/* Pixels of each row decoded at a time: two cache lines of each row's
 * bytes in 8 bits, as transpose_in takes of floats. */
#define DECODE_PIXELS 32

/* Elements [left, right) of the line from the rows stored in `format`,
 * decoded and premultiplied where straight as they go in. */
static void
decode_in (const CblurFormat *format,
           CblurPixel        *line,
           gint               rows,
           const guint8     **stored,
           gint               left,
           gint               right,
           gboolean           straight)
{
  gint x, r;

  for (x = left; x < right; x += DECODE_PIXELS)
    for (r = 0; r < rows; r++)
      cblur_format_decode_spread (format, stored[r] + (gsize) (x - left) * format->bytes_per_pixel,
                                  (gfloat *) (line + (gsize) x * rows + r),
                                  MIN (DECODE_PIXELS, right - x), rows, straight);
}

/* The row group at y as kept, a line of its own: GEGL's pixels as its
 * elements [left, right), the kept margins around them as the rest. */
static CblurPixel *
kept_line (const CblurCpuJob *job,
           gint               y,
           gint               rows)
{
  gint margin = job->kept_margin;

  return job->kept + (gsize) y * (job->right - job->left + 2 * margin) +
         (gsize) (margin - job->left) * rows;
}

/* the line's elements [left, right) into the kept group at y, around the
 * cache: they are read in the next blur */
static void
keep_group (const CblurCpuJob *job,
            gint               y,
            gint               rows,
            const CblurPixel  *line)
{
  gsize       n = (gsize) (job->right - job->left) * rows;
  CblurPixel *group = kept_line (job, y, rows) + (gsize) job->left * rows;
  gsize       i;

  for (i = 0; i < n; i++)
    cblur_pixel_store_non_temporal ((gfloat *) (group + i), (const gfloat *) (line + i));
}

/* Rows [y, y + rows) of GEGL's pixels (from `pixels`' first), from
 * column `left`, into the line's elements [left, right): their own rows,
 * or rows read into `held` (rows of src's width) through io where
 * `pixels` has none; decoded where they are stored in another format,
 * premultiplied where straight; kept where the job keeps them. */
static void
fetch_rows (const CblurCpuJob *job,
            gint               y,
            gint               rows,
            CblurPixel        *held,
            CblurPixel        *line)
{
  const CblurImage *pixels = job->pixels;
  gint              n_in = job->src->width;
  gint              width = job->right - job->left;
  const guint8     *stored[CBLUR_GROUP_ROWS];
  gint              r;

  if (pixels->data == NULL)
    {
      CblurImage part = { (gfloat *) held, pixels->x, pixels->y + y, width, rows,
                          (gsize) n_in * CBLUR_CHANNELS, pixels->format };

      job->io->read (&part, 0, 0, width, rows, job->io->user_data);
    }
  for (r = 0; r < rows; r++)
    stored[r] = pixels->data != NULL ? cblur_image_bytes (pixels, 0, y + r)
                                     : (const guint8 *) (held + (gsize) r * n_in);
  if (pixels->format != NULL)
    decode_in (pixels->format, line, rows, stored, job->left, job->right, job->straight);
  else
    transpose_in (line, rows, (const CblurPixel **) stored, job->left, job->right,
                  job->straight);
  if (job->kept != NULL)
    keep_group (job, y, rows, line + (gsize) job->left * rows);
}

/* The line's elements outside [left, right) under the policy: the
 * colour, or GEGL's pixels' elements they repeat, premultiplied already
 * (none's, black's and white's colours premultiply to themselves). */
static void
make_abyss_columns (const CblurCpuJob *job,
                    CblurPixel        *line,
                    gint               rows)
{
  const gint made[2][2] = { { 0, job->left }, { job->right, job->src->width } };
  gint       m, x, r;

  for (m = 0; m < 2; m++)
    for (x = made[m][0]; x < made[m][1]; x++)
      {
        gint source = cblur_cpu_abyss_source (x, job->left, job->right, job->policy);

        for (r = 0; r < rows; r++)
          line[(gsize) x * rows + r] = source < 0 ? job->colour
                                                  : line[(gsize) source * rows + r];
      }
}

/* The kept row group at y, which the thread blurs next, brought in as it
 * blurs this one (no group: y < 0; GEGL's rows not kept: nothing). */
static void
ahead_of_group (const CblurCpuJob *job,
                gint               y,
                CblurLineScratch  *scratch)
{
  gint rows = MIN (CBLUR_GROUP_ROWS, job->bottom - job->top - y);

  if (y < 0 || job->kept == NULL || !job->kept_held)
    {
      cblur_line_scratch_ahead (scratch, NULL, 0);
      return;
    }
  cblur_line_scratch_ahead (scratch, kept_line (job, y, rows) + (gsize) job->left * rows,
                            (gsize) (job->right - job->left) * rows * sizeof (CblurPixel));
}

/* Four lines of 8 rows at 4K widths (2 MB) outgrow a core's L2 cache: rows as
 * read go in the box passes' line between, written only after they are
 * gathered, and the last pass's output over the gathered rows, which only
 * the first pass reads. */
static gboolean
shares_lines (const CblurKernel *kernel)
{
  const CblurKernelAxis *x = &kernel->axes[CBLUR_AXIS_X];

  return x->mode == CBLUR_MODE_BOX && x->iterations >= 2;
}

/* Rows are blurred CBLUR_GROUP_ROWS at a time, interleaved so that element
 * x of the line holds pixel x of each row: the same wide loops as the
 * column strips, instead of one pixel at a time.  Only rows with GEGL's
 * pixels: the made rows' results are those rows' again, or the colour
 * row's. */
void
cblur_cpu_rows (gsize    first,
                gsize    count,
                gpointer user_data)
{
  const CblurCpuJob *job = user_data;
  gint               n_in = job->src->width;
  gint               n_out = job->dst->width;
  gsize              line_in = (gsize) n_in * CBLUR_GROUP_ROWS;
  gsize              line_out = (gsize) n_out * CBLUR_GROUP_ROWS;
  gboolean           shared = shares_lines (job->kernel);
  gsize              bytes = (shared ? line_in : 2 * line_in + line_out) * sizeof (CblurPixel) +
                             cblur_line_scratch_bytes (job->kernel, CBLUR_AXIS_X, n_in,
                                                       CBLUR_GROUP_ROWS);
  guint8            *memory = cblur_pixels_take (bytes);
  CblurPixel        *gathered = (CblurPixel *) memory;
  /* GEGL's rows, where read or decoded; with shared lines also the first
   * box pass's output, and the result goes over the gathered rows */
  CblurPixel        *held = gathered + line_in;
  CblurPixel        *blurred = shared ? gathered : held + line_in;
  CblurLineScratch   scratch;
  gsize              group;

  cblur_line_scratch_init (&scratch, job->kernel, n_in, CBLUR_GROUP_ROWS,
                           shared ? held : blurred + line_out);

  for (group = first; group < first + count; group++)
    {
      gint        row0 = group * CBLUR_GROUP_ROWS;
      gint        rows = MIN (CBLUR_GROUP_ROWS, job->bottom - job->top - row0);
      /* kept rows go through the passes where they are kept */
      CblurPixel *line = job->kept != NULL && job->kept_held
                           ? kept_line (job, row0, rows) : gathered;

      if (line == gathered)
        fetch_rows (job, row0, rows, held, gathered);
      make_abyss_columns (job, line, rows);
      ahead_of_group (job, group + 1 < first + count ? row0 + CBLUR_GROUP_ROWS : -1, &scratch);

      cblur_line_blur (job->kernel, CBLUR_AXIS_X, (CblurLine) { line, rows }, n_in,
                       job->src->x, (CblurLineOut) { blurred, rows }, rows, &scratch);

      transpose_out (job, blurred, rows, job->top + row0, n_out);
    }
  cblur_non_temporal_stores_fence ();

  cblur_pixels_free (memory);
}

CblurPixel *
cblur_cpu_colour_row (const CblurCpuJob *job)
{
  gint              n_in = job->src->width;
  CblurPixel       *line = gegl_malloc ((gsize) n_in * sizeof (CblurPixel));
  CblurPixel       *blurred = gegl_malloc ((gsize) job->dst->width * sizeof (CblurPixel));
  gpointer          memory =
    g_malloc (cblur_line_scratch_bytes (job->kernel, CBLUR_AXIS_X, n_in, 1));
  CblurLineScratch  scratch;
  gint              x;

  for (x = 0; x < n_in; x++)
    line[x] = job->colour;
  cblur_line_scratch_init (&scratch, job->kernel, n_in, 1, memory);
  cblur_line_blur (job->kernel, CBLUR_AXIS_X, (CblurLine) { line, 1 }, n_in, job->src->x,
                   (CblurLineOut) { blurred, 1 }, 1, &scratch);
  g_free (memory);
  gegl_free (line);
  return blurred;
}

