/* The two-dispatch box's passes (cblur-gl-box.c), which the Gaussian's
 * and the variable blur's passes share.  Runs on the runtime's thread,
 * as all of cblur-gl-internal.h. */
#ifndef CBLUR_GL_BOX_H
#define CBLUR_GL_BOX_H

#include "cblur-gl-internal.h"

G_BEGIN_DECLS

/* The two-dispatch box's passes along one axis, from `from` through the
 * axis's scratch textures into `to`; the first reads from through the
 * map of its first n_in texels' lines (first, len and abyss, as
 * common.glsl's map takes them); origin: the absolute coordinate of the
 * first input pixel along the axis */
typedef struct
{
  gint            first;
  gint            len;
  GeglAbyssPolicy abyss;
} CblurGlMap;

G_GNUC_INTERNAL void         cblur_gl_set_map          (const CblurGpuProgram *program,
                                                        CblurGlMap             map);
G_GNUC_INTERNAL void         cblur_gl_set_box_window   (const CblurGpuProgram *program,
                                                        const CblurKernelAxis *kernel);
G_GNUC_INTERNAL void         cblur_gl_box_passes       (const CblurGlPasses   *passes,
                                                        gboolean               vertical,
                                                        const CblurGpuTexture *from,
                                                        const CblurGpuTexture *to,
                                                        CblurGlMap             map,
                                                        gint                   n_in,
                                                        gint                   origin,
                                                        gint                   lines);

G_END_DECLS

#endif
