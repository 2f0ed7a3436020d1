/* A kernel blur of a band on the backend the choice gave it
 * (cblur-choice.h), with the fallback from GL to the CPU: the one place
 * that decides how GEGL's pixels are read and written for it.  Any of
 * GEGL's threads may call these at once, each with bands of its own: the
 * GPU's work is serialized below (cblur-gl.h). */
#ifndef CBLUR_BACKEND_H
#define CBLUR_BACKEND_H

#include "cblur-band-memory.h"
#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-report.h"
#include "cblur-band-io.h"

G_BEGIN_DECLS

/* Blurs src into dst on the backend, falling back to the CPU on any GL
 * failure; fills report's ran_on, the GPU's figures, why_cpu and
 * gl_failure, which says why GL failed, for the caller's one warning.
 * band_io, if any, fills src from GEGL (all of it, streamed on the GPU,
 * or as the CPU's passes need its rows) and takes dst back, whatever
 * backend ran.  band: cblur_band_memory_new()'s for src and dst, or NULL
 * where they hold no pixels (the CPU then streams).  src: dst grown by
 * the kernel's reach, or cblur_band_memory_new()'s part of it. */
void             cblur_backend_blur      (CblurBandMemory   *band,
                                          CblurBackendKind   backend,
                                          const CblurKernel *kernel,
                                          const CblurImage  *src,
                                          const CblurImage  *dst,
                                          CblurBandIo       *band_io,
                                          CblurRunReport    *report);

/* Thread-safe: whether a GL blur now takes only linked programs, the CPU
 * serving a band whose program still compiles (CblurGlSource's no_wait). */
gboolean         cblur_backend_gl_no_wait (void);
/* Thread-safe: what a GL call's error leaves in report
 * (cblur_run_report_gl_error); where a program is still compiling, the
 * programs of every blur are queued too, so that one pause compiles all
 * that the next blurs take. */
void             cblur_backend_gl_error   (CblurRunReport *report,
                                           const GError   *error);

/* Why a band that backend was chosen for ran on the CPU, for its
 * report: its gl_failure, the setting, or what the GPU's blur left in
 * report's why_cpu (cblur_run_report_gl_error); NULL where the CPU was
 * chosen under auto, which the choice's prediction tells
 * (cblur_choice_report). */
const gchar     *cblur_backend_why_cpu   (CblurBackendKind      backend,
                                          const CblurRunReport *report);

G_END_DECLS

#endif
