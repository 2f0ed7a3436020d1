#include "cblur-cpu.h"

#include <string.h>
#include <gegl.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-memory.h"
#include "cblur-pixel.h"

/* One premultiplied RGBA pixel: lines are addressed in whole pixels, and
 * the loops run over the 4 × pixels floats of an element, which the
 * compiler vectorizes as wide as the processor allows. */
typedef gfloat Pixel __attribute__ ((vector_size (16)));

/* Every output is the same bits on each of these: no FMA contraction
 * (-ffp-contract=off) and the same element-wise operations, only wider. */
#define WIDEST_VECTORS __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))

/* Columns handled together in the vertical pass, and rows in the
 * horizontal one: wide enough for the vector units, small enough that a
 * thread's line buffers stay in its L2 cache. */
#define STRIP_PIXELS 16
#define ROW_GROUP    STRIP_PIXELS

/* A line is a run of elements, each `pixels` contiguous pixels wide, with
 * `step` pixels from one element to the next: a row segment for the
 * horizontal pass (pixels 1, step 1), a column strip for the vertical one. */
typedef struct
{
  const Pixel *data;
  gsize        step;
} Line;

typedef struct
{
  Pixel *data;
  gsize  step;
} LineOut;

/* Accumulators for this many pixels stay in registers. */
#define DIRECT_GROUP 8

static inline __attribute__ ((always_inline)) void
direct_group (const gfloat *w,
              gint          hw,
              const Pixel  *centre,
              gsize         step,
              Pixel        *dst,
              const gint    pixels)
{
  const gint    lanes = pixels * CBLUR_CHANNELS;
  const gfloat *mid = (const gfloat *) centre;
  gfloat        acc[DIRECT_GROUP * CBLUR_CHANNELS];
  gint          j, c;

  for (c = 0; c < lanes; c++)
    acc[c] = mid[c] * w[0];

  for (j = 1; j <= hw; j++)
    {
      const gfloat *restrict before = (const gfloat *) (centre - (gsize) j * step);
      const gfloat *restrict after = (const gfloat *) (centre + (gsize) j * step);

      for (c = 0; c < lanes; c++)
        acc[c] += (before[c] + after[c]) * w[j];
    }

  for (c = 0; c < lanes; c++)
    ((gfloat *) dst)[c] = acc[c];
}

WIDEST_VECTORS static void
direct_line (const CblurKernel *kernel,
             Line               in,
             LineOut            out,
             gint               n_out,
             gint               pixels)
{
  const gfloat *w = kernel->weights;
  gint          hw = kernel->half_width;
  gint          i, p;

  for (i = 0; i < n_out; i++)
    {
      const Pixel *centre = in.data + (gsize) (i + hw) * in.step;
      Pixel       *dst = out.data + (gsize) i * out.step;

      /* constant group sizes let the compiler unroll the pixel loops */
      for (p = 0; p + DIRECT_GROUP <= pixels; p += DIRECT_GROUP)
        direct_group (w, hw, centre + p, in.step, dst + p, DIRECT_GROUP);
      if (p < pixels)
        direct_group (w, hw, centre + p, in.step, dst + p, pixels - p);
    }
}

/* One box pass.  Window sums are suffix sums of the left block plus prefix
 * sums of the right one, with blocks of the window's length anchored at
 * absolute coordinates, so each sum reads only pixels inside its window and
 * every output is the same whatever region it is computed in.  The pass
 * goes a block at a time, its suffix sums in a block-long buffer that stays
 * in the core's cache (over whole lines they went out to memory and back,
 * which bounded the pass on memory bandwidth); the prefix sum grows one
 * element an output, in registers. */
