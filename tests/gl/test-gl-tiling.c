/* Tiles: a region cut into many GL tiles must come out as the uncut region
 * does, and a region wider than the largest texture must be cut. */
#include "gl-test.h"

#include <string.h>

#include "cblur-backend.h"
#include "cblur-gl-private.h"

#define SEAM_TOLERANCE 1e-6

static void
blur_on_gl (const CblurKernel *kernel,
            const CblurImage  *src,
            const CblurImage  *dst,
            CblurGlReport     *report)
{
  g_autoptr (GError) error = NULL;
  gboolean           ok = cblur_gl_blur (kernel, src, dst, NULL, report, &error);

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
  gint                   reach = kernel->reach;
  CblurImage            *src = gl_test_random_image (out.x - reach, out.y - reach,
                                                     out.width + 2 * reach,
                                                     out.height + 2 * reach, 42);
  CblurImage            *whole = gl_test_blank_image (out.x, out.y, out.width, out.height);
  CblurImage            *tiled = gl_test_blank_image (out.x, out.y, out.width, out.height);
  g_autofree gchar      *cap = g_strdup_printf ("%d", max_tile);
  CblurGlReport          report;
  gdouble                diff;

  g_unsetenv ("CBLUR_GL_MAX_TILE");
  blur_on_gl (kernel, src, whole, &report);
  g_assert_cmpint (report.tiles, ==, 1);

  g_setenv ("CBLUR_GL_MAX_TILE", cap, TRUE);
  blur_on_gl (kernel, src, tiled, &report);
  g_unsetenv ("CBLUR_GL_MAX_TILE");
  g_assert_cmpint (report.tiles, ==, expected_tiles);

  diff = gl_test_max_diff (whole, tiled);
  g_test_message ("%s radius %g, %d tiles of %d: max |tiled - whole| %g",
                  cblur_mode_name (kernel->mode), kernel->radius, report.tiles,
                  max_tile, diff);
  g_assert_cmpfloat (diff, <=, SEAM_TOLERANCE);

  gl_test_image_free (src);
  gl_test_image_free (whole);
  gl_test_image_free (tiled);
}

static void
test_forced_direct (void)
{
  g_autoptr (CblurKernel) small = cblur_kernel_new (7.3, CBLUR_MODE_DIRECT, 3, CBLUR_BACKEND_GL);
  g_autoptr (CblurKernel) large = cblur_kernel_new (40.0, CBLUR_MODE_DIRECT, 3, CBLUR_BACKEND_GL);

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
      g_autoptr (CblurKernel) small = cblur_kernel_new (15.0, CBLUR_MODE_BOX, iterations,
                                                        CBLUR_BACKEND_GL);
      g_autoptr (CblurKernel) large = cblur_kernel_new (60.0, CBLUR_MODE_BOX, iterations,
                                                        CBLUR_BACKEND_GL);

      check_tiled (small, 150, 110, 37, 5 * 3);
      check_tiled (large, 150, 110, 50, 3 * 3);
      check_tiled (small, 12, 9, 1, 12 * 9);
    }
}

