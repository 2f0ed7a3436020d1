/* The CPU backend of the variable blur: rows, then columns, through the
 * variable line passes, threaded through GEGL's parallel helpers. */
#ifndef CBLUR_CPU_VARIABLE_H
#define CBLUR_CPU_VARIABLE_H

#include <gegl.h>

#include "cblur-image.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* src: the part of dst's rectangle grown by variable->reach on every
 * side that is read, premultiplied RGBA float, or stored as its format
 * says, which the lines decode and premultiply as they are made; boxes:
 * the box of every pixel of src, row after row (cblur_variable_widths),
 * or their bytes and table.  The rest of the grown rectangle is made,
 * never held whole: its pixels are src's abyss under `abyss`, as GEGL
 * makes it at src's edges (loop repeats src, which must then be the whole
 * input or the whole grown rectangle), and its boxes are those of src's
 * nearest pixel, as of a mask clamped there.  masks: those of dst's
 * pixels, whose sigmas choose the levels they blend into the boxes'
 * result.  Memory goes with src and dst, and with
 * the reach only along one line a thread.  dst:
 * premultiplied RGBA float, or stored as its format says.  Call from one
 * thread at a time per dst. */
void cblur_cpu_variable_blur (const CblurVariable      *variable,
                              const CblurImage         *src,
                              const CblurVariableBoxes *boxes,
                              const CblurVariableMasks *masks,
                              GeglAbyssPolicy           abyss,
                              const CblurImage         *dst);

G_END_DECLS

#endif
