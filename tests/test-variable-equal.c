/* cblur:variable-blur against itself and the Gaussian blur: a constant
 * mask against the Gaussian blur's box mode, a mask of zeros against the
 * input, masks and sources in other formats against the same values in
 * float, one tiling against another, and a forked child against its
 * parent.  (test-variable holds it to the double-precision reference.) */
#include <sys/wait.h>
#include <unistd.h>

#include "cblur-settings.h"
#include "variable-test.h"

/* A constant mask m is the Gaussian blur's box mode at the same sigma,
 * radius 3 * m * radius there: the same boxes, summed in double precision
 * rather than float. */
static void
test_constant_mask_is_box_mode (void)
{
  static const struct { gdouble m; gdouble radius; gint iterations; GeglAbyssPolicy abyss; }
    cases[] = {
      { 0.25, 24.0, 4, GEGL_ABYSS_CLAMP }, { 0.5, 24.0, 3, GEGL_ABYSS_CLAMP },
      { 1.0, 24.0, 6, GEGL_ABYSS_LOOP }, { 0.75, 40.0, 4, GEGL_ABYSS_BLACK },
      { 0.25, 8.0, 5, GEGL_ABYSS_NONE },
    };
  g_autoptr (GeglBuffer) input = test_random_buffer (71, 53, 3);
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GeglBuffer) mask = variable_test_mask (71, 53, "Y float", NULL, cases[i].m);
      g_autofree gfloat     *ours = variable_test_blur ("cblur:variable-blur", input, mask,
                                                        "radius", cases[i].radius,
                                                        "linear-mask", TRUE,
                                                        "iterations", cases[i].iterations,
                                                        "abyss-policy", cases[i].abyss, NULL);
      g_autofree gfloat     *box = test_blur (input, gegl_buffer_get_extent (input),
                                              "radius", 3.0 * cases[i].m * cases[i].radius,
                                              "mode", 2 /* box */,
                                              "iterations", cases[i].iterations,
                                              "abyss-policy", cases[i].abyss, NULL);
      gdouble                diff = test_max_abs_diff (ours, box, 71 * 53 * 4);

      g_test_message ("mask %g radius %g iterations %d: %.3g from box mode", cases[i].m,
                      cases[i].radius, cases[i].iterations, diff);
      g_assert_cmpfloat (diff, <=, 2e-6);
    }
}

/* A mask of zeros, and no mask at all, give the input, bit for bit. */
static void
test_zero_mask_is_input (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (64, 48, 4);
  g_autoptr (GeglBuffer) zeros = variable_test_mask (64, 48, "Y' u8", NULL, 0.0);
  g_autofree gfloat     *expected = test_read (input, gegl_buffer_get_extent (input));
  g_autofree gfloat     *masked = variable_test_blur ("cblur:variable-blur", input, zeros,
                                                      "radius", 30.0, NULL);
  g_autofree gfloat     *unmasked = variable_test_blur ("cblur:variable-blur", input, NULL,
                                                        "radius", 30.0, NULL);

  g_assert_cmpmem (masked, 64 * 48 * 4 * sizeof (gfloat), expected,
                   64 * 48 * 4 * sizeof (gfloat));
  g_assert_cmpmem (unmasked, 64 * 48 * 4 * sizeof (gfloat), expected,
                   64 * 48 * 4 * sizeof (gfloat));
}

/* The mask in 8 bits, 16 bits and colour reads as its grey in float:
 * Y' u8 and Y u8, read linear or not, exactly as the same codes in float
 * (their boxes come from a table of the codes), R'G'B'A u8 grey within
 * babl's rounding of its luminance. */
