/* The GPU's start-up off the render path and compiles off the render
 * thread: under auto the choice that starts the context comes back at
 * once, a wait for a start under way ends within its bound, a
 * process that exits meanwhile ends in time, the choice takes the GPU
 * only once its programs are linked and dispatched once, and once the
 * runtime's thread has compiled what the warm-up queued and used it, a
 * sweep over every radius from two threads compiles nothing for them,
 * dispatches no program for the first time from any thread (a driver
 * may finish a program at its first dispatch from each) and blurs on the
 * GPU as the CPU does.  A program a blur would do better with compiles
 * only once the tasks pause, and a task takes it only once the runtime's
 * thread has dispatched it.
 * Each case runs in a process of its own, the runtime's state being the
 * process's. */
#include "gl-test.h"

#include "cblur-choice-internal.h"
#include "cblur-log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* a child that has not finished by then has hung */
#define CHILD_TIMEOUT_US (60 * G_USEC_PER_SEC)

/* CBLUR_GL_FAULT=slow adds 3 s: a blur that waited would take longer */
#define NO_WAIT_US (G_USEC_PER_SEC)

#define BOX_TOLERANCE 1e-4

/* a host's frames, as often as the choice is asked */
#define POLL_US 2000

/* past the reach the fused box's longest segment at 16 KiB holds: the
 * two-shader box too */
#define SWEEP_RADIUS_MAX 600.0

/* kernel's blur of a random width × height image through backend,
 * streamed as the op runs it; where it ran, and its largest difference
 * from the CPU's blur */
static CblurBackendKind
blur_as_op (CblurBackendKind   backend,
            const CblurKernel *kernel,
            gint               width,
            gint               height,
            gdouble           *diff)
{
  CblurImage    *image = gl_test_random_image (0, 0, width, height, 7);
  CblurImage    *on_gl = gl_test_blank_image (0, 0, width, height);
  CblurImage    *on_cpu = gl_test_blank_image (0, 0, width, height);
  CblurImage     halo = { NULL, -kernel->reach, -kernel->reach, width + 2 * kernel->reach,
                          height + 2 * kernel->reach, 0 };
  GlTestGegl     gegl = { image, on_gl, 0 };
  CblurBandIo    band_io = gl_test_stream (&gegl);
  CblurRunReport report;

  band_io.inside = (GeglRectangle) { 0, 0, width, height };
  band_io.abyss = GEGL_ABYSS_CLAMP;
  gl_test_blur_streamed (backend, kernel, &band_io, &report);
  g_assert_null (report.gl_failure);
  cblur_cpu_blur (kernel, &halo, image, GEGL_ABYSS_CLAMP, FALSE, on_cpu);
  *diff = gl_test_max_diff (on_gl, on_cpu);
  cblur_run_report_clear (&report);
  gl_test_image_free (image);
  gl_test_image_free (on_gl);
  gl_test_image_free (on_cpu);
  return report.ran_on;
}

/* a blur the CPU was measured to take longer over than any GPU's start */
static const CblurWork slow_on_cpu = { "test", "box", "RGBA float", 0, 4.0e6 };
#define SLOW_ON_CPU_MS 1.0e6

/* the backend auto chooses for slow_on_cpu, and why */
static CblurBackendKind
choose (CblurPrediction *prediction)
{
  return cblur_choice_make (&slow_on_cpu, prediction);
}

/* Under auto, with llvmpipe taken for a GPU that finishes every blur
 * first (CBLUR_GL_NO_WAIT), a blur that the CPU takes longer over than the
 * GPU's start starts the context in the background, which
 * CBLUR_GL_FAULT=slow makes slow, and the CPU blurs it meanwhile. */
static void
start_as_auto (void)
{
  CblurPrediction prediction;

  gl_test_set ("CBLUR_BACKEND", NULL);
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  cblur_choice_learn (&slow_on_cpu, CBLUR_BACKEND_CPU, SLOW_ON_CPU_MS);
  g_assert_cmpint (choose (&prediction), ==, CBLUR_BACKEND_CPU);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_NOW);
  g_assert_nonnull (prediction.why_cpu);
}

