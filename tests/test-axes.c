/* A radius of its own along each axis, through GEGL on the backend under
 * test: each axis against the double-precision reference with its own
 * sigma, one axis at 0, auto's choice per axis, and `radius` for the axes
 * at their default, as graphs and GIMP's saved layer effects give it. */
#include "cblur-kernel.h"
#include "cblur-test.h"

static void
check_against (const RefImage *expected,
               GeglBuffer     *input,
               CblurMode       mode,
               gdouble         radius_x,
               gdouble         radius_y,
               gdouble         max_allowed,
               gdouble         rms_allowed)
{
  g_autofree gfloat *actual = test_blur (input, gegl_buffer_get_extent (input),
                                         "radius-x", radius_x, "radius-y", radius_y,
                                         "mode", mode, NULL);
  g_autofree gchar  *what = g_strdup_printf ("%s radius %g × %g", cblur_mode_name (mode),
                                             radius_x, radius_y);

  test_assert_ran_on_backend ();
  test_assert_near (expected, actual, max_allowed, rms_allowed, what);
}

/* either axis the longer, and each alone */
static const gdouble pairs[][2] = {
  { 3.0, 12.5 }, { 12.5, 3.0 }, { 0.0, 9.0 }, { 9.0, 0.0 }, { 0.5, 40.0 },
};

static void
test_direct_matches_reference (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (71, 53, 5);
  g_autoptr (RefImage)   src = test_reference_input (input);
  gsize                  p;

  for (p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      g_autoptr (RefImage) expected = ref_blur_direct_xy (src, pairs[p][0], pairs[p][1]);

      check_against (expected, input, CBLUR_MODE_DIRECT, pairs[p][0], pairs[p][1],
                     1e-5, 1e-5);
    }
}

static void
test_box_matches_reference (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (67, 59, 6);
  g_autoptr (RefImage)   src = test_reference_input (input);
  gsize                  p;

  for (p = 0; p < G_N_ELEMENTS (pairs); p++)
    {
      gdouble              x = 3.0 * pairs[p][0];
      gdouble              y = 3.0 * pairs[p][1];
      g_autoptr (RefImage) expected = ref_blur_box_xy (src, x, y, 4);

      check_against (expected, input, CBLUR_MODE_BOX, x, y, 1e-5, 1e-5);
    }
}

/* the accuracy promised for box mode, each axis with its own sigma */
static void
test_box_close_to_gaussian_on_photo (void)
{
  static const gdouble   sigmas[][2] = { { 20.0, 5.0 }, { 0.0, 12.0 } };
  g_autoptr (GeglBuffer) input = test_load_photo ("chelsea.png");
  g_autoptr (RefImage)   src = test_reference_input (input);
  gsize                  s;

  for (s = 0; s < G_N_ELEMENTS (sigmas); s++)
    {
      g_autoptr (RefImage) exact = ref_blur_gaussian_xy (src, sigmas[s][0], sigmas[s][1]);

      check_against (exact, input, CBLUR_MODE_BOX, 3.0 * sigmas[s][0], 3.0 * sigmas[s][1],
                     0.02, 0.003);
    }
}

/* auto blurs radius 10 directly and radius 60 with boxes, whichever axis
 * has it; the reference does one axis after the other, which under clamp
 * is the same blur */
static void
test_auto_per_axis (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (90, 70, 7);
  g_autoptr (RefImage)   src = test_reference_input (input);
  g_autoptr (RefImage)   rows_direct = ref_blur_direct_xy (src, 10.0, 0.0);
  g_autoptr (RefImage)   direct_then_box = ref_blur_box_xy (rows_direct, 0.0, 60.0, 4);
  g_autoptr (RefImage)   rows_box = ref_blur_box_xy (src, 60.0, 0.0, 4);
  g_autoptr (RefImage)   box_then_direct = ref_blur_direct_xy (rows_box, 0.0, 10.0);

  check_against (direct_then_box, input, CBLUR_MODE_AUTO, 10.0, 60.0, 1e-5, 1e-5);
  check_against (box_then_direct, input, CBLUR_MODE_AUTO, 60.0, 10.0, 1e-5, 1e-5);
}

