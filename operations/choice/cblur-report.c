#include "config.h"
#include "cblur-report.h"

#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

void
cblur_run_report_gl (CblurRunReport      *report,
                     const CblurGlReport *gl)
{
  g_strlcpy (report->renderer, gl->renderer, sizeof report->renderer);
  report->tiles = gl->tiles;
  report->upload_ms = gl->upload_ms;
  report->compute_ms = gl->compute_ms;
  report->download_ms = gl->download_ms;
}

void
cblur_run_report_gl_error (CblurRunReport *report,
                           const GError   *error)
{
  if (g_error_matches (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_EXITING))
    report->why_cpu = _("the process is exiting");
  else if (g_error_matches (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NOT_READY))
    report->why_cpu = _("the GPU's programs for this blur are being compiled; "
                        "the CPU blurs meanwhile");
  else
    report->gl_failure = g_strdup (error != NULL ? error->message
                                                 : _("the GPU's blur failed"));
}

void
cblur_run_report_clear (CblurRunReport *report)
{
  g_clear_pointer (&report->gl_failure, g_free);
}
