/* The operation, run through GEGL on the CPU, against the independent
 * double-precision reference, and box mode against the exact Gaussian on
 * real photographs. */
#include <math.h>

#include "cblur-kernel.h"
#include "cblur-test.h"

static void
check_against (const RefImage *expected,
               GeglBuffer     *input,
               CblurMode       mode,
               gdouble         radius,
               gint            iterations,
               gdouble         max_allowed,
               gdouble         rms_allowed)
{
  g_autofree gfloat *actual = test_blur (input, gegl_buffer_get_extent (input),
                                         "radius", radius, "mode", mode,
                                         "iterations", iterations, NULL);
  g_autofree gchar  *what = g_strdup_printf ("%s radius %g iterations %d",
                                             cblur_mode_name (mode), radius, iterations);

  test_assert_near (expected, actual, max_allowed, rms_allowed, what);
}

static void
test_direct_matches_reference (void)
{
  static const gdouble radii[] = { 0.5, 1.0, 2.7, 6.0, 15.0, 40.0 };
  g_autoptr (GeglBuffer) input = test_random_buffer (71, 53, 1);
  g_autoptr (RefImage)   src = test_reference_input (input);
  gsize r;

  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    {
      g_autoptr (RefImage) expected = ref_blur_direct (src, radii[r]);

      check_against (expected, input, CBLUR_MODE_DIRECT, radii[r], 4, 1e-5, 1e-5);
    }
}

static void
test_box_matches_reference (void)
{
  static const gdouble radii[] = { 1.5, 3.0, 10.5, 30.0, 90.0 };
  g_autoptr (GeglBuffer) input = test_random_buffer (67, 59, 2);
  g_autoptr (RefImage)   src = test_reference_input (input);
  gsize r;
  gint  n;

  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    for (n = 3; n <= 6; n++)
      {
        g_autoptr (RefImage) expected = ref_blur_box (src, radii[r], n);

        check_against (expected, input, CBLUR_MODE_BOX, radii[r], n, 1e-5, 1e-5);
      }
}

/* the accuracy promised for box mode with 4 passes, sigma 2 to 50 */
static void
test_box_close_to_gaussian_on_photos (void)
{
  static const struct { const gchar *photo; gdouble sigma; } cases[] = {
    { "coffee.png", 2.0 }, { "coffee.png", 5.0 }, { "chelsea.png", 10.0 },
    { "chelsea.png", 20.0 }, { "chelsea.png", 50.0 },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GeglBuffer) input = test_load_photo (cases[i].photo);
      g_autoptr (RefImage)   src = test_reference_input (input);
      g_autoptr (RefImage)   exact = ref_blur_gaussian (src, cases[i].sigma);

      check_against (exact, input, CBLUR_MODE_BOX, 3.0 * cases[i].sigma, 4, 0.02, 0.003);
    }
}

/* Box mode holds its promise at every radius, with every number of
 * passes: below radius 4.5, where a few boxes of a pixel and a fraction
 * would miss it, it blurs directly. */
static void
test_box_promise_across_radii (void)
{
  static const gdouble radii[] = { 0.3, 0.9, 1.5, 2.1, 3.0, 3.9, 4.5, 5.1, 6.0, 7.5 };
  g_autoptr (GeglBuffer) photo = test_load_photo ("coffee.png");
  g_autoptr (GeglBuffer) input = gegl_buffer_new (GEGL_RECTANGLE (0, 0, 160, 120),
                                                  babl_format (TEST_FORMAT));
  g_autoptr (RefImage)   src = NULL;
  gsize r;
  gint  n;

  gegl_buffer_copy (photo, GEGL_RECTANGLE (100, 60, 160, 120), GEGL_ABYSS_NONE, input, NULL);
  src = test_reference_input (input);
  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    {
      g_autoptr (RefImage) exact = ref_blur_gaussian (src, radii[r] / 3.0);

      for (n = CBLUR_ITERATIONS_MIN; n <= CBLUR_ITERATIONS_MAX; n++)
        check_against (exact, input, CBLUR_MODE_BOX, radii[r], n, 0.02, 0.003);
    }
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/cpu/direct/matches-reference", test_direct_matches_reference);
  g_test_add_func ("/cpu/box/matches-reference", test_box_matches_reference);
  g_test_add_func ("/cpu/box/close-to-gaussian-on-photos", test_box_close_to_gaussian_on_photos);
  g_test_add_func ("/cpu/box/promise-across-radii", test_box_promise_across_radii);

  return g_test_run ();
}
