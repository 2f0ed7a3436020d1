/* Limits the tests lower through the environment, to reach with small
 * images the code paths that large ones take. */
#ifndef CBLUR_SETTINGS_H
#define CBLUR_SETTINGS_H

#include <glib.h>

G_BEGIN_DECLS

/* the positive integer in the environment variable `name`, else `otherwise` */
gint64 cblur_test_setting (const gchar *name,
                           gint64       otherwise);

G_END_DECLS

#endif
