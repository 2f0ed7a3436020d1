/* What each backend offers an op before and between its blurs: which one
 * likely runs, the GPU's context staying through a user's pauses, and the
 * sizes of image it blurs whole.  Every function is thread-safe. */
#ifndef CBLUR_BACKEND_OFFER_H
#define CBLUR_BACKEND_OFFER_H

#include "cblur-report.h"

G_BEGIN_DECLS

/* A live op that has blurred on GL holds the context (and its programs
 * and textures) through a user's pauses, until it lets go. */
void             cblur_backend_hold_gpu  (gboolean hold);

/* The backend cblur_choice_make() likely picks, told without opening
 * GL, for words shown before any blur: under auto, GL where the machine
 * shows a GPU's device node (NVIDIA's, or a DRM render node). */
CblurBackendKind cblur_backend_likely (void);

/* What blurring a region on its own costs on backend beyond its pixels and
 * halo, in pixels' worth of blurring: on GL a call of its own (dispatches,
 * the transfers' latency and the wait for them), which on a discrete GPU
 * costs about as much as blurring a megapixel; nothing on the CPU. */
gsize            cblur_backend_region_overhead (CblurBackendKind backend);

/* Images up to this many pixels with their halo the backend blurs whole
 * for any region of them, and GEGL's cache then serves every chunk that
 * follows.  On a GPU a 4K image with a halo of radius up to about 800 is
 * one band of the GL backend, which costs about what a few of a host's
 * small chunks would on their own.  On the CPU the first chunks of
 * GIMP's apply, a tile and strips of 128 rows, pay half their pixels
 * again in halo; a viewer's first region of a photo waits for the
 * whole of it.  None on a software rasterizer, whose whole images take
 * seconds.  May make the GL context. */
gsize            cblur_backend_whole_image_pixels (CblurBackendKind backend);

/* The GPU's whole-image size as the settings give it, whether or not
 * there is a GPU: what a CPU band weighs for the GPU's warm-up. */
gsize            cblur_backend_gpu_whole_image_pixels (void);

G_END_DECLS

#endif
