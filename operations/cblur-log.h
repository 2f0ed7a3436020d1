/* The line the op writes for each band it blurs: through GLib's log
 * (G_MESSAGES_DEBUG=cblur), and where CBLUR_LOG says, straight to stderr
 * or the end of a file, past the host's log handlers: GIMP drops GLib's
 * debug messages, so that is how its users see which backend ran. */
#ifndef CBLUR_LOG_H
#define CBLUR_LOG_H

#include "cblur-backend.h"

G_BEGIN_DECLS

/* Logs the message, followed, where the band ran on the CPU, by why GL
 * was not used (fallback="..."). */
void cblur_log_band (const CblurRunReport *report,
                     const gchar          *format,
                     ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS

#endif
