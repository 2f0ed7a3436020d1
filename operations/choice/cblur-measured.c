#include "cblur-measured.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include "cblur-i18n.h"

/* a name no escaped group has: an escape's '%' is followed by two hex digits */
#define FORMAT_GROUP   "%format"
#define FORMAT_KEY     "version"
#define FORMAT_VERSION "1"

/* A save waits this long for another's to finish, then goes ahead without
 * the lock: a lost figure costs a measurement, a host held up costs more. */
#define LOCK_WAIT_US (5 * G_USEC_PER_SEC)
#define LOCK_POLL_US (5 * 1000)

/* group → (name → gdouble *); in a store's changes, NAN is a forget */
typedef GHashTable Figures;

struct _CblurMeasured
{
  gchar   *path;
  GMutex   lock;      /* figures and changes */
  GMutex   saving;    /* one save of this store at a time */
  Figures *figures;   /* what lookups see */
  Figures *changes;   /* the records and forgets the file has yet to take */
};

static Figures *
figures_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                (GDestroyNotify) g_hash_table_unref);
}

static void
figures_set (Figures     *figures,
             const gchar *group,
             const gchar *name,
             gdouble      value)
{
  GHashTable *names = g_hash_table_lookup (figures, group);
  gdouble    *kept = g_new (gdouble, 1);

  if (names == NULL)
    {
      names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_hash_table_insert (figures, g_strdup (group), names);
    }
  *kept = value;
  g_hash_table_insert (names, g_strdup (name), kept);
}

static void
figures_remove (Figures     *figures,
                const gchar *group,
                const gchar *name)
{
  GHashTable *names = g_hash_table_lookup (figures, group);

  if (names != NULL && g_hash_table_remove (names, name) && g_hash_table_size (names) == 0)
    g_hash_table_remove (figures, group);
}

/* changes over figures: each record set, each forget removed; with
 * keep_forgets, the forgets set as they are (changes over changes) */
static void
figures_take (Figures  *figures,
              Figures  *changes,
              gboolean  keep_forgets)
{
  GHashTableIter groups, names;
  gpointer       group, names_table, name, value;

  g_hash_table_iter_init (&groups, changes);
  while (g_hash_table_iter_next (&groups, &group, &names_table))
    {
      g_hash_table_iter_init (&names, names_table);
      while (g_hash_table_iter_next (&names, &name, &value))
        if (isnan (*(gdouble *) value) && !keep_forgets)
          figures_remove (figures, group, name);
        else
          figures_set (figures, group, name, *(gdouble *) value);
    }
}

/* text with what a GKeyFile cannot hold in a group or key name escaped as
 * %XX: its brackets, the characters of `special`, control characters,
 * spaces at the ends (which it trims), a leading '#' (a comment), and every
 * byte beyond ASCII, so that the file stays ASCII whatever a driver names
 * itself */
static gchar *
escaped (const gchar *text,
         const gchar *special)
{
  GString *out = g_string_new (NULL);
  gsize    n = strlen (text), i;

  for (i = 0; i < n; i++)
    {
      guchar c = text[i];

      if (c < 0x20 || c >= 0x7f || c == '%' || c == '[' || c == ']' ||
          strchr (special, c) != NULL || (c == ' ' && (i == 0 || i == n - 1)) ||
          (c == '#' && i == 0))
        g_string_append_printf (out, "%%%02X", c);
      else
        g_string_append_c (out, c);
    }
  return g_string_free (out, FALSE);
}

static GList *
sorted_keys (GHashTable *table)
{
  return g_list_sort (g_hash_table_get_keys (table), (GCompareFunc) strcmp);
}

