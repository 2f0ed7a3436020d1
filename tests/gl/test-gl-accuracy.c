/* The GL backend against the CPU backend, which defines the blur. */
#include "gl-test.h"

#define DIRECT_TOLERANCE 1e-5
#define BOX_TOLERANCE    1e-4

/* output rectangles with origins on both sides of 0 */
static const GeglRectangle regions[] = {
  {   0,   0, 61, 47 },
  { -37,  23, 97, 31 },
  { 301, -90, 40, 66 },
};

static void
test_available (void)
{
  g_autoptr (GError) error = NULL;
  gboolean           is_software = FALSE;
  gboolean           ok = cblur_gl_available (&is_software, &error);

  /* no context is a failure here, never a skip */
  g_assert_no_error (error);
  g_assert_true (ok);
  g_test_message ("software renderer: %s", is_software ? "yes" : "no");
}

static void
check_mode (CblurMode     mode,
            const gdouble radii[],
            gsize         n_radii,
            gdouble       tolerance)
{
  gsize r, i;
  gint  iterations;

  for (r = 0; r < n_radii; r++)
    for (iterations = CBLUR_ITERATIONS_MIN; iterations <= CBLUR_ITERATIONS_MAX; iterations++)
      {
        g_autoptr (CblurKernel) kernel = cblur_kernel_new (radii[r], mode, iterations);

        /* iterations shape only the box */
        if (mode == CBLUR_MODE_DIRECT && iterations > CBLUR_ITERATIONS_MIN)
          break;

        for (i = 0; i < G_N_ELEMENTS (regions); i++)
          {
            const GeglRectangle *rect = &regions[i];
            CblurGlReport        report;
            gdouble              diff;

            diff = gl_test_against_cpu (kernel, rect->x, rect->y, rect->width,
                                        rect->height, 17 * r + i, &report);
            g_test_message ("%s radius %g (%d passes) at %d,%d: max |GL - CPU| %g",
                            cblur_mode_name (mode), radii[r], kernel->axes[CBLUR_AXIS_X].iterations,
                            rect->x, rect->y, diff);
            g_assert_cmpfloat (diff, <=, tolerance);
          }
      }
}

static void
test_direct (void)
{
  static const gdouble radii[] = { 0.5, 1.0, 2.5, 3.0, 7.3, 15.0, 40.0, 150.0 };

  check_mode (CBLUR_MODE_DIRECT, radii, G_N_ELEMENTS (radii), DIRECT_TOLERANCE);
}

static const gdouble box_radii[] = { 0.5, 2.0, 7.3, 15.0, 40.0, 150.0 };

/* every pass of an axis in shared memory, summed in another order */
static void
test_box (void)
{
  check_mode (CBLUR_MODE_BOX, box_radii, G_N_ELEMENTS (box_radii), BOX_TOLERANCE);
}

/* Without the shared memory for that, the passes go through textures and
 * add in the CPU's order: the same bits. */
static void
test_box_two_shaders (void)
{
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", "1");
  check_mode (CBLUR_MODE_BOX, box_radii, G_N_ELEMENTS (box_radii), 0.0);
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", NULL);
}

/* Shared memory for no segment of four channels but one of two: the fused
 * box goes a pair of channels at a time, across several segments of a line
 * in the large image. */
#define PAIRS_ONLY_SHARED_MEMORY "16384"

static void
test_box_channel_pairs (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (150.0, CBLUR_MODE_BOX, 4);
  CblurGlReport           report;

  gl_test_set ("CBLUR_GL_SHARED_MEMORY", PAIRS_ONLY_SHARED_MEMORY);
  check_mode (CBLUR_MODE_BOX, box_radii, G_N_ELEMENTS (box_radii), BOX_TOLERANCE);
  g_assert_cmpfloat (gl_test_against_cpu (kernel, -9, 14, 1000, 900, 8, &report),
                     <=, BOX_TOLERANCE);
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", NULL);
}

/* a window wider than the shared memory cache is summed a part at a time */
static void
test_direct_wide_window (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (900.0, CBLUR_MODE_DIRECT, 3);
  CblurGlReport           report;

  g_assert_cmpfloat (gl_test_against_cpu (kernel, -5, 3, 29, 6, 5, &report),
                     <=, DIRECT_TOLERANCE);
}

