/* Memory for whole bands of pixels. */
#ifndef CBLUR_MEMORY_H
#define CBLUR_MEMORY_H

#include <glib.h>

G_BEGIN_DECLS

/* NULL when there is no room, rather than aborting as g_malloc does */
gpointer cblur_pixels_alloc (gsize    bytes);
/* for the CPU's own buffers, which have no fallback: aborts with a message
 * where there is no room, as gegl_malloc does */
gpointer cblur_pixels_take  (gsize    bytes);
void     cblur_pixels_free  (gpointer pixels);

G_END_DECLS

#endif
