/* What this machine offers the blurs, told without opening GL: its cores
 * and its GPU as the kernel shows it.  Every function is thread-safe and
 * reads the machine once. */
#ifndef CBLUR_MACHINE_H
#define CBLUR_MACHINE_H

#include <glib.h>

G_BEGIN_DECLS

/* the cores this process may run on (taskset's, a container's) */
gint         cblur_machine_cores   (void);

/* Whether the machine shows a GPU's device node: NVIDIA's, or a DRM
 * render node, as it did when first asked in this process.  Without one
 * the only OpenGL is a software renderer. */
gboolean     cblur_machine_has_gpu (void);

/* The GPU's model and driver as the kernel tells them (NVIDIA's
 * /proc/driver/nvidia, else the first render node's driver and PCI id),
 * for keying what it was measured to cost; "none" without a GPU. */
const gchar *cblur_machine_gpu     (void);

G_END_DECLS

#endif