/* a box block longer than the shader's 256-pixel scan groups */
static void
test_box_long_blocks (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (800.0, CBLUR_MODE_BOX, 3);
  CblurGlReport           report;

  g_assert_cmpint (kernel->axes[CBLUR_AXIS_X].box_block, >, 256);
  g_assert_cmpfloat (gl_test_against_cpu (kernel, 13, -400, 70, 9, 6, &report),
                     <=, BOX_TOLERANCE);
}

/* A radius of its own along each axis, either the longer, one of them 0,
 * and under auto one axis direct and the other box, whole and in tiles:
 * direct gives the CPU's bits, and so does the two-shader box (with too
 * little shared memory for segments), which then runs beside the other
 * axis's segments. */
static const struct
{
  gdouble   x;
  gdouble   y;
  CblurMode mode;
} axes_cases[] = {
  { 3.0, 40.0, CBLUR_MODE_DIRECT }, { 40.0, 3.0, CBLUR_MODE_DIRECT },
  { 0.0, 9.5, CBLUR_MODE_DIRECT },  { 9.5, 0.0, CBLUR_MODE_DIRECT },
  { 30.0, 120.0, CBLUR_MODE_BOX },  { 120.0, 30.0, CBLUR_MODE_BOX },
  { 0.0, 60.0, CBLUR_MODE_BOX },    { 60.0, 0.0, CBLUR_MODE_BOX },
  { 10.0, 90.0, CBLUR_MODE_AUTO },  { 90.0, 10.0, CBLUR_MODE_AUTO },
};

static void
check_axes_case (gsize                c,
                 const GeglRectangle *rect,
                 guint32              seed,
                 gboolean             two_shaders,
                 gint                 min_tiles)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new_xy (axes_cases[c].x, axes_cases[c].y,
                                                        axes_cases[c].mode, 4);
  gboolean                box = kernel->axes[CBLUR_AXIS_X].mode == CBLUR_MODE_BOX ||
                                kernel->axes[CBLUR_AXIS_Y].mode == CBLUR_MODE_BOX;
  CblurGlReport           report;
  gdouble                 diff = gl_test_against_cpu (kernel, rect->x, rect->y, rect->width,
                                                      rect->height, seed, &report);

  g_test_message ("%s radius %g × %g at %d,%d in %d tiles: max |GL - CPU| %g",
                  cblur_mode_name (axes_cases[c].mode), axes_cases[c].x, axes_cases[c].y,
                  rect->x, rect->y, report.tiles, diff);
  g_assert_cmpfloat (diff, <=, box && !two_shaders ? BOX_TOLERANCE : 0.0);
  g_assert_cmpint (report.tiles, >=, min_tiles);
}

/* the cases up to max_radius */
static void
check_axes (gboolean two_shaders,
            gint     min_tiles,
            gdouble  max_radius)
{
  gsize c, i;

  for (c = 0; c < G_N_ELEMENTS (axes_cases); c++)
    {
      if (MAX (axes_cases[c].x, axes_cases[c].y) > max_radius)
        continue;
      for (i = 0; i < G_N_ELEMENTS (regions); i++)
        check_axes_case (c, &regions[i], 31 * c + i, two_shaders, min_tiles);
    }
}

static void
test_axes (void)
{
  check_axes (FALSE, 1, G_MAXDOUBLE);
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", "1");
  check_axes (TRUE, 1, G_MAXDOUBLE);
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", NULL);
  /* in tiles, each with the larger axis's halo: tiles of 24 at long
   * reaches are mostly halo, and slow under llvmpipe */
  gl_test_set ("CBLUR_GL_MAX_TILE", "24");
  check_axes (FALSE, 2, 60.0);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
}

/* A blur that changes nothing is the backend's to decide: a copy, the
 * same bits as the CPU's, without a GL failure. */