/* A drag over the whole range of radii at a level, from direct into the
 * fused box and the two-shader box beyond: every frame on the GPU, as the
 * CPU blurs it. */
static gpointer
sweep (gpointer data)
{
  static const gint sizes[][2] = { { 160, 96 }, { 80, 48 } };
  gint              level = GPOINTER_TO_INT (data);
  gdouble           diff;
  gdouble           radius;

  for (radius = 0.5; radius <= SWEEP_RADIUS_MAX; radius *= 1.25)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (radius / (1 << level),
                                                         CBLUR_MODE_AUTO, 3);

      if (cblur_kernel_is_identity (kernel))
        continue;
      g_assert_cmpint (blur_as_op (CBLUR_BACKEND_GL, kernel, sizes[level][0], sizes[level][1],
                                   &diff), ==, CBLUR_BACKEND_GL);
      g_assert_cmpfloat (diff, <=, BOX_TOLERANCE);
    }
  return NULL;
}

/* The context started as auto starts it, whose warm-up queues the
 * programs that serve every radius for the runtime's thread and whose
 * first uses dispatch them there; once that is done, a drag at level 0
 * on this thread and one at level 1 on another, as GEGL's threads take
 * turns, compile nothing for them and dispatch no program from a thread
 * for the first time: all their GL work runs on the runtime's thread,
 * after its first uses. */
static void
sweep_compiles_nothing (void)
{
  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  /* fewer lengths: this machine's GPU may be a slow compiler */
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", "16384");
  start_as_auto ();
  cblur_gpu_wait_prepared ();
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_READY);
  g_assert_true (cblur_gpu_prepared ());
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  g_assert_cmpuint (cblur_gpu_caller_first_uses (), ==, 0);

  sweep (GINT_TO_POINTER (0));
  g_thread_join (g_thread_new ("other", sweep, GINT_TO_POINTER (1)));
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  g_assert_cmpuint (cblur_gpu_caller_first_uses (), ==, 0);
}

/* Under auto the choice, which sizes the op's regions, takes the GPU only
 * once the programs that serve every radius are linked: while the
 * runtime's thread makes the context and compiles them, the CPU.  From
 * then on every blur, box and direct, runs on the GPU as the CPU blurs,
 * and nothing is compiled here. */
static void
choice_waits_for_programs (void)
{
  static const gdouble radii[] = { 400.0, 2.0, 120.0, 6.0, 40.0, 1.0 };
  CblurPrediction      prediction;
  gdouble              diff;
  guint                i;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  /* three fused lengths, of which the blurs take the longest */
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", "32768");
  start_as_auto ();
  while (cblur_gpu_state (FALSE, NULL, NULL) == CBLUR_GPU_STARTING)
    {
      g_assert_cmpint (choose (&prediction), ==, CBLUR_BACKEND_CPU);
      g_usleep (POLL_US);
    }
  while (!cblur_gpu_prepared ())
    {
      if (choose (&prediction) == CBLUR_BACKEND_GL)
        g_assert_true (cblur_gpu_prepared ());
      g_usleep (POLL_US);
    }
  g_assert_cmpint (choose (&prediction), ==, CBLUR_BACKEND_GL);

  for (i = 0; i < G_N_ELEMENTS (radii); i++)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (radii[i], CBLUR_MODE_AUTO, 3);

      g_assert_cmpint (blur_as_op (CBLUR_BACKEND_GL, kernel, 96, 64, &diff), ==, CBLUR_BACKEND_GL);
      g_assert_cmpfloat (diff, <=, BOX_TOLERANCE);
    }
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  g_assert_cmpuint (cblur_gpu_caller_first_uses (), ==, 0);
}

static void
count_bands (const CblurRunReport *report,
                      const GeglRectangle  *band,
                      gpointer              user_data)
{
  gint *on = user_data;

  g_atomic_int_inc (&on[report->ran_on == CBLUR_BACKEND_GL]);
}

/* a ramp of blur across a random width × height image through the
 * variable blur's op, the mask stored in mask_format: its pixels */
