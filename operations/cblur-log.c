#include "cblur-log.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"


/* CBLUR_LOG, read once: "stderr", or a file to append to; -1 for neither */
static gint
log_fd (void)
{
  static gsize once = 0;
  static gint  fd = -1;

  if (g_once_init_enter (&once))
    {
      const gchar *where = g_getenv ("CBLUR_LOG");

      if (g_strcmp0 (where, "stderr") == 0)
        fd = STDERR_FILENO;
      else if (where != NULL && *where != '\0')
        {
          fd = open (where, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
          if (fd < 0)
            g_warning (_("CBLUR_LOG=%s cannot be opened (%s); nothing is logged there"),
                       where, g_strerror (errno));
        }
      g_once_init_leave (&once, 1);
    }
  return fd;
}

/* one write() a line, so that lines from several threads or processes
 * sharing the file never interleave */
static void
write_line (gint         fd,
            const gchar *message)
{
  g_autofree gchar *line = g_strconcat ("cblur: ", message, "\n", NULL);
  const gchar      *rest = line;
  gsize             left = strlen (line);

  while (left > 0)
    {
      gssize written = write (fd, rest, left);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        return;
      rest += written;
      left -= written;
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

static gchar *
format_line (const CblurRunReport *report,
             const GeglRectangle  *band,
             gdouble               radius,
             gint                  level)
{
  GString *line = g_string_new (NULL);

  g_string_append_printf (line, "backend=%s mode=%s radius=%g band=%dx%d+%d+%d level=%d "
                          "read=%.2fms write=%.2fms ",
                          report->ran_on == CBLUR_BACKEND_GL ? "gl" : "cpu",
                          cblur_mode_name (report->mode), radius, band->width, band->height,
                          band->x, band->y, level, report->read_ms, report->write_ms);
  if (report->ran_on == CBLUR_BACKEND_GL)
    g_string_append_printf (line, "renderer=\"%s\" tiles=%d upload=%.2fms compute=%.2fms "
                            "download=%.2fms ", report->renderer, report->tiles,
                            report->upload_ms, report->compute_ms, report->download_ms);
  g_string_append_printf (line, "total=%.1fms", report->total_ms);
  if (report->ran_on == CBLUR_BACKEND_CPU && report->why_cpu != NULL)
    g_string_append_printf (line, " fallback=\"%s\"", report->why_cpu);
  return g_string_free (line, FALSE);
}

void
cblur_log_band (const CblurRunReport *report,
                const GeglRectangle  *band,
                gdouble               radius,
                gint                  level)
{
  g_autofree gchar *message = format_line (report, band, radius, level);
  gint              fd = log_fd ();

  g_debug ("%s", message);
  if (fd >= 0)
    write_line (fd, message);

  g_mutex_lock (&watcher.lock);
  if (watcher.func != NULL)
    watcher.func (report, band, watcher.user_data);
  g_mutex_unlock (&watcher.lock);
}
