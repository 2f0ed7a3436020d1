/* Every GL failure point, made to fail through CBLUR_GL_FAULT: the call
 * reports it as the real failure would, and the next call works. */
#define _GNU_SOURCE /* secure_getenv */

#include "gl-test.h"

#include <stdlib.h>
#include <string.h>
#include <epoxy/gl.h>

#include "cblur-backend.h"
#include "cblur-gl-internal.h"

typedef struct
{
  const gchar *fault;
  gint         code;
} Fault;

static const Fault faults[] = {
  { "context",  CBLUR_GL_ERROR_NO_CONTEXT },
  { "compile",  CBLUR_GL_ERROR_SHADER },
  { "alloc",    CBLUR_GL_ERROR_OUT_OF_MEMORY },
  { "dispatch", CBLUR_GL_ERROR_FAILED },
  { "lost",     CBLUR_GL_ERROR_LOST },
};

static void
check_recovers (const CblurKernel *kernel)
{
  CblurGlReport report;
  gdouble       tolerance = kernel->mode == CBLUR_MODE_BOX ? 1e-4 : 1e-5;

  g_assert_cmpfloat (gl_test_against_cpu (kernel, -8, 5, 67, 43, 3, &report),
                     <=, tolerance);
}

static void
test_fault (gconstpointer data)
{
  const Fault *fault = data;
  CblurMode    mode;

  for (mode = CBLUR_MODE_DIRECT; mode <= CBLUR_MODE_BOX; mode++)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (6.0, mode, 3);
      g_autoptr (GError)      error = NULL;
      CblurImage             *src = gl_test_random_input (kernel, kernel->reach, kernel->reach,
                                                          40, 30, 8);
      CblurImage             *dst = gl_test_blank_image (kernel->reach, kernel->reach, 40, 30);
      CblurGlReport           report;
      gboolean                ok;

      /* a context made before the fault must not hide it */
      check_recovers (kernel);

      gl_test_set ("CBLUR_GL_FAULT", fault->fault);
      ok = cblur_gl_blur (NULL, kernel, src, dst, NULL, &report, &error);
      gl_test_set ("CBLUR_GL_FAULT", NULL);

      g_assert_false (ok);
      g_assert_error (error, CBLUR_GL_ERROR, fault->code);
      g_test_message ("%s, %s: %s", fault->fault, cblur_mode_name (mode), error->message);
      /* the compiler's own log goes into the error */
      if (fault->code == CBLUR_GL_ERROR_SHADER)
        g_assert_nonnull (strstr (error->message, "CBLUR_GL_FAULT=compile"));
      /* a GL error is named, with the site that found it */
      if (fault->code == CBLUR_GL_ERROR_FAILED)
        g_assert_nonnull (strstr (error->message, "GL_INVALID_OPERATION (dispatch "));

      check_recovers (kernel);
      gl_test_image_free (src);
      gl_test_image_free (dst);
    }
}

/* A check takes every GL error pending, so that none is left to be blamed
 * on the next site, and names the first with its own site. */
static gboolean
check_takes_all (CblurGpu  *gpu,
                 gpointer   unused,
                 GError   **error)
{
  glEnable (0x7fff);
  glLineWidth (-1.0f);
  g_assert_false (cblur_gpu_check (gpu, "test site", error));
  g_assert_true (cblur_gpu_check (gpu, "next site", NULL));
  return FALSE;
}

static void
test_check_takes_all (void)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (cblur_gpu_run (check_takes_all, NULL, &error));
  g_assert_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "GL_INVALID_ENUM (test site)"));
}

static void
test_available_without_context (void)
{
  g_autoptr (GError) error = NULL;
  gboolean           ok;

  gl_test_set ("CBLUR_GL_FAULT", "context");
  ok = cblur_gl_available (NULL, &error);
  gl_test_set ("CBLUR_GL_FAULT", NULL);

  g_assert_false (ok);
  g_assert_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NO_CONTEXT);
  g_assert_true (cblur_gl_available (NULL, NULL));
}

