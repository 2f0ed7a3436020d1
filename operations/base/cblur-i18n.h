/* Translation of the module's strings.  Include after <glib/gi18n-lib.h>. */
#ifndef CBLUR_I18N_H
#define CBLUR_I18N_H

#include <glib.h>

G_BEGIN_DECLS

const gchar *cblur_gettext (const gchar *msgid) G_GNUC_FORMAT (1);

G_END_DECLS

#undef _
#define _(String) cblur_gettext (String)

#endif