static void
test_identity (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (0.0, CBLUR_MODE_DIRECT, 3);
  CblurImage             *src = gl_test_random_input (kernel, 4, 4, 33, 21, 9);
  CblurImage             *on_backend = gl_test_blank_image (4, 4, 33, 21);
  CblurImage             *on_cpu = gl_test_blank_image (4, 4, 33, 21);
  CblurRunReport          report;

  cblur_backend_blur (NULL, CBLUR_BACKEND_GL, kernel, src, on_backend, NULL, &report);
  cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);
  g_assert_null (report.gl_failure);
  g_assert_cmpfloat (gl_test_max_diff (on_backend, on_cpu), ==, 0.0);
  cblur_run_report_clear (&report);
  gl_test_image_free (src);
  gl_test_image_free (on_backend);
  gl_test_image_free (on_cpu);
}

typedef struct
{
  CblurMode mode;
  gdouble   radius;
  gdouble   diff;
} Job;

static gpointer
run_job (gpointer data)
{
  Job                    *job = data;
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (job->radius, job->mode, 4);
  CblurGlReport           report;
  gint                    round;

  for (round = 0; round < 3; round++)
    job->diff = MAX (job->diff, gl_test_against_cpu (kernel, round, -round, 83, 57,
                                                     round, &report));
  return NULL;
}

/* GEGL calls from several threads; the context is shared between them */
static void
test_threads (void)
{
  Job      jobs[] = {
    { CBLUR_MODE_DIRECT, 5.0 }, { CBLUR_MODE_BOX, 12.0 },
    { CBLUR_MODE_DIRECT, 21.5 }, { CBLUR_MODE_BOX, 3.0 },
  };
  GThread *threads[G_N_ELEMENTS (jobs)];
  gsize    i;

  for (i = 0; i < G_N_ELEMENTS (jobs); i++)
    threads[i] = g_thread_new ("gl-test", run_job, &jobs[i]);
  for (i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_thread_join (threads[i]);
      g_assert_cmpfloat (jobs[i].diff, <=,
                         jobs[i].mode == CBLUR_MODE_BOX ? BOX_TOLERANCE : DIRECT_TOLERANCE);
    }
}

/* auto picks by the radius alone, so GL and the CPU blur alike on both
 * sides of where it changes modes: direct to the bit, box within its
 * rounding */
static void
test_auto_same_on_both (void)
{
  const gdouble          radii[] = { CBLUR_AUTO_BOX_ABOVE - 1.0, CBLUR_AUTO_BOX_ABOVE,
                                     CBLUR_AUTO_BOX_ABOVE + 0.5, CBLUR_AUTO_BOX_ABOVE + 1.0 };
  g_autoptr (GeglBuffer) input = test_random_buffer (150, 110, 3);
  const GeglRectangle   *extent = gegl_buffer_get_extent (input);
  gsize                  n_floats = (gsize) extent->width * extent->height * 4;
  gsize                  r;

  g_assert_cmpint (cblur_kernel_resolve_mode (radii[0], CBLUR_MODE_AUTO), ==, CBLUR_MODE_DIRECT);
  g_assert_cmpint (cblur_kernel_resolve_mode (radii[G_N_ELEMENTS (radii) - 1], CBLUR_MODE_AUTO),
                   ==, CBLUR_MODE_BOX);
  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    {
      CblurMode          mode = cblur_kernel_resolve_mode (radii[r], CBLUR_MODE_AUTO);
      g_autofree gfloat *on_gl = NULL;
      g_autofree gfloat *on_cpu = NULL;

      gl_test_set ("CBLUR_BACKEND", "gl");
      on_gl = test_blur (input, extent, "radius", radii[r], NULL);
      test_assert_ran_on_backend ();
      gl_test_set ("CBLUR_BACKEND", "cpu");
      on_cpu = test_blur (input, extent, "radius", radii[r], NULL);
      test_assert_ran_on_backend ();
      gl_test_set ("CBLUR_BACKEND", NULL);

      g_test_message ("auto radius %g (%s): max |GL - CPU| %g", radii[r],
                      cblur_mode_name (mode), test_max_abs_diff (on_gl, on_cpu, n_floats));
      if (mode == CBLUR_MODE_DIRECT)
        g_assert_cmpmem (on_gl, n_floats * sizeof (gfloat), on_cpu, n_floats * sizeof (gfloat));
      else
        g_assert_cmpfloat (test_max_abs_diff (on_gl, on_cpu, n_floats), <=, BOX_TOLERANCE);
    }
}

