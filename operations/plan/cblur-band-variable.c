#include "config.h"
#include "cblur-band-variable.h"

#include "cblur-backend-variable.h"
#include "cblur-parallel.h"

/* What a band's io needs to read and write the variable blur's rows
 * (its CblurBandIo's user data): rows of the source with their boxes,
 * made from the mask's rows as they come.  Where native formats are set,
 * rows go in and out as GEGL stores them, and the backends convert
 * them. */
typedef struct
{
  const CblurRegionIo *io;
  const CblurVariable *variable;
  /* the band's; its table, where the mask is stored a byte a pixel, the
   * box of each byte */
  CblurVariableBoxes   boxes;
} Rows;

/* the band's pixels as it holds them: as stored, or in premultiplied
 * float where the op does not read the stored format */
static const Babl *
held_format (const Rows       *rows,
             const CblurImage *image)
{
  return image->format != NULL ? image->format->babl : rows->io->premultiplied;
}

/* the boxes of rect's pixels from the mask there, or the mask's bytes
 * where the band has their table */
static void
read_widths (const Rows          *rows,
             const CblurImage    *image,
             const GeglRectangle *rect)
{
  const CblurVariableBoxes *boxes = &rows->boxes;
  const CblurRegionIo      *io = rows->io;
  gsize                     first = (gsize) (rect->y - image->y) * image->width +
                                    (rect->x - image->x);
  g_autofree gfloat        *mask = NULL;
  gint                      row;

  if (boxes->table != NULL)
    {
      gegl_buffer_get (io->aux, rect, 1.0, gegl_buffer_get_format (io->aux),
                       boxes->codes + first, image->width, GEGL_ABYSS_CLAMP);
      return;
    }
  mask = g_new (gfloat, (gsize) rect->width * rect->height);
  gegl_buffer_get (io->aux, rect, 1.0 / (1 << io->level), io->aux_format, mask,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
  for (row = 0; row < rect->height; row++)
    cblur_variable_widths (rows->variable, mask + (gsize) row * rect->width,
                           boxes->widths + first + (gsize) row * image->width, rect->width);
}

/* CblurBandIoFunc: a rectangle of the source and its boxes in */
static void
read_rect (const CblurImage *image,
           gint              x,
           gint              y,
           gint              width,
           gint              height,
           gpointer          user_data)
{
  const Rows          *rows = user_data;
  const CblurRegionIo *io = rows->io;
  GeglRectangle        rect = { image->x + x, image->y + y, width, height };

  gegl_buffer_get (io->input, &rect, 1.0 / (1 << io->level), held_format (rows, image),
                   cblur_image_bytes (image, x, y), image->stride * sizeof (gfloat),
                   io->abyss);
  read_widths (rows, image, &rect);
}

/* CblurBandIoFunc: a rectangle of the output out */
static void
write_rect (const CblurImage *image,
            gint              x,
            gint              y,
            gint              width,
            gint              height,
            gpointer          user_data)
{
  const Rows   *rows = user_data;
  GeglRectangle rect = { image->x + x, image->y + y, width, height };

  gegl_buffer_set (rows->io->output, &rect, rows->io->level, held_format (rows, image),
                   cblur_image_bytes (image, x, y), image->stride * sizeof (gfloat));
}

/* The band's io: the region's, its reads and writes the variable
 * blur's */
static CblurBandIo
band_io_of (const CblurRegionIo *io,
            Rows                *rows)
{
  CblurBandIo band_io = io->band_io;

  band_io.read = read_rect;
  band_io.write = write_rect;
  band_io.user_data = rows;
  band_io.straight_alpha = FALSE;
  band_io.read_ms = band_io.write_ms = 0;
  band_io.kept = NULL;
  band_io.read_kept = FALSE;
  band_io.write_in_place = NULL;
  return band_io;
}

/* What of the band's source, grown by the reach, is read: its rows
 * inside the input, the rest the backend makes under the abyss, so that a
 * tiny image at a huge radius costs its own pixels (cblur_band_io_inside_rect
 * says where that holds).  The columns beyond the input are read too, GEGL
 * making their abyss, where they are not most of a row: a row then goes
 * through the passes where it lies, not copied into a line with its
 * abyss. */
static GeglRectangle
read_part (const CblurBandIo   *band_io,
           const GeglRectangle *grown)
{
  GeglRectangle part;

  if (!cblur_band_io_inside_rect (band_io, grown, &part))
    return *grown;
  if (grown->width <= 2 * part.width)
    {
      part.x = grown->x;
      part.width = grown->width;
    }
  return part;
}

/* A mask stored a byte a pixel holds at most 256 values, each one box,
 * the same as from the value converted to the mask's format; where it is
 * read at full size, a pixel's box is looked up by its byte in a table,
 * which takes a fraction of the time of making it from the value (the
 * larger part of reading a band).  The value of each byte into grey;
 * FALSE where the bytes do not apply. */
static gboolean
byte_values (GeglBuffer *aux,
             const Babl *mask_format,
             gint        level,
             gfloat      grey[256])
{
  const Babl *stored = gegl_buffer_get_format (aux);
  guint8      codes[256];
  gint        i;

  if (level != 0 || babl_format_get_bytes_per_pixel (stored) != 1)
    return FALSE;
  /* A byte of the mask's own model and space is its code over 255, as
   * babl has it; babl is asked only for another, whose conversion it may
   * first have to search for (a third of a second where its cache of
   * conversions is empty). */
  if (babl_format_get_type (stored, 0) == babl_type ("u8") &&
      babl_format_get_space (stored) == babl_format_get_space (mask_format) &&
      g_str_equal (babl_get_name (babl_format_get_model (stored)),
                   babl_get_name (babl_format_get_model (mask_format))))
    for (i = 0; i < 256; i++)
      grey[i] = (gfloat) (i / 255.0);
  else
    {
      for (i = 0; i < 256; i++)
        codes[i] = i;
      babl_process (babl_fish (stored, mask_format), codes, grey, 256);
    }
  return TRUE;
}

/* What the region's blur reads of the mask, and what is found there:
 * the values of the bytes seen, or the least and the largest value. */
typedef struct
{
  GeglBuffer    *aux;
  const Babl    *format;    /* the aux pad's */
  GeglRectangle  read;
  gint           level;
  gboolean       bytes;
  GMutex         lock;
  gboolean       seen[256];
  gfloat         low;
  gfloat         high;
} Range;

/* rows [first, first + count) of the read, on one of GEGL's threads */
static void
range_rows (gsize    first,
            gsize    count,
            gpointer user_data)
{
  Range        *range = user_data;
  GeglRectangle rows = { range->read.x, range->read.y + (gint) first, range->read.width,
                         (gint) count };
  gsize         n = (gsize) rows.width * rows.height, i;
  gboolean      seen[256] = { FALSE };
  gfloat        low, high;

  if (range->bytes)
    {
      g_autofree guint8 *codes = g_new (guint8, n);

      gegl_buffer_get (range->aux, &rows, 1.0, gegl_buffer_get_format (range->aux), codes,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      for (i = 0; i < n; i++)
        seen[codes[i]] = TRUE;
    }
  else
    {
      g_autofree gfloat *values = g_new (gfloat, n);

      gegl_buffer_get (range->aux, &rows, 1.0 / (1 << range->level), range->format, values,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      cblur_variable_mask_range (values, n, &low, &high);
    }
  g_mutex_lock (&range->lock);
  for (i = 0; i < 256; i++)
    range->seen[i] |= seen[i];
  if (!range->bytes)
    {
      range->low = MIN (range->low, low);
      range->high = MAX (range->high, high);
    }
  g_mutex_unlock (&range->lock);
}

/* The least and the largest mask value that the region's blur reads (the
 * region grown by the reach, in the input; beyond it the mask clamps):
 * the bytes' values where the blur has them, which are a quarter of the
 * floats to read. */
static void
mask_range (const CblurVariableBlur *blur,
            GeglOperation           *operation,
            GeglBuffer              *aux,
            const GeglRectangle     *result,
            gint                     level,
            gfloat                  *low,
            gfloat                  *high)
{
  const GeglRectangle *input = gegl_operation_source_get_bounding_box (operation, "input");
  gint                 reach = cblur_variable_reach (blur->variable.radius,
                                                     blur->variable.iterations);
  GeglRectangle        inside = { input->x >> level, input->y >> level,
                                  input->width >> level, input->height >> level };
  Range                range = { aux, gegl_operation_get_format (operation, "aux"),
                                 { result->x - reach, result->y - reach,
                                   result->width + 2 * reach, result->height + 2 * reach },
                                 level, blur->has_table, { 0 }, { FALSE }, 1.0f, 0.0f };
  gfloat               seen[256];
  gsize                n_seen = 0, i;

  *low = *high = 0.0f;
  if (!gegl_rectangle_intersect (&range.read, &range.read, &inside))
    return;
  g_mutex_init (&range.lock);
  cblur_parallel_distribute_range (range.read.height, 4096.0 / ((gsize) range.read.width + 1),
                                   range_rows, &range);
  g_mutex_clear (&range.lock);
  *low = range.low;
  *high = range.high;
  for (i = 0; range.bytes && i < 256; i++)
    if (range.seen[i])
      seen[n_seen++] = blur->grey[i];
  if (range.bytes)
    cblur_variable_mask_range (seen, n_seen, low, high);
}

void
cblur_variable_blur_init (CblurVariableBlur   *blur,
                          gdouble              radius,
                          gint                 iterations,
                          GeglOperation       *operation,
                          GeglBuffer          *aux,
                          const GeglRectangle *result,
                          gint                 level)
{
  CblurVariable *variable = &blur->variable;
  gfloat         low, high;

  blur->has_table = byte_values (aux, gegl_operation_get_format (operation, "aux"), level,
                                 blur->grey);
  cblur_variable_init (variable, radius, iterations, FALSE);
  mask_range (blur, operation, aux, result, level, &low, &high);
  if (cblur_variable_sigma (variable, low) == cblur_variable_sigma (variable, high))
    cblur_variable_init (variable, radius, iterations, TRUE);
  cblur_variable_levels_of (variable, low, high, &blur->least, &blur->most);
  if (blur->has_table)
    cblur_variable_widths (variable, blur->grey, blur->table, 256);
}

/* A band on the CPU: the GPU, where it takes the next blur of this input
 * whole, finds that band's memory pinned (cblur_backend_variable_expect);
 * above level 0, a dialog's preview, the memory of the whole input at
 * level 0, which the apply that follows blurs. */
static void
expect_whole (const CblurVariableBlur *variable,
              const CblurRegionIo     *io,
              const CblurImage        *src,
              const CblurImage        *dst)
{
  GeglRectangle inside = cblur_band_io_inside_at_full_size (&io->band_io);
  gint          reach = variable->variable.reach << io->band_io.level;
  GeglRectangle grown = { inside.x - reach, inside.y - reach,
                          inside.width + 2 * reach, inside.height + 2 * reach };
  CblurBandIo   whole_io = io->band_io;
  GeglRectangle part;
  CblurImage    whole_src, whole_dst;

  whole_io.inside = inside;
  part = read_part (&whole_io, &grown);
  whole_src = (CblurImage) { NULL, part.x, part.y, part.width, part.height, 0, src->format };
  whole_dst = (CblurImage) { NULL, inside.x, inside.y, inside.width, inside.height, 0,
                             dst->format };

  cblur_backend_variable_expect (&whole_src, &whole_dst, variable->has_table);
}

gboolean
cblur_blur_band_variable (const CblurBlur     *blur,
                          CblurBackendKind     backend,
                          const GeglRectangle *band,
                          CblurRegionIo       *io,
                          CblurRunReport      *report)
{
  const CblurVariableBlur *variable = blur->data;
  gint                     reach = variable->variable.reach;
  GeglRectangle            grown = { band->x - reach, band->y - reach,
                                     band->width + 2 * reach, band->height + 2 * reach };
  GeglRectangle            part = read_part (&io->band_io, &grown);
  /* stored pixels at every level: a level's pixels are GEGL's mipmap of
   * the stored ones, in their format */
  CblurImage               src = { NULL, part.x, part.y, part.width, part.height, 0,
                                   io->read_native };
  CblurImage               dst = { NULL, band->x, band->y, band->width, band->height, 0,
                                   io->write_native };
  Rows                     rows = { io, &variable->variable,
                                    { NULL, NULL, variable->has_table ? variable->table
                                                                      : NULL } };
  CblurBandIo              band_io = band_io_of (io, &rows);
  CblurVariableMasks       masks = { NULL, variable->grey, variable->least, variable->most };
  g_autoptr (CblurVariableBandMemory) memory = NULL;
  g_autofree gfloat       *values = NULL;

  if (backend == CBLUR_BACKEND_CPU)
    expect_whole (variable, io, &src, &dst);
  memory = cblur_variable_band_memory_new (backend, &src, &dst, &rows.boxes);
  /* each output pixel's sigma chooses its levels: from the boxes' bytes
   * as they are read, else from the mask's values */
  if (masks.most >= 0 && rows.boxes.codes == NULL)
    {
      values = g_new (gfloat, (gsize) band->width * band->height);
      gegl_buffer_get (io->aux, band, 1.0 / (1 << io->level), io->aux_format, values,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
      masks.values = values;
    }

  cblur_backend_variable_blur (memory, &variable->variable, &src, &masks, io->abyss, &band_io,
                               &dst, report);
  io->band_io.read_ms += band_io.read_ms;
  io->band_io.write_ms += band_io.write_ms;
  return TRUE;
}
