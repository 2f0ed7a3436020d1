#include "config.h"
#include "cblur-report.h"

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
cblur_run_report_clear (CblurRunReport *report)
{
  g_clear_pointer (&report->gl_failure, g_free);
}
