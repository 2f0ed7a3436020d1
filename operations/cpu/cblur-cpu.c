#include "cblur-cpu.h"

#include <string.h>
#include <gegl.h>

#include "cblur-cpu-line.h"
#include "cblur-memory.h"
#include "cblur-parallel.h"
#include "cblur-pixel.h"

typedef struct
{
  const CblurKernel *kernel;
  const CblurImage  *src;
  const CblurImage  *dst;
  GeglAbyssPolicy    policy;
  gboolean           straight;   /* GEGL's pixels' alpha, premultiplied as gathered */
  gint               left;       /* src's columns [left, right) and rows */
  gint               right;      /* [top, bottom) are GEGL's pixels, */
  gint               top;        /* `pixels`; the rest is made as */
  gint               bottom;     /* `policy` says */
  const CblurImage  *pixels;     /* read through stream where they have none */
  CblurPixel         colour;     /* the policy's, where it has one */
  CblurPixel        *between;    /* horizontal result of src's rows, in strips */
  CblurPixel        *made_row;   /* ... of a row of the colour */
  CblurStream       *stream;     /* for GEGL's pixels and dst without pixels */
  /* chunks and strips lie on a grid of absolute columns, GEGL's tiles'
   * where the stream has them: dst starts `lead` columns into its chunk */
  gint               lead;
  gint               chunk;      /* the columns of a vertical pass's work, */
  gint               piece_rows; /* and the rows it encodes and writes at once */
  gint               n_chunks;
  gint               last_pieces; /* the last chunk's units (unit_columns) */
  /* GEGL's pixels as gathered, by row groups, from an earlier blur
   * (kept_held) or for the next (cblur-kept.h), or NULL */
  CblurPixel        *kept;
  gint               kept_margin;
  gboolean           kept_held;
} Job;

/* a chunk's results, in pixels, at most; without GEGL's tiles, chunks of
 * 8 strips, written 64 rows at a time */
#define CHUNK_PIXELS         (256 * 1024)
#define DEFAULT_CHUNK_STRIPS 8
#define MAX_PIECE_ROWS       256
#define DEFAULT_PIECE_ROWS   64

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
  gint own = cblur_abyss_index (policy, i - lo, hi - lo);

  return own < 0 ? -1 : lo + own;
}

/* row y of strip s of the pass between */
static inline CblurPixel *
strip_row (const Job *job,
           gint       s,
           gint       y)
{
  gint first = job->lead / CBLUR_STRIP_PIXELS;

  return job->between + ((gsize) (s - first) * job->src->height + y) * CBLUR_STRIP_PIXELS;
}

