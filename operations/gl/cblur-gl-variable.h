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

/* Thread-safe: a band the CPU blurs while the GPU may yet take the next
 * (src and dst as cblur_gl_variable_memory_new() takes them, codes where
 * the boxes are a byte a pixel).  The GPU's first uses pin the largest
 * such band's memory and give it back for the next band to take, whose
 * first blur on the GPU, an apply's, would otherwise pin it. */
void                   cblur_gl_variable_expect      (const CblurImage      *src,
                                                      const CblurImage      *dst,
                                                      gboolean               codes);
/* On the runtime's thread, in the first uses: pins what was expected. */
void                   cblur_gl_variable_pin_expected (CblurGpu             *gpu);

/* Blurs src into dst as cblur_cpu_variable_blur() does, both in memory's
 * pinned buffers, with the boxes there: src is the part of dst's
 * rectangle grown by variable->reach that is read (loop's abyss needs all
 * of the input, or all of the grown rectangle), beyond which the source's
 * abyss makes the pixels and the nearest pixel's box is taken.  Either
 * may be in a cblur-format (src is then straight), which the GPU
 * converts; else premultiplied RGBA float.  The variable blur changes
 * something and dst is not empty.  masks: those of dst's pixels
 * (their bytes the boxes' where it has no values), whose sigmas choose
 * the levels blended into the boxes' result.  source: its abyss, no_wait as for
 * cblur_gl_blur(), and where its run reads src and its boxes, the rows
 * go up and through the row passes as they come, and dst's rows are
 * released as they come down (under loop's abyss, or where the band
 * takes several tiles, once all are read and all are done); its straight
 * and read are not taken.  On FALSE, dst is untouched or partly written
 * (rows released to the run), and the caller redoes it on the CPU. */
gboolean cblur_gl_variable_blur (const CblurGlVariableMemory *memory,
                                 const CblurVariable         *variable,
                                 const CblurImage            *src,
                                 const CblurVariableMasks    *masks,
                                 const CblurGlSource         *source,
                                 const CblurImage            *dst,
                                 CblurGlReport               *report,
                                 GError                     **error);

G_END_DECLS

#endif