static gfloat *
blur_variable_sized (const gchar *mask_format,
                     gint         width,
                     gint         height)
{
  g_autoptr (GeglBuffer) image = test_random_buffer (width, height, 11);
  g_autoptr (GeglBuffer) mask = gegl_buffer_new (GEGL_RECTANGLE (0, 0, width, height),
                                                 babl_format (mask_format));
  g_autofree gfloat     *ramp = g_new (gfloat, width * height);
  gfloat                *out = g_new (gfloat, width * height * 4);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *source, *masks, *blur;
  gint                   i;

  for (i = 0; i < width * height; i++)
    ramp[i] = (i % width) / (gfloat) (width - 1);
  gegl_buffer_set (mask, NULL, 0, babl_format ("Y float"), ramp, GEGL_AUTO_ROWSTRIDE);
  source = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer", image,
                                NULL);
  masks = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer", mask,
                               NULL);
  blur = gegl_node_new_child (graph, "operation", "cblur:variable-blur", "radius", 12.0,
                              NULL);
  gegl_node_link (source, blur);
  gegl_node_connect_to (masks, "output", blur, "aux");
  gegl_node_blit (blur, 1.0, GEGL_RECTANGLE (0, 0, width, height),
                  babl_format ("RaGaBaA float"), out, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return out;
}

static void
blur_variable_op (const gchar *mask_format)
{
  g_free (blur_variable_sized (mask_format, 96, 64));
}

/* The warm-up queues the variable blur's programs too: once the GPU is
 * prepared, its op blurs on the GPU, an 8-bit mask's codes and a float
 * mask's boxes, and compiles nothing on this thread. */
static void
variable_compiles_nothing (void)
{
  gint on[2] = { 0, 0 };

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  start_as_auto ();
  cblur_gpu_wait_prepared ();
  cblur_log_watch (count_bands, on);
  blur_variable_op ("Y' u8");
  blur_variable_op ("Y float");
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[TRUE], >, 0);
  g_assert_cmpint (on[FALSE], ==, 0);
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
}

/* A start for an 8-bit Gaussian blur compiles only what such blurs take:
 * for a variable blur after it the GPU is as good as starting, its
 * programs queued then, and its bands go to the CPU (or, once they are
 * linked, the GPU), not waiting for a compile on this thread; once a
 * pause has compiled them, the GPU takes every band, compiling nothing
 * here, and blurs as the CPU did. */
static void
start_makes_its_blurs_ready (void)
{
  static const CblurWork gaussian_u8 = { "gaussian-blur", "box", "R'G'B'A u8", 0, 4.0e6 };
  CblurPrediction        prediction;
  g_autofree gfloat     *first = NULL;
  g_autofree gfloat     *later = NULL;
  gint                   on[2] = { 0, 0 };
  gint                   i;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  gl_test_set ("CBLUR_BACKEND", NULL);
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  cblur_choice_learn (&gaussian_u8, CBLUR_BACKEND_CPU, SLOW_ON_CPU_MS);
  g_assert_cmpint (cblur_choice_make (&gaussian_u8, &prediction), ==, CBLUR_BACKEND_CPU);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_NOW);
  cblur_gpu_wait_prepared ();
  g_assert_true (cblur_gpu_prepared ());

  g_assert_false (cblur_gl_started_for (CBLUR_GL_BLURS_VARIABLE));
  first = blur_variable_sized ("Y' u8", 96, 64);
  g_assert_true (cblur_gl_started_for (CBLUR_GL_BLURS_VARIABLE));
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  cblur_gpu_wait_prepared ();
  cblur_log_watch (count_bands, on);
  later = blur_variable_sized ("Y' u8", 96, 64);
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[FALSE], ==, 0);
  g_assert_cmpint (on[TRUE], >, 0);
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  for (i = 0; i < 96 * 64 * 4; i++)
    g_assert_cmpfloat (fabsf (first[i] - later[i]), <=, BOX_TOLERANCE);
}

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

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  gl_test_set ("CBLUR_BACKEND", NULL);
  g_assert_cmpint (blur_as_op (CBLUR_BACKEND_CPU, kernel, 160, 96, &diff), ==,
                   CBLUR_BACKEND_CPU);
  start_as_auto ();
  cblur_gpu_wait_prepared ();
  g_assert_true (cblur_gpu_prepared ());
  reserved = cblur_gpu_pinned_reserved ();
  g_assert_cmpint (blur_as_op (CBLUR_BACKEND_GL, kernel, 160, 96, &diff), ==,
                   CBLUR_BACKEND_GL);
  g_assert_cmpfloat (diff, <=, BOX_TOLERANCE);
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
    cblur_choice_learn (slow, CBLUR_BACKEND_CPU, SLOW_ON_CPU_MS);
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

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  image = u8_image_under_auto (&rect, &small_u8);
  cblur_log_watch (count_bands, on);
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

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  image = u8_image_under_auto (&rect, &preview_u8);
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  blur = gegl_node_new_child (graph, "operation", "cblur:gaussian-blur", "radius", 30.0, NULL);
  gegl_node_link (gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", image, NULL), blur);
  cblur_log_watch (count_bands, on);
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

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  gl_test_set ("CBLUR_BACKEND", NULL);
  cblur_log_watch (count_bands, on);
  blur_variable_op ("Y' u8");
  g_assert_cmpint (on[TRUE], ==, 0);
  start_as_auto ();
  cblur_gpu_wait_prepared ();
  reserved = cblur_gpu_pinned_reserved ();
  blur_variable_op ("Y' u8");
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[TRUE], >, 0);
  g_assert_cmpuint (cblur_gpu_pinned_reserved (), ==, reserved);
}

