/* The host's lifecycle around a GL context: forking after a GL blur,
 * exiting with a context alive (idle, or busy in another thread) and
 * gegl_exit().  Each case runs in a process of its own (this program again,
 * through g_test_trap_subprocess), whose exit status and signal are the
 * assertion. */
#include "gl-test.h"

#include <stdlib.h>
#include <unistd.h>

#include "cblur-gl-internal.h"

#define BUSY_EDGE 3000

/* how long a thread may take to show up in /proc, or to leave it */
#define THREAD_WAIT_US (5 * G_USEC_PER_SEC)

/* a blur on GL, which must not fall back */
static void
blur_on_gl (gint edge)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (5.0, CBLUR_MODE_DIRECT, 3);
  CblurImage             *src = gl_test_random_input (kernel, 0, 0, edge, edge, 1);
  CblurImage             *dst = gl_test_blank_image (0, 0, edge, edge);
  g_autoptr (GError)      error = NULL;

  g_assert_true (cblur_gl_blur (NULL, kernel, src, dst, NULL, NULL, &error));
  g_assert_no_error (error);
  gl_test_image_free (src);
  gl_test_image_free (dst);
}

/* The child's blur of a band through the backend, as the op runs it: on
 * the CPU, and bit for bit the CPU's. */
static gboolean
child_blurs_as_cpu (void)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (7.0, CBLUR_MODE_BOX, 4);
  CblurImage             *src = gl_test_random_input (kernel, 5, 5, 120, 90, 2);
  CblurImage             *on_backend = gl_test_blank_image (5, 5, 120, 90);
  CblurImage             *on_cpu = gl_test_blank_image (5, 5, 120, 90);
  CblurRunReport          report;
  gboolean                ok;

  cblur_backend_blur (NULL, CBLUR_BACKEND_GL, kernel, src, on_backend, NULL, &report);
  cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);
  ok = report.ran_on == CBLUR_BACKEND_CPU && report.gl_failure != NULL &&
       gl_test_max_diff (on_backend, on_cpu) == 0.0;
  cblur_run_report_clear (&report);
  gl_test_image_free (src);
  gl_test_image_free (on_backend);
  gl_test_image_free (on_cpu);
  return ok;
}

/* The test again in a process of its own (this program, at the test's
 * path), which must pass */
static void
run_in_subprocess (void)
{
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* In a process of its own, a GL blur, then a fork whose child exits with
 * what `child` returns: 0, in time, though GEGL's worker threads (at
 * their default count) do not survive the fork either. */
static void
fork_after_blur (gint (*child) (void))
{
  pid_t pid;

  if (!test_in_own_process (0))
    return;
  blur_on_gl (64);
  pid = fork ();
  if (pid == 0)
    exit (child ());
  test_assert_child_passed (pid);
  /* the parent's context is its own still */
  blur_on_gl (64);
}

static gint
child_exits (void)
{
  return 0;
}

static gint
child_blurs (void)
{
  return child_blurs_as_cpu () ? 0 : 3;
}

static void
fork_then_exit (void)
{
  fork_after_blur (child_exits);
}

static void
fork_then_blur (void)
{
  fork_after_blur (child_blurs);
}

static void
exit_while_idle (void)
{
  if (!test_in_own_process (0))
    return;
  blur_on_gl (64);
  g_assert_true (cblur_gpu_holds_context ());
  exit (0);
}

/* GEGL's render of the op over a large image, again and again, as a host
 * that is still working when it quits */
static gpointer
render_busy (gpointer data)
{
  GeglNode           *blur = data;
  const GeglRectangle rect = { 0, 0, BUSY_EDGE, BUSY_EDGE };
  gfloat             *pixels = g_new (gfloat, (gsize) BUSY_EDGE * BUSY_EDGE * 4);

  for (;;)
    gegl_node_blit (blur, 1.0, &rect, babl_format (TEST_FORMAT), pixels,
                    GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  return NULL;
}

/* exit() while another thread is inside a GL blur of a large image through
 * the op, at several points of it: the process ends without a signal */
static void
exit_while_busy (void)
{
  static const gulong delays_ms[] = { 0, 200, 600, 1200, 2500 };
  const GeglRectangle rect = { 0, 0, BUSY_EDGE, BUSY_EDGE };
  const GeglRectangle small = { 0, 0, 64, 64 };
  GeglBuffer         *input;
  GeglNode           *graph, *blur;
  GeglColor          *colour;
  gsize               i;

  if (!g_test_subprocess ())
    {
      g_setenv ("CBLUR_BACKEND", "gl", TRUE);
      for (i = 0; i < G_N_ELEMENTS (delays_ms); i++)
        {
          g_autofree gchar *variant = g_strdup_printf ("%lu", delays_ms[i]);

          g_test_message ("exit %lu ms into the blur", delays_ms[i]);
          g_setenv ("GL_TEST_EXIT_DELAY_MS", variant, TRUE);
          run_in_subprocess ();
        }
      g_unsetenv ("GL_TEST_EXIT_DELAY_MS");
      g_unsetenv ("CBLUR_BACKEND");
      return;
    }
  input = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  colour = gegl_color_new ("rgba(0.5, 0.2, 0.3, 0.8)");
  gegl_buffer_set_color (input, &rect, colour);
  graph = gegl_node_new ();
  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", 3.0, NULL);
  /* The op's context first: exit() while another thread is loading the
   * GL driver itself, which runs the driver's and LLVM's constructors,
   * can deadlock in the C library's own teardown, whoever loads it. */
  g_free (test_blur (input, &small, "radius", 3.0, NULL));
  g_thread_new ("render", render_busy, blur);
  g_usleep (g_ascii_strtoull (g_getenv ("GL_TEST_EXIT_DELAY_MS"), NULL, 10) * 1000);
  exit (0);
}

/* whether a thread of this process has the name */
static gboolean
has_thread (gconstpointer name)
{
  g_autoptr (GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar     *task;

  g_assert_nonnull (tasks);
  while ((task = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree gchar *path = g_strdup_printf ("/proc/self/task/%s/comm", task);
      g_autofree gchar *comm = NULL;

      if (g_file_get_contents (path, &comm, NULL, NULL) &&
          g_strcmp0 (g_strstrip (comm), name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
gegl_exit_releases (void)
{
  if (!test_in_own_process (0))
    return;
  blur_on_gl (64);
  /* a new thread names itself once it runs */
  g_assert_true (gl_test_comes_to (has_thread, "cblur-gl", TRUE, THREAD_WAIT_US));
  g_assert_true (cblur_gpu_holds_context ());
  gegl_exit ();
  /* a joined one leaves /proc a moment after its join returns */
  g_assert_true (gl_test_comes_to (has_thread, "cblur-gl", FALSE, THREAD_WAIT_US));
  g_assert_false (cblur_gpu_holds_context ());
  exit (0);
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl/lifecycle/fork-exit", fork_then_exit);
  g_test_add_func ("/gl/lifecycle/fork-blur", fork_then_blur);
  g_test_add_func ("/gl/lifecycle/exit-idle", exit_while_idle);
  g_test_add_func ("/gl/lifecycle/exit-busy", exit_while_busy);
  g_test_add_func ("/gl/lifecycle/gegl-exit", gegl_exit_releases);
  return gl_test_run ();
}
