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
 * thread has dispatched it.  A start after a pause begins no sooner.
 * (The GPU's first blurs after the CPU's: test-gl-rehearsal.c.) */
#include "auto-test.h"

#include "cblur-choice-internal.h"
#include "cblur-log.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* CBLUR_GL_FAULT=slow adds 3 s: a blur that waited would take longer */
#define NO_WAIT_US (G_USEC_PER_SEC)

/* a host's frames, as often as the choice is asked */
#define POLL_US 2000

/* past the reach the fused box's longest segment at 16 KiB holds: the
 * two-shader box too */
#define SWEEP_RADIUS_MAX 600.0

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
      g_assert_cmpint (auto_test_blur_as_op (CBLUR_BACKEND_GL, kernel, sizes[level][0],
                                             sizes[level][1], &diff), ==, CBLUR_BACKEND_GL);
      g_assert_cmpfloat (diff, <=, AUTO_TEST_BOX_TOLERANCE);
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
  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  /* fewer lengths: this machine's GPU may be a slow compiler */
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", "16384");
  auto_test_start ();
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

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  /* three fused lengths, of which the blurs take the longest */
  gl_test_set ("CBLUR_GL_SHARED_MEMORY", "32768");
  auto_test_start ();
  while (cblur_gpu_state (FALSE, NULL, NULL) == CBLUR_GPU_STARTING)
    {
      g_assert_cmpint (auto_test_choose (&prediction), ==, CBLUR_BACKEND_CPU);
      g_usleep (POLL_US);
    }
  while (!cblur_gpu_prepared ())
    {
      if (auto_test_choose (&prediction) == CBLUR_BACKEND_GL)
        g_assert_true (cblur_gpu_prepared ());
      g_usleep (POLL_US);
    }
  g_assert_cmpint (auto_test_choose (&prediction), ==, CBLUR_BACKEND_GL);

  for (i = 0; i < G_N_ELEMENTS (radii); i++)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (radii[i], CBLUR_MODE_AUTO, 3);

      g_assert_cmpint (auto_test_blur_as_op (CBLUR_BACKEND_GL, kernel, 96, 64, &diff), ==,
                       CBLUR_BACKEND_GL);
      g_assert_cmpfloat (diff, <=, AUTO_TEST_BOX_TOLERANCE);
    }
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  g_assert_cmpuint (cblur_gpu_caller_first_uses (), ==, 0);
}

/* The warm-up queues the variable blur's programs too: once the GPU is
 * prepared, its op blurs on the GPU, an 8-bit mask's codes and a float
 * mask's boxes, and compiles nothing on this thread. */
static void
variable_compiles_nothing (void)
{
  gint on[2] = { 0, 0 };

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  auto_test_start ();
  cblur_gpu_wait_prepared ();
  cblur_log_watch (auto_test_count_bands, on);
  auto_test_blur_variable_op ("Y' u8");
  auto_test_blur_variable_op ("Y float");
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

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  gl_test_set ("CBLUR_BACKEND", NULL);
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  cblur_choice_learn (&gaussian_u8, CBLUR_BACKEND_CPU, AUTO_TEST_SLOW_ON_CPU_MS);
  g_assert_cmpint (cblur_choice_make (&gaussian_u8, &prediction), ==, CBLUR_BACKEND_CPU);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_NOW);
  cblur_gpu_wait_prepared ();
  g_assert_true (cblur_gpu_prepared ());

  g_assert_false (cblur_gl_started_for (CBLUR_GL_BLURS_VARIABLE));
  first = auto_test_blur_variable ("Y' u8", 96, 64);
  g_assert_true (cblur_gl_started_for (CBLUR_GL_BLURS_VARIABLE));
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  cblur_gpu_wait_prepared ();
  cblur_log_watch (auto_test_count_bands, on);
  later = auto_test_blur_variable ("Y' u8", 96, 64);
  cblur_log_watch (NULL, NULL);
  g_assert_cmpint (on[FALSE], ==, 0);
  g_assert_cmpint (on[TRUE], >, 0);
  g_assert_cmpuint (cblur_gpu_caller_compiles (), ==, 0);
  for (i = 0; i < 96 * 64 * 4; i++)
    g_assert_cmpfloat (fabsf (first[i] - later[i]), <=, AUTO_TEST_BOX_TOLERANCE);
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
    return auto_test_blur_variable ("Y' u8", HAND_OVER_WIDTH, HAND_OVER_HEIGHT);
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

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  gl_test_set ("CBLUR_BAND_PIXELS", "8192");
  gl_test_set ("CBLUR_GL_FAULT", "slow");
  auto_test_start ();
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

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  gl_test_set ("CBLUR_GL_FAULT", "slow");
  auto_test_start ();
  g_assert_false (cblur_gpu_holds_context ());

  started = g_get_monotonic_time ();
  chosen = auto_test_choose (&prediction);
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

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  gl_test_set ("CBLUR_GL_FAULT", "slow");
  auto_test_start ();
  started = g_get_monotonic_time ();
  g_assert_false (cblur_choice_wait_ready (200));
  g_assert_cmpint (g_get_monotonic_time () - started, >=, 200 * 1000);
  g_assert_cmpint (g_get_monotonic_time () - started, <, NO_WAIT_US);
  g_assert_true (cblur_choice_wait_ready (AUTO_TEST_CHILD_US / 1000.0 - 10000));
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

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  if (strstr (how, "slow") != NULL)
    gl_test_set ("CBLUR_GL_FAULT", "slow");
  auto_test_start ();
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_STARTING);
  if (strstr (how, "gegl-exit") != NULL)
    gegl_exit ();
  exit (0);
}