/* the largest texture edge, from a blur that is too small to tile */
static gint
max_texture_size (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (1.0, CBLUR_MODE_DIRECT, 3, CBLUR_BACKEND_GL);
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
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (cases[i].radius, cases[i].mode,
                                                         4, CBLUR_BACKEND_GL);
      CblurGlReport           report;
      gdouble                 diff;

      diff = gl_test_against_cpu (kernel, -3, 7, width, 6, 11, &report);
      g_test_message ("%s radius %g, %d×6 in %d tiles: max |GL - CPU| %g",
                      cblur_mode_name (kernel->mode), kernel->radius, width,
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

/* A stand-in for GEGL's side of a band: the source comes from `from`, and
 * the output's rows are counted as they are handed on. */
typedef struct
{
  const CblurImage *from;
  gint              rows_read;
  gint              read_before_first_write;
  gint             *times_written;
} Recorder;

static void
record_read (const CblurImage *src,
             gint              first_row,
             gint              n_rows,
             gpointer          user_data)
{
  Recorder *recorder = user_data;
  gint      row;

  /* in order, each row once */
  g_assert_cmpint (first_row, ==, recorder->rows_read);
  for (row = first_row; row < first_row + n_rows; row++)
    memcpy (cblur_image_row (src, row), cblur_image_row (recorder->from, row),
            src->width * CBLUR_CHANNELS * sizeof (gfloat));
  recorder->rows_read += n_rows;
}

static void
record_write (const CblurImage *dst,
              gint              first_row,
              gint              n_rows,
              gpointer          user_data)
{
  Recorder *recorder = user_data;
  gint      row;

  if (recorder->read_before_first_write < 0)
    recorder->read_before_first_write = recorder->rows_read;
  for (row = first_row; row < first_row + n_rows; row++)
    recorder->times_written[row]++;
}

/* The op's path: staged memory, the source read as the uploads reach it,
 * output handed on row of tiles by row of tiles, stripe by stripe. */
static void
test_streamed (void)
{
  CblurMode mode;

  for (mode = CBLUR_MODE_DIRECT; mode <= CBLUR_MODE_BOX; mode++)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (mode == CBLUR_MODE_BOX ? 9.0 : 4.0,
                                                         mode, 4, CBLUR_BACKEND_GL);
      gint                    reach = kernel->reach;
      CblurImage             *from = gl_test_random_image (-reach, 20 - reach, 300 + 2 * reach,
                                                           200 + 2 * reach, 17);
      CblurImage             *on_cpu = gl_test_blank_image (0, 20, 300, 200);
      CblurImage              src = *from;
      CblurImage              dst = *on_cpu;
      g_autoptr (CblurBand)   band = cblur_band_new (CBLUR_BACKEND_GL, &src, &dst);
      g_autofree gint        *times_written = g_new0 (gint, dst.height);
      Recorder                recorder = { from, 0, -1, times_written };
      CblurStream             stream = { record_read, record_write, &recorder };
      CblurRunReport          report;
      gint                    row;

      cblur_cpu_blur (kernel, from, on_cpu);
      g_setenv ("CBLUR_GL_MAX_TILE", "90", TRUE);
      g_setenv ("CBLUR_GL_STRIPE_ROWS", "7", TRUE);
      cblur_backend_blur (CBLUR_BACKEND_GL, kernel, &src, &dst, &stream, &report);
      g_unsetenv ("CBLUR_GL_MAX_TILE");
      g_unsetenv ("CBLUR_GL_STRIPE_ROWS");

      g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
      g_assert_cmpint (recorder.rows_read, ==, src.height);
      for (row = 0; row < dst.height; row++)
        g_assert_cmpint (times_written[row], ==, 1);
      /* the first row of tiles went out before the last was read */
      g_assert_cmpint (recorder.read_before_first_write, <, src.height);
      g_assert_cmpfloat (gl_test_max_diff (&dst, on_cpu), <=,
                         mode == CBLUR_MODE_BOX ? 1e-4 : 1e-5);
      g_test_message ("%s, %s: %d of %d source rows read before the first write",
                      cblur_mode_name (mode), report.detail,
                      recorder.read_before_first_write, src.height);

      cblur_run_report_clear (&report);
      gl_test_image_free (from);
      gl_test_image_free (on_cpu);
    }
}

int
main (int    argc,
      char **argv)
{
  int result;

  test_init (&argc, &argv);
  g_test_add_func ("/gl/tiling/plan", test_plan);
  g_test_add_func ("/gl/tiling/forced-direct", test_forced_direct);
  g_test_add_func ("/gl/tiling/forced-box", test_forced_box);
  g_test_add_func ("/gl/tiling/wider-than-texture", test_wider_than_texture);
  g_test_add_func ("/gl/tiling/streamed", test_streamed);
  result = g_test_run ();

  cblur_gl_shutdown ();
  gegl_exit ();
  return result;
}
