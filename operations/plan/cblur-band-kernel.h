/* A kernel blur's band (CblurBlurBand): the band grown by the kernel's
 * reach read through the region's band_io, blurred on the backend with
 * the fallback to the CPU (cblur_backend_blur), and written back.  The
 * blur's data: its CblurKernel.  On the loop's thread. */
#ifndef CBLUR_BAND_KERNEL_H
#define CBLUR_BAND_KERNEL_H

#include "cblur-blur.h"

G_BEGIN_DECLS

/* A kernel blur of radius_x and radius_y (level 0's) in mode with
 * iterations box passes, at level, into blur: its reach and the mode of
 * the axis that reaches further, what the choice weighs. */
void     cblur_blur_describe_kernel (CblurBlur         *blur,
                                     gdouble            radius_x,
                                     gdouble            radius_y,
                                     CblurMode          mode,
                                     gint               iterations,
                                     gint               level);

/* kernel as blur's data, with its modes and radii for the log */
void     cblur_blur_set_kernel      (CblurBlur         *blur,
                                     const CblurKernel *kernel);

gboolean cblur_blur_band_kernel (const CblurBlur     *blur,
                                 CblurBackendKind     backend,
                                 const GeglRectangle *band,
                                 CblurRegionIo       *io,
                                 CblurRunReport      *report);

G_END_DECLS

#endif
