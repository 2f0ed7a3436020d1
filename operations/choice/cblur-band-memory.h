/* Band memory: where a band's source and output pixels live for a
 * kernel blur, the GL backend's pinned staging memory, which the GPU
 * copies from and into without a copy on the CPU, or the heap.  One
 * thread at a time per band memory. */
#ifndef CBLUR_BAND_MEMORY_H
#define CBLUR_BAND_MEMORY_H

#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-report.h"
#include "cblur-band-io.h"

G_BEGIN_DECLS

typedef struct _CblurBandMemory CblurBandMemory;

/* The band's pixels for src and dst: fills their data and stride for
 * their rectangles and formats, src being dst's grown by kernel's reach.
 * Where the backend makes the abyss beyond band_io's input itself, src
 * first shrinks to its part inside the input, all that GEGL reads: the
 * rest is never held.  On the CPU, which reads rows and writes columns
 * as its passes go, a blur holds no pixels and src and dst stay without.
 * NULL when even the heap has no room. */
CblurBandMemory   *cblur_band_memory_new      (CblurBackendKind       backend,
                                               const CblurKernel     *kernel,
                                               const CblurBandIo     *band_io,
                                               CblurImage            *src,
                                               CblurImage            *dst);
void               cblur_band_memory_free     (CblurBandMemory       *band);

/* The GPU's staging memory of the band, or NULL where it is on the heap
 * or holds no pixels. */
CblurGlBandMemory *cblur_band_memory_gl       (const CblurBandMemory *band);

/* Whether blurring dst with kernel changes nothing: a copy. */
gboolean           cblur_backend_does_nothing (const CblurKernel     *kernel,
                                               const CblurImage      *dst);

/* Under auto, whether the GPU would take band_io's whole input with a
 * halo of reach in one band, at level 0 where the band is a preview's:
 * a band the CPU takes meanwhile notes its input for the GPU's first
 * uses to rehearse. */
gboolean           cblur_band_gl_takes_whole  (gint                   reach,
                                               const CblurBandIo     *band_io);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurBandMemory, cblur_band_memory_free)

G_END_DECLS

#endif
