/* A band's blur on the backend the choice gave it (cblur-choice.h): its
 * pixels, GEGL's reads and writes, and the fallback from GL to the CPU,
 * and what the machine likely offers before any blur.  Any of GEGL's threads may
 * call these at once, each with bands of its own: the GPU's work is
 * serialized below (cblur-gl.h). */
#ifndef CBLUR_BACKEND_H
#define CBLUR_BACKEND_H

#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-stream.h"

G_BEGIN_DECLS

typedef enum
{
  CBLUR_BACKEND_CPU,
  CBLUR_BACKEND_GL
} CblurBackendKind;

/* What blurring a band did: filled by cblur_backend_blur(), read by the
 * log line (cblur-log.h), the tests and the benchmark. */
typedef struct
{
  CblurBackendKind ran_on;
  CblurMode        modes[2];        /* by CblurAxis */
  const gchar     *mode_name;       /* the log's mode where it is none of the kernel's
                                     * ("variable"), or NULL */
  gdouble          radii[2];        /* the radius each axis blurs at */
  gchar            renderer[128];   /* the GPU's, where it ran there */
  gint             tiles;           /* the GPU's tiles */
  gdouble          upload_ms;       /* GPU time of the uploads, compute passes and downloads */
  gdouble          compute_ms;
  gdouble          download_ms;
  gdouble          read_ms;         /* wall time from GEGL's first read to its last */
  gdouble          write_ms;        /* ... write */
  gdouble          total_ms;        /* of making the band and blurring it */
  gboolean         read_kept;       /* GEGL's pixels came as an earlier blur kept them */
  gboolean         box_as_direct;   /* box mode blurred an axis directly (CBLUR_BOX_FROM) */
  gchar           *gl_failure;      /* why GL was left for the CPU midway, or NULL */
  const gchar     *why_cpu;         /* where it ran on the CPU, why: gl_failure, the
                                     * setting, or the choice's prediction
                                     * (cblur-choice.h); NULL if unknown */
  gdouble          predicted_cpu_ms;   /* the choice's; 0 where not predicted */
  gdouble          predicted_gl_ms;
} CblurRunReport;

/* Where a band's source and output pixels live: the GL backend's pinned
 * staging memory, which the GPU copies from and into without a copy on
 * the CPU, or the heap. */
typedef struct _CblurBand CblurBand;

/* Thread-safe: a live op that has blurred on GL keeps the context (and
 * its programs and textures) through a user's pauses, until it lets go. */
void             cblur_backend_keep_gpu  (gboolean keep);

/* The backend cblur_backend_preferred() likely picks, told without
 * opening GL, for words shown before any blur: under auto, GL where the
 * machine shows a GPU's device node (NVIDIA's, or a DRM render node).
 * Any thread. */
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

/* Whether blurring dst with kernel changes nothing: a copy. */
gboolean         cblur_backend_does_nothing (const CblurKernel *kernel,
                                             const CblurImage  *dst);

/* Blurs src into dst on the backend, falling back to the CPU on any GL
 * failure; report->gl_failure says why, for the caller's one warning.
 * This is the one place that decides how GEGL's pixels are read and
 * written: stream, if any, fills src from GEGL (all of it, streamed on the
 * GPU, or as the CPU's passes need its rows) and takes dst back, whatever
 * backend ran.  band: cblur_band_new()'s for src and dst, or NULL where
 * they hold no pixels (the CPU then streams).  src: dst grown by the
 * kernel's reach, or cblur_band_new()'s part of it. */
void             cblur_backend_blur      (CblurBand         *band,
                                          CblurBackendKind   backend,
                                          const CblurKernel *kernel,
                                          const CblurImage  *src,
                                          const CblurImage  *dst,
                                          CblurStream       *stream,
                                          CblurRunReport    *report);

void             cblur_run_report_clear  (CblurRunReport    *report);

/* Why a band that backend was chosen for ran on the CPU, for its
 * report: its gl_failure, the setting, or the GPU's programs still
 * compiling; NULL where the CPU was chosen under auto, which the
 * choice's prediction tells (cblur_choice_report). */
const gchar     *cblur_backend_why_cpu   (CblurBackendKind      backend,
                                          const CblurRunReport *report);

/* The band's pixels for src and dst: fills their data and stride for
 * their rectangles and formats, src being dst's grown by kernel's reach.
 * Where the backend makes the abyss beyond stream's input itself, src
 * first shrinks to its part inside the input, all that GEGL reads: the
 * rest is never held.  On the CPU, which reads rows and writes columns
 * as its passes go, a blur holds no pixels and src and dst stay without.
 * NULL when even the heap has no room. */
CblurBand       *cblur_band_new          (CblurBackendKind   backend,
                                          const CblurKernel *kernel,
                                          const CblurStream *stream,
                                          CblurImage        *src,
                                          CblurImage        *dst);
void             cblur_band_free         (CblurBand         *band);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurBand, cblur_band_free)

G_END_DECLS

#endif