static void
test_mask_formats (void)
{
  static const struct { const gchar *format; gboolean linear; gdouble allowed; } cases[] = {
    { "Y' u8", FALSE, 0.0 }, { "Y' u8", TRUE, 0.0 }, { "Y u8", FALSE, 0.0 },
    { "Y u16", TRUE, 0.0 }, { "R'G'B'A u8", FALSE, 1e-5 }, { "RGB float", TRUE, 1e-5 },
  };
  g_autoptr (GeglBuffer) input = variable_test_photo ("coffee.png", 96, 64);
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GeglBuffer) mask = variable_test_mask (96, 64, cases[i].format,
                                                        variable_test_smooth_mask, 0);
      /* the same grey, stored as floats */
      g_autoptr (GeglBuffer) grey = gegl_buffer_new (gegl_buffer_get_extent (mask),
                                                     babl_format (cases[i].linear ? "Y float"
                                                                                  : "Y' float"));
      g_autofree gfloat     *stored = NULL;
      g_autofree gfloat     *floats = NULL;
      gdouble                diff;

      gegl_buffer_copy (mask, NULL, GEGL_ABYSS_NONE, grey, NULL);
      stored = variable_test_blur ("cblur:variable-blur", input, mask, "radius", 8.0,
                                   "linear-mask", cases[i].linear, NULL);
      floats = variable_test_blur ("cblur:variable-blur", input, grey, "radius", 8.0,
                                   "linear-mask", cases[i].linear, NULL);
      diff = test_max_abs_diff (stored, floats, 96 * 64 * 4);
      g_test_message ("mask in %s: %.3g from its grey in float", cases[i].format, diff);
      g_assert_cmpfloat (diff, <=, cases[i].allowed);
    }
}

/* An 8-bit source is read and written as GEGL stores it, converted (and
 * premultiplied) in the op's threads: within one step of babl's
 * conversion of the result from the same pixels in float. */
static void
test_stored_source (void)
{
  g_autoptr (GeglBuffer) opaque = variable_test_photo ("coffee.png", 96, 64);
  g_autoptr (GeglBuffer) photo = variable_test_with_holes (opaque);
  g_autoptr (GeglBuffer) stored = gegl_buffer_new (gegl_buffer_get_extent (photo),
                                                   babl_format ("R'G'B'A u8"));
  g_autoptr (GeglBuffer) floats = gegl_buffer_new (gegl_buffer_get_extent (photo),
                                                   babl_format (TEST_FORMAT));
  g_autoptr (GeglBuffer) mask = variable_test_mask (96, 64, "Y' u8", variable_test_smooth_mask,
                                                    0);
  const Babl            *u8 = babl_format ("R'G'B'A u8");
  g_autofree guint8     *from_stored = NULL;
  g_autofree guint8     *from_floats = NULL;
  gint                   worst = 0;
  gsize                  i;

  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, stored, NULL);
  gegl_buffer_copy (stored, NULL, GEGL_ABYSS_NONE, floats, NULL);
  from_stored = variable_test_blur_as (u8, "cblur:variable-blur", stored, mask, "radius", 9.0,
                                       NULL);
  from_floats = variable_test_blur_as (u8, "cblur:variable-blur", floats, mask, "radius", 9.0,
                                       NULL);
  for (i = 0; i < 96 * 64 * 4; i++)
    worst = MAX (worst, ABS ((gint) from_stored[i] - from_floats[i]));
  g_assert_cmpint (worst, <=, 1);
}

/* Regions blurred on their own, each with its halo, and a region in bands
 * of rows, against the whole image at once: the running sums restart at
 * absolute blocks, and the first block of a region's lines differs from
 * the whole's only by the rounding of double-precision sums. */