/* tall enough for several bands of CBLUR_BAND_PIXELS */
#define HAND_OVER_WIDTH  64
#define HAND_OVER_HEIGHT 600

/* One step of an 8-bit image: a band the GPU takes over blurs as the CPU
 * would have, to within that. */
#define ONE_STEP (1.0 / 255)

/* counts each band by where it ran, and once the first is done, lets the
 * GPU come: the rest of the region is handed over */
static void
hand_over_after_first (const CblurRunReport *report,
                       const GeglRectangle  *band,
                       gpointer              user_data)
{
  gint *on = user_data;

  g_atomic_int_inc (&on[report->ran_on == CBLUR_BACKEND_GL]);
  cblur_gpu_wait_prepared ();
}

static gfloat *
render (gconstpointer op)
{
  g_autoptr (GeglBuffer) image = NULL;

  if (g_strcmp0 (op, "variable") == 0)
    return blur_variable_sized ("Y' u8", HAND_OVER_WIDTH, HAND_OVER_HEIGHT);
  image = test_random_buffer (HAND_OVER_WIDTH, HAND_OVER_HEIGHT, 5);
  return test_blur (image, GEGL_RECTANGLE (0, 0, HAND_OVER_WIDTH, HAND_OVER_HEIGHT),
                    "radius", 12.0, NULL);
}

/* A region whose first band the CPU blurs while the GPU starts hands its
 * remaining bands to the GPU once it is ready, and comes out as a fresh
 * render on the CPU alone and on the GPU alone do, to within a step of
 * 8 bits: for each op. */
static void
hand_over_mid_region (gconstpointer op)
{
  gsize              n = HAND_OVER_WIDTH * HAND_OVER_HEIGHT * 4;
  gint               on[2] = { 0, 0 };
  g_autofree gfloat *handed = NULL;
  g_autofree gfloat *on_cpu = NULL;
  g_autofree gfloat *on_gl = NULL;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  gl_test_set ("CBLUR_BAND_PIXELS", "8192");
  gl_test_set ("CBLUR_GL_FAULT", "slow");
  start_as_auto ();
  cblur_log_watch (hand_over_after_first, on);
  handed = render (op);
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[FALSE], ==, 1);
  g_assert_cmpint (on[TRUE], >=, 2);

  gl_test_set ("CBLUR_BACKEND", "cpu");
  on_cpu = render (op);
  gl_test_set ("CBLUR_BACKEND", "gl");
  on_gl = render (op);
  g_assert_cmpfloat (test_max_abs_diff (handed, on_cpu, n), <=, ONE_STEP);
  g_assert_cmpfloat (test_max_abs_diff (handed, on_gl, n), <=, ONE_STEP);
}

