/* cblur:variable-blur against the double-precision reference
 * (reference-variable.h): each pixel's own Gaussian on smooth masks, under
 * every abyss policy, on a tiny image at the largest radius and through
 * transparent holes, at sigma_max 60 and 100, and the op's definition, its
 * base's boxes and its levels (ref_blur_variable_hybrid).
 * (test-variable-equal holds it to box mode, to its input, to itself in
 * other formats and tilings, and after a fork.) */
#include <math.h>
#include <stdio.h>

#include "cblur-variable.h"
#include "reference-variable.h"
#include "variable-test.h"

/* each pixel's sigma, from the mask as the op reads it with linear-mask */
static gdouble *
sigmas_of (GeglBuffer *mask,
           gdouble     radius)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (mask);
  gsize                n = (gsize) extent->width * extent->height;
  g_autofree gfloat   *grey = g_new (gfloat, n);
  gdouble             *sigmas = g_new (gdouble, n);
  gsize                i;

  gegl_buffer_get (mask, extent, 1.0, babl_format ("Y float"), grey, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (i = 0; i < n; i++)
    sigmas[i] = CLAMP (grey[i], 0.0, 1.0) * radius;
  return sigmas;
}

/* The largest difference over every channel of the pixels whose sigma is
 * at least `least`, and the root-mean-square one over all pixels. */
typedef struct
{
  gdouble max_abs;        /* where sigma >= 1 */
  gdouble max_abs_small;  /* where sigma < 1 */
  gdouble rms;
} Error;

static Error
measure (const RefImage *expected,
         const gfloat   *actual,
         const gdouble  *sigmas,
         const gchar    *what)
{
  gsize   n = (gsize) expected->width * expected->height * 4;
  Error   error = { 0 };
  gdouble sum = 0.0;
  gsize   i;

  for (i = 0; i < n; i++)
    {
      gdouble  d = fabs (expected->data[i] - actual[i]);
      gdouble *worst = sigmas[i / 4] >= 1.0 ? &error.max_abs : &error.max_abs_small;

      if (!(d <= *worst))   /* NaN counts as the worst error */
        *worst = isnan (d) ? INFINITY : d;
      sum += d * d;
    }
  error.rms = sqrt (sum / n);
  g_test_message ("%s: max %.4f (sigma >= 1), %.4f (sigma < 1), rms %.5f", what,
                  error.max_abs, error.max_abs_small, error.rms);
  return error;
}

typedef struct
{
  const gchar    *photo;
  gdouble         radius;
  GeglAbyssPolicy abyss;
  gboolean        holes;
} Case;

/* the op's blur of input through mask as the case asks, the mask linear */
static gfloat *
blur_case (const Case *c,
           GeglBuffer *input,
           GeglBuffer *mask)
{
  return variable_test_blur ("cblur:variable-blur", input, mask, "radius", c->radius,
                             "linear-mask", TRUE, "abyss-policy", c->abyss, NULL);
}

/* The op against each pixel's own Gaussian on a width x height part of a
 * photograph with a smooth mask, within the Gaussian blur's box promise,
 * and where asked closer than gegl:variable-blur. */
static void
check_sized (const Case *c,
             gint        width,
             gint        height,
             gdouble   (*mask_value) (gint, gint, gint, gint),
             gboolean    against_gegl)
{
  g_autoptr (GeglBuffer) photo = variable_test_photo (c->photo, width, height);
  g_autoptr (GeglBuffer) input = c->holes ? variable_test_with_holes (photo)
                                          : g_object_ref (photo);
  g_autoptr (GeglBuffer) mask = variable_test_mask (width, height, "Y float", mask_value, 0.0);
  g_autofree gdouble    *sigmas = sigmas_of (mask, c->radius);
  g_autoptr (RefImage)   src = test_reference_input (input);
  g_autoptr (RefImage)   expected = NULL;
  g_autofree gfloat     *ours = blur_case (c, input, mask);
  g_autofree gchar      *what = g_strdup_printf ("%s %dx%d radius %g abyss %d%s",
                                                 c->photo != NULL ? c->photo : "synthetic",
                                                 width, height, c->radius, c->abyss,
                                                 c->holes ? " with holes" : "");
  Error                  error;

  src->abyss = c->abyss;
  expected = ref_blur_variable (src, sigmas);
  error = measure (expected, ours, sigmas, what);
  g_assert_cmpfloat (error.max_abs, <=, 0.02);
  g_assert_cmpfloat (error.max_abs_small, <=, 0.05);
  g_assert_cmpfloat (error.rms, <=, 0.003);

  /* GEGL's own blurs clamp at the edges */
  if (against_gegl && c->abyss == GEGL_ABYSS_CLAMP && !c->holes)
    {
      g_autofree gfloat *gegls = variable_test_blur ("gegl:variable-blur", input, mask,
                                                     "radius", c->radius, "linear-mask", TRUE,
                                                     NULL);
      Error              gegl_error = measure (expected, gegls, sigmas, "  gegl:variable-blur");

      g_assert_cmpfloat (error.rms, <, gegl_error.rms);
    }
}

