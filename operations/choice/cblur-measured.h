/* What this machine's blurs were measured to cost, kept across processes in
 * the user's cache folder so that a new process chooses as well as the last
 * one did.  Figures live in groups that the caller names after what they hold
 * for (e.g. "cpu cores=16 module=0.4.0", "gl renderer=… driver=… module=…"),
 * each figure a finite, positive double under a name; a group of another
 * module version is another group, never read for this one.  Every call is
 * thread-safe.  Nothing here is ever fatal: a missing, unreadable, corrupt,
 * stale or concurrently written file reads as the figures it validly holds
 * (possibly none); a file that cannot be written leaves the figures in
 * memory, and the next save tries again.
 *
 * The file is a GKeyFile: a [%format] group whose version is this module's
 * format version, then a group per caller's group with a key per figure
 * (group and figure names with the characters a GKeyFile cannot hold
 * percent-escaped).  A file of another format version reads as empty; an
 * entry whose value is not a finite, positive number, or a last line
 * without its newline (a file cut off), is skipped.  Saves of any number of
 * stores and processes take turns on a lock of the file's folder, so none
 * erases another's figures. */
#ifndef CBLUR_MEASURED_H
#define CBLUR_MEASURED_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CblurMeasured CblurMeasured;

/* A store of the figures in the file at path, read at once.  path NULL:
 * $XDG_CACHE_HOME/gegl-compute-blur/measured.ini (g_get_user_cache_dir ()). */
CblurMeasured *cblur_measured_new    (const gchar   *path);
void           cblur_measured_free   (CblurMeasured *measured);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurMeasured, cblur_measured_free)

/* The figure `name` of group into *value; FALSE, *value untouched, where
 * there is none. */
gboolean       cblur_measured_lookup (CblurMeasured *measured,
                                      const gchar   *group,
                                      const gchar   *name,
                                      gdouble       *value);

/* Sets a figure, in memory at once and in the file at the next save; value
 * is finite and positive, group and name non-empty. */
void           cblur_measured_record (CblurMeasured *measured,
                                      const gchar   *group,
                                      const gchar   *name,
                                      gdouble        value);

/* a figure that proved wrong: gone from memory and, at the next save, from
 * the file */
void           cblur_measured_forget (CblurMeasured *measured,
                                      const gchar   *group,
                                      const gchar   *name);

/* Re-reads the file, takes this store's records and forgets over it, writes
 * a temporary file beside it and renames it into place (atomic: a reader
 * sees the old or the new file, never a part); the store then holds what
 * the file holds, other processes' figures too.  FALSE with error where it
 * could not; the records and forgets then wait for the next save.  Blocks
 * on the file system (and on another process's save, up to a few seconds),
 * never on lookups. */
gboolean       cblur_measured_save   (CblurMeasured *measured,
                                      GError       **error);

G_END_DECLS

#endif
