/* The CPU blur's vertical pass: the pass between's strips blurred down
 * their columns, a span of strips at a time, the abyss's rows made in
 * each strip, the results encoded into dst's format and written into dst
 * or handed to io in whole tiles of GEGL's. */
#include <string.h>
#include <gegl.h>

#include "cblur-cpu-job.h"
#include "cblur-format.h"
#include "cblur-memory.h"
#include "cblur-parallel.h"

/* a span's results, in pixels, at most; without GEGL's tiles, spans of
 * 8 strips, written 64 rows at a time */
#define SPAN_PIXELS_MAX        (256 * 1024)
#define SPAN_STRIPS_UNTILED    8
#define WRITE_ROWS_MAX         256
#define WRITE_ROWS_UNTILED     64

/* Columns [lo, lo + pixels) of strip s's rows without GEGL's pixels:
 * the results of the rows they repeat, or the colour row's, made in the
 * strip itself so that the vertical pass reads every strip in place. */
static void
make_strip_rows (const CblurCpuJob *job,
                 gint               s,
                 gint               lo,
                 gint               pixels)
{
  /* the rows above GEGL's pixels, and those below */
  const gint made[2][2] = { { 0, job->top }, { job->bottom, job->src->height } };
  gint       m, y;

  for (m = 0; m < 2; m++)
    for (y = made[m][0]; y < made[m][1]; y++)
      {
        gint              source = cblur_cpu_abyss_source (y, job->top, job->bottom,
                                                           job->policy);
        const CblurPixel *from = source < 0
          ? job->made_row + (s * CBLUR_STRIP_PIXELS - job->lead + lo)
          : cblur_cpu_strip_row (job, s, source) + lo;

        memcpy (cblur_cpu_strip_row (job, s, y) + lo, from, pixels * sizeof (CblurPixel));
      }
}

/* whether dst's results are encoded straight into GEGL's memory */
static gboolean
in_place (const CblurCpuJob *job)
{
  return job->dst->data == NULL && job->dst->format != NULL &&
         job->io->write_in_place != NULL;
}

/* a span's result, for encode_part */
typedef struct
{
  const CblurFormat *format;
  const CblurPixel  *encoding;   /* all dst's rows of the span, `pixels` wide */
  gint               x;          /* the span's first column */
  gint               pixels;
} SpanResult;

static void
encode_part (gint     x,
             gint     y,
             gint     width,
             gint     height,
             guint8  *rows,
             gsize    stride,
             gpointer fill_data)
{
  const SpanResult *span = fill_data;
  gint              r;

  /* whole rows both sides, as a tile wide part is: one run */
  if (width == span->pixels && stride == (gsize) width * span->format->bytes_per_pixel)
    {
      cblur_format_encode (span->format,
                           (const gfloat *) (span->encoding + (gsize) y * span->pixels),
                           rows, (gsize) width * height);
      return;
    }
  for (r = 0; r < height; r++)
    cblur_format_encode (span->format,
                         (const gfloat *) (span->encoding +
                                           (gsize) (y + r) * span->pixels + (x - span->x)),
                         rows + r * stride, width);
}

/* Rows [y, y + rows) of a span's result, `pixels` wide, in `encoding`:
 * encoded into dst's format, then copied into dst's rows or handed to the
 * io where dst holds none. */
static void
put_rows (const CblurCpuJob *job,
          gint               x,
          gint               y,
          gint               pixels,
          gint               rows,
          const CblurPixel  *encoding,
          guint8            *encoded)
{
  const CblurImage *dst = job->dst;
  gsize             bytes = pixels * cblur_image_pixel_bytes (dst);
  /* rows start on whole floats */
  gsize             stride = (bytes + sizeof (gfloat) - 1) / sizeof (gfloat);
  const guint8     *result = dst->format != NULL ? encoded : (const guint8 *) encoding;
  gint              r;

  if (dst->format != NULL && stride * sizeof (gfloat) == bytes)
    cblur_format_encode (dst->format, (const gfloat *) encoding, encoded,
                         (gsize) pixels * rows);
  else if (dst->format != NULL)
    for (r = 0; r < rows; r++)
      cblur_format_encode (dst->format, (const gfloat *) (encoding + (gsize) r * pixels),
                           encoded + r * stride * sizeof (gfloat), pixels);

  if (dst->data == NULL)
    {
      CblurImage part = { (gfloat *) result, dst->x + x, dst->y + y, pixels, rows,
                          dst->format != NULL ? stride : (gsize) pixels * CBLUR_CHANNELS,
                          dst->format };

      job->io->write (&part, 0, 0, pixels, rows, job->io->user_data);
      return;
    }
  for (r = 0; r < rows; r++)
    memcpy (cblur_image_bytes (dst, x, y + r), encoded + r * stride * sizeof (gfloat), bytes);
}

