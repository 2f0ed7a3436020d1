/* The backend choice's figures: what each backend's blurs of a kind and
 * size were measured to cost on this machine, kept in the user's cache
 * folder (cblur-measured.h), and what a blur teaches them. */
#include "config.h"
#include "cblur-choice-internal.h"

#include <math.h>
#include <stdlib.h>

#include "cblur-gpu.h"
#include "cblur-machine.h"
#include "cblur-measured.h"

/* Below this many pixels a blur's time is mostly its start-up, whose
 * noise would tell nothing of a rate. */
#define LEAST_LEARNED_PIXELS (64.0 * 1024)

/* A store saved at most this often, at the end of a region: a run of
 * applies or a slider's frames writes the file once a second at most. */
#define SAVE_EVERY_US G_USEC_PER_SEC

static struct
{
  GMutex         lock;
  CblurMeasured *store;
  gboolean       changed;   /* since the last save */
  gint64         saved;     /* when */
  gint           saving;    /* saves under way in the background */
} kept;

static void save_at_exit (void);

static CblurMeasured *
store (void)
{
  static gsize made = 0;

  if (g_once_init_enter (&made))
    {
      kept.store = cblur_measured_new (NULL);
      atexit (save_at_exit);
      g_once_init_leave (&made, 1);
    }
  return kept.store;
}

gboolean
cblur_choice_figure_lookup (const gchar *group,
                            const gchar *name,
                            gdouble     *value)
{
  return cblur_measured_lookup (store (), group, name, value);
}

void
cblur_choice_figure_record (const gchar *group,
                            const gchar *name,
                            gdouble      value)
{
  if (!isfinite (value) || value <= 0)
    return;
  cblur_measured_record (store (), group, name, value);
  g_mutex_lock (&kept.lock);
  kept.changed = TRUE;
  g_mutex_unlock (&kept.lock);
}

/* Whether the figures changed and the last save is a while ago, or at
 * exit (`now` G_MAXINT64) whether they changed at all; where so, the
 * save is taken as begun. */
static gboolean
save_due_at (gint64 now)
{
  gboolean due;

  g_mutex_lock (&kept.lock);
  due = kept.changed && (kept.saved == 0 || now - kept.saved >= SAVE_EVERY_US);
  if (due)
    {
      kept.changed = FALSE;
      kept.saved = now;
    }
  g_mutex_unlock (&kept.lock);
  return due;
}

/* The figures into the file; one that fails tries again next time. */
static void
save_figures (void)
{
  g_autoptr (GError) error = NULL;

  if (!cblur_measured_save (store (), &error))
    {
      g_debug ("the measured figures are not saved: %s", error->message);
      g_mutex_lock (&kept.lock);
      kept.changed = TRUE;
      g_mutex_unlock (&kept.lock);
    }
}

static gpointer
save_in_background (gpointer unused)
{
  save_figures ();
  g_mutex_lock (&kept.lock);
  kept.saving--;
  g_mutex_unlock (&kept.lock);
  return NULL;
}

/* A save reads, merges and writes the file: on a thread of its own, so
 * that the blur whose region made it due does not wait for the disk.
 * The exit's save waits for it (the store saves one at a time). */
void
cblur_choice_save (void)
{
  if (!save_due_at (g_get_monotonic_time ()))
    return;
  g_mutex_lock (&kept.lock);
  kept.saving++;
  g_mutex_unlock (&kept.lock);
  g_thread_unref (g_thread_new ("cblur-save", save_in_background, NULL));
}

/* the last region's figures, which came within a second of a save; a
 * save under way in the background is waited for, as saving again waits
 * for it, rather than cut off by the exit */
static void
save_at_exit (void)
{
  gboolean saving;

  g_mutex_lock (&kept.lock);
  saving = kept.saving > 0;
  g_mutex_unlock (&kept.lock);
  if (save_due_at (G_MAXINT64) || saving)
    save_figures ();
}

/* ---- groups and names ---- */

const gchar *
cblur_choice_cpu_group (void)
{
  static const gchar *group;

  if (g_once_init_enter (&group))
    {
      g_autofree gchar *name = g_strdup_printf ("cpu cores=%d module=%s",
                                                cblur_machine_cores (), CBLUR_VERSION);

      g_once_init_leave (&group, g_intern_string (name));
    }
  return group;
}

