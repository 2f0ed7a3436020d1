#include "config.h"
#include "cblur-band-kernel.h"

#include "cblur-backend.h"

void
cblur_blur_describe_kernel (CblurBlur *blur,
                            gdouble    radius_x,
                            gdouble    radius_y,
                            CblurMode  mode,
                            gint       iterations,
                            gint       level)
{
  gint    reach_x = cblur_kernel_reach (radius_x / (1 << level), mode, iterations);
  gint    reach_y = cblur_kernel_reach (radius_y / (1 << level), mode, iterations);
  gdouble further = reach_y > reach_x ? radius_y : radius_x;

  blur->reach = MAX (reach_x, reach_y);
  blur->mode = cblur_kernel_resolve_mode (further / (1 << level), mode);
  blur->work_mode = cblur_mode_name (blur->mode);
  blur->cost_reach = blur->mode == CBLUR_MODE_DIRECT ? blur->reach : 0;
}

void
cblur_blur_set_kernel (CblurBlur         *blur,
                       const CblurKernel *kernel)
{
  gint axis;

  for (axis = 0; axis < 2; axis++)
    {
      blur->modes[axis] = kernel->axes[axis].mode;
      blur->radii[axis] = kernel->axes[axis].radius;
    }
  blur->box_as_direct = kernel->box_as_direct;
  blur->data = kernel;
}

/* A band holds GEGL's pixels as they are stored, a quarter of the memory
 * in 8 bits, which the GPU converts in its shaders; a straight RGBA float
 * source the backends read as their own pixels.  The CPU holds no band:
 * it reads rows as its blur gathers them and hands back column strips as
 * they come out, converting them in its own loops, and holds only the
 * pass between. */
gboolean
cblur_blur_band_kernel (const CblurBlur     *blur,
                        CblurBackendKind     backend,
                        const GeglRectangle *band,
                        CblurRegionIo       *io,
                        CblurRunReport      *report)
{
  const CblurKernel    *kernel = blur->data;
  gint                  reach = kernel->reach;
  CblurImage            src = { NULL, band->x - reach, band->y - reach,
                                band->width + 2 * reach, band->height + 2 * reach, 0,
                                cblur_format_is_rgba_float (io->read_native)
                                  ? NULL : io->read_native };
  CblurImage            dst = { NULL, band->x, band->y, band->width, band->height, 0,
                                io->write_native };
  g_autoptr (CblurBandMemory) memory = cblur_band_memory_new (backend, kernel, &io->band_io,
                                                              &src, &dst);

  if (memory == NULL)
    return FALSE;
  cblur_backend_blur (memory, backend, kernel, &src, &dst, &io->band_io, report);
  return TRUE;
}