/* what the op sees: a failed GL blur is redone on the CPU */
static void
test_backend_falls_back (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (4.0, CBLUR_MODE_DIRECT, 3);
  CblurImage             *src = gl_test_random_input (kernel, -10 + kernel->reach,
                                                      -10 + kernel->reach, 50, 20, 2);
  CblurImage             *on_backend = gl_test_blank_image (-10 + kernel->reach,
                                                            -10 + kernel->reach, 50, 20);
  CblurImage             *on_cpu = gl_test_blank_image (-10 + kernel->reach,
                                                        -10 + kernel->reach, 50, 20);
  CblurRunReport          report;

  gl_test_set ("CBLUR_GL_FAULT", "dispatch");
  cblur_backend_blur (NULL, CBLUR_BACKEND_GL, kernel, src, on_backend, NULL, &report);
  gl_test_set ("CBLUR_GL_FAULT", NULL);
  cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);

  g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_CPU);
  g_assert_nonnull (report.gl_failure);
  g_assert_cmpfloat (gl_test_max_diff (on_backend, on_cpu), ==, 0.0);

  cblur_run_report_clear (&report);
  gl_test_image_free (src);
  gl_test_image_free (on_backend);
  gl_test_image_free (on_cpu);
}

/* The op's path: GEGL's pixels staged in GL's own buffers.  A fault there
 * still leaves the band correct (on the CPU, in those buffers); after a
 * loss the staging stays usable until it is given back, and the next band
 * gets a fresh context. */
static void
test_staged_band (gconstpointer data)
{
  const Fault            *fault = data;
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (9.0, CBLUR_MODE_BOX, 4);
  CblurImage             *random = gl_test_random_input (kernel, 3, -7, 70, 33, 5);
  CblurImage             *on_cpu = gl_test_blank_image (3, -7, 70, 33);
  CblurImage              src = *random;
  CblurImage              dst = *on_cpu;
  CblurBandMemory        *band = cblur_band_memory_new (CBLUR_BACKEND_GL, kernel, NULL, &src,
                                                          &dst);
  CblurRunReport          report;
  gint                    row;

  g_assert_nonnull (band);
  for (row = 0; row < src.height; row++)
    memcpy (cblur_image_row (&src, row), cblur_image_row (random, row),
            src.width * CBLUR_CHANNELS * sizeof (gfloat));
  cblur_cpu_blur (kernel, random, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);

  gl_test_set ("CBLUR_GL_FAULT", fault->fault);
  cblur_backend_blur (band, CBLUR_BACKEND_GL, kernel, &src, &dst, NULL, &report);
  gl_test_set ("CBLUR_GL_FAULT", NULL);

  g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_CPU);
  g_assert_nonnull (report.gl_failure);
  g_assert_cmpfloat (gl_test_max_diff (&dst, on_cpu), ==, 0.0);
  cblur_run_report_clear (&report);

  /* a second band while the first is out: refused after a loss, or fine */
  cblur_backend_blur (band, CBLUR_BACKEND_GL, kernel, &src, &dst, NULL, &report);
  g_assert_cmpint (report.ran_on, ==,
                   fault->code == CBLUR_GL_ERROR_LOST ||
                   fault->code == CBLUR_GL_ERROR_OUT_OF_MEMORY
                     ? CBLUR_BACKEND_CPU : CBLUR_BACKEND_GL);
  g_assert_cmpfloat (gl_test_max_diff (&dst, on_cpu), <=, 1e-4);
  cblur_run_report_clear (&report);
  cblur_band_memory_free (band);

  check_recovers (kernel);
  gl_test_image_free (random);
  gl_test_image_free (on_cpu);
}

/* kernel's blur of the band io's band, streamed as the op streams it: the
 * backend it ran on */
