/* The CPU backend: the blur on host memory, threaded over row groups and
 * column strips through GEGL's parallel helpers. */
#ifndef CBLUR_CPU_H
#define CBLUR_CPU_H

#include <gegl.h>

#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-band-io.h"

G_BEGIN_DECLS

/* src holds dst's rectangle grown by kernel->reach on every side.  Where
 * inside is not NULL, only its part of src holds GEGL's pixels, and only
 * inside's are read (src's data may be NULL); the rest is GEGL's abyss
 * under `abyss`, which the blur makes rather than reads (the same bits).
 * straight: src's pixels are straight alpha (RGBA float), premultiplied
 * as they go into the blur (cblur_premultiply_pixels), where GEGL would
 * have on its read.  src and dst may be stored in a cblur-format (then
 * src is straight): the blur decodes rows as it gathers them and encodes
 * its results. */
void cblur_cpu_blur        (const CblurKernel *kernel,
                            const CblurImage  *src,
                            const CblurImage  *inside,
                            GeglAbyssPolicy    abyss,
                            gboolean           straight,
                            const CblurImage  *dst);

/* The same, where src (dst) may hold no pixels: the blur then reads its
 * rows through io (hands it its columns) as it goes, and no band of them
 * is held; inside, if any, says only where GEGL's pixels are. */
void cblur_cpu_blur_stream (const CblurKernel *kernel,
                            const CblurImage  *src,
                            const CblurImage  *inside,
                            GeglAbyssPolicy    abyss,
                            gboolean           straight,
                            const CblurImage  *dst,
                            CblurBandIo       *io);

G_END_DECLS

#endif