/* longer than a child may take: a start after it has not begun */
#define LONG_PAUSE_US (10 * AUTO_TEST_CHILD_US)

/* A start after a pause (a region's, under auto) makes no context during
 * it, and an exit then ends at once; a choice meanwhile begins it, and
 * the GPU becomes ready. */
static void
start_after_a_pause (gconstpointer data)
{
  CblurPrediction prediction;

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  gl_test_set ("CBLUR_BACKEND", NULL);
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  cblur_gl_start (CBLUR_GL_BLURS_ALL, LONG_PAUSE_US);
  g_usleep (NO_WAIT_US / 4);
  g_assert_cmpint (cblur_gpu_state (FALSE, NULL, NULL), ==, CBLUR_GPU_STARTING);
  g_assert_false (cblur_gpu_holds_context ());
  if (g_strcmp0 (data, "exit") == 0)
    exit (0);
  cblur_choice_learn (&auto_test_slow_on_cpu, CBLUR_BACKEND_CPU, AUTO_TEST_SLOW_ON_CPU_MS);
  auto_test_choose (&prediction);
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
static gint upgrade_runs;

/* the upgrades' first use: the program is there for it, and dispatched;
 * and, as a rehearsal of a blur the CPU took meanwhile would, it asks for
 * a program of its own that no task asked for, which waits */
static void
use_upgraded (CblurGpu *gpu)
{
  CblurGpuProgram  *program = cblur_gpu_program_linked (gpu, "empty", empty_shader, "", "");
  gint              run = g_atomic_int_add (&upgrade_runs, 1);
  g_autofree gchar *defines = g_strdup_printf ("#define RUN %d\n", run);

  g_assert_null (cblur_gpu_program_linked (gpu, "empty", empty_shader, defines, ""));
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
 * the runtime's thread behind it.  What the upgrades' use asks for is
 * not compiled: it runs once, and the runtime is prepared after it. */
static void
upgrade_in_a_pause (void)
{
  CblurGpuProgram *found = NULL;
  guint            compiles;
  guint            first_uses;

  if (!test_in_own_process (AUTO_TEST_CHILD_US))
    return;
  g_assert_true (cblur_gl_available (NULL, NULL));
  cblur_gpu_on_upgraded (use_upgraded);
  compiles = cblur_gpu_caller_compiles ();
  first_uses = cblur_gpu_caller_first_uses ();
  g_assert_true (cblur_gpu_run (take_linked, &found, NULL));
  g_assert_null (found);
  cblur_gpu_wait_prepared ();
  g_assert_cmpint (g_atomic_int_get (&upgrade_uses), ==, 1);
  g_assert_cmpint (g_atomic_int_get (&upgrade_runs), ==, 1);
  g_assert_true (cblur_gpu_prepared ());
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
  g_test_add_data_func ("/gl/startup/hand-over/gaussian", "gaussian", hand_over_mid_region);
  g_test_add_data_func ("/gl/startup/hand-over/variable", "variable", hand_over_mid_region);
  g_test_add_func ("/gl/startup/upgrade-in-a-pause", upgrade_in_a_pause);
  return gl_test_run ();
}
