/* Tiles: a region cut into many GL tiles must come out as the uncut region
 * does, and a region wider than the largest texture must be cut. */
#include "gl-test.h"

#include <string.h>

#include "cblur-backend.h"
#include "cblur-gl-internal.h"

#define SEAM_TOLERANCE 1e-6

static void
blur_on_gl (const CblurKernel *kernel,
            const CblurImage  *src,
            const CblurImage  *dst,
            CblurGlReport     *report)
{
  g_autoptr (GError) error = NULL;
  gboolean           ok = cblur_gl_blur (NULL, kernel, src, dst, NULL, report, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
}

static void
check_tiled (const CblurKernel *kernel,
             gint               width,
             gint               height,
             gint               max_tile,
             gint               expected_tiles)
{
  const GeglRectangle    out = { -61, 45, width, height };
  CblurImage            *src = gl_test_random_input (kernel, out.x, out.y, out.width,
                                                     out.height, 42);
  CblurImage            *whole = gl_test_blank_image (out.x, out.y, out.width, out.height);
  CblurImage            *tiled = gl_test_blank_image (out.x, out.y, out.width, out.height);
  g_autofree gchar      *cap = g_strdup_printf ("%d", max_tile);
  CblurGlReport          report;
  gdouble                diff;

  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
  blur_on_gl (kernel, src, whole, &report);
  g_assert_cmpint (report.tiles, ==, 1);

  gl_test_set ("CBLUR_GL_MAX_TILE", cap);
  blur_on_gl (kernel, src, tiled, &report);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
  g_assert_cmpint (report.tiles, ==, expected_tiles);

  diff = gl_test_max_diff (whole, tiled);
  g_test_message ("%s radius %g, %d tiles of %d: max |tiled - whole| %g",
                  cblur_mode_name (kernel->mode), kernel->axes[CBLUR_AXIS_X].radius, report.tiles,
                  max_tile, diff);
  g_assert_cmpfloat (diff, <=, SEAM_TOLERANCE);

  gl_test_image_free (src);
  gl_test_image_free (whole);
  gl_test_image_free (tiled);
}

static void
test_forced_direct (void)
{
  g_autoptr (CblurKernel) small = cblur_kernel_new (7.3, CBLUR_MODE_DIRECT, 3);
  g_autoptr (CblurKernel) large = cblur_kernel_new (40.0, CBLUR_MODE_DIRECT, 3);

  check_tiled (small, 150, 110, 37, 5 * 3);
  check_tiled (large, 150, 110, 64, 3 * 2);
  check_tiled (small, 12, 9, 1, 12 * 9);
}

static void
test_forced_box (void)
{
  gint iterations;

  for (iterations = CBLUR_ITERATIONS_MIN; iterations <= CBLUR_ITERATIONS_MAX; iterations++)
    {
      g_autoptr (CblurKernel) small = cblur_kernel_new (15.0, CBLUR_MODE_BOX, iterations);
      g_autoptr (CblurKernel) large = cblur_kernel_new (60.0, CBLUR_MODE_BOX, iterations);

      check_tiled (small, 150, 110, 37, 5 * 3);
      check_tiled (large, 150, 110, 50, 3 * 3);
      check_tiled (small, 12, 9, 1, 12 * 9);
    }
}

/* the largest texture edge, from a blur that is too small to tile */
static gint
max_texture_size (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (1.0, CBLUR_MODE_DIRECT, 3);
  CblurGlReport           report;

  gl_test_against_cpu (kernel, 0, 0, 4, 4, 1, &report);
  g_assert_cmpint (report.max_texture_size, >, 0);
  return report.max_texture_size;
}

static void
test_wider_than_texture (void)
{
  gint width = max_texture_size () + 116;
  struct
  {
    CblurMode mode;
    gdouble   radius;
    gdouble   tolerance;
  } cases[] = {
    { CBLUR_MODE_DIRECT, 3.0, 1e-5 },
    { CBLUR_MODE_BOX, 20.0, 1e-4 },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (cases[i].radius, cases[i].mode, 4);
      CblurGlReport           report;
      gdouble                 diff;

      diff = gl_test_against_cpu (kernel, -3, 7, width, 6, 11, &report);
      g_test_message ("%s radius %g, %d×6 in %d tiles: max |GL - CPU| %g",
                      cblur_mode_name (kernel->mode), kernel->axes[CBLUR_AXIS_X].radius, width,
                      report.tiles, diff);
      g_assert_cmpint (report.tiles, >=, 2);
      g_assert_cmpfloat (diff, <=, cases[i].tolerance);
    }
}

/* tiles cover the region, keep under the edge cap and, down to a floor of
 * 256 pixels, under the texel budget */
static void
test_plan (void)
{
  static const struct
  {
    gint  width, height, reach, max_edge;
    gsize max_texels;
    gint  n_x, n_y;
  } cases[] = {
    { 3840, 2160, 172, 16384 - 344, 8 << 20, 2, 1 },
    { 3840, 2160, 150, 16384 - 300, 16 << 20, 1, 1 },
    { 16500, 6, 3, 16384 - 6, G_MAXSIZE, 2, 1 },
    { 150, 110, 7, 37, G_MAXSIZE, 5, 3 },
    { 9, 4, 0, 4, G_MAXSIZE, 3, 1 },
    { 600, 600, 10, 10000, 1, 3, 3 },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      CblurGlPlan plan;

      cblur_gl_plan_tiles (cases[i].width, cases[i].height, cases[i].reach,
                           cases[i].max_edge, cases[i].max_texels, &plan);
      g_assert_cmpint (plan.n_x, ==, cases[i].n_x);
      g_assert_cmpint (plan.n_y, ==, cases[i].n_y);
      g_assert_cmpint (plan.width, <=, cases[i].max_edge);
      g_assert_cmpint (plan.height, <=, cases[i].max_edge);
      g_assert_cmpint ((plan.n_x - 1) * plan.width, <, cases[i].width);
      g_assert_cmpint (plan.n_x * plan.width, >=, cases[i].width);
      g_assert_cmpint ((plan.n_y - 1) * plan.height, <, cases[i].height);
      g_assert_cmpint (plan.n_y * plan.height, >=, cases[i].height);
    }
}

/* a region whose textures outgrow the GPU-memory budget is cut too */
static void
test_over_budget (void)
{
  CblurMode mode;

  for (mode = CBLUR_MODE_DIRECT; mode <= CBLUR_MODE_BOX; mode++)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (15.0, mode, 4);
      CblurGlReport           report;
      gdouble                 diff;

      /* 4 MB, where the textures of 600×400 take 9 (direct) or 18 MB (box) */
      gl_test_set ("CBLUR_GL_TEXTURE_BUDGET", "4194304");
      diff = gl_test_against_cpu (kernel, 5, -9, 600, 400, 23, &report);
      gl_test_set ("CBLUR_GL_TEXTURE_BUDGET", NULL);
      g_test_message ("%s radius 15, 600×400 in %d tiles: max |GL - CPU| %g",
                      cblur_mode_name (mode), report.tiles, diff);
      g_assert_cmpint (report.tiles, >=, 2);
      g_assert_cmpfloat (diff, <=, mode == CBLUR_MODE_BOX ? 1e-4 : 1e-5);
    }
}

