/* What the GL tests share: images in the layout the backends take, and
 * blurring one on the GL and on the CPU backend. */
#ifndef GL_TEST_H
#define GL_TEST_H

#include "cblur-test.h"
#include "cblur-cpu.h"
#include "cblur-gl.h"
#include "cblur-backend.h"

/* an image of width × height pixels at x, y in format (NULL: float),
 * zeroed, its rows padded so that strides are exercised */
CblurImage *gl_test_image_new    (const CblurFormat *format,
                                  gint               x,
                                  gint               y,
                                  gint               width,
                                  gint               height);
/* random RGBA in [0,1] at x, y, width × height; rows padded so that
 * strides are exercised */
CblurImage *gl_test_random_image (gint               x,
                                  gint               y,
                                  gint               width,
                                  gint               height,
                                  guint32            seed);
/* the input a blur by kernel needs for the output rectangle x, y, width ×
 * height (that grown by the reach), as gl_test_random_image() */
CblurImage *gl_test_random_input (const CblurKernel *kernel,
                                  gint               x,
                                  gint               y,
                                  gint               width,
                                  gint               height,
                                  guint32            seed);
/* NaN everywhere, so a pixel the backend never wrote fails every compare */
CblurImage *gl_test_blank_image  (gint               x,
                                  gint               y,
                                  gint               width,
                                  gint               height);
void        gl_test_image_free   (CblurImage        *image);
gdouble     gl_test_max_diff     (const CblurImage  *a,
                                  const CblurImage  *b);

/* A random source for the output rectangle x, y, width × height, blurred by
 * both backends; GL must succeed.  Returns max |GL - CPU|. */
gdouble     gl_test_against_cpu  (const CblurKernel *kernel,
                                  gint               x,
                                  gint               y,
                                  gint               width,
                                  gint               height,
                                  guint32            seed,
                                  CblurGlReport     *report);

/* GEGL's side of a streamed band, in memory: reads come from `from`,
 * which must hold all that is read, writes go to `to`, both at the band
 * images' coordinates and in their formats */
typedef struct
{
  const CblurImage *from;
  CblurImage       *to;
  gulong            read_delay_us;   /* per piece, so that rows arrive over time */
} GlTestGegl;

/* a band io over gegl, in pieces of small tiles (32 × 16) */
CblurBandIo gl_test_stream       (GlTestGegl        *gegl);

/* The op's streamed path without GEGL: a band (on GL staged in its
 * buffers) for the band io's GlTestGegl's `to` (its input that grown by the reach),
 * filled from its `from`, which need hold only what is read, blurred by
 * backend (GL falling back as the op does) and handed on into `to`. */
void        gl_test_blur_streamed (CblurBackendKind   backend,
                                   const CblurKernel *kernel,
                                   CblurBandIo       *band_io,
                                   CblurRunReport    *report);

/* name=value (NULL: unset) for the blurs that follow, the op's included:
 * the environment, read again */
void        gl_test_set          (const gchar       *name,
                                  const gchar       *value);

/* Whether check (data) comes to return `wanted` within within_us: for
 * what the backend's own threads do in their own time. */
gboolean    gl_test_comes_to     (gboolean         (*check) (gconstpointer data),
                                  gconstpointer      data,
                                  gboolean           wanted,
                                  gint64             within_us);

/* g_test_run(), then gegl_exit(), as at a host's exit */
int         gl_test_run          (void);

#endif
