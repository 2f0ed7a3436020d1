#include "cblur-backend-variable.h"

#include <string.h>

#include "cblur-cpu-variable.h"

void
cblur_backend_variable_blur (CblurBackendKind     backend,
                             const CblurVariable *variable,
                             const CblurImage    *src,
                             const CblurBoxWidth *widths,
                             GeglAbyssPolicy      abyss,
                             const CblurImage    *dst,
                             CblurRunReport      *report)
{
  memset (report, 0, sizeof *report);
  report->ran_on = CBLUR_BACKEND_CPU;
  if (backend == CBLUR_BACKEND_GL)
    report->why_cpu = report->gl_failure = g_strdup ("the variable blur has no GL path yet");
  cblur_cpu_variable_blur (variable, src, widths, abyss, dst);
}