const gchar *
cblur_choice_gl_group (void)
{
  static const gchar *group;

  if (g_once_init_enter (&group))
    {
      g_autofree gchar *name = g_strdup_printf ("gl gpu=%s module=%s", cblur_machine_gpu (),
                                                CBLUR_VERSION);

      g_once_init_leave (&group, g_intern_string (name));
    }
  return group;
}

/* Sizes in classes a power of four apart, from a quarter of a megapixel:
 * a rate holds within one. */
static gint
size_class (gdouble pixels)
{
  return (gint) floor (log (MAX (pixels, 1.0) / (1 << 18)) / log (4.0));
}

/* the rate's name for work at a size class; direct mode's reach in
 * powers of two */
static gchar *
rate_name (const CblurWork *work,
           gint             size)
{
  g_autofree gchar *reach = work->reach > 0
                            ? g_strdup_printf (" reach=%d",
                                               1 << (gint) round (log2 (work->reach)))
                            : g_strdup ("");

  return g_strdup_printf ("%s %s %s%s size=%d", work->op, work->mode, work->format, reach,
                          size);
}

gdouble
cblur_choice_rate_for (const gchar     *group,
                       const CblurWork *work)
{
  gint size = size_class (work->pixels);
  gint off;

  for (off = 0; off <= 3; off++)
    {
      g_autofree gchar *smaller = rate_name (work, size - off);
      g_autofree gchar *larger = rate_name (work, size + off);
      gdouble           rate;

      if (cblur_choice_figure_lookup (group, smaller, &rate) ||
          cblur_choice_figure_lookup (group, larger, &rate))
        return rate;
    }
  return 0;
}

CblurWork
cblur_work_of_region (const gchar *op,
                      const gchar *mode,
                      const gchar *format,
                      gint         cost_reach,
                      gint         reach,
                      gdouble      width,
                      gdouble      height)
{
  return (CblurWork) { op, mode, format, cost_reach,
                       (width + 2.0 * reach) * (height + 2.0 * reach) };
}

/* ---- learning ---- */

/* One slow blur (a cold cache, a busy host) halves a backend's rate at
 * most, and a backend that is slower for good comes down to its rate
 * within a few blurs. */
gdouble
cblur_choice_updated_rate (gdouble figure,
                           gdouble measured)
{
  return figure <= 0 || measured >= figure ? measured : (figure + measured) / 2;
}

/* what the CPU's blurs in this process have taken */
static struct
{
  GMutex  lock;
  gdouble ms;
} cpu_spent;

gdouble
cblur_choice_cpu_spent_ms (void)
{
  gdouble ms;

  g_mutex_lock (&cpu_spent.lock);
  ms = cpu_spent.ms;
  g_mutex_unlock (&cpu_spent.lock);
  return ms;
}

static void
cpu_spend (gdouble ms)
{
  g_mutex_lock (&cpu_spent.lock);
  cpu_spent.ms += ms;
  g_mutex_unlock (&cpu_spent.lock);
}

void
cblur_choice_learn (const CblurWork  *work,
                    CblurBackendKind  ran_on,
                    gdouble           ms)
{
  const gchar      *group = ran_on == CBLUR_BACKEND_GL ? cblur_choice_gl_group ()
                                                       : cblur_choice_cpu_group ();
  g_autofree gchar *name = rate_name (work, size_class (work->pixels));
  gboolean          is_software = FALSE;
  gdouble           figure = 0;

  if (ms <= 0)
    return;
  if (ran_on == CBLUR_BACKEND_CPU)
    cpu_spend (ms);
  if (work->pixels < LEAST_LEARNED_PIXELS)
    return;
  /* a software rasterizer's rate is no GPU's */
  if (ran_on == CBLUR_BACKEND_GL &&
      (cblur_gpu_state (FALSE, &is_software, NULL) != CBLUR_GPU_READY || is_software))
    return;
  /* a GPU's first blur also allocates what the next ones reuse: it is
   * weighed against the prior, not taken whole */
  if (!cblur_choice_figure_lookup (group, name, &figure) && ran_on == CBLUR_BACKEND_GL)
    figure = CBLUR_CHOICE_PRIOR_GL_RATE;
  cblur_choice_figure_record (group, name, cblur_choice_updated_rate (figure, work->pixels / ms));
}
