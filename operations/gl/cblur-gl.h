/* The blur on the GPU, built on the GPU runtime (cblur-gpu.h), which
 * owns the context and its lifetime.  Nothing outside cblur-gl*.c and
 * cblur-gpu*.c touches GL.  Thread-safe: each call hands its GL work to
 * the runtime's thread (cblur_gpu_run) and waits for it. */
#ifndef CBLUR_GL_H
#define CBLUR_GL_H

#include "cblur-gpu.h"
#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-band-io.h"

G_BEGIN_DECLS

typedef struct
{
  gchar   renderer[128];
  gint    max_texture_size;   /* GL_MAX_TEXTURE_SIZE: a tile's largest edge */
  gint    tiles;
  gdouble upload_ms;
  gdouble compute_ms;   /* GL_TIME_ELAPSED of the compute passes */
  gdouble download_ms;
} CblurGlReport;

/* a band's source and output in pinned host memory */
typedef struct _CblurGlBandMemory CblurGlBandMemory;

/* Where src's pixels come from, beyond the images themselves. */
typedef struct
{
  /* what lies beyond src where it holds only its part inside the image */
  GeglAbyssPolicy abyss;
  /* src is, or comes, in straight alpha, which the GPU premultiplies */
  gboolean        straight;
  /* where the band streams (cblur_gl_band_memory_streams()), the run that
   * reads its source as GEGL gives it: the blur takes its rows as they
   * come and releases dst's rows as they are done; NULL where src holds
   * its pixels */
  CblurStreamRun   *run;
  const CblurImage *read;   /* the part of src that run reads */
  /* the blur takes only the programs that serve every radius, those
   * cblur_gl_prepare_all() queues, and where one is not linked yet fails
   * with CBLUR_GL_ERROR_NOT_READY rather than compile it on this thread,
   * having the runtime's thread compile it */
  gboolean          no_wait;
} CblurGlSource;

/* src holds dst's rectangle grown by kernel->reach on every side, as for
 * cblur_cpu_blur(), or, with a source, cblur_band_memory_new()'s part of
 * it inside the input; either may be stored in a cblur-format (src then
 * straight), which the GPU converts.  memory: the band's pinned memory
 * that src and dst live in, or NULL: the call copies them through its
 * own.  source: NULL for all of src held, premultiplied.  The kernel
 * changes something and dst is not empty (cblur_backend_does_nothing()).  On FALSE, dst
 * is untouched or partly written (rows released to the run), and the
 * caller redoes it on the CPU. */
gboolean cblur_gl_blur        (const CblurGlBandMemory *memory,
                               const CblurKernel       *kernel,
                               const CblurImage        *src,
                               const CblurImage        *dst,
                               const CblurGlSource     *source,
                               CblurGlReport           *report,
                               GError                 **error);

/* Pinned host memory, mapped for the CPU, for a band's source and output,
 * which the GPU copies from and into directly: with images in it,
 * cblur_gl_blur() makes no copies on the CPU.  Sets both images' data and
 * stride from their sizes and formats, source shrunk first to its part
 * inside the band io's input where there is one and the GPU can make the
 * rest; NULL where GL cannot provide it. */
CblurGlBandMemory *cblur_gl_band_memory_new  (const CblurKernel  *kernel,
                                              const CblurBandIo  *band_io,
                                              CblurImage         *source,
                                              CblurImage         *output,
                                              GError            **error);
void               cblur_gl_band_memory_free (CblurGlBandMemory  *memory);
/* whether its band is one tile, which streams: its uploads overlap
 * GEGL's reads, and its downloads GEGL's writes */
gboolean           cblur_gl_band_memory_streams (const CblurGlBandMemory *memory);

/* Thread-safe: cblur_gpu_available() and the start of cblur_gpu_state()
 * on the runtime as this module runs it (its settings, its end with
 * GEGL's); nothing else of the runtime may make a context. */
gboolean           cblur_gl_available        (gboolean           *is_software,
                                              GError            **error);

/* The blurs whose programs a start compiles and uses first: the rest
 * compile once a blur asks for them, in a pause of the GPU's blurs. */
typedef enum
{
  CBLUR_GL_BLURS_ENCODED    = 1 << 0,  /* kernel blurs of what the GPU decodes */
  CBLUR_GL_BLURS_STRAIGHT   = 1 << 1,  /* kernel blurs of straight RGBA float */
  CBLUR_GL_BLURS_TWO_SHADER = 1 << 2,  /* box reaches beyond the fused box's */
  CBLUR_GL_BLURS_VARIABLE   = 1 << 3,
  CBLUR_GL_BLURS_COMBINE    = 1 << 4,  /* blurs joined with their source (cblur-gl-combine.h) */
  CBLUR_GL_BLURS_ALL        = (1 << 5) - 1
} CblurGlBlurs;

/* Thread-safe: starts the GPU in the background (cblur_gpu_state), its
 * start to make `blurs` ready, beside those that earlier starts asked
 * for; a context made without a start makes all ready.  Where the GPU
 * has started for other blurs, their programs are queued for its thread
 * (a short task, waited for), which compiles them in a pause.  Where
 * pause_us is not 0, the context is made only after it
 * (cblur_gpu_start_after). */
void               cblur_gl_start            (CblurGlBlurs        blurs,
                                              gint64              pause_us);
/* Thread-safe: whether the starts so far asked for all of blurs (or a
 * context was made without one) */
gboolean           cblur_gl_started_for      (CblurGlBlurs        blurs);

/* A CblurGpuWarmUp (cblur_gpu_on_made): every program the started blurs
 * may take, at any radius and size, queued for the runtime's thread; none
 * on a software rasterizer, unless CBLUR_GL_NO_WAIT. */
void               cblur_gl_prepare_all      (CblurGpu           *gpu);
/* The runtime's first uses (cblur_gpu_on_linked): small blurs that
 * dispatch each program cblur_gl_prepare_all() queued, once. */
void               cblur_gl_first_use        (CblurGpu           *gpu);

/* Thread-safe: a band the CPU blurs while the GPU may yet take blurs,
 * whose input (band_io->inside) the GPU would blur whole.  The first
 * uses rehearse the largest such input's blur, src and dst in their
 * formats, so that its first blur on the GPU, a live preview's next
 * frame, finds its pinned memory, textures and programs made.  A band
 * above level 0 (band_io->level) is a dialog's preview: the whole
 * input's blur at level 0, the apply that follows, is rehearsed. */
void               cblur_gl_expect           (const CblurKernel  *kernel,
                                              const CblurBandIo  *band_io,
                                              const CblurImage   *src,
                                              const CblurImage   *dst);

G_END_DECLS

#endif
