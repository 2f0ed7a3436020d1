/* The GPU's start as the backend choice sees it: begun in the background
 * where the rule says so, its cost measured for later processes, and
 * what of it is still to pay. */
#include "config.h"
#include "cblur-choice-internal.h"

#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-gl.h"
#include "cblur-machine.h"
#include "cblur-settings.h"

/* What a GPU's start costs before it is measured on this machine: a
 * driver's first load with its shader cache cold. */
#define PRIOR_START_MS 500.0

/* What linking a start's programs from the driver's shader cache takes,
 * about, on a few-core machine; and making a context with the driver's
 * libraries already in memory. */
#define PRIOR_LINKING_MS 60.0
#define PRIOR_CONTEXT_MS 150.0

/* how often a caller that waits for the start looks whether it is done */
#define WAIT_POLL_US 500

static struct
{
  GMutex   lock;
  gint64   started;       /* when this process asked for the start, or 0 */
  gint64   made;          /* when the context was made */
  gint64   linked;        /* when the programs were */
  gboolean after_region;  /* a start waits for a region to be done */
} start;

static void
start_mark (gint64 *when)
{
  g_mutex_lock (&start.lock);
  *when = g_get_monotonic_time ();
  g_mutex_unlock (&start.lock);
}

/* on the runtime's thread, with the context just made */
static void
start_made (CblurGpu *gpu)
{
  start_mark (&start.made);
}

/* on the runtime's thread, once the programs are linked */
static void
start_linked (CblurGpu *gpu)
{
  start_mark (&start.linked);
}

/* Taken as a rate is: a faster start (a warm cache, an idle CPU)
 * replaces the figure whole, a slower one weighs in by half.  The first
 * start measured for this GPU, driver and module compiled every program
 * its driver's cache did not hold yet, which a later process links from
 * there, and may be the machine's first, which loaded the driver from
 * the disk: its linking counts as a link from the cache and its context
 * as at most a context's prior, lest a later process predict a start many
 * times its own and never start. */
gdouble
cblur_choice_updated_start (gboolean               known,
                            gdouble                figure,
                            const CblurStartTimes *times)
{
  gdouble whole = times->context_ms + times->linking_ms + times->first_uses_ms;

  if (!known)
    return MIN (times->context_ms, PRIOR_CONTEXT_MS) +
           MIN (times->linking_ms, PRIOR_LINKING_MS) + times->first_uses_ms;
  return 1.0 / cblur_choice_updated_rate (1.0 / figure, 1.0 / whole);
}

/* On the runtime's thread, once the GPU is ready for blurs: what a start
 * costs, from the ask to the programs' first uses, compiles included.  A
 * later process's driver may serve the programs from its shader cache
 * (NVIDIA's and Mesa's keep one on disk), yet linking them from there on
 * few cores still takes about as long as the context: a figure without
 * them would have a few-core machine wait for a start several times as
 * long as predicted. */
static void
start_done (CblurGpu *gpu)
{
  const gchar    *group = cblur_choice_gl_group ();
  gint64          now = g_get_monotonic_time ();
  CblurStartTimes times;
  gboolean        measured;
  gdouble         figure = 0;
  gboolean        known;

  g_mutex_lock (&start.lock);
  measured = start.started > 0 && start.made >= start.started && start.linked >= start.made;
  times.context_ms = (start.made - start.started) / 1000.0;
  times.linking_ms = (start.linked - start.made) / 1000.0;
  times.first_uses_ms = (now - start.linked) / 1000.0;
  g_mutex_unlock (&start.lock);
  if (!measured)
    return;
  g_debug ("the GPU's start: the context %.1f ms, linking %.1f, first uses %.1f",
           times.context_ms, times.linking_ms, times.first_uses_ms);
  known = cblur_choice_figure_lookup (group, "start", &figure);
  cblur_choice_figure_record (group, "start", cblur_choice_updated_start (known, figure, &times));
}

void
cblur_choice_register_warm_ups (void)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      cblur_gpu_on_made (cblur_gl_prepare_all);
      cblur_gpu_on_made (start_made);
      cblur_gpu_on_linked (start_linked);
      cblur_gpu_on_linked (cblur_gl_first_use);
      cblur_gpu_on_linked (start_done);
      g_once_init_leave (&registered, 1);
    }
}

/* The blurs like work whose programs the start makes ready: a straight
 * float source is premultiplied on the GPU, every other format decoded;
 * the blurs joined with their source decode every format (premultiplied
 * float they take as it is); an op the choice does not know of takes
 * them all. */
static CblurGlBlurs
blurs_of (const CblurWork *work)
{
  static const gchar *const joined[] = { "unsharp-mask", "high-pass",
                                         "difference-of-gaussians", NULL };
  gboolean                  straight = g_strcmp0 (work->format, "RGBA float") == 0;

  if (g_strcmp0 (work->op, "variable-blur") == 0)
    return CBLUR_GL_BLURS_VARIABLE;
  if (g_strcmp0 (work->op, "gaussian-blur") == 0)
    return straight ? CBLUR_GL_BLURS_STRAIGHT : CBLUR_GL_BLURS_ENCODED;
  if (work->op != NULL && g_strv_contains (joined, work->op))
    return CBLUR_GL_BLURS_ENCODED | CBLUR_GL_BLURS_COMBINE;
  return CBLUR_GL_BLURS_ALL;
}

