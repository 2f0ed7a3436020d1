#include "config.h"
#include "cblur-region-io.h"

#include <string.h>

#include "cblur-op.h"

static void
read_part (const CblurImage *src,
           gint              x,
           gint              y,
           gint              width,
           gint              height,
           gpointer          user_data)
{
  const CblurRegionIo *io = user_data;
  GeglRectangle        part = { src->x + x, src->y + y, width, height };
  const CblurFormat   *stored = src->format != NULL ? src->format : io->read_native;

  gegl_buffer_get (io->input, &part, 1.0 / (1 << io->level),
                   stored != NULL ? stored->babl : io->premultiplied,
                   cblur_image_bytes (src, x, y), src->stride * sizeof (gfloat), io->abyss);
}

static void
write_part (const CblurImage *dst,
            gint              x,
            gint              y,
            gint              width,
            gint              height,
            gpointer          user_data)
{
  const CblurRegionIo *io = user_data;
  GeglRectangle        part = { dst->x + x, dst->y + y, width, height };

  gegl_buffer_set (io->output, &part, io->level,
                   dst->format != NULL ? dst->format->babl : io->premultiplied,
                   cblur_image_bytes (dst, x, y), dst->stride * sizeof (gfloat));
}

/* GEGL's tiles of the output as the CPU writes them, one at a time: a
 * whole tile in its own memory, without the copy a write makes, a part of
 * one in a copy that GEGL writes back */
static void
write_in_place (const CblurImage *dst,
                gint              x,
                gint              y,
                gint              width,
                gint              height,
                CblurBandIoFill   fill,
                gpointer          fill_data,
                gpointer          user_data)
{
  const CblurRegionIo *io = user_data;
  GeglRectangle        part = { dst->x + x, dst->y + y, width, height };
  GeglBufferIterator  *parts = gegl_buffer_iterator_new (io->output, &part, io->level,
                                                         dst->format->babl, GEGL_ACCESS_WRITE,
                                                         GEGL_ABYSS_NONE, 1);

  while (gegl_buffer_iterator_next (parts))
    {
      const GeglRectangle *roi = &parts->items[0].roi;

      fill (roi->x - dst->x, roi->y - dst->y, roi->width, roi->height, parts->items[0].data,
            (gsize) roi->width * dst->format->bytes_per_pixel, fill_data);
    }
}

/* GEGL's abyss at a mipmap level: the pixels whole inside the image */
static GeglRectangle
abyss_at_level (const GeglRectangle *abyss,
                gint                 level)
{
  if (gegl_rectangle_is_infinite_plane (abyss))
    return *abyss;
  return cblur_rectangle_at_level (abyss, level);
}

/* An op with a mask reads both inside the input's extent: GEGL makes the
 * input's abyss beyond it, and the mask's by its edge pixels, so that the
 * passes there blur as the edge pixels ask and a constant mask stays
 * constant. */
static void
bound_by_input (CblurRegionIo *io,
                GeglOperation *operation,
                GeglBuffer    *input,
                GeglBuffer    *aux)
{
  const GeglRectangle *in_rect = gegl_operation_source_get_bounding_box (operation, "input");

  io->input = gegl_buffer_create_sub_buffer (input, in_rect);
  io->aux = gegl_buffer_create_sub_buffer (aux, in_rect);
  io->aux_format = gegl_operation_get_format (operation, "aux");
  io->band_io.inside = cblur_rectangle_at_level (in_rect, io->level);
}

void
cblur_region_io_init (CblurRegionIo  *io,
                      GeglOperation  *operation,
                      GeglBuffer     *input,
                      GeglBuffer     *aux,
                      GeglBuffer     *output,
                      gint            level,
                      GeglAbyssPolicy abyss,
                      CblurKept      *kept)
{
  const Babl *format = gegl_operation_get_format (operation, "output");

  memset (io, 0, sizeof *io);
  io->output = output;
  io->premultiplied = babl_format_with_space ("RaGaBaA float", babl_format_get_space (format));
  io->write_native = cblur_format_get (format);
  io->level = level;
  io->abyss = abyss;
  /* A source in a covered format GEGL copies as it is, and the op
   * converts it, the backend premultiplying it on the way in: babl's
   * conversion on GEGL's threads costs several times the copy, even from
   * straight RGBA float.  At other levels too: GEGL makes a mipmap's
   * pixels from the stored ones in the stored format, whichever format
   * they are read in, and copies them as they are. */
  io->read_native = cblur_format_get (gegl_buffer_get_format (input));

  io->band_io = (CblurBandIo) { read_part, write_part, io, .kept = kept,
                               .write_in_place = write_in_place, .abyss = abyss,
                               .straight_alpha = io->read_native != NULL, .level = level };
  g_object_get (output, "tile-width", &io->band_io.tile_width,
                "tile-height", &io->band_io.tile_height, NULL);
  if (aux != NULL)
    {
      bound_by_input (io, operation, input, aux);
      return;
    }
  io->input = g_object_ref (input);
  /* The backends make the abyss beyond the input at every level, so that
   * a band holds only the input's pixels and its size does not change
   * with the reach, and GEGL reads only rectangles inside its mipmap:
   * those across the edge take another path there, whose pixels depend
   * on the rectangle. */
  io->band_io.inside = abyss_at_level (gegl_buffer_get_abyss (input), level);
}

void
cblur_region_io_clear (CblurRegionIo *io)
{
  g_clear_object (&io->input);
  g_clear_object (&io->aux);
}
