/* Bad and odd input never crashes and never yields garbage: wild radii,
 * degenerate image shapes, other pixel formats, NaN and Inf pixels, empty
 * regions, transparent images, many blurs in a row and from many threads.
 * Runs on whichever backend CBLUR_BACKEND names. */
#include <float.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cblur-kernel.h"
#include "cblur-test.h"
#include "reference.h"

static const CblurMode both_modes[] = { CBLUR_MODE_DIRECT, CBLUR_MODE_BOX };

/* GLib refuses a property value out of range with a warning, or since
 * GLib 2.84 with a critical: either is counted here, neither is fatal. */
static void
count_radius_refusal (const gchar    *domain,
                      GLogLevelFlags  level,
                      const gchar    *message,
                      gpointer        user_data)
{
  guint *refusals = user_data;

  if (strstr (message, "out of range for property 'radius'") != NULL)
    (*refusals)++;
  else
    g_log_default_handler (domain, level, message, NULL);
}

static guint
set_radius_counting_refusals (GeglNode *blur,
                              gdouble   radius)
{
  GLogLevelFlags levels = G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL;
  GLogLevelFlags fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK);
  guint          refusals = 0;
  guint          handler = g_log_set_handler ("GLib-GObject", levels,
                                              count_radius_refusal, &refusals);

  gegl_node_set (blur, "radius", radius, NULL);
  g_log_remove_handler ("GLib-GObject", handler);
  g_log_set_always_fatal (fatal);
  return refusals;
}

/* The radius property refuses what is out of range with one message from
 * GLib and keeps its value; the kernel itself maps NaN and huge radii to 0
 * and the maximum (test-kernel). */
