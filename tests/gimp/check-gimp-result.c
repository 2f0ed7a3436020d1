/* Compares what GIMP made of a layer with the double-precision reference
 * blur (direct mode) of what the layer held before, both as RGBA float.
 *   check-gimp-result INPUT.raw OUTPUT.raw WIDTH HEIGHT u8|float RADIUS_X RADIUS_Y
 * u8: the reference, converted to 8-bit sRGB as GIMP converts the op's
 * output, may differ by one step in a few channels: the op's float
 * result is within 1e-5 of it (tests/test-reference.c), which moves a
 * value across a rounding boundary at most, and rarely.  float: within
 * 1e-6: the op's direct mode (the same bits on both backends) differs
 * from the reference by float rounding, 3.3e-7 at most on coffee.png at
 * radii 12 and 4, and GIMP's conversions between linear float formats add
 * less than that. */
#include <stdlib.h>

#include "cblur-test.h"
#include "reference.h"

#define FLOAT_TOLERANCE 1e-6
/* channels a step apart, at most one in this many */
#define U8_DIFFERING_ONE_IN 1000

/* largest difference in 8-bit sRGB steps, and how many channels differ */
static gint
compare_u8 (const gfloat *expected,
            const gfloat *actual,
            gsize         n_pixels,
            gsize        *differing)
{
  const Babl        *u8 = babl_format ("R'G'B'A u8");
  g_autofree guint8 *a = g_new (guint8, n_pixels * 4);
  g_autofree guint8 *b = g_new (guint8, n_pixels * 4);
  gint               worst = 0;
  gsize              i;

  babl_process (babl_fish (babl_format ("RaGaBaA float"), u8), expected, a, n_pixels);
  babl_process (babl_fish (babl_format ("RGBA float"), u8), actual, b, n_pixels);
  *differing = 0;
  for (i = 0; i < n_pixels * 4; i++)
    {
      gint step = ABS ((gint) a[i] - (gint) b[i]);

      worst = MAX (worst, step);
      *differing += step != 0;
    }
  return worst;
}

gint
main (gint    argc,
      gchar **argv)
{
  g_autofree gfloat   *input = NULL;
  g_autofree gfloat   *output = NULL;
  g_autofree gfloat   *premultiplied = NULL;
  g_autofree gfloat   *expected = NULL;
  g_autoptr (RefImage) source = NULL;
  g_autoptr (RefImage) blurred = NULL;
  gint                 width, height;
  gsize                n, i;

  if (argc != 8)
    {
      g_printerr ("usage: %s INPUT.raw OUTPUT.raw WIDTH HEIGHT u8|float RADIUS_X RADIUS_Y\n",
                  argv[0]);
      return 2;
    }
  gegl_init (&argc, &argv);
  width = atoi (argv[3]);
  height = atoi (argv[4]);
  n = (gsize) width * height;
  input = test_read_raw (argv[1], n * 4);
  output = test_read_raw (argv[2], n * 4);

  premultiplied = g_new (gfloat, n * 4);
  babl_process (babl_fish (babl_format ("RGBA float"), babl_format (TEST_FORMAT)),
                input, premultiplied, n);
  source = ref_image_from_floats (premultiplied, width, height);
  blurred = ref_blur_direct_xy (source, g_ascii_strtod (argv[6], NULL),
                                g_ascii_strtod (argv[7], NULL));

  if (g_str_equal (argv[5], "u8"))
    {
      gsize differing;
      gint  worst;

      expected = g_new (gfloat, n * 4);
      for (i = 0; i < n * 4; i++)
        expected[i] = blurred->data[i];
      worst = compare_u8 (expected, output, n, &differing);

      g_print ("8-bit: largest difference %d step(s), %" G_GSIZE_FORMAT
               " of %" G_GSIZE_FORMAT " channels differ\n", worst, differing, n * 4);
      return worst <= 1 && differing <= n * 4 / U8_DIFFERING_ONE_IN ? 0 : 1;
    }
  else
    {
      gdouble max_abs, rms;

      babl_process (babl_fish (babl_format ("RGBA float"), babl_format (TEST_FORMAT)),
                    output, premultiplied, n);
      ref_compare_floats (blurred, premultiplied, &max_abs, &rms);
      g_print ("float: max |GIMP - reference| %.3g, rms %.3g\n", max_abs, rms);
      return max_abs <= FLOAT_TOLERANCE ? 0 : 1;
    }
}