/* A span's result goes out in runs of whole tiles where GEGL has them:
 * a write of part of a tile has GEGL copy the rest of it first, and the
 * strips' narrow writes of each tile cost more than their encoding.
 * Written in place, it goes out whole, GEGL handing over its tiles one
 * by one. */
static void
put_span (const CblurCpuJob *job,
          gint               x,
          gint               pixels,
          const CblurPixel  *encoding,
          guint8            *encoded)
{
  gint height = job->dst->height;
  gint y, end;

  if (in_place (job))
    {
      SpanResult span = { job->dst->format, encoding, x, pixels };

      job->io->write_in_place (job->dst, x, 0, pixels, height, encode_part, &span,
                               job->io->user_data);
      return;
    }
  for (y = 0; y < height; y = end)
    {
      end = MIN (height, y + job->write_rows -
                         (gint) cblur_floor_mod (job->dst->y + y, job->write_rows));
      put_rows (job, x, y, pixels, end - y, encoding + (gsize) y * pixels, encoded);
    }
}

/* A whole strip's box passes go over the strip itself, which nothing
 * reads after them: the passes between then stay in the core's L2 cache
 * with the strip, which has no room beside it for a line of their own.
 * A box pass may write over its input (cblur_line_blur). */
static CblurLineScratch
strip_scratch (const CblurCpuJob      *job,
               gint                    s,
               gint                    pixels,
               const CblurLineScratch *scratch)
{
  CblurLineScratch own = *scratch;

  if (pixels == CBLUR_STRIP_PIXELS)
    own.between = cblur_cpu_strip_row (job, s, cblur_kernel_skip (job->kernel, CBLUR_AXIS_Y));
  return own;
}

/* The vertical pass, a span of dst's columns at a time, each of its
 * strips ending in dst, or where dst is stored in another format or holds
 * no pixels, in the span's own rows (put_span). */
static void
vertical_span (const CblurCpuJob *job,
               gint               x0,
               gint               x1,
               CblurPixel        *encoding,
               guint8            *encoded,
               CblurLineScratch  *scratch)
{
  gboolean apart = job->dst->format != NULL || job->dst->data == NULL;
  gint     s;

  for (s = (x0 + job->lead) / CBLUR_STRIP_PIXELS;
       s * CBLUR_STRIP_PIXELS - job->lead < x1; s++)
    {
      gint         begin = MAX (s * CBLUR_STRIP_PIXELS - job->lead, x0);
      gint         end = MIN ((s + 1) * CBLUR_STRIP_PIXELS - job->lead, x1);
      gint         lo = begin + job->lead - s * CBLUR_STRIP_PIXELS;
      /* into dst's own rows only where it holds pixels in the blur's format */
      CblurLineOut out = apart ? (CblurLineOut) { encoding + (begin - x0), x1 - x0 }
                               : (CblurLineOut) { (CblurPixel *) job->dst->data + begin,
                                                  job->dst->stride / CBLUR_CHANNELS };

      CblurLineScratch in_strip = strip_scratch (job, s, end - begin, scratch);
      gboolean         next = (s + 1) * CBLUR_STRIP_PIXELS - job->lead < x1;

      /* the unit's next strip, from memory, as this one's passes run */
      cblur_line_scratch_ahead (&in_strip, next ? cblur_cpu_strip_row (job, s + 1, 0) : NULL,
                                (gsize) job->src->height * CBLUR_STRIP_PIXELS *
                                sizeof (CblurPixel));

      make_strip_rows (job, s, lo, end - begin);
      cblur_line_blur (job->kernel, CBLUR_AXIS_Y,
                       (CblurLine) { cblur_cpu_strip_row (job, s, 0) + lo, CBLUR_STRIP_PIXELS },
                       job->src->height, job->src->y, out, end - begin, &in_strip);
    }
  if (apart)
    put_span (job, x0, x1 - x0, encoding, encoded);
}

