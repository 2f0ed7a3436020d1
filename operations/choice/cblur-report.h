/* What blurring a band did, and where: filled by the band's blur (where
 * it ran and why, the GPU's figures) and by the plan's band loop (the
 * rest), read by the choice, the log line (cblur-log.h), the tests
 * and the benchmark.  One report belongs to one thread at a time. */
#ifndef CBLUR_REPORT_H
#define CBLUR_REPORT_H

#include "cblur-gl.h"
#include "cblur-kernel.h"

G_BEGIN_DECLS

typedef enum
{
  CBLUR_BACKEND_CPU,
  CBLUR_BACKEND_GL
} CblurBackendKind;

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

/* The GPU's figures of a band it blurred, into the band's report. */
void cblur_run_report_gl    (CblurRunReport      *report,
                             const CblurGlReport *gl);

/* What a GL blur that failed with error leaves in the band's report: the
 * failure to warn of (gl_failure), or, where nothing failed (a program
 * still compiling, the process exiting), why the CPU blurs (why_cpu). */
void cblur_run_report_gl_error (CblurRunReport *report,
                                const GError   *error);

/* Frees what the report owns (gl_failure). */
void cblur_run_report_clear (CblurRunReport      *report);

G_END_DECLS

#endif