/* every pixel of image outside `inside` becomes the nearest inside, as
 * GEGL's clamp abyss would give it */
static void
clamp_outside (CblurImage          *image,
               const GeglRectangle *inside)
{
  gint x, y;

  for (y = image->y; y < image->y + image->height; y++)
    for (x = image->x; x < image->x + image->width; x++)
      {
        gint from_x = CLAMP (x, inside->x, inside->x + inside->width - 1);
        gint from_y = CLAMP (y, inside->y, inside->y + inside->height - 1);

        memcpy (cblur_image_pixel (image, x - image->x, y - image->y),
                cblur_image_pixel (image, from_x - image->x, from_y - image->y),
                CBLUR_CHANNELS * sizeof (gfloat));
      }
}

/* A streamed band taller than the passes' bands: the passes run band by
 * band as the rows arrive (slowly, so that they do), the halo beyond
 * `inside` made on the GPU.
 * GEGL must get what the CPU makes of the same pixels. */
static void
check_streamed (CblurMode mode,
                gdouble   radius,
                gboolean  makes_abyss)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (radius, mode, 4);
  const GeglRectangle     out = { 7, -33, 150, 1100 };
  const GeglRectangle     inside = { out.x + 20, out.y - 5, out.width - 30, out.height - 40 };
  CblurImage             *random = gl_test_random_input (kernel, out.x, out.y, out.width,
                                                         out.height, 9);
  CblurImage             *on_cpu = gl_test_blank_image (out.x, out.y, out.width, out.height);
  CblurImage             *handed_on = gl_test_blank_image (out.x, out.y, out.width, out.height);
  GlTestGegl              gegl = { random, handed_on, 2000 };
  CblurBandIo             band_io = gl_test_stream (&gegl);
  CblurRunReport          report;
  gdouble                 diff;

  if (makes_abyss)
    {
      clamp_outside (random, &inside);
      band_io.inside = inside;
      band_io.abyss = GEGL_ABYSS_CLAMP;
    }
  cblur_cpu_blur (kernel, random, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);

  gl_test_blur_streamed (CBLUR_BACKEND_GL, kernel, &band_io, &report);
  g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
  diff = gl_test_max_diff (handed_on, on_cpu);
  g_test_message ("%s radius %g%s: %d tiles; max |GL - CPU| %g", cblur_mode_name (mode),
                  radius, makes_abyss ? ", abyss made" : "", report.tiles, diff);
  g_assert_cmpfloat (diff, <=, mode == CBLUR_MODE_BOX ? 1e-4 : 1e-5);

  cblur_run_report_clear (&report);
  gl_test_image_free (random);
  gl_test_image_free (on_cpu);
  gl_test_image_free (handed_on);
}

static void
test_streamed_in_bands (void)
{
  check_streamed (CBLUR_MODE_DIRECT, 9.0, FALSE);
  check_streamed (CBLUR_MODE_DIRECT, 9.0, TRUE);
  check_streamed (CBLUR_MODE_BOX, 60.0, FALSE);
  check_streamed (CBLUR_MODE_BOX, 60.0, TRUE);
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl/tiling/plan", test_plan);
  g_test_add_func ("/gl/tiling/forced-direct", test_forced_direct);
  g_test_add_func ("/gl/tiling/forced-box", test_forced_box);
  g_test_add_func ("/gl/tiling/wider-than-texture", test_wider_than_texture);
  g_test_add_func ("/gl/tiling/over-budget", test_over_budget);
  g_test_add_func ("/gl/tiling/streamed-in-bands", test_streamed_in_bands);
  return gl_test_run ();
}
