/* Compares what GIMP made of an 8-bit layer with one of the blurs with
 * arithmetic against the double-precision reference of GEGL's formula
 * (tests/reference-combine.c) of what the layer held before.
 *   check-gimp-combine INPUT.raw OUTPUT.raw WIDTH HEIGHT OP NAME=VALUE...
 * OP: unsharp-mask, high-pass or difference-of-gaussians, with the
 * properties GIMP's filter got.  In 8 bits the result may differ by 2
 * steps: the amount amplifies the rounding of the op's float result. */
#include <stdlib.h>
#include <string.h>

#include "cblur-test.h"
#include "reference.h"

#define MOST_STEPS 2

/* the value of NAME=VALUE among args, or fallback */
static gdouble
property (gchar      **args,
          const gchar *name,
          gdouble      fallback)
{
  gsize length = strlen (name);

  for (; *args != NULL; args++)
    if (strncmp (*args, name, length) == 0 && (*args)[length] == '=')
      return g_ascii_strtod (*args + length + 1, NULL);
  return fallback;
}

static RefImage *
reference (const gchar *op,
           RefImage    *src,
           gchar      **args)
{
  if (g_str_equal (op, "unsharp-mask"))
    return ref_unsharp_mask (src, 3.0 * property (args, "std-dev", 3.0),
                             property (args, "scale", 0.5), 0.0, NULL);
  if (g_str_equal (op, "high-pass"))
    return ref_high_pass (src, 3.0 * property (args, "std-dev", 4.0),
                          property (args, "contrast", 1.0));
  if (g_str_equal (op, "difference-of-gaussians"))
    return ref_difference_of_gaussians (src, 3.0 * property (args, "radius1", 1.0),
                                        3.0 * property (args, "radius2", 2.0));
  g_error ("no reference for %s", op);
}

/* pixels of format as 8-bit sRGB */
static guint8 *
as_u8 (const gchar  *format,
       const gfloat *pixels,
       gsize         n_pixels)
{
  guint8 *bytes = g_new (guint8, n_pixels * 4);

  babl_process (babl_fish (babl_format (format), babl_format ("R'G'B'A u8")), pixels, bytes,
                n_pixels);
  return bytes;
}

gint
main (gint    argc,
      gchar **argv)
{
  gint                 width, height;
  gsize                n, i;
  g_autofree gfloat   *input = NULL, *output = NULL, *premultiplied = NULL, *expected = NULL;
  g_autofree guint8   *want = NULL, *got = NULL, *before = NULL;
  g_autoptr (RefImage) src = NULL, result = NULL;
  gint                 worst = 0, changed = 0;

  if (argc < 6)
    g_error ("usage: check-gimp-combine INPUT OUTPUT WIDTH HEIGHT OP [NAME=VALUE...]");
  gegl_init (&argc, &argv);
  width = atoi (argv[3]);
  height = atoi (argv[4]);
  n = (gsize) width * height;
  input = test_read_raw (argv[1], n * 4);
  output = test_read_raw (argv[2], n * 4);
  premultiplied = g_new (gfloat, n * 4);
  babl_process (babl_fish (babl_format ("RGBA float"), babl_format ("RaGaBaA float")), input,
                premultiplied, n);
  src = ref_image_from_floats (premultiplied, width, height);
  result = reference (argv[5], src, argv + 6);
  expected = g_new (gfloat, n * 4);
  for (i = 0; i < n * 4; i++)
    expected[i] = result->data[i];
  want = as_u8 ("RaGaBaA float", expected, n);
  got = as_u8 ("RGBA float", output, n);
  before = as_u8 ("RGBA float", input, n);
  for (i = 0; i < n * 4; i++)
    {
      worst = MAX (worst, ABS ((gint) want[i] - (gint) got[i]));
      changed = MAX (changed, ABS ((gint) before[i] - (gint) got[i]));
    }
  g_print ("%s in GIMP: %d steps from the reference, %d from the layer before\n", argv[5],
           worst, changed);
  gegl_exit ();
  return worst <= MOST_STEPS && changed > MOST_STEPS ? 0 : 1;
}