static CblurBackendKind
blur_streamed (const CblurKernel *kernel,
               CblurBandIo       *band_io)
{
  CblurRunReport   report;
  CblurBackendKind ran_on;

  gl_test_blur_streamed (CBLUR_BACKEND_GL, kernel, band_io, &report);
  ran_on = report.ran_on;
  cblur_run_report_clear (&report);
  return ran_on;
}

/* The op's streamed path, GEGL's reads and writes overlapping the GPU's
 * copies: a fault anywhere still hands GEGL the CPU's whole band, and
 * without one GEGL gets every pixel from the GPU. */
static void
test_streamed_band (gconstpointer data)
{
  const Fault            *fault = data;
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (9.0, CBLUR_MODE_BOX, 4);
  CblurImage             *random = gl_test_random_input (kernel, 3, -7, 300, 200, 6);
  CblurImage             *on_cpu = gl_test_blank_image (3, -7, 300, 200);
  CblurImage             *handed_on = gl_test_blank_image (3, -7, 300, 200);
  GlTestGegl              gegl = { random, handed_on, 0 };
  CblurBandIo             band_io = gl_test_stream (&gegl);
  CblurBackendKind        ran_on;

  cblur_cpu_blur (kernel, random, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);

  gl_test_set ("CBLUR_GL_FAULT", fault->fault);
  ran_on = blur_streamed (kernel, &band_io);
  gl_test_set ("CBLUR_GL_FAULT", NULL);
  g_assert_cmpint (ran_on, ==, CBLUR_BACKEND_CPU);
  g_assert_cmpfloat (gl_test_max_diff (handed_on, on_cpu), ==, 0.0);

  gl_test_image_free (handed_on);
  handed_on = gegl.to = gl_test_blank_image (3, -7, 300, 200);
  g_assert_cmpint (blur_streamed (kernel, &band_io), ==, CBLUR_BACKEND_GL);
  g_assert_cmpfloat (gl_test_max_diff (handed_on, on_cpu), <=, 1e-4);

  gl_test_image_free (random);
  gl_test_image_free (on_cpu);
  gl_test_image_free (handed_on);
}

/* image's straight pixels as babl premultiplies them, into a new image */
static CblurImage *
babl_premultiplied (const CblurImage *image)
{
  CblurImage *premultiplied = gl_test_blank_image (image->x, image->y, image->width,
                                                   image->height);
  gint        row;

  for (row = 0; row < image->height; row++)
    babl_process (babl_fish (babl_format ("RGBA float"), babl_format ("RaGaBaA float")),
                  cblur_image_row (image, row), cblur_image_row (premultiplied, row),
                  image->width);
  return premultiplied;
}

/* a random straight-alpha input to kernel's blur of the 300 × 200 band at
 * (3, -7), with transparent pixels and alphas at babl's floor, whose
 * colour stays */
static CblurImage *
straight_input (const CblurKernel *kernel)
{
  CblurImage *straight = gl_test_random_input (kernel, 3, -7, 300, 200, 9);
  gint        x, y;

  for (y = 0; y < straight->height; y++)
    for (x = y % 5; x < straight->width; x += 5)
      cblur_image_pixel (straight, x, y)[3] = x % 2 == 0 ? 0.0f : CBLUR_ALPHA_FLOOR;
  return straight;
}

/* A straight-alpha band (GEGL's RGBA float, which the backend
 * premultiplies): a fault hands GEGL the CPU's blur of babl's
 * premultiplied copy, bit for bit; the GPU without one, staged or not,
 * its blur of that copy, bit for bit; and a kernel of no reach the copy
 * itself. */
