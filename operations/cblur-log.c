#include "cblur-log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-gl.h"
#include "cblur-settings.h"

/* CBLUR_LOG as read, once */
static const gchar *log_where;

/* CBLUR_LOG, read once: "stderr" in any case, or a file to append to; -1
 * for neither.  Opened without blocking: a FIFO that no one reads fails
 * to open rather than hold the host's blur until someone does. */
static gint
log_fd (void)
{
  static gsize once = 0;
  static gint  fd = -1;

  if (g_once_init_enter (&once))
    {
      const gchar *where = g_getenv ("CBLUR_LOG");

      log_where = g_strdup (where);
      if (where != NULL && g_ascii_strcasecmp (where, "stderr") == 0)
        fd = STDERR_FILENO;
      else if (where != NULL && *where != '\0')
        {
          fd = open (where, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK,
                     0644);
          if (fd < 0)
            g_warning (_("CBLUR_LOG=%s cannot be opened (%s); nothing is logged there"),
                       where, g_strerror (errno));
        }
      g_once_init_leave (&once, 1);
    }
  return fd;
}

static gboolean
write_all (gint         fd,
           const gchar *bytes,
           gsize        left)
{
  while (left > 0)
    {
      gssize written = write (fd, bytes, left);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        return FALSE;
      bytes += written;
      left -= written;
    }
  return TRUE;
}

/* A pipe whose reader has gone raises SIGPIPE in the writing thread,
 * which by default ends the host: it is held back while writing, and
 * where the write raised it, taken back unseen. */
static gboolean
write_without_sigpipe (gint         fd,
                       const gchar *bytes,
                       gsize        size)
{
  const struct timespec now = { 0, 0 };
  sigset_t              sigpipe, held, pending;
  gboolean              was_pending, written;
  gint                  error;

  sigemptyset (&sigpipe);
  sigaddset (&sigpipe, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &sigpipe, &held);
  sigpending (&pending);
  was_pending = sigismember (&pending, SIGPIPE);
  written = write_all (fd, bytes, size);
  error = errno;
  if (!written && error == EPIPE && !was_pending)
    sigtimedwait (&sigpipe, NULL, &now);
  pthread_sigmask (SIG_SETMASK, &held, NULL);
  errno = error;
  return written;
}

/* One write() a line, so that lines from several threads or processes
 * sharing the file never interleave.  A full pipe loses the line rather
 * than wait.  The first line lost says so, once: not where the log is
 * stderr, which that warning could not reach either. */
static void
write_line (gint         fd,
            const gchar *message)
{
  static gsize      warned = 0;
  g_autofree gchar *line = g_strconcat ("cblur: ", message, "\n", NULL);
  gint              error;

  if (write_without_sigpipe (fd, line, strlen (line)) || fd == STDERR_FILENO)
    return;
  error = errno;
  if (g_once_init_enter (&warned))
    {
      g_warning (_("CBLUR_LOG=%s cannot be written (%s); its lines are lost"),
                 log_where, g_strerror (error));
      g_once_init_leave (&warned, 1);
    }
}

/* Why CBLUR_BACKEND=auto chose the CPU: that is decided per process by
 * what GL the machine has, so it is asked once. */
static const gchar *
why_auto_chose_cpu (void)
{
  static gsize  once = 0;
  static gchar *why = NULL;

  if (g_once_init_enter (&once))
    {
      g_autoptr (GError) error = NULL;
      gboolean           is_software = FALSE;

      if (!cblur_gl_available (&is_software, &error))
        why = g_strdup (error->message);
      else if (is_software)
        why = g_strdup (_("the only OpenGL is a software renderer, slower than "
                          "the CPU (CBLUR_BACKEND=gl uses it)"));
      g_once_init_leave (&once, 1);
    }
  return why;
}

/* NULL where the band ran on GL */
static const gchar *
why_cpu (const CblurRunReport *report)
{
  if (report->ran_on == CBLUR_BACKEND_GL)
    return NULL;
  if (report->gl_failure != NULL)
    return report->gl_failure;
  if (cblur_settings ()->backend == CBLUR_BACKEND_CHOICE_CPU)
    return "CBLUR_BACKEND=cpu";
  return why_auto_chose_cpu ();
}

void
cblur_log_band (const CblurRunReport *report,
                const gchar          *format,
                ...)
{
  g_autofree gchar *figures = NULL;
  g_autofree gchar *message = NULL;
  const gchar      *why = why_cpu (report);
  gint              fd = log_fd ();
  va_list           args;

  va_start (args, format);
  figures = g_strdup_vprintf (format, args);
  va_end (args);
  message = why != NULL ? g_strdup_printf ("%s fallback=\"%s\"", figures, why)
                        : g_steal_pointer (&figures);

  g_debug ("%s", message);
  if (fd >= 0)
    write_line (fd, message);
}
