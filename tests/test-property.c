/* Random cases over size, radius, mode, passes, abyss policy and how the
 * output is split, on the backend CBLUR_BACKEND names: each against the
 * double-precision reference, and each split against the whole.
 * CBLUR_PROPERTY_SEED repeats a run; a failure prints its case. */
#include <math.h>
#include <stdlib.h>

#include "cblur-kernel.h"
#include "cblur-test.h"
#include "reference.h"

#define CASES 60

static void
run_case (GRand *rand,
          gint   number)
{
  gint                   width = g_rand_int_range (rand, 1, 91);
  gint                   height = g_rand_int_range (rand, 1, 71);
  gdouble                radius = g_rand_boolean (rand) ? g_rand_int_range (rand, 0, 40)
                                                        : g_rand_double_range (rand, 0.0, 45.0);
  CblurMode              mode = g_rand_int_range (rand, CBLUR_MODE_AUTO, CBLUR_MODE_BOX + 1);
  gint                   iterations = g_rand_int_range (rand, 3, 7);
  /* GEGL's policies are the values from none to white */
  GeglAbyssPolicy        abyss = g_rand_int_range (rand, GEGL_ABYSS_NONE, GEGL_ABYSS_WHITE + 1);
  CblurMode              resolved = cblur_kernel_resolve_mode (radius, mode);
  g_autoptr (GeglBuffer) input = test_random_buffer (width, height, g_rand_int (rand));
  const GeglRectangle   *extent = gegl_buffer_get_extent (input);
  g_autofree gfloat     *pixels = test_read (input, extent);
  g_autoptr (RefImage)   src = ref_image_from_floats (pixels, width, height);
  g_autoptr (RefImage)   expected = NULL;
  g_autofree gfloat     *whole = NULL;
  GeglRectangle          part;
  g_autofree gfloat     *split = NULL;
  gdouble                max_abs, rms, allowed;
  gint                   row;

  g_test_message ("case %d: %dx%d radius %.3f %s (%s) iterations %d abyss %d", number,
                  width, height, radius, cblur_mode_name (mode), cblur_mode_name (resolved),
                  iterations, abyss);

  src->abyss = abyss;
  expected = resolved == CBLUR_MODE_BOX ? ref_blur_box (src, radius, iterations)
                                        : ref_blur_direct (src, radius);
  whole = test_blur (input, extent, "radius", radius, "mode", mode,
                     "iterations", iterations, "abyss-policy", abyss, NULL);

  ref_compare_floats (expected, whole, &max_abs, &rms);
  allowed = !test_backend_is_gl () ? 1e-5 : resolved == CBLUR_MODE_BOX ? 1.5e-4 : 2e-5;
  if (max_abs > allowed)
    g_test_message ("case %d failed: max %.3g > %.3g", number, max_abs, allowed);
  g_assert_cmpfloat (max_abs, <=, allowed);

  /* any sub-rectangle on its own gives the same pixels */
  part.x = g_rand_int_range (rand, 0, width);
  part.y = g_rand_int_range (rand, 0, height);
  part.width = g_rand_int_range (rand, 1, width - part.x + 1);
  part.height = g_rand_int_range (rand, 1, height - part.y + 1);
  split = test_blur (input, &part, "radius", radius, "mode", mode,
                     "iterations", iterations, "abyss-policy", abyss, NULL);
  for (row = 0; row < part.height; row++)
    {
      const gfloat *a = split + (gsize) row * part.width * 4;
      const gfloat *b = whole + ((gsize) (part.y + row) * width + part.x) * 4;

      if (test_backend_is_gl ())
        g_assert_cmpfloat (test_max_abs_diff (a, b, part.width * 4), <=, 1e-6);
      else
        g_assert_cmpmem (a, part.width * 4 * sizeof (gfloat), b, part.width * 4 * sizeof (gfloat));
    }

  /* a radius too small to blur passes the input on, on no backend */
  if (cblur_kernel_reach (radius, mode, iterations) > 0)
    test_assert_ran_on_backend ();
  else
    test_forget_backends ();
}

static void
test_random_cases (void)
{
  const gchar *seed_text = g_getenv ("CBLUR_PROPERTY_SEED");
  guint32      seed = seed_text ? strtoul (seed_text, NULL, 10) : (guint32) g_test_rand_int ();
  GRand       *rand = g_rand_new_with_seed (seed);
  gint         i;

  g_test_message ("CBLUR_PROPERTY_SEED=%u", seed);
  for (i = 0; i < CASES; i++)
    run_case (rand, i);
  g_rand_free (rand);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/property/random-cases", test_random_cases);
  return g_test_run ();
}
