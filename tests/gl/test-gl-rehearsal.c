/* The GPU's first blur after the CPU's under auto finds its pinned memory
 * made: the CPU's bands note their input, and the start's first uses
 * rehearse its blur whole (at level 0 where the band is a dialog's
 * preview), for the Gaussian blur of float and 8-bit images, for the
 * variable blur and for a blur joined with its source.  Each case runs in a process of its own, the runtime's
 * state being the process's. */
#include "auto-test.h"

/* Under auto, the CPU's blur of an input as the op reads it has the
 * first uses rehearse the GPU's blur of that input whole: the GPU's first
 * blur of it, a live preview's first frame there after the CPU's, finds
 * its pinned memory made, and blurs as the CPU does. */
static void
first_frame_pins_nothing (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (120.0, CBLUR_MODE_AUTO, 3);
  gdouble                 diff;
  guint                   reserved;

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  gl_test_set ("CBLUR_BACKEND", NULL);
  g_assert_cmpint (auto_test_blur_as_op (CBLUR_BACKEND_CPU, kernel, 160, 96, &diff), ==,
                   CBLUR_BACKEND_CPU);
  auto_test_start ();
  cblur_gpu_wait_prepared ();
  g_assert_true (cblur_gpu_prepared ());
  reserved = cblur_gpu_pinned_reserved ();
  g_assert_cmpint (auto_test_blur_as_op (CBLUR_BACKEND_GL, kernel, 160, 96, &diff), ==,
                   CBLUR_BACKEND_GL);
  g_assert_cmpfloat (diff, <=, AUTO_TEST_BOX_TOLERANCE);
  g_assert_cmpuint (cblur_gpu_pinned_reserved (), ==, reserved);
}

/* A random width × height R'G'B'A u8 image under auto, with llvmpipe
 * taken for a GPU that finishes every blur first and the CPU slow for
 * good at blurs like `slow`, whatever the figures kept from other runs
 * say. */
static GeglBuffer *
u8_image_under_auto (const GeglRectangle *rect,
                     const CblurWork     *slow)
{
  g_autoptr (GeglBuffer) random = test_random_buffer (rect->width, rect->height, 3);
  GeglBuffer            *image = gegl_buffer_new (rect, babl_format ("R'G'B'A u8"));
  gint                   i;

  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  gl_test_set ("CBLUR_BACKEND", NULL);
  gegl_buffer_copy (random, NULL, GEGL_ABYSS_NONE, image, NULL);
  for (i = 0; i < 64; i++)
    cblur_choice_learn (slow, CBLUR_BACKEND_CPU, AUTO_TEST_SLOW_ON_CPU_MS);
  return image;
}

/* Once the GPU is prepared, image's blur at radius 30, level 0, runs on
 * it (on: bands counted since the CPU's, by where they ran) and pins no
 * memory. */
static void
assert_first_gl_blur_pins_nothing (GeglBuffer          *image,
                                   const GeglRectangle *rect,
                                   gint                *on)
{
  guint reserved;

  cblur_gpu_wait_prepared ();
  reserved = cblur_gpu_pinned_reserved ();
  g_free (test_blur (image, rect, "radius", 30.0, NULL));
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[TRUE], >, 0);
  g_assert_cmpuint (cblur_gpu_pinned_reserved (), ==, reserved);
}

/* The same of an 8-bit image through the op, whose start makes ready
 * only the 8-bit blurs' programs: they serve the rehearsal of that image,
 * read only inside it with the abyss made on the GPU, and the GPU's
 * first blur of it takes the GPU and pins nothing. */
static void
first_8bit_frame_pins_nothing (void)
{
  static const CblurWork small_u8 = { "gaussian-blur", "box", "R'G'B'A u8", 0, 1.0e5 };
  GeglRectangle          rect = { 0, 0, 320, 200 };
  g_autoptr (GeglBuffer) image = NULL;
  gint                   on[2] = { 0, 0 };

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  image = u8_image_under_auto (&rect, &small_u8);
  cblur_log_watch (auto_test_count_bands, on);
  g_free (test_blur (image, &rect, "radius", 30.0, NULL));
  g_assert_cmpint (on[TRUE], ==, 0);
  g_assert_false (cblur_gl_started_for (CBLUR_GL_BLURS_STRAIGHT));
  assert_first_gl_blur_pins_nothing (image, &rect, on);
}

/* A dialog's preview, a frame at level 1 on the CPU under auto while the
 * GPU starts, has the first uses rehearse the apply that follows it: the
 * whole image's blur at level 0, whose first on the GPU pins nothing. */
