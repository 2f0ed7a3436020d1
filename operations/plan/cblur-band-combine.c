/* A joined band reads GEGL's pixels itself, as premultiplied float with
 * the halo under the op's abyss, on GEGL's threads (babl converting
 * there), and writes its result the same way: the arithmetic needs the
 * source's float pixels beside the blurs' on any backend. */

#include "config.h"
#include "cblur-band-combine.h"

#include "cblur-memory.h"
#include "cblur-parallel.h"

/* a thread's start, in rows of GEGL's reads and writes */
#define IO_ROW_COST 0.02

CblurCombine
cblur_combine_at_level (const CblurCombine *combine,
                        gint                level)
{
  CblurCombine scaled = *combine;

  scaled.radii[0] /= 1 << level;
  scaled.radii[1] /= 1 << level;
  return scaled;
}

void
cblur_blur_describe_combine (CblurBlur          *blur,
                             const CblurCombine *combine,
                             gint                level)
{
  CblurCombine scaled = cblur_combine_at_level (combine, level);

  blur->reach = cblur_combine_reach (&scaled, CBLUR_MODE_AUTO);
  blur->mode = cblur_kernel_resolve_mode (scaled.radii[0], CBLUR_MODE_AUTO);
  blur->modes[0] = blur->modes[1] = blur->mode;
  blur->radii[0] = blur->radii[1] = scaled.radii[0];
  blur->work_mode = cblur_mode_name (blur->mode);
  blur->cost_reach = blur->mode == CBLUR_MODE_DIRECT ? blur->reach : 0;
  blur->abyss = GEGL_ABYSS_CLAMP;
  blur->values = g_bytes_new (combine, sizeof *combine);
}

/* rows of a band's image read from GEGL, or written to it */
typedef struct
{
  const CblurRegionIo *io;
  const CblurImage    *image;
  gboolean             write;
} Io;

static void
io_rows (gsize    offset,
         gsize    size,
         gpointer user_data)
{
  const Io            *part = user_data;
  const CblurRegionIo *io = part->io;
  const CblurImage    *image = part->image;
  GeglRectangle        rows = { image->x, image->y + (gint) offset, image->width, (gint) size };
  gfloat              *data = cblur_image_row (image, offset);

  if (part->write)
    gegl_buffer_set (io->output, &rows, io->level, io->premultiplied, data,
                     image->stride * sizeof (gfloat));
  else
    gegl_buffer_get (io->input, &rows, 1.0 / (1 << io->level), io->premultiplied, data,
                     image->stride * sizeof (gfloat), io->abyss);
}

/* image read or written on GEGL's threads, the wall time added to the
 * band_io's */
static void
run_io (CblurRegionIo    *io,
        const CblurImage *image,
        gboolean          write)
{
  Io     part = { io, image, write };
  gint64 started = g_get_monotonic_time ();
  gdouble ms;

  cblur_parallel_distribute_range (image->height, IO_ROW_COST * image->width, io_rows, &part);
  ms = (g_get_monotonic_time () - started) / 1000.0;
  if (write)
    io->band_io.write_ms += ms;
  else
    io->band_io.read_ms += ms;
}

static gboolean
heap_image (CblurImage *image)
{
  image->stride = cblur_image_packed_stride (image);
  image->data = cblur_pixels_alloc (image->stride * image->height * sizeof (gfloat));
  return image->data != NULL;
}

gboolean
cblur_blur_band_combine (const CblurBlur     *blur,
                         CblurBackendKind     backend,
                         const GeglRectangle *band,
                         CblurRegionIo       *io,
                         CblurRunReport      *report)
{
  const CblurCombine *combine = blur->data;
  gint                reach = blur->reach;
  CblurImage          src = { NULL, band->x - reach, band->y - reach, band->width + 2 * reach,
                              band->height + 2 * reach, 0, NULL };
  CblurImage          dst = { NULL, band->x, band->y, band->width, band->height, 0, NULL };
  gboolean            ok = heap_image (&src) && heap_image (&dst);

  if (ok)
    run_io (io, &src, FALSE);
  ok = ok && cblur_combine_band (combine, CBLUR_MODE_AUTO, backend, &src, &dst,
                                 &io->band_io.inside, report);
  if (ok)
    run_io (io, &dst, TRUE);
  cblur_pixels_free (src.data);
  cblur_pixels_free (dst.data);
  return ok;
}

void
cblur_combine_threshold_in (const Babl     *space,
                            gdouble         threshold,
                            CblurThreshold *out)
{
  gdouble red, green, blue;
  gfloat  curved = threshold;

  if (space == NULL)
    space = babl_space ("sRGB");
  babl_space_get_rgb_luminance (space, &red, &green, &blue);
  out->luminance[0] = red;
  out->luminance[1] = green;
  out->luminance[2] = blue;
  babl_process (babl_fish (babl_format_with_space ("Y' float", space),
                           babl_format_with_space ("Y float", space)),
                &curved, &out->threshold, 1);
}
