/* What the tests share: GEGL set-up, test images, and running the
 * operation in a graph the way an application does. */
#ifndef CBLUR_TEST_H
#define CBLUR_TEST_H

#include <gegl.h>

#include "reference.h"

#define TEST_FORMAT "RaGaBaA float"

void        test_init          (gint                 *argc,
                                gchar              ***argv);
/* random premultiplied RGBA in [0,1] */
GeglBuffer *test_random_buffer (gint                  width,
                                gint                  height,
                                guint32               seed);
/* a photograph from tests/data, in linear premultiplied RGBA float */
GeglBuffer *test_load_photo    (const gchar          *name);
GeglBuffer *test_load_image    (const gchar          *path);
gfloat     *test_read          (GeglBuffer           *buffer,
                                const GeglRectangle  *rect);
/* a file of n_floats raw floats (what the GIMP checks write); aborts
 * where it holds another number of bytes */
gfloat     *test_read_raw      (const gchar          *path,
                                gsize                 n_floats);
/* a field of /proc/self/status in KiB, as "VmRSS" or "VmHWM" */
gsize       test_status_kib    (const gchar          *field);
/* renders roi of cblur:gaussian-blur over input with the given properties */
gfloat     *test_blur          (GeglBuffer           *input,
                                const GeglRectangle  *roi,
                                const gchar          *first_property,
                                ...) G_GNUC_NULL_TERMINATED;
/* the same, read in format (4 floats a pixel) */
gfloat     *test_blur_as       (const Babl           *format,
                                GeglBuffer           *input,
                                const GeglRectangle  *roi,
                                const gchar          *first_property,
                                ...) G_GNUC_NULL_TERMINATED;
/* the same through a GEGL processor into a fresh buffer, in GEGL's own
 * chunks, or where chunk_pixels is not 0 in chunks of about that many */
gfloat     *test_render_chunked (GeglBuffer          *input,
                                 const GeglRectangle *roi,
                                 gint                 chunk_pixels,
                                 const gchar         *first_property,
                                 ...) G_GNUC_NULL_TERMINATED;
GeglNode   *test_blur_graph    (GeglNode             *parent,
                                GeglBuffer           *input,
                                GeglNode            **blur);
/* Runs data, a GTestFunc, under CBLUR_WHOLE_IMAGE_PIXELS=1: the rules
 * for images larger than the backend blurs whole, on small ones.  For
 * g_test_add_data_func(). */
void        test_run_without_whole_images (gconstpointer data);
/* CBLUR_BACKEND=gl: the tests run on GL and must not fall back */
gboolean    test_backend_is_gl (void);
/* every blur since the last call ran on the backend under test */
void        test_assert_ran_on_backend (void);
/* blurs so far count for neither */
void        test_forget_backends       (void);

/* What the op blurred since the last call: output bands (input and
 * halo for each come on top), their pixels and the widest band. */
typedef struct
{
  gint   bands;
  gint64 pixels;
  gint   widest;
  gint   kept;     /* bands whose source came as an earlier blur kept it */
} TestBlurred;

TestBlurred test_take_blurred  (void);
gdouble     test_max_abs_diff  (const gfloat         *a,
                                const gfloat         *b,
                                gsize                 n);
/* the buffer's pixels, for the reference */
RefImage   *test_reference_input (GeglBuffer         *buffer);
/* actual within max_allowed of expected everywhere and rms_allowed in
 * the root mean square; what names the case in the test's messages */
void        test_assert_near   (const RefImage       *expected,
                                const gfloat         *actual,
                                gdouble               max_allowed,
                                gdouble               rms_allowed,
                                const gchar          *what);

/* TRUE in the test's own process (this program again, at the test's
 * path); in the caller, FALSE once that passed, within within_us where
 * not 0 */
gboolean    test_in_own_process (guint64              within_us);
/* a forked child exited 0 within a minute; one that takes longer has
 * hung, and is killed */
void        test_assert_child_passed (GPid            child);

#endif
