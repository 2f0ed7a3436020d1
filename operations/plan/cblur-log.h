/* The line the op writes for each band it blurs, formatted from the
 * backend's report: through GLib's log (G_MESSAGES_DEBUG=cblur), and
 * where CBLUR_LOG says, straight to stderr or the end of a file, past the
 * host's log handlers: GIMP drops GLib's debug messages, so that is how
 * its users see which backend ran.  The report itself goes to a watcher,
 * for the tests and the benchmark.  Thread-safe. */
#ifndef CBLUR_LOG_H
#define CBLUR_LOG_H

#include <gegl.h>

#include "cblur-backend.h"

G_BEGIN_DECLS

/* Logs the band's line: the backend that ran, the kernel's mode and
 * radius, the band and mipmap level, the report's times, and, where the
 * band ran on the CPU, why GL was not used (fallback="..."). */
void cblur_log_band  (const CblurRunReport *report,
                      const GeglRectangle  *band,
                      gint                  level);

/* func sees each band's report as it is logged, on the thread that
 * blurred it (NULL: none); for the tests and the benchmark, which link
 * this library, so that the op's module calls theirs. */
typedef void (*CblurReportFunc) (const CblurRunReport *report,
                                 const GeglRectangle  *band,
                                 gpointer              user_data);

void cblur_log_watch (CblurReportFunc       func,
                      gpointer              user_data);

G_END_DECLS

#endif