/* figures as the file's text, in a stable order */
static gchar *
figures_text (Figures *figures)
{
  GString *text = g_string_new ("[" FORMAT_GROUP "]\n" FORMAT_KEY "=" FORMAT_VERSION "\n");
  GList   *groups = sorted_keys (figures), *group, *names, *name;

  for (group = groups; group != NULL; group = group->next)
    {
      GHashTable       *table = g_hash_table_lookup (figures, group->data);
      g_autofree gchar *group_name = escaped (group->data, "");

      g_string_append_printf (text, "\n[%s]\n", group_name);
      names = sorted_keys (table);
      for (name = names; name != NULL; name = name->next)
        {
          g_autofree gchar *key = escaped (name->data, "=");
          gchar             number[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_dtostr (number, sizeof number,
                          *(gdouble *) g_hash_table_lookup (table, name->data));
          g_string_append_printf (text, "%s=%s\n", key, number);
        }
      g_list_free (names);
    }
  g_list_free (groups);
  return g_string_free (text, FALSE);
}

/* the file's text as it is read, line by line */
typedef struct
{
  Figures *figures;
  gchar   *group;   /* escaped, as in the file; NULL before the first */
  gboolean ours;    /* the format version is this module's */
} Reading;

/* a figure where group, name and value are valid */
static void
read_figure (Reading     *reading,
             const gchar *key,
             const gchar *text)
{
  g_autofree gchar *group = g_uri_unescape_string (reading->group, NULL);
  g_autofree gchar *name = g_uri_unescape_string (key, NULL);
  gchar            *end;
  gdouble           value = g_ascii_strtod (text, &end);

  if (group != NULL && name != NULL && *group != '\0' && *name != '\0' && end != text &&
      *end == '\0' && isfinite (value) && value > 0.0)
    figures_set (reading->figures, group, name, value);
}

/* a line of the file, as GKeyFile reads it: a comment, a group or a
 * key=value; anything else is skipped */
static void
read_line (Reading *reading,
           gchar   *line)
{
  gsize  n = strlen (g_strstrip (line));
  gchar *equals = strchr (line, '=');

  if (n == 0 || line[0] == '#')
    return;
  if (line[0] == '[')
    {
      g_clear_pointer (&reading->group, g_free);
      if (n >= 3 && line[n - 1] == ']')
        reading->group = g_strndup (line + 1, n - 2);
      return;
    }
  if (equals == NULL || reading->group == NULL)
    return;
  *equals = '\0';
  if (g_str_equal (reading->group, FORMAT_GROUP))
    {
      if (g_str_equal (g_strchomp (line), FORMAT_KEY))
        reading->ours = g_str_equal (g_strchug (equals + 1), FORMAT_VERSION);
      return;
    }
  read_figure (reading, g_strchomp (line), g_strchug (equals + 1));
}

/* The valid figures of a file's text, none where its format version is
 * not this module's.  A line with a NUL byte is garbage; a last line
 * without its newline is the end of a file cut off. */
static Figures *
figures_parse (const gchar *text,
               gsize        length)
{
  Reading      reading = { figures_new (), NULL, FALSE };
  const gchar *line = text, *end = text + length, *newline;

  while (line < end && (newline = memchr (line, '\n', end - line)) != NULL)
    {
      if (memchr (line, '\0', newline - line) == NULL)
        {
          g_autofree gchar *copy = g_strndup (line, newline - line);

          read_line (&reading, copy);
        }
      line = newline + 1;
    }
  g_free (reading.group);
  if (!reading.ours)
    g_hash_table_remove_all (reading.figures);
  return reading.figures;
}

/* the file's valid figures; none where it is missing, unreadable or no
 * regular file (a FIFO would hold the reader) */
static Figures *
figures_read (const gchar *path)
{
  g_autofree gchar *text = NULL;
  gsize             length = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
      !g_file_get_contents (path, &text, &length, NULL))
    return figures_new ();
  return figures_parse (text, length);
}

CblurMeasured *
cblur_measured_new (const gchar *path)
{
  CblurMeasured *measured = g_new0 (CblurMeasured, 1);

  measured->path = path != NULL ? g_strdup (path)
                                : g_build_filename (g_get_user_cache_dir (), "gegl-compute-blur",
                                                    "measured.ini", NULL);
  g_mutex_init (&measured->lock);
  g_mutex_init (&measured->saving);
  measured->figures = figures_read (measured->path);
  measured->changes = figures_new ();
  return measured;
}

void
cblur_measured_free (CblurMeasured *measured)
{
  if (measured == NULL)
    return;
  g_hash_table_unref (measured->figures);
  g_hash_table_unref (measured->changes);
  g_mutex_clear (&measured->lock);
  g_mutex_clear (&measured->saving);
  g_free (measured->path);
  g_free (measured);
}

gboolean
cblur_measured_lookup (CblurMeasured *measured,
                       const gchar   *group,
                       const gchar   *name,
                       gdouble       *value)
{
  GHashTable *names;
  gdouble    *found = NULL;

  g_return_val_if_fail (measured != NULL && group != NULL && name != NULL, FALSE);
  g_mutex_lock (&measured->lock);
  names = g_hash_table_lookup (measured->figures, group);
  if (names != NULL)
    found = g_hash_table_lookup (names, name);
  if (found != NULL)
    *value = *found;
  g_mutex_unlock (&measured->lock);
  return found != NULL;
}

void
cblur_measured_record (CblurMeasured *measured,
                       const gchar   *group,
                       const gchar   *name,
                       gdouble        value)
{
  g_return_if_fail (measured != NULL && group != NULL && name != NULL);
  g_return_if_fail (*group != '\0' && *name != '\0' && isfinite (value) && value > 0.0);
  g_mutex_lock (&measured->lock);
  figures_set (measured->figures, group, name, value);
  figures_set (measured->changes, group, name, value);
  g_mutex_unlock (&measured->lock);
}