static gfloat *
blur_direct (GeglBuffer          *input,
             const GeglRectangle *roi,
             const gchar         *first,
             gdouble              first_value,
             const gchar         *second,
             gdouble              second_value,
             const gchar         *third,
             gdouble              third_value)
{
  return test_blur (input, roi, "mode", CBLUR_MODE_DIRECT, first, first_value,
                    second, second_value, third, third_value, NULL);
}

/* An axis at the default blurs at radius, whichever comes first: an old
 * graph or layer effect (radius alone) blurs as before, and a new one
 * restores its axes; an axis reads as the radius it blurs at. */
static void
test_radius_and_axes (void)
{
  GeglRectangle          roi = { 0, 0, 60, 45 };
  gsize                  bytes = (gsize) roi.width * roi.height * 4 * sizeof (gfloat);
  g_autoptr (GeglBuffer) input = test_random_buffer (60, 45, 8);
  g_autofree gfloat     *radius = blur_direct (input, &roi, "radius", 7.0, "radius", 7.0,
                                               "radius", 7.0);
  g_autofree gfloat     *both = blur_direct (input, &roi, "radius-x", 7.0, "radius-y", 7.0,
                                             "radius-x", 7.0);
  g_autofree gfloat     *apart = blur_direct (input, &roi, "radius-x", 2.0, "radius-y", 20.0,
                                              "radius-x", 2.0);
  g_autofree gfloat     *radius_first = blur_direct (input, &roi, "radius", 7.0, "radius-x", 2.0,
                                                     "radius-y", 20.0);
  g_autofree gfloat     *radius_last = blur_direct (input, &roi, "radius-x", 2.0,
                                                    "radius-y", 20.0, "radius", 7.0);
  g_autofree gfloat     *x_and_radius = blur_direct (input, &roi, "radius-x", 2.0,
                                                     "radius", 7.0, "radius-x", 2.0);
  g_autofree gfloat     *x_and_y = blur_direct (input, &roi, "radius-x", 2.0, "radius-y", 7.0,
                                                "radius-x", 2.0);
  g_autoptr (GeglNode)   node = gegl_node_new ();
  gdouble                x, y;

  g_assert_cmpmem (radius, bytes, both, bytes);
  g_assert_cmpmem (radius_first, bytes, apart, bytes);
  g_assert_cmpmem (radius_last, bytes, apart, bytes);
  g_assert_cmpmem (x_and_radius, bytes, x_and_y, bytes);
  g_assert_cmpfloat (test_max_abs_diff (apart, both, bytes / sizeof (gfloat)), >, 0.0);

  gegl_node_set (node, "operation", "cblur:gaussian-blur", "radius", 33.0, NULL);
  gegl_node_get (node, "radius-x", &x, "radius-y", &y, NULL);
  g_assert_cmpfloat (x, ==, 33.0);
  g_assert_cmpfloat (y, ==, 33.0);
  gegl_node_set (node, "radius-x", 5.0, NULL);
  gegl_node_get (node, "radius-x", &x, "radius-y", &y, NULL);
  g_assert_cmpfloat (x, ==, 5.0);
  g_assert_cmpfloat (y, ==, 33.0);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/axes/direct-matches-reference", test_direct_matches_reference);
  g_test_add_func ("/axes/box-matches-reference", test_box_matches_reference);
  g_test_add_func ("/axes/box-close-to-gaussian-on-photo", test_box_close_to_gaussian_on_photo);
  g_test_add_func ("/axes/auto-per-axis", test_auto_per_axis);
  g_test_add_func ("/axes/radius-and-axes", test_radius_and_axes);

  return g_test_run ();
}