/* Whether the start made blurs like work ready; where it did not (it
 * started for another kind), their programs are queued now, and until
 * they are linked the GPU is as good as starting for them. */
static gboolean
blurs_made_ready (const CblurWork *work)
{
  CblurGlBlurs blurs = blurs_of (work);

  if (cblur_gl_started_for (blurs))
    return TRUE;
  cblur_gl_start (blurs, 0);
  return FALSE;
}

void
cblur_choice_start_gpu (const CblurWork *work,
                        gint64           pause_us)
{
  g_mutex_lock (&start.lock);
  if (start.started == 0)
    start.started = g_get_monotonic_time () + pause_us;
  start.after_region = FALSE;
  g_mutex_unlock (&start.lock);
  cblur_gl_start (blurs_of (work), pause_us);
}

void
cblur_choice_start_after_region (void)
{
  g_mutex_lock (&start.lock);
  start.after_region = TRUE;
  g_mutex_unlock (&start.lock);
}

gboolean
cblur_choice_take_after_region (void)
{
  gboolean after;

  g_mutex_lock (&start.lock);
  after = start.after_region;
  start.after_region = FALSE;
  g_mutex_unlock (&start.lock);
  return after;
}

/* what of the start is left: all of it before it began; *known: whether
 * a start was measured before, else the prior stands for it */
static gdouble
start_left_ms (gboolean *known)
{
  gdouble whole = PRIOR_START_MS;
  gdouble spent;

  *known = cblur_choice_figure_lookup (cblur_choice_gl_group (), "start", &whole);
  g_mutex_lock (&start.lock);
  spent = start.started > 0 ? MAX (g_get_monotonic_time () - start.started, 0) / 1000.0 : 0;
  g_mutex_unlock (&start.lock);
  return MAX (whole - spent, 0);
}

static gboolean
ready (CblurGpuState state)
{
  return state == CBLUR_GPU_READY && cblur_gpu_prepared ();
}

gboolean
cblur_choice_wait_ready (gdouble ms)
{
  gint64   deadline = g_get_monotonic_time () + (gint64) (ms * 1000);
  gboolean is_software = FALSE;

  for (;;)
    {
      CblurGpuState state = cblur_gpu_state (FALSE, &is_software, NULL);

      if (ready (state))
        return TRUE;
      if ((state != CBLUR_GPU_STARTING && state != CBLUR_GPU_READY) ||
          g_get_monotonic_time () >= deadline)
        return FALSE;
      g_usleep (WAIT_POLL_US);
    }
}

/* A software rasterizer is slower than the CPU path it would replace,
 * but where the tests take it for a GPU that finishes every blur first
 * (CBLUR_GL_NO_WAIT). */
static gboolean
software_taken (gboolean is_software)
{
  return !is_software || cblur_settings ()->gl_no_wait;
}

static const gchar *
why_software (void)
{
  return _("the only OpenGL is a software renderer, slower than the CPU "
           "(CBLUR_BACKEND=gl uses it)");
}

void
cblur_choice_read_gpu (const CblurWork *work,
                       CblurFigures    *figures)
{
  g_autoptr (GError) error = NULL;
  gboolean           is_software = FALSE;
  gdouble            known_software = 0;
  gboolean           no_wait = cblur_settings ()->gl_no_wait;
  const gchar       *group = cblur_choice_gl_group ();
  CblurGpuState      state;

  figures->gpu = CBLUR_CHOICE_NO_GPU;
  figures->start_left_ms = start_left_ms (&figures->start_known);
  if (!CBLUR_HAVE_GL)
    {
      figures->why_no_gpu = _("this build has no GL (meson -Dgl=disabled)");
      return;
    }
  if (!cblur_machine_has_gpu () && !no_wait)
    {
      figures->why_no_gpu = _("this machine shows no GPU (no /dev/nvidiactl or "
                              "/dev/dri/renderD*)");
      return;
    }
  state = cblur_gpu_state (FALSE, &is_software, &error);
  if (state == CBLUR_GPU_FAILED)
    figures->why_no_gpu = g_intern_string (error->message);
  else if (state == CBLUR_GPU_NOT_STARTED)
    {
      if (cblur_choice_figure_lookup (group, "software", &known_software) && !no_wait)
        figures->why_no_gpu = why_software ();
      else
        figures->gpu = CBLUR_CHOICE_GPU_COLD;
    }
  else if (state == CBLUR_GPU_STARTING)
    {
      /* a start after a region that waits for its pause begins now: this
       * process blurs again */
      cblur_gpu_state (TRUE, NULL, NULL);
      figures->gpu = CBLUR_CHOICE_GPU_STARTING;
    }
  else if (!software_taken (is_software))
    {
      cblur_choice_figure_record (group, "software", 1.0);
      figures->why_no_gpu = why_software ();
    }
  else if (!ready (state))
    figures->gpu = CBLUR_CHOICE_GPU_STARTING;
  else
    figures->gpu = blurs_made_ready (work) ? CBLUR_CHOICE_GPU_READY
                                           : CBLUR_CHOICE_GPU_STARTING;
}
