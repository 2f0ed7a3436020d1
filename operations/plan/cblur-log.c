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

static struct
{
  GMutex          lock;
  CblurReportFunc func;
  gpointer        user_data;
} watcher;

void
cblur_log_watch (CblurReportFunc func,
                 gpointer        user_data)
{
  g_mutex_lock (&watcher.lock);
  watcher.func = func;
  watcher.user_data = user_data;
  g_mutex_unlock (&watcher.lock);
}

/* a backend's predicted time, "?" where nothing predicts it (not
 * measured yet, or no GPU, which the CPU's reason then says) */
static void
append_prediction (GString     *line,
                   const gchar *backend,
                   gdouble      ms)
{
  if (ms > 0)
    g_string_append_printf (line, " %s=%.1fms", backend, ms);
  else
    g_string_append_printf (line, " %s=?", backend);
}

static gchar *
format_line (const CblurRunReport *report,
             const GeglRectangle  *band,
             gint                  level)
{
  GString *line = g_string_new (NULL);

  g_string_append_printf (line, "backend=%s ", report->ran_on == CBLUR_BACKEND_GL ? "gl" : "cpu");
  if (report->mode_name != NULL)
    g_string_append_printf (line, "mode=%s radius=%g ", report->mode_name, report->radii[0]);
  else if (report->modes[0] == report->modes[1] && report->radii[0] == report->radii[1])
    g_string_append_printf (line, "mode=%s radius=%g ", cblur_mode_name (report->modes[0]),
                            report->radii[0]);
  else
    g_string_append_printf (line, "mode=%s,%s radius=%g,%g ", cblur_mode_name (report->modes[0]),
                            cblur_mode_name (report->modes[1]), report->radii[0],
                            report->radii[1]);
  if (report->box_as_direct)
    g_string_append_printf (line, "box=\"direct below radius %g\" ", CBLUR_BOX_FROM);
  g_string_append_printf (line, "band=%dx%d+%d+%d level=%d read=%.2fms write=%.2fms ",
                          band->width, band->height, band->x, band->y, level,
                          report->read_ms, report->write_ms);
  if (report->ran_on == CBLUR_BACKEND_GL)
    g_string_append_printf (line, "renderer=\"%s\" tiles=%d upload=%.2fms compute=%.2fms "
                            "download=%.2fms ", report->renderer, report->tiles,
                            report->upload_ms, report->compute_ms, report->download_ms);
  g_string_append (line, "predicted");
  append_prediction (line, "cpu", report->predicted_cpu_ms);
  append_prediction (line, "gl", report->predicted_gl_ms);
  g_string_append_c (line, ' ');
  g_string_append_printf (line, "total=%.1fms", report->total_ms);
  if (report->read_kept)
    g_string_append (line, " source=kept");
  if (report->ran_on == CBLUR_BACKEND_CPU && report->why_cpu != NULL)
    g_string_append_printf (line, " fallback=\"%s\"", report->why_cpu);
  return g_string_free (line, FALSE);
}

void
cblur_log_band (const CblurRunReport *report,
                const GeglRectangle  *band,
                gint                  level)
{
  g_autofree gchar *message = format_line (report, band, level);
  gint              fd = log_fd ();

  g_debug ("%s", message);
  if (fd >= 0)
    write_line (fd, message);

  g_mutex_lock (&watcher.lock);
  if (watcher.func != NULL)
    watcher.func (report, band, watcher.user_data);
  g_mutex_unlock (&watcher.lock);
}