static void
test_straight_band (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (9.0, CBLUR_MODE_BOX, 4);
  g_autoptr (CblurKernel) identity = cblur_kernel_new (0.0, CBLUR_MODE_BOX, 4);
  CblurImage             *straight = straight_input (kernel);
  CblurImage             *premultiplied;
  CblurImage             *on_cpu = gl_test_blank_image (3, -7, 300, 200);
  CblurImage             *on_gpu = gl_test_blank_image (3, -7, 300, 200);
  CblurImage             *handed_on = gl_test_blank_image (3, -7, 300, 200);
  GlTestGegl              gegl = { straight, handed_on, 0 };
  GlTestGegl              gegl_premultiplied;
  CblurBandIo             band_io = gl_test_stream (&gegl);
  CblurBandIo             stream_premultiplied;
  CblurRunReport          report;
  CblurBackendKind        ran_on;

  premultiplied = babl_premultiplied (straight);
  band_io.straight_alpha = TRUE;
  gegl_premultiplied = (GlTestGegl) { premultiplied, on_gpu, 0 };
  stream_premultiplied = gl_test_stream (&gegl_premultiplied);
  cblur_cpu_blur (kernel, premultiplied, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);

  gl_test_set ("CBLUR_GL_FAULT", "dispatch");
  ran_on = blur_streamed (kernel, &band_io);
  gl_test_set ("CBLUR_GL_FAULT", NULL);
  g_assert_cmpint (ran_on, ==, CBLUR_BACKEND_CPU);
  g_assert_cmpfloat (gl_test_max_diff (handed_on, on_cpu), ==, 0.0);

  g_assert_cmpint (blur_streamed (kernel, &stream_premultiplied), ==, CBLUR_BACKEND_GL);
  g_assert_cmpint (blur_streamed (kernel, &band_io), ==, CBLUR_BACKEND_GL);
  g_assert_cmpfloat (gl_test_max_diff (handed_on, on_gpu), ==, 0.0);

  /* a band GL could not stage goes through staging of the call's own */
  {
    CblurImage *src = gl_test_blank_image (straight->x, straight->y, straight->width,
                                           straight->height);
    CblurImage *dst = gl_test_blank_image (3, -7, 300, 200);

    gl_test_image_free (handed_on);
    handed_on = gegl.to = gl_test_blank_image (3, -7, 300, 200);
    cblur_backend_blur (NULL, CBLUR_BACKEND_GL, kernel, src, dst, &band_io, &report);
    g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
    g_assert_cmpfloat (gl_test_max_diff (handed_on, on_gpu), ==, 0.0);
    cblur_run_report_clear (&report);
    gl_test_image_free (src);
    gl_test_image_free (dst);
  }

  gl_test_image_free (handed_on);
  gl_test_image_free (straight);
  gl_test_image_free (premultiplied);
  straight = gl_test_random_input (identity, 3, -7, 300, 200, 9);
  premultiplied = babl_premultiplied (straight);
  handed_on = gegl.to = gl_test_blank_image (3, -7, 300, 200);
  gegl.from = straight;
  g_assert_cmpint (blur_streamed (identity, &band_io), ==, CBLUR_BACKEND_GL);
  g_assert_cmpfloat (gl_test_max_diff (handed_on, premultiplied), ==, 0.0);

  gl_test_image_free (straight);
  gl_test_image_free (premultiplied);
  gl_test_image_free (on_cpu);
  gl_test_image_free (on_gpu);
  gl_test_image_free (handed_on);
}

/* A host may call setenv while the context idles, and a getenv in another
 * thread meanwhile can read the environment glibc has just freed.  The GL
 * driver's reads there are its own, but ours must all be made by the
 * blurring thread.  This program's getenv comes before libc's, so it
 * counts the reads of our settings by other threads while `watching`;
 * secure_getenv is libc's getenv for a process that is not set-uid. */
static GThread *tests_thread;
static gint     watching;
static gint     foreign_reads;

char *
getenv (const char *name)
{
  if (g_atomic_int_get (&watching) && g_thread_self () != tests_thread &&
      g_str_has_prefix (name, "CBLUR_"))
    g_atomic_int_inc (&foreign_reads);
  return secure_getenv (name);
}

static gboolean
holds_context (gconstpointer unused)
{
  return cblur_gpu_holds_context ();
}

/* whether the context is still there after waiting up to a second */
static gboolean
context_outlives_a_second (void)
{
  return !gl_test_comes_to (holds_context, NULL, FALSE, G_USEC_PER_SEC);
}