/* the op and gegl:variable-blur on a 120 x 90 part */
static void
check_case (const Case *c)
{
  check_sized (c, 120, 90, variable_test_smooth_mask, TRUE);
}

static void
test_smooth_mask_matches_reference (void)
{
  static const Case cases[] = {
    { "coffee.png", 4.0, GEGL_ABYSS_CLAMP, FALSE },
    { "coffee.png", 10.0, GEGL_ABYSS_CLAMP, FALSE },
    { "chelsea.png", 7.0, GEGL_ABYSS_CLAMP, FALSE },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i]);
}

/* A part of a photograph blurred by the op through the smooth mask, with
 * each pixel's sigma and the reference's input. */
typedef struct
{
  GeglBuffer *input;
  gdouble    *sigmas;
  RefImage   *src;
  gfloat     *ours;
} Smooth;

static void
smooth_init (Smooth     *smooth,
             const Case *c,
             gint        width,
             gint        height)
{
  g_autoptr (GeglBuffer) mask = variable_test_mask (width, height, "Y float",
                                                    variable_test_smooth_mask, 0.0);

  smooth->input = variable_test_photo (c->photo, width, height);
  smooth->sigmas = sigmas_of (mask, c->radius);
  smooth->src = test_reference_input (smooth->input);
  smooth->src->abyss = c->abyss;
  smooth->ours = blur_case (c, smooth->input, mask);
}

