/* A band's blurs joined with its source on the GPU (cblur-combine.h's
 * arithmetic, in combine.comp): each tile goes up once, is blurred (the
 * difference of Gaussians: twice, the same upload), joined with its
 * source on the GPU, and comes down once.  Thread-safe: each call takes
 * the runtime's lock for its GL work. */
#ifndef CBLUR_GL_COMBINE_H
#define CBLUR_GL_COMBINE_H

#include "cblur-gl.h"
#include "cblur-combine.h"

G_BEGIN_DECLS

typedef enum
{
  CBLUR_GL_COMBINE_UNSHARP,
  CBLUR_GL_COMBINE_HIGH_PASS,
  CBLUR_GL_COMBINE_DIFFERENCE
} CblurGlCombineKind;

typedef struct
{
  CblurGlCombineKind kind;
  /* the blur, then the difference's second (subtracted) or the unsharp
   * mask's threshold mask's blur (direct, its reach at most 3), else
   * NULL; each changes something (cblur_kernel_is_identity) */
  const CblurKernel *kernels[2];
  gfloat             amount;     /* unsharp: the difference's factor */
  gfloat             contrast;   /* high pass */
  /* as CblurGlSource's: a program not linked yet fails the call with
   * CBLUR_GL_ERROR_NOT_READY rather than compile in it */
  gboolean           no_wait;
  /* unsharp with kernels[1]: the threshold mask, made within the image
   * (which holds dst) and beyond it from the image's edge */
  CblurThreshold     threshold;
  GeglRectangle      image;
  /* the abyss beyond image, which the tiles make on the GPU where src
   * holds only its part inside image (cblur_gl_combine) */
  GeglAbyssPolicy    abyss;
  /* with memory, where its band streams (cblur_gl_band_memory_streams()),
   * the run that reads src as GEGL gives it: the join takes its rows as
   * they come and releases dst's rows as they are done; NULL where src
   * holds its pixels */
  CblurStreamRun    *run;
} CblurGlCombine;

/* What src holds beyond dst on every side: the kernels' greatest reach,
 * the two added for the threshold mask, whose blur reads the mask around
 * the first blur's outputs. */
gint     cblur_gl_combine_reach (const CblurGlCombine *combine);

/* Joins src, holding dst's rectangle grown by cblur_gl_combine_reach(),
 * or, where dst lies in combine's image and its abyss is not loop, that
 * rectangle's part inside the image, with its blurs into dst, as
 * cblur_combine_unsharp() (with the threshold mask,
 * cblur_combine_threshold()'s, blurred), _high_pass() or _difference()
 * do.  Each image is premultiplied RGBA float, or in its cblur-format
 * (src decoded and dst encoded on the GPU).  memory: cblur_gl_band_memory_new()'s for src and dst, which
 * live there, or NULL where they live anywhere else (copied through
 * pinned memory of the call's own).  dst is not empty.  On FALSE, dst
 * is untouched or partly written (rows released to combine's run) and
 * the caller redoes it on the CPU. */
gboolean cblur_gl_combine       (const CblurGlBandMemory *memory,
                                 const CblurGlCombine    *combine,
                                 const CblurImage        *src,
                                 const CblurImage        *dst,
                                 CblurGlReport           *report,
                                 GError                 **error);

/* Thread-safe: a band the CPU joins while the GPU may yet take the next,
 * whose whole input the GPU would join in one band: dst's rectangle
 * `inside` (at full size), src's grown by cblur_gl_combine_reach(), in
 * their formats (NULL: premultiplied float).  The GPU's first uses
 * rehearse the largest such join, so that its first on the GPU, an
 * apply's, finds its pinned memory, textures and programs made. */
void     cblur_gl_combine_expect (const CblurGlCombine *combine,
                                  const GeglRectangle  *inside,
                                  const CblurFormat    *src_format,
                                  const CblurFormat    *dst_format);

G_END_DECLS

#endif