static gboolean
holds_memory (gconstpointer unused)
{
  return cblur_gpu_holds_memory ();
}

/* whether the context still holds its users' memory after up to a second */
static gboolean
memory_outlives_a_second (void)
{
  return !gl_test_comes_to (holds_memory, NULL, FALSE, G_USEC_PER_SEC);
}

/* A host that runs on after a blur gets the GPU's and the pinned memory
 * back once the context has been idle a while, never while a band's
 * pixels are out in its staging, and the context stays with its
 * programs; with CBLUR_GL_LET_GO the context goes too, and the next blur
 * makes a new one. */
static void
test_idle_release (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (6.0, CBLUR_MODE_BOX, 4);
  CblurImage              src = { NULL, -kernel->reach, -kernel->reach,
                                  20 + 2 * kernel->reach, 20 + 2 * kernel->reach, 0 };
  CblurImage              dst = { NULL, 0, 0, 20, 20, 0 };
  g_autofree gchar       *idle_ms = g_strdup (g_getenv ("CBLUR_GL_IDLE_MS"));
  CblurBandMemory        *band;

  gl_test_set ("CBLUR_GL_IDLE_MS", "100");
  check_recovers (kernel);
  tests_thread = g_thread_self ();
  g_atomic_int_set (&watching, TRUE);
  g_assert_false (memory_outlives_a_second ());
  g_atomic_int_set (&watching, FALSE);
  g_assert_cmpint (g_atomic_int_get (&foreign_reads), ==, 0);
  g_assert_true (cblur_gpu_holds_context ());

  band = cblur_band_memory_new (CBLUR_BACKEND_GL, kernel, NULL, &src, &dst);
  g_assert_true (memory_outlives_a_second ());
  cblur_band_memory_free (band);
  g_assert_false (memory_outlives_a_second ());
  g_assert_true (cblur_gpu_holds_context ());

  gl_test_set ("CBLUR_GL_LET_GO", "1");
  check_recovers (kernel);
  g_assert_false (context_outlives_a_second ());
  gl_test_set ("CBLUR_GL_LET_GO", NULL);

  /* before the next blur, whose context then outlives the setenvs to come */
  if (idle_ms != NULL)
    gl_test_set ("CBLUR_GL_IDLE_MS", idle_ms);
  else
    gl_test_set ("CBLUR_GL_IDLE_MS", NULL);
  check_recovers (kernel);
}

/* Each shader that loads a straight source premultiplies it as it does,
 * or premultiply.comp before it: the GPU's blur of a straight band is bit
 * for bit its blur of babl's premultiplied copy.  The fused box's is
 * /gl/fault/straight-band's. */
static void
check_straight_passes (CblurMode    mode,
                       gdouble      radius,
                       const gchar *shared_memory)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (radius, mode, 4);
  CblurImage             *straight = straight_input (kernel);
  CblurImage             *premultiplied = babl_premultiplied (straight);
  CblurImage             *from_straight = gl_test_blank_image (3, -7, 300, 200);
  CblurImage             *from_premultiplied = gl_test_blank_image (3, -7, 300, 200);
  GlTestGegl              gegl = { straight, from_straight, 0 };
  GlTestGegl              gegl_premultiplied = { premultiplied, from_premultiplied, 0 };
  CblurBandIo             band_io = gl_test_stream (&gegl);
  CblurBandIo             stream_premultiplied = gl_test_stream (&gegl_premultiplied);

  band_io.straight_alpha = TRUE;
  if (shared_memory != NULL)
    gl_test_set ("CBLUR_GL_SHARED_MEMORY", shared_memory);
  g_assert_cmpint (blur_streamed (kernel, &stream_premultiplied), ==, CBLUR_BACKEND_GL);
  g_assert_cmpint (blur_streamed (kernel, &band_io), ==, CBLUR_BACKEND_GL);
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", NULL);
  g_assert_cmpfloat (gl_test_max_diff (from_straight, from_premultiplied), ==, 0.0);

  gl_test_image_free (straight);
  gl_test_image_free (premultiplied);
  gl_test_image_free (from_straight);
  gl_test_image_free (from_premultiplied);
}