/* rect of input at a mipmap level, blurred on backend into `out`, in the
 * input's format */
static void
blit_at_level (GeglBuffer          *input,
               const GeglRectangle *rect,
               gint                 level,
               CblurMode            mode,
               gdouble              radius,
               const gchar         *backend,
               guint8              *out)
{
  GeglNode *graph = gegl_node_new ();
  GeglNode *blur;

  gl_test_set ("CBLUR_BACKEND", backend);
  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", radius, "mode", mode, NULL);
  gegl_node_blit (blur, 1.0 / (1 << level), rect, gegl_buffer_get_format (input), out,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  test_assert_ran_on_backend ();
  gl_test_set ("CBLUR_BACKEND", NULL);
}

/* GIMP's previews: a photograph in R'G'B'A u8 blurred at mipmap levels 1
 * to 3 (GEGL's scales 1/2 to 1/8) into its own format, whole and in the
 * top left tile, edges included: GL gives the CPU's bytes in direct mode
 * and differs by a step at most in box mode, whose sums round otherwise. */
static void
test_mipmap_levels_same_on_both (void)
{
  const Babl            *format = babl_format ("R'G'B'A u8");
  g_autoptr (GeglBuffer) photo = test_load_photo ("coffee.png");
  const GeglRectangle   *extent = gegl_buffer_get_extent (photo);
  g_autoptr (GeglBuffer) input = gegl_buffer_new (extent, format);
  gint                   level, m, r;

  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, input, NULL);
  /* as GIMP renders its previews: the op itself at the level, rather than
   * at level 0 and scaled down after */
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  for (level = 1; level <= 3; level++)
    for (m = 0; m < 2; m++)
      for (r = 0; r < 2; r++)
        {
          CblurMode          mode = m == 0 ? CBLUR_MODE_DIRECT : CBLUR_MODE_BOX;
          GeglRectangle      whole = { 0, 0, extent->width >> level, extent->height >> level };
          GeglRectangle      corner = { 0, 0, MIN (whole.width, 128), MIN (whole.height, 64) };
          GeglRectangle     *rect = r == 0 ? &whole : &corner;
          gsize              n = (gsize) rect->width * rect->height * 4;
          g_autofree guint8 *on_gl = g_malloc (n);
          g_autofree guint8 *on_cpu = g_malloc (n);
          gsize              i, n_off = 0;
          gint               worst = 0;

          if (rect == &corner && gegl_rectangle_equal (&corner, &whole))
            continue;
          blit_at_level (input, rect, level, mode, 12.0, "gl", on_gl);
          blit_at_level (input, rect, level, mode, 12.0, "cpu", on_cpu);
          for (i = 0; i < n; i++)
            {
              n_off += on_gl[i] != on_cpu[i];
              worst = MAX (worst, ABS (on_gl[i] - on_cpu[i]));
            }
          g_test_message ("level %d %s %dx%d: %zu of %zu values differ, by up to %d", level,
                          cblur_mode_name (mode), rect->width, rect->height, n_off, n, worst);
          g_assert_cmpint (worst, <=, mode == CBLUR_MODE_DIRECT ? 0 : 1);
        }
  g_object_set (gegl_config (), "mipmap-rendering", FALSE, NULL);
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl/available", test_available);
  g_test_add_func ("/gl/direct", test_direct);
  g_test_add_func ("/gl/box", test_box);
  g_test_add_func ("/gl/box-two-shaders", test_box_two_shaders);
  g_test_add_func ("/gl/box-channel-pairs", test_box_channel_pairs);
  g_test_add_func ("/gl/direct-wide-window", test_direct_wide_window);
  g_test_add_func ("/gl/box-long-blocks", test_box_long_blocks);
  g_test_add_func ("/gl/axes", test_axes);
  g_test_add_func ("/gl/identity", test_identity);
  g_test_add_func ("/gl/threads", test_threads);
  g_test_add_func ("/gl/auto-same-on-both", test_auto_same_on_both);
  g_test_add_func ("/gl/mipmap-levels-same-on-both", test_mipmap_levels_same_on_both);
  return gl_test_run ();
}