static void
smooth_clear (Smooth *smooth)
{
  g_clear_object (&smooth->input);
  g_clear_pointer (&smooth->sigmas, g_free);
  g_clear_pointer (&smooth->src, ref_image_free);
  g_clear_pointer (&smooth->ours, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Smooth, smooth_clear)

/* The op against its definition in double precision (the base's boxes,
 * every pixel beyond the edge reading the abyss and carrying the sigma of
 * the image's nearest pixel, and the levels over the abyss): the sums'
 * rounding apart, under every policy. */
static void
check_definition (const Case *c,
                  gint        width,
                  gint        height)
{
  g_auto (Smooth)      smooth = { 0 };
  g_autoptr (RefImage) expected = NULL;
  gdouble              max_abs, rms;

  smooth_init (&smooth, c, width, height);
  expected = ref_blur_variable_hybrid (smooth.src, smooth.sigmas, c->radius, 4);
  ref_compare_floats (expected, smooth.ours, &max_abs, &rms);
  g_test_message ("%s radius %g abyss %d: %.3g from its definition",
                  c->photo != NULL ? c->photo : "synthetic", c->radius, c->abyss, max_abs);
  g_assert_cmpfloat (max_abs, <=, 1e-5);
}

/* Under every policy the halo is GEGL's abyss, each of its pixels with
 * the sigma of the image's nearest pixel: the op follows that definition
 * and, so defined, stays within the box promise of each pixel's own
 * Gaussian over GEGL's abyss, on an image whose sides differ (which
 * loop's halo brings together) and on a photograph. */
static void
test_abyss_policies (void)
{
  static const GeglAbyssPolicy policies[] = {
    GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE,
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      Case synthetic = { NULL, 10.0, policies[i], FALSE };
      Case photo = { "coffee.png", 10.0, policies[i], FALSE };

      check_sized (&synthetic, 96, 72, variable_test_smooth_mask, FALSE);
      check_definition (&synthetic, 96, 72);
      check_sized (&photo, 120, 90, variable_test_smooth_mask, FALSE);
      check_definition (&photo, 120, 90);
    }
}

/* The op against each pixel's own Gaussian at every seventh pixel each
 * way of a width x height part of a photograph with the smooth mask,
 * within the box promise where sigma >= 1. */
static void
check_sampled (const Case *c,
               gint        width,
               gint        height)
{
  g_auto (Smooth)      smooth = { 0 };
  g_autoptr (RefImage) expected = NULL;
  gdouble             *sigmas;
  gsize                n = (gsize) width * height, i, count = 0;
  gdouble              max_abs = 0.0, sum = 0.0;
  gint                 ch;

  smooth_init (&smooth, c, width, height);
  sigmas = smooth.sigmas;
  /* sigma 0 keeps the pixels left out */
  for (i = 0; i < n; i++)
    if ((i % width) % 7 != 0 || (i / width) % 7 != 0 || sigmas[i] < 1.0)
      sigmas[i] = 0.0;
  expected = ref_blur_variable (smooth.src, sigmas);
  for (i = 0; i < n; i++)
    for (ch = 0; ch < 4 && sigmas[i] > 0.0; ch++)
      {
        gdouble d = fabs (expected->data[i * 4 + ch] - smooth.ours[i * 4 + ch]);

        max_abs = isnan (d) ? INFINITY : MAX (max_abs, d);
        sum += d * d;
        count++;
      }
  g_test_message ("%s %dx%d radius %g abyss %d: max %.4f, rms %.5f at every seventh pixel",
                  c->photo, width, height, c->radius, c->abyss, max_abs, sqrt (sum / count));
  g_assert_cmpfloat (max_abs, <=, 0.02);
  g_assert_cmpfloat (sqrt (sum / count), <=, 0.003);
}

/* At sigma_max 60 and 100 the smooth mask on a few hundred pixels
 * changes sigma by a tenth of a pixel and more from one pixel to the
 * next, where boxes of a width per pixel are no Gaussian of each pixel's
 * own (rms 0.004 and more): the levels hold the promise there, and the op
 * follows its definition. */
static void
test_large_sigmas (void)
{
  static const Case cases[] = {
    { "coffee.png", 60.0, GEGL_ABYSS_CLAMP, FALSE },
    { "chelsea.png", 100.0, GEGL_ABYSS_CLAMP, FALSE },
    { "coffee.png", 100.0, GEGL_ABYSS_LOOP, FALSE },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      check_sampled (&cases[i], 300, 200);
      check_definition (&cases[i], 120, 90);
    }
}

/* the peak of resident memory (VmHWM) starts again from what is resident
 * now, where the kernel allows; elsewhere it goes on from the process's */
static void
reset_peak (void)
{
  FILE    *file = fopen ("/proc/self/clear_refs", "w");
  gboolean reset = file != NULL && fputs ("5", file) >= 0;

  if (file != NULL && fclose (file) != 0)
    reset = FALSE;
  if (!reset)
    g_test_message ("the peak of resident memory cannot be reset here");
}

/* the smooth mask between 0.8 and 1: on a tiny image the smooth mask
 * changes sigma by hundreds a pixel, where box passes of a width per pixel
 * are no Gaussian of each pixel's own; this one by a few per cent */
static gdouble
gentle_mask_value (gint x,
                   gint y,
                   gint width,
                   gint height)
{
  return 0.8 + 0.2 * variable_test_smooth_mask (x, y, width, height);
}

/* A tiny image at the largest radius under every abyss policy against the
 * reference, its memory going with its own pixels and one line a thread
 * (on GL, three textures of its rows at the line's length), not with the
 * halo's area: that would be gigabytes. */
static void
test_tiny_image_largest_radius (void)
{
  static const GeglAbyssPolicy policies[] = {
    GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE,
  };
  static const gint      sizes[][2] = { { 7, 5 }, { 1, 300 } };
  g_autoptr (GeglBuffer) small = variable_test_photo ("coffee.png", 7, 5);
  g_autoptr (GeglBuffer) constant = variable_test_mask (7, 5, "Y float", NULL, 1.0);
  /* on GL 300 rows of the line's texels (1 + 2 reach, the levels' reach
   * the longer), three times, and 48 MiB beside them */
  gsize                  line = 1 + 2 * (gsize) cblur_variable_reach (CBLUR_VARIABLE_RADIUS_MAX,
                                                                  4);
  gsize                  allowed = g_strcmp0 (g_getenv ("CBLUR_BACKEND"), "gl") == 0
                                   ? 3 * 300 * line * 16 / 1024 + 48 * 1024 : 64 * 1024;
  gsize                  i, s;

  /* the process's first blur chooses the backend, loading a GL driver
   * where it probes one: that is no cost of the radius */
  g_free (variable_test_blur ("cblur:variable-blur", small, constant, "radius", 1.0, NULL));

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (i = 0; i < G_N_ELEMENTS (policies); i++)
      {
        gint                   width = sizes[s][0], height = sizes[s][1];
        Case                   c = { "coffee.png", CBLUR_VARIABLE_RADIUS_MAX, policies[i],
                                     FALSE };
        g_autoptr (GeglBuffer) input = variable_test_photo (c.photo, width, height);
        g_autoptr (GeglBuffer) mask = variable_test_mask (width, height, "Y float",
                                                          gentle_mask_value, 0.0);
        gsize                  before, grown;

        reset_peak ();
        before = test_status_kib ("VmHWM");
        g_free (variable_test_blur ("cblur:variable-blur", input, mask, "radius", c.radius,
                                    "abyss-policy", c.abyss, NULL));
        /* where the peak cannot be reset, it may read below before */
        grown = test_status_kib ("VmHWM");
        grown = grown > before ? grown - before : 0;
        g_test_message ("%dx%d abyss %d: peak resident memory grew by %zu KiB", width, height,
                        c.abyss, grown);
        g_assert_cmpuint (grown, <, allowed);
        check_sized (&c, width, height, gentle_mask_value, FALSE);
      }
}

/* transparent pixels' hidden colour stays hidden */
static void
test_alpha (void)
{
  check_case (&(Case) { "coffee.png", 6.0, GEGL_ABYSS_CLAMP, TRUE });
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/cpu/variable/smooth-mask-matches-reference",
                   test_smooth_mask_matches_reference);
  g_test_add_func ("/cpu/variable/abyss-policies", test_abyss_policies);
  /* before the large sigmas: on GL a texture kept for the next blur grows
   * to the longest width and height of those before, and theirs are 300
   * pixels wide */
  g_test_add_func ("/cpu/variable/tiny-image-largest-radius", test_tiny_image_largest_radius);
  g_test_add_func ("/cpu/variable/large-sigmas", test_large_sigmas);
  g_test_add_func ("/cpu/variable/alpha", test_alpha);

  return g_test_run ();
}
