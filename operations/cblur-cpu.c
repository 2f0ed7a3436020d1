#include "cblur-cpu.h"

#include <string.h>
#include <gegl.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-cpu-line.h"
#include "cblur-memory.h"
#include "cblur-pixel.h"

typedef struct
{
  const CblurKernel *kernel;
  const CblurImage  *src;
  const CblurImage  *dst;
  GeglAbyssPolicy    policy;
  gboolean           straight;   /* src's alpha, premultiplied as gathered */
  gint               left;       /* src's columns [left, right) and rows */
  gint               right;      /* [top, bottom) are GEGL's pixels, */
  gint               top;        /* `pixels`; the rest is made as */
  gint               bottom;     /* `policy` says */
  const CblurImage  *pixels;     /* read through stream where they have none */
  CblurPixel         colour;     /* the policy's, where it has one */
  CblurPixel        *between;    /* horizontal result of rows [top, bottom) */
  CblurPixel        *made_row;   /* ... of a row of the colour */
  CblurStream       *stream;     /* for GEGL's pixels and dst without pixels */
} Job;

/* none, black and white fill the abyss with one colour; clamp and loop
 * repeat GEGL's pixels */
static gboolean
has_colour (GeglAbyssPolicy policy)
{
  return policy != GEGL_ABYSS_CLAMP && policy != GEGL_ABYSS_LOOP;
}

/* Where, under the policy, element i of a line whose GEGL pixels are
 * [lo, hi) takes its value from; -1 where it is the policy's colour. */
static gint
abyss_source (gint            i,
              gint            lo,
              gint            hi,
              GeglAbyssPolicy policy)
{
  if (i >= lo && i < hi)
    return i;
  if (has_colour (policy))
    return -1;
  return policy == GEGL_ABYSS_CLAMP ? CLAMP (i, lo, hi - 1)
                                    : lo + cblur_floor_mod (i - lo, hi - lo);
}

/* pixel x of a row's line: GEGL's, or made from them or the colour; row
 * holds GEGL's, from column `left` */
static inline CblurPixel
row_pixel (const Job        *job,
           const CblurPixel *row,
           gint              x)
{
  gint source = abyss_source (x, job->left, job->right, job->policy);

  return source < 0 ? job->colour : row[source - job->left];
}

/* Rows to and from a line of interleaved rows, two cache lines of each row
 * at a time: row by row, each element's line went out of the cache
 * before the next row wrote to it. */
#define TRANSPOSE_PIXELS 8

/* elements [begin, end) of the line from the sources' first pixels on */
static void
transpose_in (CblurPixel        *line,
              gint               rows,
              const CblurPixel **sources,
              gint               begin,
              gint               end)
{
  gint x, r, i;

  for (x = begin; x < end; x += TRANSPOSE_PIXELS)
    for (r = 0; r < rows; r++)
      for (i = x; i < MIN (x + TRANSPOSE_PIXELS, end); i++)
        line[(gsize) i * rows + r] = sources[r][i - begin];
}

static void
transpose_out (const CblurPixel  *line,
               gint               rows,
               CblurPixel       **targets,
               gint               end)
{
  gint x, r, i;

  for (x = 0; x < end; x += TRANSPOSE_PIXELS)
    for (r = 0; r < rows; r++)
      for (i = x; i < MIN (x + TRANSPOSE_PIXELS, end); i++)
        targets[r][i] = line[(gsize) i * rows + r];
}

/* Rows [y, y + rows) of GEGL's pixels (from `pixels`' first) in RGBA
 * float, from column `left`, into sources: their own rows, or in `held`
 * (rows of src's width), read through the stream where `pixels` has none
 * and decoded where they are stored in another format (in place: decoding
 * grows pixels from the end). */
static void
fetch_rows (const Job         *job,
            gint               y,
            gint               rows,
            CblurPixel        *held,
            const CblurPixel **sources)
{
  const CblurImage *pixels = job->pixels;
  gint              n_in = job->src->width;
  gint              width = job->right - job->left;
  gint              r;

  if (pixels->data == NULL)
    {
      CblurImage part = { (gfloat *) held, pixels->x, pixels->y + y, width, rows,
                          (gsize) n_in * CBLUR_CHANNELS, pixels->format };

      job->stream->read (&part, 0, 0, width, rows, job->stream->user_data);
    }
  for (r = 0; r < rows; r++)
    {
      CblurPixel   *row = held + (gsize) r * n_in;
      const guint8 *stored = pixels->data != NULL ? cblur_image_bytes (pixels, 0, y + r)
                                                  : (const guint8 *) row;

      if (pixels->format != NULL)
        cblur_format_decode (pixels->format, stored, (gfloat *) row, width);
      sources[r] = pixels->data != NULL && pixels->format == NULL
                     ? (const CblurPixel *) cblur_image_row (pixels, y + r) : row;
    }
}

