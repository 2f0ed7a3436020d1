/* The variable blur's accuracy on the whole test photographs, for the
 * table in docs/design.md ("Accuracy of the variable blur"): at each
 * sigma_max, with masks stretched over each photograph, the op, its
 * hybrid definition in double precision and gegl:variable-blur against
 * each pixel's own Gaussian (reference-variable.h), at every ninth pixel
 * each way where sigma >= 1, under clamp.  Not a test: it takes minutes.
 *   measure-variable [SIGMA_MAX...] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reference-variable.h"
#include "variable-test.h"

#define STEP 9

/* a ramp from top to bottom */
static gdouble
down_mask (gint x, gint y, gint width, gint height)
{
  return (y + 0.5) / height;
}

/* a ramp from left to right */
static gdouble
across_mask (gint x, gint y, gint width, gint height)
{
  return (x + 0.5) / width;
}

/* from 0.1 to 1 over a twentieth of the width, half way across */
static gdouble
steep_mask (gint x, gint y, gint width, gint height)
{
  return 0.1 + 0.9 / (1.0 + exp (-(x - width / 2.0) / (width / 80.0)));
}

/* from 0 to 1 half way across */
static gdouble
step_mask (gint x, gint y, gint width, gint height)
{
  return x < width / 2 ? 0.0 : 1.0;
}

typedef struct
{
  const gchar *name;
  gdouble    (*value) (gint, gint, gint, gint);
} Mask;

static const Mask masks[] = {
  { "smooth", variable_test_smooth_mask },
  { "down", down_mask },
  { "across", across_mask },
  { "steep", steep_mask },
  { "step", step_mask },
};

/* max and rms over the checked pixels whose sigma >= 1 */
static void
compare (const RefImage *expected,
         const gdouble  *actual,
         const gdouble  *sigmas,
         gdouble        *max_abs,
         gdouble        *rms)
{
  gdouble sum = 0.0;
  gsize   count = 0;
  gint    x, y, c;

  *max_abs = 0.0;
  for (y = 0; y < expected->height; y += STEP)
    for (x = 0; x < expected->width; x += STEP)
      {
        gsize i = (gsize) y * expected->width + x;

        if (sigmas[i] < 1.0)
          continue;
        for (c = 0; c < 4; c++)
          {
            gdouble d = fabs (expected->data[i * 4 + c] - actual[i * 4 + c]);

            *max_abs = MAX (*max_abs, d);
            sum += d * d;
            count++;
          }
      }
  *rms = sqrt (sum / MAX (count, 1));
}

static gdouble *
widened (const gfloat *pixels,
         gsize         n)
{
  gdouble *out = g_new (gdouble, n);
  gsize    i;

  for (i = 0; i < n; i++)
    out[i] = pixels[i];
  return out;
}

static void
measure (const gchar *photo_name,
         const Mask  *mask_of,
         gdouble      radius)
{
  g_autoptr (GeglBuffer) photo = test_load_photo (photo_name);
  const GeglRectangle   *extent = gegl_buffer_get_extent (photo);
  gint                   width = extent->width, height = extent->height;
  gsize                  n = (gsize) width * height, i;
  g_autoptr (GeglBuffer) mask = variable_test_mask (width, height, "Y float", mask_of->value,
                                                    0.0);
  g_autoptr (RefImage)   src = test_reference_input (photo);
  g_autofree gdouble    *sigmas = g_new (gdouble, n);
  g_autofree gdouble    *checked = g_new0 (gdouble, n);
  g_autoptr (RefImage)   expected = NULL, hybrid = NULL;
  g_autofree gfloat     *ours = NULL, *gegls = NULL;
  g_autofree gdouble    *ours_d = NULL, *gegls_d = NULL;
  gdouble                m[3], r[3];
  gint                   x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      {
        i = (gsize) y * width + x;
        sigmas[i] = CLAMP ((gfloat) mask_of->value (x, y, width, height), 0.0, 1.0) * radius;
        if (x % STEP == 0 && y % STEP == 0)
          checked[i] = sigmas[i];
      }
  src->abyss = GEGL_ABYSS_CLAMP;
  expected = ref_blur_variable (src, checked);
  hybrid = ref_blur_variable_hybrid (src, sigmas, radius, 4);
  ours = variable_test_blur ("cblur:variable-blur", photo, mask, "radius", radius,
                             "linear-mask", TRUE, NULL);
  gegls = variable_test_blur ("gegl:variable-blur", photo, mask, "radius", radius,
                              "linear-mask", TRUE, NULL);
  ours_d = widened (ours, n * 4);
  gegls_d = widened (gegls, n * 4);
  compare (expected, hybrid->data, sigmas, &m[0], &r[0]);
  compare (expected, ours_d, sigmas, &m[1], &r[1]);
  compare (expected, gegls_d, sigmas, &m[2], &r[2]);
  printf ("| %s | %s | %g | %.4f / %.4f | %.4f / %.4f | %.4f / %.4f |\n", photo_name,
          mask_of->name, radius, m[0], r[0], m[1], r[1], m[2], r[2]);
  fflush (stdout);
}

gint
main (gint    argc,
      gchar **argv)
{
  static const gdouble radii[] = { 8, 15, 30, 60, 100 };
  static const gchar  *photos[] = { "coffee.png", "chelsea.png" };
  gsize                p, k, r;

  test_init (&argc, &argv);
  printf ("| photo | mask | sigma_max | hybrid | op | gegl:variable-blur |\n");
  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    for (p = 0; p < G_N_ELEMENTS (photos); p++)
      for (k = 0; k < G_N_ELEMENTS (masks); k++)
        if (argc < 2 || atof (argv[1]) == radii[r])
          measure (photos[p], &masks[k], radii[r]);
  return 0;
}