static inline __attribute__ ((always_inline)) void
box_pass_pixels (const CblurKernel *kernel,
                 Line               in,
                 gint               n_in,
                 gint64             origin,
                 LineOut            out,
                 Pixel             *suffix,
                 const gint         pixels)
{
  gint   k = kernel->box_half;
  gint   block = kernel->box_block;
  gfloat fraction = kernel->box_fraction;
  gfloat scale = kernel->box_scale;
  gint   n_out = n_in - 2 * (k + 1);
  gint   lanes = pixels * CBLUR_CHANNELS;
  gint   start, i, j, c;

#define PIXEL(base, step, index) ((gfloat *) ((base) + (gsize) (index) * (step)))

  /* output i is the window [i + 1, i + 2k + 1] plus the fraction of
   * elements i and i + 2k + 2; `start` is the first element of the block
   * that holds i + 1, whose suffix sums and the next block's prefix sums
   * make the windows */
  for (start = 1 - cblur_floor_mod (origin + 1, block); start <= n_out; start += block)
    {
      gint   first = MAX (start, 1);                   /* i + 1 of the first output */
      gint   end = MIN (start + block, n_out + 1);     /* ... past the last */
      gint   last_in = MIN (start + block, n_in) - 1;  /* the block's last element */
      gfloat prefix[STRIP_PIXELS * CBLUR_CHANNELS];    /* the next block's start to i + 2k + 1 */

      if (first >= end)
        continue;

      /* suffix[j - start]: elements j to the block's end */
      memcpy (PIXEL (suffix, pixels, last_in - start), PIXEL (in.data, in.step, last_in),
              lanes * sizeof (gfloat));
      for (j = last_in - 1; j >= first; j--)
        {
          gfloat       *restrict suf = PIXEL (suffix, pixels, j - start);
          const gfloat *restrict after = PIXEL (suffix, pixels, j + 1 - start);
          const gfloat *restrict src = PIXEL (in.data, in.step, j);

          for (c = 0; c < lanes; c++)
            suf[c] = after[c] + src[c];
        }

      i = first - 1;
      if (first == start)
        {
          /* a window that starts a block is that whole block */
          const gfloat *restrict suf = PIXEL (suffix, pixels, 0);
          const gfloat *restrict left = PIXEL (in.data, in.step, i);
          const gfloat *restrict right = PIXEL (in.data, in.step, i + 2 * k + 2);
          gfloat       *restrict dst = PIXEL (out.data, out.step, i);

          for (c = 0; c < lanes; c++)
            dst[c] = (suf[c] + (left[c] + right[c]) * fraction) * scale;
          i++;
        }
      if (i >= end - 1)
        continue;

      memcpy (prefix, PIXEL (in.data, in.step, start + block), lanes * sizeof (gfloat));
      for (j = start + block + 1; j <= i + 2 * k + 1; j++)
        {
          const gfloat *restrict src = PIXEL (in.data, in.step, j);

          for (c = 0; c < lanes; c++)
            prefix[c] += src[c];
        }
      for (; i < end - 1; i++)
        {
          const gfloat *restrict suf = PIXEL (suffix, pixels, i + 1 - start);
          const gfloat *restrict left = PIXEL (in.data, in.step, i);
          const gfloat *restrict right = PIXEL (in.data, in.step, i + 2 * k + 2);
          gfloat       *restrict dst = PIXEL (out.data, out.step, i);

          for (c = 0; c < lanes; c++)
            {
              dst[c] = ((suf[c] + prefix[c]) + (left[c] + right[c]) * fraction) * scale;
              /* the next output's window ends at this one's right */
              prefix[c] += right[c];
            }
        }
    }

#undef PIXEL
}

WIDEST_VECTORS static void
box_pass (const CblurKernel *kernel,
          Line               in,
          gint               n_in,
          gint64             origin,
          LineOut            out,
          gint               pixels,
          Pixel             *suffix)
{
  /* constant widths let the compiler unroll the pixel loops */
  if (pixels == STRIP_PIXELS)
    box_pass_pixels (kernel, in, n_in, origin, out, suffix, STRIP_PIXELS);
  else
    box_pass_pixels (kernel, in, n_in, origin, out, suffix, pixels);
}

typedef struct
{
  Pixel *suffix;
  Pixel *ping;
  Pixel *pong;
} BoxScratch;