/* Memory that cblur-memory keeps from one call to the next: the pass
 * between, and each thread's buffers of a pass in one block (fresh every
 * band, their pages were faulted in and zeroed each time). */
static guint8 *
take_buffers (gsize bytes)
{
  guint8 *memory = cblur_pixels_alloc (bytes);

  /* as gegl_malloc did before these buffers were cached */
  if (memory == NULL)
    g_error (_("cblur:gaussian-blur: failed to allocate %.1f MiB"), bytes / 1048576.0);
  return memory;
}

/* Rows are blurred CBLUR_ROW_GROUP at a time, interleaved so that element
 * x of the line holds pixel x of each row: the same wide loops as the
 * column strips, instead of one pixel at a time.  Only rows with GEGL's
 * pixels: the made rows' results are those rows' again, or the colour
 * row's. */
static void
horizontal_rows (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job        *job = user_data;
  gint              n_in = job->src->width;
  gint              n_out = job->dst->width;
  gsize             line_in = (gsize) n_in * CBLUR_ROW_GROUP;
  gsize             line_out = (gsize) n_out * CBLUR_ROW_GROUP;
  gsize             bytes = (2 * line_in + line_out) * sizeof (CblurPixel) +
                            cblur_line_scratch_bytes (job->kernel, n_in, CBLUR_ROW_GROUP);
  guint8           *memory = take_buffers (bytes);
  CblurPixel       *gathered = (CblurPixel *) memory;
  CblurPixel       *held = gathered + line_in;      /* GEGL's rows, where read or decoded */
  CblurPixel       *blurred = held + line_in;
  CblurLineScratch  scratch;
  gsize             group;

  cblur_line_scratch_init (&scratch, job->kernel, n_in, CBLUR_ROW_GROUP, blurred + line_out);

  for (group = first; group < first + count; group++)
    {
      gint              row0 = group * CBLUR_ROW_GROUP;
      gint              rows = MIN (CBLUR_ROW_GROUP, job->bottom - job->top - row0);
      const CblurPixel *sources[CBLUR_ROW_GROUP];
      CblurPixel       *targets[CBLUR_ROW_GROUP];
      gint              r, x;

      fetch_rows (job, row0, rows, held, sources);
      for (r = 0; r < rows; r++)
        {
          const CblurPixel *src = sources[r];

          for (x = 0; x < job->left; x++)
            gathered[(gsize) x * rows + r] = row_pixel (job, src, x);
          for (x = job->right; x < n_in; x++)
            gathered[(gsize) x * rows + r] = row_pixel (job, src, x);
        }
      transpose_in (gathered, rows, sources, job->left, job->right);
      /* none's, black's and white's colours premultiply to themselves */
      if (job->straight)
        cblur_premultiply_pixels ((gfloat *) gathered, (gsize) n_in * rows);

      cblur_line_blur (job->kernel, (CblurLine) { gathered, rows }, n_in, job->src->x,
                       (CblurLineOut) { blurred, rows }, rows, &scratch);

      for (r = 0; r < rows; r++)
        targets[r] = job->between + (gsize) (row0 + r) * n_out;
      transpose_out (blurred, rows, targets, n_out);
    }

  cblur_pixels_free (memory);
}

/* A row of the colour, blurred as GEGL's own pixels would be: made rows
 * come out the same bits as read ones. */
static CblurPixel *
blur_colour_row (const Job *job)
{
  gint              n_in = job->src->width;
  CblurPixel       *line = gegl_malloc ((gsize) n_in * sizeof (CblurPixel));
  CblurPixel       *blurred = gegl_malloc ((gsize) job->dst->width * sizeof (CblurPixel));
  gpointer          memory = g_malloc (cblur_line_scratch_bytes (job->kernel, n_in, 1));
  CblurLineScratch  scratch;
  gint              x;

  for (x = 0; x < n_in; x++)
    line[x] = job->colour;
  cblur_line_scratch_init (&scratch, job->kernel, n_in, 1, memory);
  cblur_line_blur (job->kernel, (CblurLine) { line, 1 }, n_in, job->src->x,
                   (CblurLineOut) { blurred, 1 }, 1, &scratch);
  g_free (memory);
  gegl_free (line);
  return blurred;
}