void
cblur_measured_forget (CblurMeasured *measured,
                       const gchar   *group,
                       const gchar   *name)
{
  g_return_if_fail (measured != NULL && group != NULL && name != NULL);
  g_mutex_lock (&measured->lock);
  figures_remove (measured->figures, group, name);
  figures_set (measured->changes, group, name, NAN);
  g_mutex_unlock (&measured->lock);
}

static gboolean
save_failed (GError     **error,
             gint         errsv,
             const gchar *path)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
               _("The measured figures cannot be saved in %s: %s"), path,
               g_strerror (errsv));
  return FALSE;
}

static gboolean
write_all (gint         fd,
           const gchar *text,
           gsize        length)
{
  while (length > 0)
    {
      gssize written = write (fd, text, length);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        return FALSE;
      text += written;
      length -= written;
    }
  return TRUE;
}

/* text into path through a temporary file beside it, renamed into place,
 * so that a reader meets the old file or the new one whole; the temporary
 * file is gone either way.  Not synced to the disk: a process would wait
 * for the disk at its exit, the gegl command line's every run, and a file
 * that a power cut leaves short is one a later process does not parse and
 * measures again. */
static gboolean
write_atomically (const gchar *path,
                  const gchar *text,
                  GError     **error)
{
  g_autofree gchar *temporary = g_strconcat (path, ".XXXXXX", NULL);
  gint              fd = g_mkstemp_full (temporary, O_RDWR | O_CLOEXEC, 0666);
  gboolean          written;
  gint              errsv;

  if (fd < 0)
    return save_failed (error, errno, path);
  written = write_all (fd, text, strlen (text));
  errsv = errno;
  if (close (fd) != 0 && written)
    {
      written = FALSE;
      errsv = errno;
    }
  if (written && g_rename (temporary, path) != 0)
    {
      written = FALSE;
      errsv = errno;
    }
  if (!written)
    g_unlink (temporary);
  return written || save_failed (error, errsv, path);
}

/* The lock of the file's folder, which the saves of every store and
 * process take in turn (closing the descriptor lets it go); -1 where it
 * cannot be had within LOCK_WAIT_US. */
static gint
lock_folder (const gchar *folder)
{
  gint64 deadline = g_get_monotonic_time () + LOCK_WAIT_US;
  gint   fd = g_open (folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

  while (fd >= 0 && flock (fd, LOCK_EX | LOCK_NB) != 0)
    if ((errno != EWOULDBLOCK && errno != EINTR) || g_get_monotonic_time () > deadline)
      {
        close (fd);
        fd = -1;
      }
    else
      g_usleep (LOCK_POLL_US);
  return fd;
}

/* After a save: the store holds what the file holds, with the changes made
 * during the save over it; where the save failed (saved NULL), the changes
 * it took wait again, under those made since. */
static void
settle (CblurMeasured *measured,
        Figures       *saved,
        Figures       *taken)
{
  g_mutex_lock (&measured->lock);
  if (saved != NULL)
    {
      figures_take (saved, measured->changes, FALSE);
      g_hash_table_unref (measured->figures);
      measured->figures = g_hash_table_ref (saved);
    }
  else
    {
      figures_take (taken, measured->changes, TRUE);
      g_hash_table_unref (measured->changes);
      measured->changes = g_hash_table_ref (taken);
    }
  g_mutex_unlock (&measured->lock);
}

gboolean
cblur_measured_save (CblurMeasured *measured,
                     GError       **error)
{
  g_autofree gchar    *folder = NULL;
  g_autoptr (GHashTable) taken = NULL;
  g_autoptr (GHashTable) saved = NULL;
  gboolean             written = FALSE;
  gint                 lock;

  g_return_val_if_fail (measured != NULL, FALSE);
  folder = g_path_get_dirname (measured->path);
  g_mutex_lock (&measured->saving);
  g_mutex_lock (&measured->lock);
  taken = g_steal_pointer (&measured->changes);
  measured->changes = figures_new ();
  g_mutex_unlock (&measured->lock);

  if (g_mkdir_with_parents (folder, 0700) != 0)
    save_failed (error, errno, measured->path);
  else
    {
      g_autofree gchar *text = NULL;

      lock = lock_folder (folder);
      saved = figures_read (measured->path);
      figures_take (saved, taken, FALSE);
      text = figures_text (saved);
      written = write_atomically (measured->path, text, error);
      if (lock >= 0)
        close (lock);
    }
  settle (measured, written ? saved : NULL, taken);
  g_mutex_unlock (&measured->saving);
  return written;
}
