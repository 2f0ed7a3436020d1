/* CBLUR_LOG never harms the host: a pipe whose reader has gone does not
 * end it, a FIFO that no one reads or a full pipe does not hold it, a log
 * that cannot be written says so once, and "stderr" is stderr in any
 * case.  The log is opened once a process, so each case runs in a process
 * of its own (this program again), whose passing is the assertion. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cblur-log.h"
#include "cblur-report.h"
#include "cblur-test.h"

/* what a process of its own may take; one that blocks takes longer */
#define CASE_TIMEOUT_US (30 * G_USEC_PER_SEC)

#define LOST "*CBLUR_LOG=* cannot be written*"

/* n lines of bands that ran on GL, band i at x = i, each line at least
 * `length` bytes long */
static void
log_lines (gint n,
           gint length)
{
  CblurRunReport report = { .ran_on = CBLUR_BACKEND_GL, .modes = { CBLUR_MODE_DIRECT, CBLUR_MODE_DIRECT },
                           .radii = { 1.0, 1.0 } };
  gint           i;

  memset (report.renderer, 'x', MIN (MAX (length - 20, 0), (gint) sizeof report.renderer - 1));
  for (i = 0; i < n; i++)
    cblur_log_band (&report, GEGL_RECTANGLE (i, 0, 1, 1), 0);
}

static void
log_to (const gchar *where)
{
  g_setenv ("CBLUR_LOG", where, TRUE);
}

/* The reader of a pipe reads the first line and goes: the next lines are
 * lost, with one warning, and no SIGPIPE. */
static void
test_reader_gone (void)
{
  gint              fds[2];
  g_autofree gchar *where = NULL;
  gchar             first[64] = "";

  if (!test_in_own_process (CASE_TIMEOUT_US))
    return;
  g_assert_cmpint (pipe (fds), ==, 0);
  where = g_strdup_printf ("/dev/fd/%d", fds[1]);
  log_to (where);
  log_lines (1, 30);
  g_assert_cmpint (read (fds[0], first, sizeof first - 1), >, 0);
  g_assert_true (g_str_has_prefix (first, "cblur: backend=gl mode=direct radius=1 band=1x1+0+0 "));
  close (fds[0]);

  g_test_expect_message ("cblur", G_LOG_LEVEL_WARNING, LOST);
  log_lines (3, 30);
  g_test_assert_expected_messages ();
}

/* stderr as the log, its reader gone: no SIGPIPE, and no warning, which
 * would go where the lines could not */
static void
test_stderr_reader_gone (void)
{
  gint fds[2];

  if (!test_in_own_process (CASE_TIMEOUT_US))
    return;
  g_assert_cmpint (pipe (fds), ==, 0);
  log_to ("stderr");
  g_assert_cmpint (dup2 (fds[1], STDERR_FILENO), ==, STDERR_FILENO);
  close (fds[0]);
  log_lines (3, 30);
}

/* a FIFO in a new folder, *dir */
static gchar *
make_fifo (gchar **dir)
{
  gchar *fifo;

  *dir = g_dir_make_tmp ("cblur-log-XXXXXX", NULL);
  g_assert_nonnull (*dir);
  fifo = g_build_filename (*dir, "fifo", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  return fifo;
}

/* A FIFO that no one reads is not opened: the blur goes on, unlogged. */
static void
test_fifo_without_reader (void)
{
  g_autofree gchar *dir = NULL;
  g_autofree gchar *fifo = NULL;

  if (!test_in_own_process (CASE_TIMEOUT_US))
    return;
  fifo = make_fifo (&dir);
  log_to (fifo);
  g_test_expect_message ("cblur", G_LOG_LEVEL_WARNING, "*CBLUR_LOG=* cannot be opened*");
  log_lines (2, 30);
  g_test_assert_expected_messages ();
  g_unlink (fifo);
  g_rmdir (dir);
}

/* A FIFO whose reader does not read fills up: the lines beyond are lost,
 * with one warning, rather than wait; those in it are whole. */
static void
test_fifo_full (void)
{
  g_autofree gchar *dir = NULL;
  g_autofree gchar *fifo = NULL;
  gchar             first[64] = "";
  gint              reader;

  if (!test_in_own_process (CASE_TIMEOUT_US))
    return;
  fifo = make_fifo (&dir);
  reader = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_cmpint (reader, >=, 0);
  log_to (fifo);
  g_test_expect_message ("cblur", G_LOG_LEVEL_WARNING, LOST);
  /* a pipe holds 64 KiB unless the system says otherwise */
  log_lines (2000, 200);
  g_test_assert_expected_messages ();
  g_assert_cmpint (read (reader, first, sizeof first - 1), >, 0);
  g_assert_true (g_str_has_prefix (first, "cblur: backend=gl mode=direct radius=1 band=1x1+0+0 "));
  close (reader);
  g_unlink (fifo);
  g_rmdir (dir);
}

/* Every write fails: one warning for them all. */
static void
test_full_device (void)
{
  if (!test_in_own_process (CASE_TIMEOUT_US))
    return;
  log_to ("/dev/full");
  g_test_expect_message ("cblur", G_LOG_LEVEL_WARNING, LOST);
  log_lines (5, 30);
  g_test_assert_expected_messages ();
}

/* "STDERR" is stderr, not a file of that name in the current folder. */
static void
test_stderr_any_case (void)
{
  g_autofree gchar *dir = NULL;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, CASE_TIMEOUT_US, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stderr ("*cblur: backend=gl mode=direct radius=1 band=1x1+0+0 *");
      return;
    }
  dir = g_dir_make_tmp ("cblur-log-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_assert_cmpint (chdir (dir), ==, 0);
  log_to ("STDERR");
  log_lines (1, 30);
  g_assert_false (g_file_test ("STDERR", G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* A GL error that is no failure leaves the report a true reason for the
 * CPU and nothing to warn of; a failure leaves its message to warn of. */
static void
test_gl_error_reason (void)
{
  static const struct
  {
    gint         code;
    const gchar *why_cpu;    /* the reason's start, or NULL for a failure */
  } cases[] = {
    { CBLUR_GL_ERROR_NOT_READY, "the GPU's programs for this blur are being compiled" },
    { CBLUR_GL_ERROR_EXITING,   "the process is exiting" },
    { CBLUR_GL_ERROR_SHADER,    NULL },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = g_error_new_literal (CBLUR_GL_ERROR, cases[i].code, "broken");
      CblurRunReport     report = { 0 };

      cblur_run_report_gl_error (&report, error);
      if (cases[i].why_cpu != NULL)
        {
          g_assert_null (report.gl_failure);
          g_assert_true (g_str_has_prefix (report.why_cpu, cases[i].why_cpu));
        }
      else
        {
          g_assert_cmpstr (report.gl_failure, ==, "broken");
          g_assert_null (report.why_cpu);
        }
      cblur_run_report_clear (&report);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/log/reader-gone", test_reader_gone);
  g_test_add_func ("/log/stderr-reader-gone", test_stderr_reader_gone);
  g_test_add_func ("/log/fifo-without-reader", test_fifo_without_reader);
  g_test_add_func ("/log/fifo-full", test_fifo_full);
  g_test_add_func ("/log/full-device", test_full_device);
  g_test_add_func ("/log/stderr-any-case", test_stderr_any_case);
  g_test_add_func ("/log/gl-error-reason", test_gl_error_reason);
  return g_test_run ();
}