static gboolean
has_made_rows (const Job *job)
{
  return job->top > 0 || job->bottom < job->src->height;
}

/* The strip's column of horizontal results, made rows included: in the
 * strip's own buffer, where there are made rows. */
static CblurLine
strip_column (const Job  *job,
              gint        x,
              gint        pixels,
              CblurPixel *column)
{
  gint width = job->dst->width;
  gint y;

  if (!has_made_rows (job))
    return (CblurLine) { job->between + x, width };

  for (y = 0; y < job->src->height; y++)
    {
      gint              source = abyss_source (y, job->top, job->bottom, job->policy);
      const CblurPixel *row = source < 0 ? job->made_row
                                         : job->between + (gsize) (source - job->top) * width;

      memcpy (column + (gsize) y * pixels, row + x, pixels * sizeof (CblurPixel));
    }
  return (CblurLine) { column, pixels };
}

/* A strip's result, `pixels` wide, in `encoding`: encoded into dst's
 * format (a call a strip: a call a row cost more than the encoding), then
 * copied into dst's rows or handed to the stream where dst holds none. */
static void
put_strip (const Job  *job,
           gint        x,
           gint        pixels,
           CblurPixel *encoding,
           guint8     *encoded)
{
  const CblurImage *dst = job->dst;
  gsize             bytes = pixels * cblur_image_pixel_bytes (dst);
  /* rows start on whole floats */
  gsize             stride = (bytes + sizeof (gfloat) - 1) / sizeof (gfloat);
  guint8           *result = dst->format != NULL ? encoded : (guint8 *) encoding;
  gint              y;

  if (dst->format != NULL && stride * sizeof (gfloat) == bytes)
    cblur_format_encode (dst->format, (const gfloat *) encoding, encoded,
                         (gsize) pixels * dst->height);
  else
    for (y = 0; dst->format != NULL && y < dst->height; y++)
      cblur_format_encode (dst->format, (const gfloat *) (encoding + (gsize) y * pixels),
                           encoded + y * stride * sizeof (gfloat), pixels);

  if (dst->data == NULL)
    {
      CblurImage part = { (gfloat *) result, dst->x + x, dst->y, pixels, dst->height,
                          dst->format != NULL ? stride : (gsize) pixels * CBLUR_CHANNELS,
                          dst->format };

      job->stream->write (&part, 0, 0, pixels, dst->height, job->stream->user_data);
      return;
    }
  for (y = 0; y < dst->height; y++)
    memcpy (cblur_image_bytes (dst, x, y), encoded + y * stride * sizeof (gfloat), bytes);
}

/* Column strips end in dst, or where dst is stored in another format or
 * holds no pixels, in a strip of their own (put_strip). */
static void
vertical_strips (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job        *job = user_data;
  gint              n_in = job->src->height;
  gint              width = job->dst->width;
  gsize             out_step = job->dst->stride / CBLUR_CHANNELS;
  gboolean          apart = job->dst->format != NULL || job->dst->data == NULL;
  gsize             column = (gsize) n_in * CBLUR_STRIP_PIXELS;
  gsize             strip = (gsize) job->dst->height * CBLUR_STRIP_PIXELS;
  gsize             scratch_bytes = cblur_line_scratch_bytes (job->kernel, n_in,
                                                              CBLUR_STRIP_PIXELS);
  /* the column, the strip, the scratch, and the strip encoded (rows
   * rounded up to whole floats) */
  gsize             bytes = (column + strip) * sizeof (CblurPixel) + scratch_bytes +
                            strip * (cblur_image_pixel_bytes (job->dst) + 3);
  guint8           *memory = take_buffers (bytes);
  CblurPixel       *made = (CblurPixel *) memory;
  CblurPixel       *encoding = made + column;
  guint8           *encoded = (guint8 *) (encoding + strip) + scratch_bytes;
  CblurLineScratch  scratch;
  gsize             s;

  cblur_line_scratch_init (&scratch, job->kernel, n_in, CBLUR_STRIP_PIXELS, encoding + strip);

  for (s = first; s < first + count; s++)
    {
      gint         x = s * CBLUR_STRIP_PIXELS;
      gint         pixels = MIN (CBLUR_STRIP_PIXELS, width - x);
      CblurLineOut out = { (CblurPixel *) job->dst->data + x, out_step };

      if (apart)
        out = (CblurLineOut) { encoding, pixels };
      cblur_line_blur (job->kernel, strip_column (job, x, pixels, made), n_in, job->src->y,
                       out, pixels, &scratch);
      if (apart)
        put_strip (job, x, pixels, encoding, encoded);
    }

  cblur_pixels_free (memory);
}