/* The choice that starts the context comes back at once, with the CPU,
 * whose blur is the CPU's; the context comes in the background. */
static void
auto_does_not_wait (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (6.0, CBLUR_MODE_AUTO, 3);
  CblurImage             *src = gl_test_random_input (kernel, 0, 0, 64, 48, 4);
  CblurImage             *dst = gl_test_blank_image (0, 0, 64, 48);
  CblurImage             *expected = gl_test_blank_image (0, 0, 64, 48);
  CblurRunReport          report;
  gint64                  started;
  CblurBackendKind        chosen;
  CblurPrediction         prediction;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  gl_test_set ("CBLUR_GL_FAULT", "slow");
  start_as_auto ();
  g_assert_false (cblur_gpu_holds_context ());

  started = g_get_monotonic_time ();
  chosen = choose (&prediction);
  cblur_backend_blur (NULL, chosen, kernel, src, dst, NULL, &report);
  g_assert_cmpint (g_get_monotonic_time () - started, <, NO_WAIT_US);
  g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_CPU);
  g_assert_nonnull (prediction.why_cpu);
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_STARTING);
  cblur_run_report_clear (&report);
  cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, FALSE, expected);
  g_assert_cmpfloat (gl_test_max_diff (dst, expected), ==, 0.0);

  cblur_gpu_wait_prepared ();
  g_assert_true (cblur_gpu_holds_context ());
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_READY);
  gl_test_image_free (src);
  gl_test_image_free (dst);
  gl_test_image_free (expected);
}

/* The wait for a start under way (the rule's, on few cores) ends at its
 * bound while the start is slow, and once the GPU is ready otherwise,
 * its programs linked and used: never before either. */
static void
wait_for_start (void)
{
  gint64 started;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  gl_test_set ("CBLUR_GL_FAULT", "slow");
  start_as_auto ();
  started = g_get_monotonic_time ();
  g_assert_false (cblur_choice_wait_ready (200));
  g_assert_cmpint (g_get_monotonic_time () - started, >=, 200 * 1000);
  g_assert_cmpint (g_get_monotonic_time () - started, <, NO_WAIT_US);
  g_assert_true (cblur_choice_wait_ready (CHILD_TIMEOUT_US / 1000.0 - 10000));
  g_assert_true (cblur_gpu_prepared ());
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_READY);
}

/* exit(), after gegl_exit() or not, while the runtime's thread makes the
 * context, slowly or as fast as the driver goes: the process ends, in
 * time and without a signal */
static void
exit_while_starting (gconstpointer data)
{
  const gchar *how = data;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  if (strstr (how, "slow") != NULL)
    gl_test_set ("CBLUR_GL_FAULT", "slow");
  start_as_auto ();
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_STARTING);
  if (strstr (how, "gegl-exit") != NULL)
    gegl_exit ();
  exit (0);
}

/* longer than a child may take: a start after it has not begun */
#define LONG_PAUSE_US (10 * CHILD_TIMEOUT_US)

/* A start after a pause (a region's, under auto) makes no context during
 * it, and an exit then ends at once; a choice meanwhile begins it, and
 * the GPU becomes ready. */
static void
start_after_a_pause (gconstpointer data)
{
  CblurPrediction prediction;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  gl_test_set ("CBLUR_BACKEND", NULL);
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  cblur_gl_start (CBLUR_GL_BLURS_ALL, LONG_PAUSE_US);
  g_usleep (NO_WAIT_US / 4);
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_STARTING);
  g_assert_false (cblur_gpu_holds_context ());
  if (g_strcmp0 (data, "exit") == 0)
    exit (0);
  cblur_choice_learn (&slow_on_cpu, CBLUR_BACKEND_CPU, SLOW_ON_CPU_MS);
  choose (&prediction);
  cblur_gpu_wait_prepared ();
  g_assert_true (cblur_gpu_holds_context ());
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_READY);
}