static void
box_scratch_init (BoxScratch        *scratch,
                  const CblurKernel *kernel,
                  gint               n_in,
                  gint               pixels)
{
  gsize bytes = (gsize) n_in * pixels * sizeof (Pixel);
  gsize block_bytes = (gsize) kernel->box_block * pixels * sizeof (Pixel);

  if (kernel->mode != CBLUR_MODE_BOX)
    return;

  scratch->suffix = gegl_malloc (block_bytes);
  scratch->ping = gegl_malloc (bytes);
  scratch->pong = gegl_malloc (bytes);
}

static void
box_scratch_clear (BoxScratch *scratch)
{
  g_clear_pointer (&scratch->suffix, gegl_free);
  g_clear_pointer (&scratch->ping, gegl_free);
  g_clear_pointer (&scratch->pong, gegl_free);
}

static void
box_line (const CblurKernel *kernel,
          Line               in,
          gint               n_in,
          gint64             origin,
          LineOut            out,
          gint               pixels,
          BoxScratch        *scratch)
{
  gint shrink = 2 * (kernel->box_half + 1);
  gint pass;

  for (pass = 0; pass < kernel->iterations; pass++)
    {
      gboolean last = pass == kernel->iterations - 1;
      Pixel   *target = pass % 2 == 0 ? scratch->ping : scratch->pong;
      LineOut  pass_out = last ? out : (LineOut) { target, pixels };

      box_pass (kernel, in, n_in, origin, pass_out, pixels,
                scratch->suffix);

      in = (Line) { target, pixels };
      n_in -= shrink;
      origin += shrink / 2;
    }
}

/* n_in elements of in become n_in - 2 * reach elements of out */
static void
blur_line (const CblurKernel *kernel,
           Line               in,
           gint               n_in,
           gint64             origin,
           LineOut            out,
           gint               pixels,
           BoxScratch        *scratch)
{
  if (kernel->mode == CBLUR_MODE_BOX)
    box_line (kernel, in, n_in, origin, out, pixels, scratch);
  else
    direct_line (kernel, in, out, n_in - 2 * kernel->reach, pixels);
}

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
  const CblurImage  *pixels;
  Pixel              colour;     /* the policy's, where it has one */
  Pixel             *between;    /* horizontal result of rows [top, bottom) */
  Pixel             *made_row;   /* ... of a row of the colour */
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
static inline Pixel
row_pixel (const Job   *job,
           const Pixel *row,
           gint         x)
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
transpose_in (Pixel        *line,
              gint          rows,
              const Pixel **sources,
              gint          begin,
              gint          end)
{
  gint x, r, i;

  for (x = begin; x < end; x += TRANSPOSE_PIXELS)
    for (r = 0; r < rows; r++)
      for (i = x; i < MIN (x + TRANSPOSE_PIXELS, end); i++)
        line[(gsize) i * rows + r] = sources[r][i - begin];
}

static void
transpose_out (const Pixel *line,
               gint         rows,
               Pixel      **targets,
               gint         end)
{
  gint x, r, i;

  for (x = 0; x < end; x += TRANSPOSE_PIXELS)
    for (r = 0; r < rows; r++)
      for (i = x; i < MIN (x + TRANSPOSE_PIXELS, end); i++)
        targets[r][i] = line[(gsize) i * rows + r];
}

/* Row y of GEGL's pixels in RGBA float, from column `left`: their own, or
 * decoded into `into` where they are stored in another format. */
static const Pixel *
source_row (const Job *job,
            gint       y,
            Pixel     *into)
{
  if (job->pixels->format == NULL)
    return (const Pixel *) cblur_image_row (job->pixels, y);

  cblur_format_decode (job->pixels->format, cblur_image_bytes (job->pixels, 0, y),
                       (gfloat *) into, job->right - job->left);
  return into;
}