/* radius 0: src and dst have the same size */
static void
copy_interior (const CblurImage *src,
               gboolean          straight,
               const CblurImage *dst)
{
  gsize   bytes = (gsize) dst->width * sizeof (CblurPixel);
  gfloat *line = gegl_malloc (bytes);
  gint    row;

  for (row = 0; row < dst->height; row++)
    {
      if (src->format != NULL)
        cblur_format_decode (src->format, cblur_image_bytes (src, 0, row), line, dst->width);
      else
        memcpy (line, cblur_image_row (src, row), bytes);
      if (straight)
        cblur_premultiply_pixels (line, dst->width);
      if (dst->format != NULL)
        cblur_format_encode (dst->format, line, cblur_image_bytes (dst, 0, row), dst->width);
      else
        memcpy (cblur_image_row (dst, row), line, bytes);
    }
  gegl_free (line);
}

static CblurPixel
abyss_colour (GeglAbyssPolicy policy)
{
  CblurPixel colour;

  cblur_abyss_colour (policy, (gfloat *) &colour);
  return colour;
}

void
cblur_cpu_blur (const CblurKernel *kernel,
                const CblurImage  *src,
                const CblurImage  *inside,
                GeglAbyssPolicy    abyss,
                gboolean           straight,
                const CblurImage  *dst)
{
  cblur_cpu_blur_stream (kernel, src, inside, abyss, straight, dst, NULL);
}

void
cblur_cpu_blur_stream (const CblurKernel *kernel,
                       const CblurImage  *src,
                       const CblurImage  *inside,
                       GeglAbyssPolicy    abyss,
                       gboolean           straight,
                       const CblurImage  *dst,
                       CblurStream       *stream)
{
  Job   job = { kernel, src, dst, abyss, straight, 0, src->width, 0, src->height, src,
                abyss_colour (abyss), NULL, NULL, stream };
  gsize between_bytes;
  gsize strips;

  g_return_if_fail (src->width == dst->width + 2 * kernel->reach);
  g_return_if_fail (src->height == dst->height + 2 * kernel->reach);
  g_return_if_fail (stream != NULL ||
                    (dst->data != NULL && (inside != NULL ? inside : src)->data != NULL));

  if (dst->width <= 0 || dst->height <= 0)
    return;

  if (cblur_kernel_is_identity (kernel))
    {
      copy_interior (src, straight, dst);
      return;
    }

  if (inside != NULL)
    {
      job.left = inside->x - src->x;
      job.right = job.left + inside->width;
      job.top = inside->y - src->y;
      job.bottom = job.top + inside->height;
      job.pixels = inside;
      if (has_colour (abyss) && has_made_rows (&job))
        job.made_row = blur_colour_row (&job);
    }

  /* as for a band with all its halo, whatever this one has: the blocks of
   * a region's bands then fit each other */
  between_bytes = (gsize) dst->width * src->height * sizeof (CblurPixel);
  job.between = (CblurPixel *) take_buffers (between_bytes);

  /* a row costs about one pixel-window per output pixel; splitting is
   * worth it once a thread has a few thousand of those to do */
  gegl_parallel_distribute_range ((job.bottom - job.top + CBLUR_ROW_GROUP - 1) / CBLUR_ROW_GROUP,
                                  4096.0 / (CBLUR_ROW_GROUP * (gsize) dst->width + 1),
                                  horizontal_rows, &job);

  strips = (dst->width + CBLUR_STRIP_PIXELS - 1) / CBLUR_STRIP_PIXELS;
  gegl_parallel_distribute_range (strips, 4096.0 / (CBLUR_STRIP_PIXELS * (gsize) dst->height + 1),
                                  vertical_strips, &job);

  cblur_pixels_free (job.between);
  g_clear_pointer (&job.made_row, gegl_free);
}