/* a program for the upgrade test: it does nothing, so that any dispatch
 * of it is safe */
static const gchar empty_shader[] =
  "#version 430\n"
  "layout (local_size_x = 1) in;\n"
  "void main () { }\n";

static gint upgrade_uses;

/* the upgrades' first use: the program is there for it, and dispatched */
static void
use_upgraded (CblurGpu *gpu)
{
  CblurGpuProgram *program = cblur_gpu_program_linked (gpu, "empty", empty_shader, "", "");

  if (program == NULL)
    return;
  cblur_gpu_use (program);
  cblur_gpu_dispatch (1, 1, 0);
  g_atomic_int_inc (&upgrade_uses);
}

static gboolean
take_linked (CblurGpu  *gpu,
             gpointer   found,
             GError   **error)
{
  *(CblurGpuProgram **) found = cblur_gpu_program_linked (gpu, "empty", empty_shader, "", "");
  return TRUE;
}

/* The first task that asks for a program it would do better with gets
 * none, and compiles nothing; the program compiles once the tasks pause
 * (cblur_gpu_wait_prepared waits for that), the upgrades' first use
 * dispatches it, and the next task takes it, its first dispatch from
 * the runtime's thread behind it. */
static void
upgrade_in_a_pause (void)
{
  CblurGpuProgram *found = NULL;
  guint            compiles;
  guint            first_uses;

  if (!test_in_own_process (CHILD_TIMEOUT_US))
    return;
  g_assert_true (cblur_gl_available (NULL, NULL));
  cblur_gpu_on_upgraded (use_upgraded);
  compiles = cblur_gpu_caller_compiles ();
  first_uses = cblur_gpu_caller_first_uses ();
  g_assert_true (cblur_gpu_run (take_linked, &found, NULL));
  g_assert_null (found);
  cblur_gpu_wait_prepared ();
  g_assert_cmpint (g_atomic_int_get (&upgrade_uses), ==, 1);
  g_assert_true (cblur_gpu_run (take_linked, &found, NULL));
  g_assert_nonnull (found);
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, compiles);
  g_assert_cmpuint (cblur_gpu_caller_first_uses (), ==, first_uses);
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl/startup/auto-does-not-wait", auto_does_not_wait);
  g_test_add_func ("/gl/startup/wait-for-start", wait_for_start);
  g_test_add_data_func ("/gl/startup/exit-while-starting/slow", "slow", exit_while_starting);
  g_test_add_data_func ("/gl/startup/exit-while-starting/driver", "driver",
                        exit_while_starting);
  g_test_add_data_func ("/gl/startup/exit-while-starting/gegl-exit", "slow gegl-exit",
                        exit_while_starting);
  g_test_add_data_func ("/gl/startup/start-after-a-pause/exit", "exit", start_after_a_pause);
  g_test_add_data_func ("/gl/startup/start-after-a-pause/choice", "choice",
                        start_after_a_pause);
  g_test_add_func ("/gl/startup/sweep-compiles-nothing", sweep_compiles_nothing);
  g_test_add_func ("/gl/startup/choice-waits-for-programs", choice_waits_for_programs);
  g_test_add_func ("/gl/startup/variable-compiles-nothing", variable_compiles_nothing);
  g_test_add_func ("/gl/startup/start-makes-its-blurs-ready", start_makes_its_blurs_ready);
  g_test_add_func ("/gl/startup/first-frame-pins-nothing", first_frame_pins_nothing);
  g_test_add_func ("/gl/startup/first-8bit-frame-pins-nothing", first_8bit_frame_pins_nothing);
  g_test_add_func ("/gl/startup/first-variable-pins-nothing", first_variable_pins_nothing);
  g_test_add_func ("/gl/startup/preview-readies-the-apply", preview_readies_the_apply);
  g_test_add_data_func ("/gl/startup/hand-over/gaussian", "gaussian", hand_over_mid_region);
  g_test_add_data_func ("/gl/startup/hand-over/variable", "variable", hand_over_mid_region);
  g_test_add_func ("/gl/startup/upgrade-in-a-pause", upgrade_in_a_pause);
  return gl_test_run ();
}
