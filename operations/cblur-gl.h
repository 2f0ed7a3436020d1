/* The GL backend: one shared headless OpenGL 4.3 context (EGL device
 * platform, else Mesa surfaceless), created on first use and serialized
 * across GEGL's threads.  It goes when idle a while or at gegl_exit();
 * a forked child and an exiting process blur on the CPU.  Nothing outside
 * cblur-gl*.c touches GL. */
#ifndef CBLUR_GL_H
#define CBLUR_GL_H

#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-stream.h"

G_BEGIN_DECLS

#define CBLUR_GL_ERROR (cblur_gl_error_quark ())

typedef enum
{
  CBLUR_GL_ERROR_NO_CONTEXT,
  CBLUR_GL_ERROR_SHADER,
  CBLUR_GL_ERROR_OUT_OF_MEMORY,
  CBLUR_GL_ERROR_FAILED,
  CBLUR_GL_ERROR_LOST,
  CBLUR_GL_ERROR_EXITING   /* the process has begun to exit: no failure to warn of */
} CblurGlError;

typedef struct
{
  gchar   renderer[128];
  gint    max_texture_size;   /* GL_MAX_TEXTURE_SIZE: a tile's largest edge */
  gint    tiles;
  gdouble upload_ms;
  gdouble compute_ms;   /* GL_TIME_ELAPSED of the compute passes */
  gdouble download_ms;
} CblurGlReport;

typedef struct _CblurGlStaged CblurGlStaged;

GQuark   cblur_gl_error_quark (void);

/* TRUE once a context exists (creating it if needed); renderer may be NULL */
gboolean cblur_gl_available   (gboolean          *is_software,
                               GError           **error);

/* src holds dst's rectangle grown by kernel->reach on every side, as for
 * cblur_cpu_blur(), or with a stream, cblur_band_new()'s part of it inside
 * the input; either may be stored in a cblur-format (src then straight),
 * which the GPU converts.  stream, if any, fills src and takes dst,
 * overlapped with the GPU's work where the band is one tile.  On FALSE src
 * is read, or at least its part cblur_stream_inside() names, dst is
 * untouched or partly written (and handed on), and the caller redoes it
 * on the CPU. */
gboolean cblur_gl_blur        (const CblurKernel *kernel,
                               const CblurImage  *src,
                               const CblurImage  *dst,
                               CblurStream       *stream,
                               CblurGlReport     *report,
                               GError           **error);

/* Pinned host memory, mapped for the CPU, for a band's source and output,
 * which the GPU copies from and into directly: with images from here,
 * cblur_gl_blur() makes no copies on the CPU.  Sets both images' data and
 * stride from their sizes and formats, source shrunk first to its part
 * inside the stream's input where there is one and the GPU can make the
 * rest; NULL where GL cannot provide it. */
CblurGlStaged *cblur_gl_staged_new  (const CblurKernel  *kernel,
                                     const CblurStream  *stream,
                                     CblurImage         *source,
                                     CblurImage         *output,
                                     GError            **error);
void           cblur_gl_staged_free (CblurGlStaged  *staged);

G_END_DECLS

#endif
