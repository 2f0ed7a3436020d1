/* The variable blur on the GPU (cblur-variable.h's definition), on the
 * GPU runtime and the Gaussian blur's tiles, textures and conversions:
 * each axis runs the box passes of cblur-cpu-variable-line.c, a pixel's
 * box read from the band's widths table, their running sums in blocks
 * anchored at absolute coordinates.  Thread-safe: each call takes the
 * runtime's lock for its GL work. */
#ifndef CBLUR_GL_VARIABLE_H
#define CBLUR_GL_VARIABLE_H

#include <gegl.h>

#include "cblur-gl.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* a band's source, output and boxes in pinned host memory */
typedef struct _CblurGlVariableMemory CblurGlVariableMemory;

/* Pinned memory, mapped for the CPU, for src and dst in their formats
 * (each image's data and stride are set from its size and format) and
 * for the boxes of src's pixels, row after row: with boxes->table, a
 * byte a pixel (boxes->codes; the table is copied), else a box a pixel
 * (boxes->widths).  NULL where GL cannot provide it. */
CblurGlVariableMemory *cblur_gl_variable_memory_new  (CblurImage         *src,
                                                      CblurImage         *dst,
                                                      CblurVariableBoxes *boxes,
                                                      GError            **error);
/* Thread-safe. */
void                   cblur_gl_variable_memory_free (CblurGlVariableMemory *memory);

/* Blurs src into dst as cblur_cpu_variable_blur() does, both in memory's
 * pinned buffers, with the boxes there: src is the part of dst's
 * rectangle grown by variable->reach that is read (loop's abyss needs all
 * of the input, or all of the grown rectangle), beyond which `abyss` makes
 * the pixels and the nearest pixel's box is taken.  Either may be in a
 * cblur-format (src is then straight), which the GPU converts; else
 * premultiplied RGBA float.  The variable blur changes something and dst
 * is not empty.  no_wait: as CblurGlSource's, a program not linked yet
 * fails the blur with CBLUR_GL_ERROR_NOT_READY rather than compile here.
 * On FALSE, dst is untouched or partly written and the caller redoes it
 * on the CPU. */
gboolean cblur_gl_variable_blur (const CblurGlVariableMemory *memory,
                                 const CblurVariable         *variable,
                                 const CblurImage            *src,
                                 GeglAbyssPolicy              abyss,
                                 const CblurImage            *dst,
                                 gboolean                     no_wait,
                                 CblurGlReport               *report,
                                 GError                     **error);

G_END_DECLS

#endif
