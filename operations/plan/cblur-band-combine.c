#include "config.h"
#include "cblur-band-combine.h"

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

/* The source is read as GEGL stores it where cblur-format covers it, and
 * the result written in the op's output format: the backends decode and
 * encode themselves, the GPU on its own side of the bus. */
gboolean
cblur_blur_band_combine (const CblurBlur     *blur,
                         CblurBackendKind     backend,
                         const GeglRectangle *band,
                         CblurRegionIo       *io,
                         CblurRunReport      *report)
{
  gint       reach = blur->reach;
  CblurImage src = { NULL, band->x - reach, band->y - reach, band->width + 2 * reach,
                     band->height + 2 * reach, 0, io->read_native };
  CblurImage dst = { NULL, band->x, band->y, band->width, band->height, 0, io->write_native };

  return cblur_combine_band_io (blur->data, CBLUR_MODE_AUTO, backend, &src, &dst,
                                &io->band_io, report);
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