/* Rows are blurred ROW_GROUP at a time, interleaved so that element x of
 * the line holds pixel x of each row: the same wide loops as the column
 * strips, instead of one pixel at a time.  Only rows with GEGL's pixels:
 * the made rows' results are those rows' again, or the colour row's. */
static void
horizontal_rows (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job  *job = user_data;
  gint        n_in = job->src->width;
  gint        n_out = job->dst->width;
  Pixel      *gathered = gegl_malloc ((gsize) n_in * ROW_GROUP * sizeof (Pixel));
  Pixel      *blurred = gegl_malloc ((gsize) n_out * ROW_GROUP * sizeof (Pixel));
  Pixel      *decoded = job->pixels->format != NULL
                          ? gegl_malloc ((gsize) n_in * ROW_GROUP * sizeof (Pixel)) : NULL;
  BoxScratch  scratch = { 0 };
  gsize       group;

  box_scratch_init (&scratch, job->kernel, n_in, ROW_GROUP);

  for (group = first; group < first + count; group++)
    {
      gint         row0 = group * ROW_GROUP;
      gint         rows = MIN (ROW_GROUP, job->bottom - job->top - row0);
      const Pixel *sources[ROW_GROUP];
      Pixel       *targets[ROW_GROUP];
      gint         r, x;

      for (r = 0; r < rows; r++)
        {
          const Pixel *src = source_row (job, row0 + r, decoded + (gsize) r * n_in);

          sources[r] = src;
          for (x = 0; x < job->left; x++)
            gathered[(gsize) x * rows + r] = row_pixel (job, src, x);
          for (x = job->right; x < n_in; x++)
            gathered[(gsize) x * rows + r] = row_pixel (job, src, x);
        }
      transpose_in (gathered, rows, sources, job->left, job->right);
      /* none's, black's and white's colours premultiply to themselves */
      if (job->straight)
        cblur_premultiply_pixels ((gfloat *) gathered, (gsize) n_in * rows);

      blur_line (job->kernel, (Line) { gathered, rows }, n_in, job->src->x,
                 (LineOut) { blurred, rows }, rows, &scratch);

      for (r = 0; r < rows; r++)
        targets[r] = job->between + (gsize) (row0 + r) * n_out;
      transpose_out (blurred, rows, targets, n_out);
    }

  box_scratch_clear (&scratch);
  gegl_free (gathered);
  gegl_free (blurred);
  g_clear_pointer (&decoded, gegl_free);
}

/* A row of the colour, blurred as GEGL's own pixels would be: made rows
 * come out the same bits as read ones. */