static void
test_straight_passes (void)
{
  check_straight_passes (CBLUR_MODE_DIRECT, 9.0, NULL);
  /* a window wider than the cache: the direct shader loads it a part at a time */
  check_straight_passes (CBLUR_MODE_DIRECT, 150.0, "1");
  /* the two-dispatch box, after premultiply.comp */
  check_straight_passes (CBLUR_MODE_BOX, 9.0, "1");
}

/* An unknown CBLUR_GL_FAULT gets one warning however often it is read,
 * and changes nothing: the blurs run on GL.  In a process of its own,
 * whose settings are read with it there from the start. */
static void
test_unknown_fault (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (6.0, CBLUR_MODE_BOX, 3);

  if (!g_test_subprocess ())
    {
      g_setenv ("CBLUR_GL_FAULT", "bogus", TRUE);
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_unsetenv ("CBLUR_GL_FAULT");
      g_test_trap_assert_passed ();
      return;
    }
  g_test_expect_message ("cblur", G_LOG_LEVEL_WARNING,
                         "CBLUR_GL_FAULT=bogus is not one of *; ignored");
  check_recovers (kernel);
  g_test_assert_expected_messages ();
  /* a second warning would be fatal */
  check_recovers (kernel);
  g_assert_true (cblur_gl_available (NULL, NULL));
}

/* The op, which GEGL loads from its module, sees a test's reload: a fault
 * set between two renders makes the second fall back. */
static void
test_reload_reaches_op (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (40, 30, 4);
  const GeglRectangle    roi = { 0, 0, 40, 30 };

  gl_test_set ("CBLUR_BACKEND", "gl");
  g_free (test_blur (input, &roi, "radius", 5.0, NULL));
  g_test_expect_message ("cblur", G_LOG_LEVEL_WARNING, "*the GPU failed*dispatch*");
  gl_test_set ("CBLUR_GL_FAULT", "dispatch");
  g_free (test_blur (input, &roi, "radius", 5.0, NULL));
  g_test_assert_expected_messages ();
  gl_test_set ("CBLUR_GL_FAULT", NULL);
  gl_test_set ("CBLUR_BACKEND", NULL);
}

int
main (int    argc,
      char **argv)
{
  gsize i;

  test_init (&argc, &argv);
  for (i = 0; i < G_N_ELEMENTS (faults); i++)
    {
      g_autofree gchar *path = g_strdup_printf ("/gl/fault/%s", faults[i].fault);
      g_autofree gchar *staged = g_strdup_printf ("/gl/fault/staged-%s", faults[i].fault);
      g_autofree gchar *streamed = g_strdup_printf ("/gl/fault/streamed-%s", faults[i].fault);

      g_test_add_data_func (path, &faults[i], test_fault);
      /* with no context there is no staging to fail in */
      if (faults[i].code != CBLUR_GL_ERROR_NO_CONTEXT)
        {
          g_test_add_data_func (staged, &faults[i], test_staged_band);
          g_test_add_data_func (streamed, &faults[i], test_streamed_band);
        }
    }
  g_test_add_func ("/gl/fault/available", test_available_without_context);
  g_test_add_func ("/gl/fault/check-takes-all", test_check_takes_all);
  g_test_add_func ("/gl/fault/backend-falls-back", test_backend_falls_back);
  g_test_add_func ("/gl/fault/straight-band", test_straight_band);
  g_test_add_func ("/gl/straight-passes", test_straight_passes);
  g_test_add_func ("/gl/idle-release", test_idle_release);
  g_test_add_func ("/gl/settings/unknown-fault", test_unknown_fault);
  g_test_add_func ("/gl/settings/reload-reaches-op", test_reload_reaches_op);
  return gl_test_run ();
}