static void
check_tiling (GeglAbyssPolicy abyss)
{
  g_autoptr (GeglBuffer) input = variable_test_photo ("chelsea.png", 150, 110);
  g_autoptr (GeglBuffer) mask = variable_test_mask (150, 110, "Y' u8", variable_test_smooth_mask,
                                                    0);
  g_autofree gfloat     *whole = variable_test_blur ("cblur:variable-blur", input, mask,
                                                     "radius", 12.0, "abyss-policy", abyss, NULL);
  g_autofree gfloat     *banded = NULL;
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur = gegl_node_new_child (graph, "operation", "cblur:variable-blur",
                                                     "radius", 12.0, "abyss-policy", abyss,
                                                     NULL);
  gfloat                *parts = g_new0 (gfloat, 150 * 110 * 4);
  static const GeglRectangle pieces[] = {
    { 0, 0, 37, 110 }, { 37, 0, 113, 51 }, { 37, 51, 64, 59 }, { 101, 51, 49, 59 },
  };
  gsize i;

  /* every region on its own, and in bands of 64 rows */
  g_setenv ("CBLUR_WHOLE_IMAGE_PIXELS", "1", TRUE);
  g_setenv ("CBLUR_BAND_PIXELS", "1", TRUE);
  cblur_settings_reload ();
  gegl_node_link (gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", input, NULL), blur);
  gegl_node_connect_from (blur, "aux",
                          gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                               "buffer", mask, NULL), "output");
  for (i = 0; i < G_N_ELEMENTS (pieces); i++)
    gegl_node_blit (blur, 1.0, &pieces[i], babl_format (TEST_FORMAT),
                    parts + ((gsize) pieces[i].y * 150 + pieces[i].x) * 4,
                    150 * 4 * sizeof (gfloat), GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  banded = variable_test_blur ("cblur:variable-blur", input, mask, "radius", 12.0,
                               "abyss-policy", abyss, NULL);
  g_unsetenv ("CBLUR_WHOLE_IMAGE_PIXELS");
  g_unsetenv ("CBLUR_BAND_PIXELS");
  cblur_settings_reload ();

  g_test_message ("abyss %d: regions differ from the whole by %.3g, bands by %.3g", abyss,
                  test_max_abs_diff (whole, parts, 150 * 110 * 4),
                  test_max_abs_diff (whole, banded, 150 * 110 * 4));
  g_assert_cmpfloat (test_max_abs_diff (whole, parts, 150 * 110 * 4), <=, 1e-6);
  g_assert_cmpfloat (test_max_abs_diff (whole, banded, 150 * 110 * 4), <=, 1e-6);
  g_free (parts);
}

/* Under loop a region on its own has GEGL make its halo, which the
 * whole image makes itself: the same pixels with the same boxes. */
static void
test_tiling_independent (void)
{
  check_tiling (GEGL_ABYSS_CLAMP);
  check_tiling (GEGL_ABYSS_LOOP);
}

/* A host that forks after blurring (Python's multiprocessing does) has a
 * child without GEGL's worker threads or the GL driver's: the child still
 * blurs a photograph through a mask, on the CPU, as the parent did (on
 * GL, within its rounding).  In a process of its own, which blurs first. */
static void
test_fork_then_blur (void)
{
  g_autoptr (GeglBuffer) input = NULL;
  g_autoptr (GeglBuffer) mask = NULL;
  g_autofree gfloat     *parents = NULL;
  GPid                   child;

  if (!test_in_own_process (0))
    return;
  input = variable_test_photo ("coffee.png", 600, 400);
  mask = variable_test_mask (600, 400, "Y' u8", variable_test_smooth_mask, 0);
  /* below sigma 2.25 the boxes alone, which the GPU runs */
  parents = variable_test_blur ("cblur:variable-blur", input, mask, "radius", 2.0, NULL);
  test_assert_ran_on_backend ();

  child = fork ();
  if (child == 0)
    {
      g_autofree gfloat *childs = NULL;

      /* GL's refusal in the child is the one warning of a fallback */
      g_log_set_always_fatal (G_LOG_FATAL_MASK);
      childs = variable_test_blur ("cblur:variable-blur", input, mask, "radius", 2.0, NULL);
      _exit (test_max_abs_diff (parents, childs, 600 * 400 * 4) <= 1e-5 ? 0 : 3);
    }
  test_assert_child_passed (child);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/cpu/variable/constant-mask-is-box-mode", test_constant_mask_is_box_mode);
  g_test_add_func ("/cpu/variable/zero-mask-is-input", test_zero_mask_is_input);
  g_test_add_func ("/cpu/variable/mask-formats", test_mask_formats);
  g_test_add_func ("/cpu/variable/stored-source", test_stored_source);
  g_test_add_func ("/cpu/variable/tiling-independent", test_tiling_independent);
  g_test_add_func ("/cpu/variable/fork-then-blur", test_fork_then_blur);

  return g_test_run ();
}