static Pixel *
blur_colour_row (const Job *job)
{
  gint        n_in = job->src->width;
  Pixel      *line = gegl_malloc ((gsize) n_in * sizeof (Pixel));
  Pixel      *blurred = gegl_malloc ((gsize) job->dst->width * sizeof (Pixel));
  BoxScratch  scratch = { 0 };
  gint        x;

  for (x = 0; x < n_in; x++)
    line[x] = job->colour;
  box_scratch_init (&scratch, job->kernel, n_in, 1);
  blur_line (job->kernel, (Line) { line, 1 }, n_in, job->src->x,
             (LineOut) { blurred, 1 }, 1, &scratch);
  box_scratch_clear (&scratch);
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
static Line
strip_column (const Job *job,
              gint       x,
              gint       pixels,
              Pixel     *column)
{
  gint width = job->dst->width;
  gint y;

  if (!has_made_rows (job))
    return (Line) { job->between + x, width };

  for (y = 0; y < job->src->height; y++)
    {
      gint         source = abyss_source (y, job->top, job->bottom, job->policy);
      const Pixel *row = source < 0 ? job->made_row
                                    : job->between + (gsize) (source - job->top) * width;

      memcpy (column + (gsize) y * pixels, row + x, pixels * sizeof (Pixel));
    }
  return (Line) { column, pixels };
}

/* Column strips end in dst, or, where dst is stored in another format,
 * in a strip of their own, encoded whole and copied into dst's rows. */
static void
vertical_strips (gsize    first,
                 gsize    count,
                 gpointer user_data)
{
  const Job  *job = user_data;
  gint        n_in = job->src->height;
  gint        width = job->dst->width;
  gsize       out_step = job->dst->stride / CBLUR_CHANNELS;
  Pixel      *column = has_made_rows (job) ? gegl_malloc ((gsize) n_in * STRIP_PIXELS *
                                                       sizeof (Pixel))
                                         : NULL;
  gsize       strip_pixels = (gsize) job->dst->height * STRIP_PIXELS;
  Pixel      *encoding = job->dst->format != NULL ? gegl_malloc (strip_pixels * sizeof (Pixel))
                                                  : NULL;
  guint8     *encoded = job->dst->format != NULL
                          ? gegl_malloc (strip_pixels * cblur_image_pixel_bytes (job->dst))
                          : NULL;
  BoxScratch  scratch = { 0 };
  gsize       strip;
  gint        y;

  box_scratch_init (&scratch, job->kernel, n_in, STRIP_PIXELS);

  for (strip = first; strip < first + count; strip++)
    {
      gint    x = strip * STRIP_PIXELS;
      gint    pixels = MIN (STRIP_PIXELS, width - x);
      LineOut out = { (Pixel *) job->dst->data + x, out_step };

      if (encoding != NULL)
        out = (LineOut) { encoding, pixels };
      blur_line (job->kernel, strip_column (job, x, pixels, column), n_in, job->src->y,
                 out, pixels, &scratch);
      if (encoding != NULL)
        {
          gsize bytes = pixels * cblur_image_pixel_bytes (job->dst);

          /* the whole strip at once: a call a row cost more than the
           * encoding */
          cblur_format_encode (job->dst->format, (const gfloat *) encoding, encoded,
                               (gsize) pixels * job->dst->height);
          for (y = 0; y < job->dst->height; y++)
            memcpy (cblur_image_bytes (job->dst, x, y), encoded + y * bytes, bytes);
        }
    }

  box_scratch_clear (&scratch);
  g_clear_pointer (&column, gegl_free);
  g_clear_pointer (&encoding, gegl_free);
  g_clear_pointer (&encoded, gegl_free);
}

/* radius 0: src and dst have the same size */
static void
copy_interior (const CblurImage *src,
               gboolean          straight,
               const CblurImage *dst)
{
  gsize   bytes = (gsize) dst->width * sizeof (Pixel);
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

static Pixel
abyss_colour (GeglAbyssPolicy policy)
{
  Pixel colour;

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
  Job   job = { kernel, src, dst, abyss, straight, 0, src->width, 0, src->height, src,
                abyss_colour (abyss), NULL, NULL };
  gsize between_bytes;
  gsize strips;

  g_return_if_fail (src->width == dst->width + 2 * kernel->reach);
  g_return_if_fail (src->height == dst->height + 2 * kernel->reach);

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

  between_bytes = (gsize) dst->width * (job.bottom - job.top) * sizeof (Pixel);
  job.between = cblur_pixels_alloc (between_bytes);
  /* as gegl_malloc did before these buffers were cached */
  if (job.between == NULL)
    g_error (_("cblur:gaussian-blur: failed to allocate %.1f MiB"),
             between_bytes / 1048576.0);

  /* a row costs about one pixel-window per output pixel; splitting is
   * worth it once a thread has a few thousand of those to do */
  gegl_parallel_distribute_range ((job.bottom - job.top + ROW_GROUP - 1) / ROW_GROUP,
                                  4096.0 / (ROW_GROUP * (gsize) dst->width + 1),
                                  horizontal_rows, &job);

  strips = (dst->width + STRIP_PIXELS - 1) / STRIP_PIXELS;
  gegl_parallel_distribute_range (strips, 4096.0 / (STRIP_PIXELS * (gsize) dst->height + 1),
                                  vertical_strips, &job);

  cblur_pixels_free (job.between, between_bytes);
  g_clear_pointer (&job.made_row, gegl_free);
}