static void
test_wild_radii (void)
{
  static const gdouble radii[] = { -5.0, 0.0, 5000.0, 1e30, NAN, INFINITY, 3000.0 };
  g_autoptr (GeglBuffer) input = test_random_buffer (23, 17, 11);
  GeglRectangle          rect = { 0, 0, 23, 17 };
  g_autofree gfloat     *original = test_read (input, &rect);
  gsize                  r, m;

  for (m = 0; m < G_N_ELEMENTS (both_modes); m++)
    for (r = 0; r < G_N_ELEMENTS (radii); r++)
      {
        GeglNode          *graph;
        GeglNode          *blur;
        g_autofree gfloat *out = NULL;
        gboolean           in_range = radii[r] >= 0.0 && radii[r] <= 3000.0;
        gdouble            effective;
        gsize              i;

        /* The largest radius reads 48M pixels around this tiny image: once,
         * in box mode on the CPU, is enough to show the range is accepted
         * (llvmpipe takes over half a minute for it). */
        if (radii[r] == 3000.0 && (both_modes[m] == CBLUR_MODE_DIRECT || test_backend_is_gl ()))
          continue;

        graph = gegl_node_new ();
        out = g_new (gfloat, 23 * 17 * 4);
        test_blur_graph (graph, input, &blur);
        gegl_node_set (blur, "mode", both_modes[m], NULL);
        g_assert_cmpuint (set_radius_counting_refusals (blur, radii[r]), ==,
                          in_range ? 0 : 1);
        gegl_node_get (blur, "radius", &effective, NULL);
        gegl_node_blit (blur, 1.0, &rect, babl_format (TEST_FORMAT), out,
                        GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
        g_object_unref (graph);

        g_assert_cmpfloat (effective, ==, in_range ? radii[r] : 10.0);
        if (effective == 0.0)
          g_assert_cmpmem (out, 23 * 17 * 4 * sizeof (gfloat),
                           original, 23 * 17 * 4 * sizeof (gfloat));
        for (i = 0; i < 23 * 17 * 4; i++)
          {
            g_assert_true (isfinite (out[i]));
            g_assert_cmpfloat (out[i], >=, -1e-6f);
            g_assert_cmpfloat (out[i], <=, 1.0f + 1e-6f);
          }
      }
}

/* Radii too small to blur, the smallest doubles and subnormals among them,
 * leave the input untouched in every mode, as radius 0 does; a radius
 * just large enough to blur gives finite pixels. */
static void
test_tiny_radii (void)
{
  static const CblurMode modes[] = { CBLUR_MODE_AUTO, CBLUR_MODE_DIRECT, CBLUR_MODE_BOX };
  static const gdouble   radii[] = { 4.9406564584124654e-324, 1e-323, 1.5e-323, 1e-320,
                                     1e-310, DBL_MIN / 2.0, DBL_MIN, 1e-300, 1e-30, 0.1,
                                     0.3 };
  g_autoptr (GeglBuffer) input = test_random_buffer (23, 17, 18);
  GeglRectangle          rect = { 0, 0, 23, 17 };
  g_autofree gfloat     *original = test_read (input, &rect);
  gsize                  m, r, i;

  for (m = 0; m < G_N_ELEMENTS (modes); m++)
    for (r = 0; r < G_N_ELEMENTS (radii); r++)
      {
        g_autoptr (CblurKernel) kernel = cblur_kernel_new (radii[r], modes[m], 4);
        g_autofree gfloat      *out = test_blur (input, &rect, "radius", radii[r],
                                                 "mode", modes[m], NULL);

        g_test_message ("%s radius %g: %s", cblur_mode_name (modes[m]), radii[r],
                        cblur_kernel_is_identity (kernel) ? "identity" : "blurs");
        for (i = 0; i < 23 * 17 * 4; i++)
          g_assert_true (isfinite (out[i]));
        if (radii[r] < DBL_MIN * 2.0 || cblur_kernel_is_identity (kernel))
          g_assert_cmpmem (out, 23 * 17 * 4 * sizeof (gfloat),
                           original, 23 * 17 * 4 * sizeof (gfloat));
      }
  test_assert_ran_on_backend ();
}

static void
test_degenerate_shapes (void)
{
  static const struct { gint width, height; gdouble radius; } shapes[] = {
    { 1, 1, 5.0 }, { 1, 700, 12.0 }, { 20000, 3, 9.0 }, { 100000, 4, 4.0 },
  };
  gsize s, m;

  for (s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autoptr (GeglBuffer) input = test_random_buffer (shapes[s].width, shapes[s].height, 12);
      const GeglRectangle   *extent = gegl_buffer_get_extent (input);
      g_autofree gfloat     *pixels = test_read (input, extent);
      g_autoptr (RefImage)   src = ref_image_from_floats (pixels, extent->width, extent->height);

      for (m = 0; m < G_N_ELEMENTS (both_modes); m++)
        {
          g_autoptr (RefImage) expected = both_modes[m] == CBLUR_MODE_BOX
                                            ? ref_blur_box (src, shapes[s].radius, 4)
                                            : ref_blur_direct (src, shapes[s].radius);
          g_autofree gfloat   *out = test_blur (input, extent, "radius", shapes[s].radius,
                                                "mode", both_modes[m], NULL);
          gdouble              max_abs, rms;

          ref_compare_floats (expected, out, &max_abs, &rms);
          g_test_message ("%dx%d %s: max %.3g", shapes[s].width, shapes[s].height,
                          cblur_mode_name (both_modes[m]), max_abs);
          g_assert_cmpfloat (max_abs, <=, 1e-5);
        }
    }
}

static void
test_empty_region (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (30, 30, 13);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur;
  gfloat                 untouched = 42.0f;

  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", 8.0, NULL);
  gegl_node_blit (blur, 1.0, GEGL_RECTANGLE (5, 5, 0, 0), babl_format (TEST_FORMAT),
                  &untouched, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_assert_cmpfloat (untouched, ==, 42.0f);

  /* an empty input has an empty result */
  {
    g_autoptr (GeglBuffer) empty = gegl_buffer_new (GEGL_RECTANGLE (0, 0, 0, 0),
                                                    babl_format (TEST_FORMAT));
    GeglNode              *graph2 = gegl_node_new ();
    GeglNode              *blur2;
    GeglRectangle          box;

    test_blur_graph (graph2, empty, &blur2);
    box = gegl_node_get_bounding_box (blur2);
    g_assert_true (gegl_rectangle_is_empty (&box));
    g_object_unref (graph2);
  }
  g_object_unref (graph);
}

/* Other formats come back in their own format, as the float blur rounded. */
static void
test_other_formats (void)
{
  static const gchar *formats[] = { "Y u8", "RGB u16", "YA float", "R'G'B'A u8" };
  gsize f;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      const Babl            *format = babl_format (formats[f]);
      GeglRectangle          rect = { 0, 0, 41, 29 };
      g_autoptr (GeglBuffer) random = test_random_buffer (41, 29, 14);
      g_autoptr (GeglBuffer) input = gegl_buffer_new (&rect, format);
      g_autoptr (GeglBuffer) as_float = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
      g_autofree gfloat     *expected = NULL;
      g_autofree gfloat     *actual = g_new (gfloat, 41 * 29 * 4);
      GeglNode              *graph = gegl_node_new ();
      GeglNode              *blur;
      gint                   bpp = babl_format_get_bytes_per_pixel (format);
      g_autofree guint8     *native = g_malloc ((gsize) 41 * 29 * bpp);
      g_autoptr (GeglBuffer) result = gegl_buffer_new (&rect, format);

      gegl_buffer_copy (random, NULL, GEGL_ABYSS_NONE, input, NULL);
      gegl_buffer_copy (input, NULL, GEGL_ABYSS_NONE, as_float, NULL);
      expected = test_blur (as_float, &rect, "radius", 6.0, NULL);

      test_blur_graph (graph, input, &blur);
      gegl_node_set (blur, "radius", 6.0, NULL);
      gegl_node_blit (blur, 1.0, &rect, format, native, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
      g_object_unref (graph);

      /* quantize the float blur the same way before comparing */
      gegl_buffer_set (result, &rect, 0, format, native, GEGL_AUTO_ROWSTRIDE);
      gegl_buffer_get (result, &rect, 1.0, babl_format (TEST_FORMAT), actual,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      g_test_message ("%s: max %.3g", formats[f],
                      test_max_abs_diff (expected, actual, 41 * 29 * 4));
      g_assert_cmpfloat (test_max_abs_diff (expected, actual, 41 * 29 * 4), <, 2.5 / 255.0);
    }
}

/* A NaN or Inf pixel reaches no further than the blur does; everything
 * beyond is bit-identical to the blur of the image without it. */
static void
test_nan_and_inf_stay_local (void)
{
  static const gfloat poison[] = { NAN, INFINITY };
  GeglRectangle       rect = { 0, 0, 90, 70 };
  gsize               m, p;

  for (m = 0; m < G_N_ELEMENTS (both_modes); m++)
    for (p = 0; p < G_N_ELEMENTS (poison); p++)
      {
        g_autoptr (GeglBuffer) clean = test_random_buffer (90, 70, 15);
        g_autoptr (GeglBuffer) dirty = test_random_buffer (90, 70, 15);
        gfloat                 bad[4] = { poison[p], poison[p], poison[p], 1.0f };
        gint                   reach = cblur_kernel_reach (7.0, both_modes[m], 4);
        g_autofree gfloat     *a = NULL, *b = NULL;
        gint                   x, y;

        gegl_buffer_set (dirty, GEGL_RECTANGLE (40, 30, 1, 1), 0,
                         babl_format (TEST_FORMAT), bad, GEGL_AUTO_ROWSTRIDE);
        a = test_blur (clean, &rect, "radius", 7.0, "mode", both_modes[m], NULL);
        b = test_blur (dirty, &rect, "radius", 7.0, "mode", both_modes[m], NULL);

        for (y = 0; y < 70; y++)
          for (x = 0; x < 90; x++)
            {
              const gfloat *pa = a + ((gsize) y * 90 + x) * 4;
              const gfloat *pb = b + ((gsize) y * 90 + x) * 4;

              if (ABS (x - 40) > reach || ABS (y - 30) > reach)
                g_assert_cmpmem (pa, 4 * sizeof (gfloat), pb, 4 * sizeof (gfloat));
            }
        g_assert_false (isfinite (b[(30 * 90 + 40) * 4]));
      }
}

static void
test_transparent_image_stays_empty (void)
{
  GeglRectangle          rect = { 0, 0, 50, 50 };
  g_autoptr (GeglBuffer) input = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  gsize                  m;

  for (m = 0; m < G_N_ELEMENTS (both_modes); m++)
    {
      g_autofree gfloat *out = test_blur (input, &rect, "radius", 20.0,
                                          "mode", both_modes[m], NULL);
      gsize              i;

      for (i = 0; i < 50 * 50 * 4; i++)
        g_assert_cmpfloat (out[i], ==, 0.0f);
    }
}

/* A thousand blurs in a row give the same pixels and hold on to no memory:
 * a leak of even one small buffer per blur grows every stretch of 300
 * blurs, where a driver or allocator that settles once grows only one. */
static void
test_many_small_blurs (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (16, 16, 16);
  GeglRectangle          rect = { 0, 0, 16, 16 };
  g_autofree gfloat     *first = test_blur (input, &rect, "radius", 3.0, NULL);
  gsize                  resident[4] = { 0 };
  gsize                  least_growth = G_MAXSIZE;
  gint                   i;

  for (i = 1; i <= 1000; i++)
    {
      g_autofree gfloat *again = test_blur (input, &rect, "radius", 3.0 + (i % 3),
                                            "mode", both_modes[i % 2], NULL);

      if (i % 3 == 0 && i % 2 == 0)
        g_assert_cmpmem (again, 16 * 16 * 4 * sizeof (gfloat),
                         first, 16 * 16 * 4 * sizeof (gfloat));
      if (i % 300 == 100)
        resident[i / 300] = test_status_kib ("VmRSS");
    }
  for (i = 1; i < 4; i++)
    least_growth = MIN (least_growth, resident[i] - MIN (resident[i], resident[i - 1]));
  g_test_message ("resident after 100, 400, 700, 1000 blurs: %zu, %zu, %zu, %zu KiB",
                  resident[0], resident[1], resident[2], resident[3]);
  /* AddressSanitizer's allocator keeps freed blocks in its own pools, which
   * the driver's allocations under GL grow by a few KiB a blur without a
   * leak; the plain build holds the bound (the same suites run there). */
#ifndef __SANITIZE_ADDRESS__
  g_assert_cmpuint (least_growth, <, 256);
#endif
}

typedef struct
{
  GeglBuffer *input;
  gfloat     *expected;
  gdouble     radius;
  CblurMode   mode;
} ThreadJob;

static gpointer
blur_in_thread (gpointer data)
{
  ThreadJob *job = data;
  gint       i;

  for (i = 0; i < 4; i++)
    {
      g_autofree gfloat *out = test_blur (job->input, gegl_buffer_get_extent (job->input),
                                          "radius", job->radius, "mode", job->mode, NULL);

      g_assert_cmpmem (out, 120 * 80 * 4 * sizeof (gfloat),
                       job->expected, 120 * 80 * 4 * sizeof (gfloat));
    }
  return NULL;
}

static void
test_concurrent_graphs (void)
{
  ThreadJob jobs[6];
  GThread  *threads[6];
  gint      i;

  g_object_set (gegl_config (), "threads", 2, NULL);
  for (i = 0; i < 6; i++)
    {
      jobs[i].input = test_random_buffer (120, 80, 100 + i);
      jobs[i].radius = 2.5 + 9.0 * i;
      jobs[i].mode = both_modes[i % 2];
      jobs[i].expected = test_blur (jobs[i].input, gegl_buffer_get_extent (jobs[i].input),
                                    "radius", jobs[i].radius, "mode", jobs[i].mode, NULL);
    }
  for (i = 0; i < 6; i++)
    threads[i] = g_thread_new ("blur", blur_in_thread, &jobs[i]);
  for (i = 0; i < 6; i++)
    {
      g_thread_join (threads[i]);
      g_object_unref (jobs[i].input);
      g_free (jobs[i].expected);
    }
}

/* In a forked child, the op's blur of input (whole) matches the reference */
static gboolean
child_blurs (GeglBuffer *input)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (input);
  g_autofree gfloat   *pixels = test_read (input, extent);
  g_autoptr (RefImage) src = ref_image_from_floats (pixels, extent->width, extent->height);
  g_autoptr (RefImage) expected = ref_blur_direct (src, 5.0);
  g_autofree gfloat   *out = test_blur (input, extent, "radius", 5.0, "mode",
                                        CBLUR_MODE_DIRECT, NULL);
  gdouble              max_abs, rms;

  ref_compare_floats (expected, out, &max_abs, &rms);
  return max_abs <= 1e-5;
}

/* A host that forks after blurring (Python's multiprocessing does) has a
 * child without GEGL's worker threads or the GL driver's: at GEGL's
 * default thread count the child still blurs images small and large, on
 * the CPU, and right.  In a process of its own, which blurs first. */
static void
test_fork_then_blur (void)
{
  static const gint   sizes[][2] = { { 8, 8 }, { 64, 64 }, { 1000, 700 } };
  GeglBuffer         *inputs[G_N_ELEMENTS (sizes)];
  GeglRectangle       small = { 0, 0, 8, 8 };
  gsize               i;
  GPid                child;

  if (!test_in_own_process (0))
    return;
  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    inputs[i] = test_random_buffer (sizes[i][0], sizes[i][1], 17 + i);
  g_free (test_blur (inputs[0], &small, "radius", 5.0, NULL));
  test_assert_ran_on_backend ();

  child = fork ();
  if (child == 0)
    {
      gboolean right = TRUE;

      /* GL's refusal in the child is the one warning of a fallback */
      g_log_set_always_fatal (G_LOG_FATAL_MASK);
      for (i = 0; i < G_N_ELEMENTS (sizes); i++)
        right = child_blurs (inputs[i]) && right;
      _exit (right ? 0 : 3);
    }
  test_assert_child_passed (child);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    g_object_unref (inputs[i]);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/robustness/wild-radii", test_wild_radii);
  g_test_add_func ("/robustness/tiny-radii", test_tiny_radii);
  g_test_add_func ("/robustness/degenerate-shapes", test_degenerate_shapes);
  g_test_add_func ("/robustness/empty-region", test_empty_region);
  g_test_add_func ("/robustness/other-formats", test_other_formats);
  g_test_add_func ("/robustness/nan-and-inf-stay-local", test_nan_and_inf_stay_local);
  g_test_add_func ("/robustness/transparent-image-stays-empty", test_transparent_image_stays_empty);
  g_test_add_func ("/robustness/many-small-blurs", test_many_small_blurs);
  g_test_add_func ("/robustness/concurrent-graphs", test_concurrent_graphs);
  g_test_add_func ("/robustness/fork-then-blur", test_fork_then_blur);

  return g_test_run ();
}