static void
preview_readies_the_apply (void)
{
  static const CblurWork preview_u8 = { "gaussian-blur", "direct", "R'G'B'A u8", 0, 1.0e5 };
  GeglRectangle          rect = { 0, 0, 640, 400 };
  g_autoptr (GeglBuffer) image = NULL;
  g_autoptr (GeglNode)   graph = gegl_node_new ();
  g_autofree guint8     *view = g_new (guint8, (gsize) rect.width * rect.height);
  GeglNode              *blur;
  gint                   on[2] = { 0, 0 };

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  image = u8_image_under_auto (&rect, &preview_u8);
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  blur = gegl_node_new_child (graph, "operation", "cblur:gaussian-blur", "radius", 30.0, NULL);
  gegl_node_link (gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", image, NULL), blur);
  cblur_log_watch (auto_test_count_bands, on);
  gegl_node_blit (blur, 0.5, GEGL_RECTANGLE (0, 0, rect.width / 2, rect.height / 2),
                  babl_format ("R'G'B'A u8"), view, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_assert_cmpint (on[FALSE], >, 0);
  g_assert_cmpint (on[TRUE], ==, 0);
  assert_first_gl_blur_pins_nothing (image, &rect, on);
}

/* The same of the variable blur: a band the CPU blurred under auto has
 * the first uses pin that band's memory, and the GPU's first blur of it
 * pins nothing. */
static void
first_variable_pins_nothing (void)
{
  gint  on[2] = { 0, 0 };
  guint reserved;

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  gl_test_set ("CBLUR_BACKEND", NULL);
  cblur_log_watch (auto_test_count_bands, on);
  auto_test_blur_variable_op ("Y' u8");
  g_assert_cmpint (on[TRUE], ==, 0);
  auto_test_start ();
  cblur_gpu_wait_prepared ();
  reserved = cblur_gpu_pinned_reserved ();
  auto_test_blur_variable_op ("Y' u8");
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[TRUE], >, 0);
  g_assert_cmpuint (cblur_gpu_pinned_reserved (), ==, reserved);
}

/* cblur:unsharp-mask of image at std-dev 10, its pixels in rect */
static void
sharpen (GeglBuffer          *image,
         const GeglRectangle *rect)
{
  g_autoptr (GeglNode) graph = gegl_node_new ();
  g_autofree guint8   *pixels = g_new (guint8, (gsize) rect->width * rect->height * 4);
  GeglNode            *sharpen = gegl_node_new_child (graph, "operation", "cblur:unsharp-mask",
                                                      "std-dev", 10.0, "scale", 1.5, NULL);

  gegl_node_link (gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", image, NULL), sharpen);
  gegl_node_blit (sharpen, 1.0, rect, babl_format ("R'G'B'A u8"), pixels,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
}

/* The unsharp mask's join of an 8-bit image under auto: the CPU joins
 * while the GPU starts for the 8-bit blurs and combine.comp, whose first
 * uses dispatch combine.comp and rehearse the join the CPU did; the
 * GPU's first join then compiles nothing, dispatches no program for the
 * first time on a user's behalf and pins nothing. */
static void
first_join_compiles_nothing (void)
{
  static const CblurWork slow_unsharp = { "unsharp-mask", "box", "R'G'B'A u8", 0, 1.0e5 };
  GeglRectangle          rect = { 0, 0, 320, 200 };
  g_autoptr (GeglBuffer) image = NULL;
  gint                   on[2] = { 0, 0 };
  guint                  compiles, first_uses, reserved;

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  image = u8_image_under_auto (&rect, &slow_unsharp);
  cblur_log_watch (auto_test_count_bands, on);
  sharpen (image, &rect);
  g_assert_cmpint (on[FALSE], >, 0);
  g_assert_cmpint (on[TRUE], ==, 0);
  g_assert_true (cblur_gl_started_for (CBLUR_GL_BLURS_ENCODED | CBLUR_GL_BLURS_COMBINE));
  g_assert_false (cblur_gl_started_for (CBLUR_GL_BLURS_VARIABLE));
  cblur_gpu_wait_prepared ();
  compiles = cblur_gpu_caller_compiles ();
  first_uses = cblur_gpu_caller_first_uses ();
  reserved = cblur_gpu_pinned_reserved ();
  sharpen (image, &rect);
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[TRUE], >, 0);
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, compiles);
  g_assert_cmpuint (cblur_gpu_caller_first_uses (), ==, first_uses);
  g_assert_cmpuint (cblur_gpu_pinned_reserved (), ==, reserved);
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl/rehearsal/first-frame-pins-nothing", first_frame_pins_nothing);
  g_test_add_func ("/gl/rehearsal/first-8bit-frame-pins-nothing", first_8bit_frame_pins_nothing);
  g_test_add_func ("/gl/rehearsal/first-variable-pins-nothing", first_variable_pins_nothing);
  g_test_add_func ("/gl/rehearsal/preview-readies-the-apply", preview_readies_the_apply);
  g_test_add_func ("/gl/rehearsal/first-join-compiles-nothing", first_join_compiles_nothing);
  return gl_test_run ();
}