/* Rows to and from a line of interleaved rows, two cache lines of each row
 * at a time: row by row, each element's line went out of the cache
 * before the next row wrote to it. */
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
transpose_out (const Job        *job,
               const CblurPixel *line,
               gint              rows,
               gint              row,
               gint              end)
{
  gint first = job->lead / CBLUR_STRIP_PIXELS;
  gint last = (job->lead + end - 1) / CBLUR_STRIP_PIXELS;
  gint s, r, i;

  for (s = first; s <= last; s++)
    {
      gint        begin = MAX (s * CBLUR_STRIP_PIXELS, job->lead) - job->lead;
      gint        stop = MIN ((s + 1) * CBLUR_STRIP_PIXELS - job->lead, end);
      /* column i at its place in the strip's rows */
      CblurPixel *strip = strip_row (job, s, row) + job->lead - s * CBLUR_STRIP_PIXELS;

      for (r = 0; r < rows; r++)
        for (i = begin; i < stop; i++)
          cblur_pixels_stream ((gfloat *) (strip + (gsize) r * CBLUR_STRIP_PIXELS + i),
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
kept_line (const Job *job,
           gint       y,
           gint       rows)
{
  gint margin = job->kept_margin;

  return job->kept + (gsize) y * (job->right - job->left + 2 * margin) +
         (gsize) (margin - job->left) * rows;
}

/* the line's elements [left, right) into the kept group at y, around the
 * cache: they are read in the next blur */
static void
keep_group (const Job        *job,
            gint              y,
            gint              rows,
            const CblurPixel *line)
{
  gsize       n = (gsize) (job->right - job->left) * rows;
  CblurPixel *group = kept_line (job, y, rows) + (gsize) job->left * rows;
  gsize       i;

  for (i = 0; i < n; i++)
    cblur_pixels_stream ((gfloat *) (group + i), (const gfloat *) (line + i));
}

/* Rows [y, y + rows) of GEGL's pixels (from `pixels`' first), from
 * column `left`, into the line's elements [left, right): their own rows,
 * or rows read into `held` (rows of src's width) through the stream
 * where `pixels` has none; decoded where they are stored in another
 * format, premultiplied where straight; kept where the job keeps them. */
static void
fetch_rows (const Job  *job,
            gint        y,
            gint        rows,
            CblurPixel *held,
            CblurPixel *line)
{
  const CblurImage *pixels = job->pixels;
  gint              n_in = job->src->width;
  gint              width = job->right - job->left;
  const guint8     *stored[CBLUR_ROW_GROUP];
  gint              r;

  if (pixels->data == NULL)
    {
      CblurImage part = { (gfloat *) held, pixels->x, pixels->y + y, width, rows,
                          (gsize) n_in * CBLUR_CHANNELS, pixels->format };

      job->stream->read (&part, 0, 0, width, rows, job->stream->user_data);
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
make_abyss_columns (const Job  *job,
                    CblurPixel *line,
                    gint        rows)
{
  const gint made[2][2] = { { 0, job->left }, { job->right, job->src->width } };
  gint       m, x, r;

  for (m = 0; m < 2; m++)
    for (x = made[m][0]; x < made[m][1]; x++)
      {
        gint source = abyss_source (x, job->left, job->right, job->policy);

        for (r = 0; r < rows; r++)
          line[(gsize) x * rows + r] = source < 0 ? job->colour
                                                  : line[(gsize) source * rows + r];
      }
}

/* The kept row group at y, which the thread blurs next, brought in as it
 * blurs this one (no group: y < 0; GEGL's rows not kept: nothing). */
static void
ahead_of_group (const Job        *job,
                gint              y,
                CblurLineScratch *scratch)
{
  gint rows = MIN (CBLUR_ROW_GROUP, job->bottom - job->top - y);

  if (y < 0 || job->kept == NULL || !job->kept_held)
    {
      cblur_line_scratch_ahead (scratch, NULL, 0);
      return;
    }
  cblur_line_scratch_ahead (scratch, kept_line (job, y, rows) + (gsize) job->left * rows,
                            (gsize) (job->right - job->left) * rows * sizeof (CblurPixel));
}

/* Four lines of 8 rows at 4K widths outgrow a core's L2 cache: rows as
 * read go in the box passes' line between, written only after they are
 * gathered, and the last pass's output over the gathered rows, which only
 * the first pass reads. */
static gboolean
shares_lines (const CblurKernel *kernel)
{
  const CblurKernelAxis *x = &kernel->axes[CBLUR_AXIS_X];

  return x->mode == CBLUR_MODE_BOX && x->iterations >= 2;
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
  gboolean          shared = shares_lines (job->kernel);
  gsize             bytes = (shared ? line_in : 2 * line_in + line_out) * sizeof (CblurPixel) +
                            cblur_line_scratch_bytes (job->kernel, CBLUR_AXIS_X, n_in,
                                                      CBLUR_ROW_GROUP);
  guint8           *memory = cblur_pixels_take (bytes);
  CblurPixel       *gathered = (CblurPixel *) memory;
  /* GEGL's rows, where read or decoded; with shared lines also the first
   * box pass's output, and the result goes over the gathered rows */
  CblurPixel       *held = gathered + line_in;
  CblurPixel       *blurred = shared ? gathered : held + line_in;
  CblurLineScratch  scratch;
  gsize             group;

  cblur_line_scratch_init (&scratch, job->kernel, n_in, CBLUR_ROW_GROUP,
                           shared ? held : blurred + line_out);

  for (group = first; group < first + count; group++)
    {
      gint              row0 = group * CBLUR_ROW_GROUP;
      gint rows = MIN (CBLUR_ROW_GROUP, job->bottom - job->top - row0);

      /* kept rows go through the passes where they are kept */
      CblurPixel       *line = job->kept != NULL && job->kept_held
                                 ? kept_line (job, row0, rows) : gathered;

      if (line == gathered)
        fetch_rows (job, row0, rows, held, gathered);
      make_abyss_columns (job, line, rows);
      ahead_of_group (job, group + 1 < first + count ? row0 + CBLUR_ROW_GROUP : -1, &scratch);

      cblur_line_blur (job->kernel, CBLUR_AXIS_X, (CblurLine) { line, rows }, n_in,
                       job->src->x, (CblurLineOut) { blurred, rows }, rows, &scratch);

      transpose_out (job, blurred, rows, job->top + row0, n_out);
    }
  cblur_pixels_streamed ();

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

static gboolean
has_made_rows (const Job *job)
{
  return job->top > 0 || job->bottom < job->src->height;
}

/* Columns [lo, lo + pixels) of strip s's rows without GEGL's pixels:
 * the results of the rows they repeat, or the colour row's, made in the
 * strip itself so that the vertical pass reads every strip in place. */
static void
make_strip_rows (const Job *job,
                 gint       s,
                 gint       lo,
                 gint       pixels)
{
  /* the rows above GEGL's pixels, and those below */
  const gint made[2][2] = { { 0, job->top }, { job->bottom, job->src->height } };
  gint       m, y;

  for (m = 0; m < 2; m++)
    for (y = made[m][0]; y < made[m][1]; y++)
      {
        gint              source = abyss_source (y, job->top, job->bottom, job->policy);
        const CblurPixel *from = source < 0
          ? job->made_row + (s * CBLUR_STRIP_PIXELS - job->lead + lo)
          : strip_row (job, s, source) + lo;

        memcpy (strip_row (job, s, y) + lo, from, pixels * sizeof (CblurPixel));
      }
}

/* whether dst's results are encoded straight into GEGL's memory */
static gboolean
in_place (const Job *job)
{
  return job->dst->data == NULL && job->dst->format != NULL &&
         job->stream->write_in_place != NULL;
}

/* a chunk's result, for encode_part */
typedef struct
{
  const CblurFormat *format;
  const CblurPixel  *encoding;   /* all dst's rows of the chunk, `pixels` wide */
  gint               x;          /* the chunk's first column */
  gint               pixels;
} Chunk;

static void
encode_part (gint     x,
             gint     y,
             gint     width,
             gint     height,
             guint8  *rows,
             gsize    stride,
             gpointer fill_data)
{
  const Chunk *chunk = fill_data;
  gint         r;

  /* whole rows both sides, as a tile wide part is: one run */
  if (width == chunk->pixels && stride == (gsize) width * chunk->format->bytes_per_pixel)
    {
      cblur_format_encode (chunk->format,
                           (const gfloat *) (chunk->encoding + (gsize) y * chunk->pixels),
                           rows, (gsize) width * height);
      return;
    }
  for (r = 0; r < height; r++)
    cblur_format_encode (chunk->format,
                         (const gfloat *) (chunk->encoding +
                                           (gsize) (y + r) * chunk->pixels + (x - chunk->x)),
                         rows + r * stride, width);
}

/* Rows [y, y + rows) of a chunk's result, `pixels` wide, in `encoding`:
 * encoded into dst's format, then copied into dst's rows or handed to the
 * stream where dst holds none. */
static void
put_piece (const Job        *job,
           gint              x,
           gint              y,
           gint              pixels,
           gint              rows,
           const CblurPixel *encoding,
           guint8           *encoded)
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

      job->stream->write (&part, 0, 0, pixels, rows, job->stream->user_data);
      return;
    }
  for (r = 0; r < rows; r++)
    memcpy (cblur_image_bytes (dst, x, y + r), encoded + r * stride * sizeof (gfloat), bytes);
}

/* A chunk's result goes out in pieces of whole tiles where GEGL has them:
 * a write of part of a tile has GEGL copy the rest of it first, and the
 * strips' narrow writes of each tile cost more than their encoding.
 * Written in place, it goes out whole, GEGL handing over its tiles one
 * by one. */
static void
put_chunk (const Job        *job,
           gint              x,
           gint              pixels,
           const CblurPixel *encoding,
           guint8           *encoded)
{
  gint height = job->dst->height;
  gint y, end;

  if (in_place (job))
    {
      Chunk chunk = { job->dst->format, encoding, x, pixels };

      job->stream->write_in_place (job->dst, x, 0, pixels, height, encode_part, &chunk,
                                   job->stream->user_data);
      return;
    }
  for (y = 0; y < height; y = end)
    {
      end = MIN (height, y + job->piece_rows -
                         (gint) cblur_floor_mod (job->dst->y + y, job->piece_rows));
      put_piece (job, x, y, pixels, end - y, encoding + (gsize) y * pixels, encoded);
    }
}

/* A whole strip's box passes go over the strip itself, which nothing
 * reads after them: the passes between then stay in the core's L2 cache
 * with the strip, where a line of their own beside it pushed both out.
 * A box pass may write over its input (cblur_line_blur). */
static CblurLineScratch
strip_scratch (const Job              *job,
               gint                    s,
               gint                    pixels,
               const CblurLineScratch *scratch)
{
  CblurLineScratch own = *scratch;

  if (pixels == CBLUR_STRIP_PIXELS)
    own.between = strip_row (job, s, cblur_kernel_skip (job->kernel, CBLUR_AXIS_Y));
  return own;
}

/* The vertical pass, a chunk of dst's columns at a time, each of its
 * strips ending in dst, or where dst is stored in another format or holds
 * no pixels, in the chunk's own rows (put_chunk). */
static void
vertical_chunk (const Job        *job,
                gint              x0,
                gint              x1,
                CblurPixel       *encoding,
                guint8           *encoded,
                CblurLineScratch *scratch)
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
      cblur_line_scratch_ahead (&in_strip, next ? strip_row (job, s + 1, 0) : NULL,
                                (gsize) job->src->height * CBLUR_STRIP_PIXELS *
                                sizeof (CblurPixel));

      make_strip_rows (job, s, lo, end - begin);
      cblur_line_blur (job->kernel, CBLUR_AXIS_Y,
                       (CblurLine) { strip_row (job, s, 0) + lo, CBLUR_STRIP_PIXELS },
                       job->src->height, job->src->y, out, end - begin, &in_strip);
    }
  if (apart)
    put_chunk (job, x0, x1 - x0, encoding, encoded);
}

/* dst's columns [*x0, *x1) of unit u of the vertical pass: a chunk each,
 * but the last chunk in pieces of whole strips, one a thread, so that
 * the threads, taking units as they come free, finish together rather
 * than one waiting out the last chunk alone */
static void
unit_columns (const Job *job,
              gint       u,
              gint      *x0,
              gint      *x1)
{
  gint last = job->n_chunks - 1;
  gint c = MIN (u, last);
  gint first_strip, strips, each;

  *x0 = MAX (c * job->chunk - job->lead, 0);
  *x1 = MIN ((c + 1) * job->chunk - job->lead, job->dst->width);
  if (u < last)
    return;
  first_strip = (*x0 + job->lead) / CBLUR_STRIP_PIXELS;
  strips = (*x1 + job->lead + CBLUR_STRIP_PIXELS - 1) / CBLUR_STRIP_PIXELS - first_strip;
  each = (strips + job->last_pieces - 1) / job->last_pieces;
  *x0 = MAX ((first_strip + (u - last) * each) * CBLUR_STRIP_PIXELS - job->lead, *x0);
  *x1 = MIN ((first_strip + (u - last + 1) * each) * CBLUR_STRIP_PIXELS - job->lead, *x1);
}

static void
vertical_units (gsize    first,
                gsize    count,
                gpointer user_data)
{
  const Job        *job = user_data;
  gint              n_in = job->src->height;
  gsize             chunk = (gsize) job->dst->height * job->chunk;
  gsize             scratch_bytes = cblur_line_scratch_bytes (job->kernel, CBLUR_AXIS_Y,
                                                              n_in, CBLUR_STRIP_PIXELS);
  /* the chunk, the scratch, and a piece encoded (rows rounded up to whole
   * floats) */
  gsize             bytes = chunk * sizeof (CblurPixel) + scratch_bytes +
                            (gsize) job->piece_rows * job->chunk *
                            (cblur_image_pixel_bytes (job->dst) + 3);
  guint8           *memory = cblur_pixels_take (bytes);
  CblurPixel       *encoding = (CblurPixel *) memory;
  guint8           *encoded = (guint8 *) (encoding + chunk) + scratch_bytes;
  CblurLineScratch  scratch;
  gsize             u;

  cblur_line_scratch_init (&scratch, job->kernel, n_in, CBLUR_STRIP_PIXELS, encoding + chunk);
  for (u = first; u < first + count; u++)
    {
      gint x0, x1;

      unit_columns (job, u, &x0, &x1);
      if (x0 < x1)
        vertical_chunk (job, x0, x1, encoding, encoded, &scratch);
    }
  cblur_pixels_free (memory);
}

/* A chunk is a tile of GEGL's wide, so that its writes cover whole tiles,
 * where its rows of results take no more than CHUNK_PIXELS; it encodes
 * and writes a tile's rows at a time. */
static void
choose_chunks (Job *job)
{
  gint tile_width = job->stream != NULL ? job->stream->tile_width : 0;
  gint tile_height = job->stream != NULL ? job->stream->tile_height : 0;
  gint most = MAX (CHUNK_PIXELS / MAX (job->dst->height, 1) / CBLUR_STRIP_PIXELS, 1);

  job->chunk = tile_width > 0 ? (tile_width + CBLUR_STRIP_PIXELS - 1) / CBLUR_STRIP_PIXELS
                              : DEFAULT_CHUNK_STRIPS;
  job->chunk = MIN (job->chunk, most) * CBLUR_STRIP_PIXELS;
  job->lead = cblur_floor_mod (job->dst->x, job->chunk);
  job->n_chunks = (job->lead + job->dst->width + job->chunk - 1) / job->chunk;
  job->last_pieces = MIN (cblur_parallel_threads (), job->chunk / CBLUR_STRIP_PIXELS);
  job->piece_rows = tile_height > 0 && tile_height <= MAX_PIECE_ROWS ? tile_height
                                                                      : DEFAULT_PIECE_ROWS;
}

/* Where the stream keeps its source's pixels and the job reads all of
 * GEGL's (a whole image at a level, a slider's frame), the job takes
 * them as an earlier blur kept them, or keeps them for the next. */
static void
take_kept (Job         *job,
           CblurStream *stream)
{
  const CblurImage *pixels = job->pixels;
  GeglRectangle     rect = { pixels->x, pixels->y, pixels->width, pixels->height };

  if (stream == NULL || stream->kept == NULL)
    return;
  if (pixels->data != NULL || !gegl_rectangle_equal (&rect, &stream->inside))
    return;
  job->kept_margin = MAX (job->left, job->src->width - job->right);
  job->kept = cblur_kept_take (stream->kept, &rect, pixels->format, job->straight,
                               CBLUR_ROW_GROUP, &job->kept_margin, &job->kept_held);
  stream->read_kept = job->kept != NULL && job->kept_held;
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

  /* stored without alpha, pixels decode with alpha 1, which premultiplies
   * to themselves */
  job.straight = straight && (job.pixels->format == NULL || job.pixels->format->has_alpha);
  take_kept (&job, stream);

  /* as for a band with all its halo, whatever this one has: the blocks of
   * a region's bands then fit each other */
  choose_chunks (&job);
  between_bytes = (gsize) (job.lead % CBLUR_STRIP_PIXELS + dst->width + CBLUR_STRIP_PIXELS - 1) /
                  CBLUR_STRIP_PIXELS * CBLUR_STRIP_PIXELS * src->height * sizeof (CblurPixel);
  job.between = (CblurPixel *) cblur_pixels_take (between_bytes);

  /* a row costs about one pixel-window per output pixel; splitting is
   * worth it once a thread has a few thousand of those to do */
  cblur_parallel_distribute_range ((job.bottom - job.top + CBLUR_ROW_GROUP - 1) / CBLUR_ROW_GROUP,
                                   4096.0 / (CBLUR_ROW_GROUP * (gsize) dst->width + 1),
                                   horizontal_rows, &job);
  if (job.kept != NULL)
    cblur_kept_give_back (stream->kept);

  cblur_parallel_share_range (job.n_chunks - 1 + job.last_pieces,
                              4096.0 / ((gsize) job.chunk * dst->height + 1),
                              vertical_units, &job);

  cblur_pixels_free (job.between);
  g_clear_pointer (&job.made_row, gegl_free);
}
