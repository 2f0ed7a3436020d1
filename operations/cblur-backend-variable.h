/* Which backend runs the variable blur.  Only the CPU has it for now: a
 * GL backend goes in here, behind the same call, and the op stays as it
 * is. */
#ifndef CBLUR_BACKEND_VARIABLE_H
#define CBLUR_BACKEND_VARIABLE_H

#include "cblur-backend.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* Blurs src into dst with the boxes in widths, the rest made under abyss
 * (cblur_cpu_variable_blur says what each holds), on the backend, or on
 * the CPU where the backend has no variable blur; report says where it
 * ran, and why not on GL (cblur_run_report_clear frees it).  Call from
 * one thread at a time per dst. */
void cblur_backend_variable_blur (CblurBackendKind     backend,
                                  const CblurVariable *variable,
                                  const CblurImage    *src,
                                  const CblurBoxWidth *widths,
                                  GeglAbyssPolicy      abyss,
                                  const CblurImage    *dst,
                                  CblurRunReport      *report);

G_END_DECLS

#endif