/* dst's columns [*x0, *x1) of unit u of the vertical pass: a span each,
 * but the last span in parts of whole strips, one a thread, so that
 * the threads, taking units as they come free, finish together rather
 * than one waiting out the last span alone */
static void
unit_columns (const CblurCpuJob *job,
              gint               u,
              gint              *x0,
              gint              *x1)
{
  gint last = job->n_spans - 1;
  gint c = MIN (u, last);
  gint first_strip, strips, each;

  *x0 = MAX (c * job->span_columns - job->lead, 0);
  *x1 = MIN ((c + 1) * job->span_columns - job->lead, job->dst->width);
  if (u < last)
    return;
  first_strip = (*x0 + job->lead) / CBLUR_STRIP_PIXELS;
  strips = (*x1 + job->lead + CBLUR_STRIP_PIXELS - 1) / CBLUR_STRIP_PIXELS - first_strip;
  each = (strips + job->last_span_units - 1) / job->last_span_units;
  *x0 = MAX ((first_strip + (u - last) * each) * CBLUR_STRIP_PIXELS - job->lead, *x0);
  *x1 = MIN ((first_strip + (u - last + 1) * each) * CBLUR_STRIP_PIXELS - job->lead, *x1);
}

void
cblur_cpu_spans (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const CblurCpuJob *job = user_data;
  gint               n_in = job->src->height;
  gsize              span = (gsize) job->dst->height * job->span_columns;
  gsize              scratch_bytes = cblur_line_scratch_bytes (job->kernel, CBLUR_AXIS_Y,
                                                               n_in, CBLUR_STRIP_PIXELS);
  /* the span, the scratch, and write_rows of it encoded (rows rounded up
   * to whole floats) */
  gsize              bytes = span * sizeof (CblurPixel) + scratch_bytes +
                             (gsize) job->write_rows * job->span_columns *
                             (cblur_image_pixel_bytes (job->dst) + 3);
  guint8            *memory = cblur_pixels_take (bytes);
  CblurPixel        *encoding = (CblurPixel *) memory;
  guint8            *encoded = (guint8 *) (encoding + span) + scratch_bytes;
  CblurLineScratch   scratch;
  gsize              u;

  cblur_line_scratch_init (&scratch, job->kernel, n_in, CBLUR_STRIP_PIXELS, encoding + span);
  for (u = first; u < first + count; u++)
    {
      gint x0, x1;

      unit_columns (job, u, &x0, &x1);
      if (x0 < x1)
        vertical_span (job, x0, x1, encoding, encoded, &scratch);
    }
  cblur_pixels_free (memory);
}

/* A span is a tile of GEGL's wide, so that its writes cover whole tiles,
 * where its rows of results take no more than SPAN_PIXELS_MAX; it encodes
 * and writes a tile's rows at a time. */
void
cblur_cpu_choose_spans (CblurCpuJob *job)
{
  gint tile_width = job->io != NULL ? job->io->tile_width : 0;
  gint tile_height = job->io != NULL ? job->io->tile_height : 0;
  gint most = MAX (SPAN_PIXELS_MAX / MAX (job->dst->height, 1) / CBLUR_STRIP_PIXELS, 1);

  job->span_columns = tile_width > 0 ? (tile_width + CBLUR_STRIP_PIXELS - 1) / CBLUR_STRIP_PIXELS
                                     : SPAN_STRIPS_UNTILED;
  job->span_columns = MIN (job->span_columns, most) * CBLUR_STRIP_PIXELS;
  job->lead = cblur_floor_mod (job->dst->x, job->span_columns);
  job->n_spans = (job->lead + job->dst->width + job->span_columns - 1) / job->span_columns;
  job->last_span_units = MIN (cblur_parallel_threads (),
                               job->span_columns / CBLUR_STRIP_PIXELS);
  job->write_rows = tile_height > 0 && tile_height <= WRITE_ROWS_MAX ? tile_height
                                                                      : WRITE_ROWS_UNTILED;
}

