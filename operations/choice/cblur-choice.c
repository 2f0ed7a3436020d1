#include "config.h"
#include "cblur-choice.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-gl.h"
#include "cblur-machine.h"
#include "cblur-measured.h"
#include "cblur-settings.h"

/* What a GPU costs before anything is measured on this machine: a driver's
 * first load with its shader cache cold, and a GPU that blurs a 4K image
 * in about ten milliseconds, beside a call's own transfers and waits.
 * Measured figures replace them from the first start and blur on. */
#define PRIOR_START_MS   500.0
#define PRIOR_GL_RATE    1.0e6
#define GL_CALL_MS       2.0

/* A GPU that would win only once started starts where what it saves on
 * blurs like this one pays back its start within this many of them: a
 * live preview's frames, a user's run of applies. */
#define PAYBACK_BLURS    64.0

/* Where the CPU is predicted to win while the GPU is ready, one blur in
 * this many goes to the GPU all the same if it is predicted to take at
 * most RECHECK_WITHIN times the CPU's time: its figure is measured again. */
#define RECHECK_EVERY    16
#define RECHECK_WITHIN   2.0

/* Below this many pixels a blur's time is mostly its start-up, whose
 * noise would tell nothing of a rate. */
#define LEAST_LEARNED_PIXELS (64.0 * 1024)

/* ---- the figures, kept in the user's cache folder ---- */

/* A store saved at most this often, at the end of a region: a run of
 * applies or a slider's frames writes the file once a second at most. */
#define SAVE_EVERY_US G_USEC_PER_SEC

static struct
{
  GMutex         lock;
  CblurMeasured *store;
  gboolean       changed;   /* since the last save */
  gint64         saved;     /* when */
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

static gboolean
figure_lookup (const gchar *group,
               const gchar *name,
               gdouble     *value)
{
  return cblur_measured_lookup (store (), group, name, value);
}

static void
figure_record (const gchar *group,
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

/* The figures into the file where they changed and the last save is a
 * while ago, or at exit (`now` G_MAXINT64) whatever; one that fails tries
 * again next time. */
static void
save_figures_at (gint64 now)
{
  g_autoptr (GError) error = NULL;
  gboolean           due;

  g_mutex_lock (&kept.lock);
  due = kept.changed && (kept.saved == 0 || now - kept.saved >= SAVE_EVERY_US);
  if (due)
    {
      kept.changed = FALSE;
      kept.saved = now;
    }
  g_mutex_unlock (&kept.lock);
  if (due && !cblur_measured_save (store (), &error))
    {
      g_debug ("the measured figures are not saved: %s", error->message);
      g_mutex_lock (&kept.lock);
      kept.changed = TRUE;
      g_mutex_unlock (&kept.lock);
    }
}

static void
save_figures (void)
{
  save_figures_at (g_get_monotonic_time ());
}

/* the last region's figures, which came within a second of a save */
static void
save_at_exit (void)
{
  save_figures_at (G_MAXINT64);
}

/* ---- groups and names ---- */

static const gchar *
cpu_group (void)
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

static const gchar *
gl_group (void)
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

/* The rate measured for work, at its size or else the nearest size
 * measured; 0 where none is. */
static gdouble
rate_for (const gchar     *group,
          const CblurWork *work)
{
  gint size = size_class (work->pixels);
  gint off;

  for (off = 0; off <= 3; off++)
    {
      g_autofree gchar *smaller = rate_name (work, size - off);
      g_autofree gchar *larger = rate_name (work, size + off);
      gdouble           rate;

      if (figure_lookup (group, smaller, &rate) || figure_lookup (group, larger, &rate))
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

/* ---- the rule ---- */

void
cblur_choice_decide (const CblurFigures *figures,
                     gdouble             pixels,
                     CblurPrediction    *prediction)
{
  gboolean cpu_known = figures->cpu_rate > 0;
  gdouble  warm;

  prediction->backend = CBLUR_BACKEND_CPU;
  prediction->start = CBLUR_START_NONE;
  prediction->cpu_ms = cpu_known ? pixels / figures->cpu_rate : 0;
  prediction->gl_ms = 0;
  prediction->why_cpu = NULL;
  prediction->hands_over = FALSE;
  if (figures->gpu == CBLUR_CHOICE_NO_GPU)
    {
      prediction->why_cpu = figures->why_no_gpu;
      return;
    }
  warm = figures->gl_call_ms + (figures->gl_rate > 0 ? pixels / figures->gl_rate
                                                     : pixels / PRIOR_GL_RATE);
  prediction->gl_ms = warm + (figures->gpu == CBLUR_CHOICE_GPU_READY ? 0
                                                                     : figures->start_left_ms);
  switch (figures->gpu)
    {
    case CBLUR_CHOICE_GPU_READY:
      if (!cpu_known || warm < prediction->cpu_ms ||
          (figures->gl_due && warm < RECHECK_WITHIN * prediction->cpu_ms))
        prediction->backend = CBLUR_BACKEND_GL;
      else
        prediction->why_cpu = _("the CPU is predicted to finish first");
      break;
    case CBLUR_CHOICE_GPU_STARTING:
      prediction->why_cpu = _("the GPU is starting; the CPU blurs meanwhile");
      prediction->hands_over = !cpu_known || warm < prediction->cpu_ms;
      break;
    case CBLUR_CHOICE_GPU_COLD:
    default:
      if (!cpu_known)
        prediction->why_cpu = _("the CPU's speed here is not measured yet: it blurs "
                                "first, and the GPU starts where it would pay");
      else if (prediction->gl_ms < prediction->cpu_ms)
        {
          prediction->start = CBLUR_START_NOW;
          prediction->hands_over = TRUE;
          prediction->why_cpu = _("the GPU is starting; the CPU blurs meanwhile");
        }
      else if ((prediction->cpu_ms - warm) * PAYBACK_BLURS >= figures->start_left_ms)
        {
          prediction->start = CBLUR_START_AFTER;
          prediction->why_cpu = _("the CPU finishes first while the GPU is not started; "
                                  "the GPU starts after this blur");
        }
      else
        prediction->why_cpu = _("the CPU is predicted to finish first, and the GPU "
                                "would not pay back its start");
      break;
    }
}

/* ---- the GPU's start ---- */

static gdouble updated_rate (gdouble figure,
                             gdouble measured);

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

/* On the runtime's thread, once the GPU is ready for blurs: what a start
 * costs a later process, whose driver serves the programs from its shader
 * cache (NVIDIA's and Mesa's keep one on disk): the context's making and
 * the programs' first uses, not their compiles, which the first process
 * on a machine pays in full.  Taken as a rate is (updated_rate): a faster
 * start replaces the figure whole.  A start that took longer, where the
 * CPU blurred beside it, only delays a hand-over that the CPU covers. */
static void
start_done (CblurGpu *gpu)
{
  gdouble ms = 0;
  gdouble figure;

  g_mutex_lock (&start.lock);
  if (start.started > 0 && start.made >= start.started && start.linked >= start.made)
    ms = (start.made - start.started + g_get_monotonic_time () - start.linked) / 1000.0;
  g_mutex_unlock (&start.lock);
  if (ms <= 0)
    return;
  if (figure_lookup (gl_group (), "start", &figure))
    ms = 1.0 / updated_rate (1.0 / figure, 1.0 / ms);
  figure_record (gl_group (), "start", ms);
}

static void
start_gpu (void)
{
  g_mutex_lock (&start.lock);
  if (start.started == 0)
    start.started = g_get_monotonic_time ();
  start.after_region = FALSE;
  g_mutex_unlock (&start.lock);
  cblur_gl_start ();
}

/* what of the start is left: all of it before it began */
static gdouble
start_left_ms (void)
{
  gdouble whole = PRIOR_START_MS;
  gdouble spent;

  figure_lookup (gl_group (), "start", &whole);
  g_mutex_lock (&start.lock);
  spent = start.started > 0 ? (g_get_monotonic_time () - start.started) / 1000.0 : 0;
  g_mutex_unlock (&start.lock);
  return MAX (whole - spent, 0);
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

/* The GPU as the rule sees it, and what its start costs. */
static void
read_gpu (CblurFigures *figures)
{
  g_autoptr (GError) error = NULL;
  gboolean           is_software = FALSE;
  gdouble            known_software = 0;
  gboolean           no_wait = cblur_settings ()->gl_no_wait;

  figures->gpu = CBLUR_CHOICE_NO_GPU;
  figures->start_left_ms = start_left_ms ();
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
  switch (cblur_gpu_state (FALSE, &is_software, &error))
    {
    case CBLUR_GPU_FAILED:
      figures->why_no_gpu = g_intern_string (error->message);
      return;
    case CBLUR_GPU_NOT_STARTED:
      if (figure_lookup (gl_group (), "software", &known_software) && !no_wait)
        figures->why_no_gpu = why_software ();
      else
        figures->gpu = CBLUR_CHOICE_GPU_COLD;
      return;
    case CBLUR_GPU_STARTING:
      figures->gpu = CBLUR_CHOICE_GPU_STARTING;
      return;
    case CBLUR_GPU_READY:
    default:
      if (!software_taken (is_software))
        {
          figure_record (gl_group (), "software", 1.0);
          figures->why_no_gpu = why_software ();
        }
      else
        figures->gpu = cblur_gpu_prepared () ? CBLUR_CHOICE_GPU_READY
                                             : CBLUR_CHOICE_GPU_STARTING;
      return;
    }
}

/* every RECHECK_EVERY-th choice with the GPU ready, in this process */
static gboolean
recheck_due (void)
{
  static gint choices;

  return (guint) g_atomic_int_add (&choices, 1) % RECHECK_EVERY == RECHECK_EVERY - 1;
}

static void
read_figures (const CblurWork *work,
              CblurFigures    *figures)
{
  read_gpu (figures);
  figures->cpu_rate = rate_for (cpu_group (), work);
  figures->gl_call_ms = GL_CALL_MS;
  figures->gl_rate = rate_for (gl_group (), work);
  /* a GPU whose own figures measure nothing: a software rasterizer
   * taken for one */
  if (cblur_settings ()->gl_no_wait)
    {
      figures->gl_rate = INFINITY;
      figures->gl_call_ms = 0;
    }
  else if (figures->gl_rate > 0)
    figures->gl_call_ms = 0;
  figures->gl_due = figures->gpu == CBLUR_CHOICE_GPU_READY && recheck_due ();
}

/* The warm-ups the GPU's blurs need before it takes any, and the
 * start's measure after them. */
static void
register_warm_ups (void)
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

/* CBLUR_BACKEND=gl in a build without GL: said once, and the CPU blurs */
static void
warn_no_gl (void)
{
  static gsize warned = 0;

  if (g_once_init_enter (&warned))
    {
      g_warning (_("cblur:gaussian-blur: CBLUR_BACKEND=gl, but this build has "
                   "no GL (meson -Dgl=disabled); blurring on the CPU"));
      g_once_init_leave (&warned, 1);
    }
}

CblurBackendKind
cblur_choice_make (const CblurWork *work,
                   CblurPrediction *prediction)
{
  CblurBackendChoice setting = cblur_settings ()->backend;
  CblurFigures       figures = { 0 };

  register_warm_ups ();
  read_figures (work, &figures);
  cblur_choice_decide (&figures, work->pixels, prediction);
  if (setting != CBLUR_BACKEND_CHOICE_AUTO)
    prediction->hands_over = FALSE;
  if (setting == CBLUR_BACKEND_CHOICE_CPU)
    {
      prediction->backend = CBLUR_BACKEND_CPU;
      prediction->why_cpu = "CBLUR_BACKEND=cpu";
    }
  else if (setting == CBLUR_BACKEND_CHOICE_GL)
    {
      if (!CBLUR_HAVE_GL)
        warn_no_gl ();
      prediction->backend = CBLUR_HAVE_GL ? CBLUR_BACKEND_GL : CBLUR_BACKEND_CPU;
    }
  else if (prediction->start == CBLUR_START_NOW)
    start_gpu ();
  else if (prediction->start == CBLUR_START_AFTER)
    {
      g_mutex_lock (&start.lock);
      start.after_region = TRUE;
      g_mutex_unlock (&start.lock);
    }
  return prediction->backend;
}

void
cblur_choice_region_done (const CblurWork *work)
{
  CblurPrediction prediction;
  gboolean        after;

  if (cblur_settings ()->backend != CBLUR_BACKEND_CHOICE_AUTO)
    return;
  g_mutex_lock (&start.lock);
  after = start.after_region;
  start.after_region = FALSE;
  g_mutex_unlock (&start.lock);
  /* the region's own blurs may have measured the CPU for the first time */
  if (!after)
    {
      CblurFigures figures = { 0 };

      read_figures (work, &figures);
      cblur_choice_decide (&figures, work->pixels, &prediction);
      after = prediction.start != CBLUR_START_NONE;
    }
  if (after)
    start_gpu ();
  save_figures ();
}

/* ---- learning ---- */

/* A rate measured again: taken whole where it is faster, else averaged
 * with the figure, so that one slow blur (a cold cache, a busy host)
 * halves a backend's rate at most, and a backend that is slower for good
 * comes down to its rate within a few blurs. */
static gdouble
updated_rate (gdouble figure,
              gdouble measured)
{
  return figure <= 0 || measured >= figure ? measured : (figure + measured) / 2;
}

void
cblur_choice_learn (const CblurWork  *work,
                    CblurBackendKind  ran_on,
                    gdouble           ms)
{
  const gchar      *group = ran_on == CBLUR_BACKEND_GL ? gl_group () : cpu_group ();
  g_autofree gchar *name = rate_name (work, size_class (work->pixels));
  gboolean          is_software = FALSE;
  gdouble           figure = 0;

  if (ms <= 0 || work->pixels < LEAST_LEARNED_PIXELS)
    return;
  /* a software rasterizer's rate is no GPU's */
  if (ran_on == CBLUR_BACKEND_GL &&
      (cblur_gpu_state (FALSE, &is_software, NULL) != CBLUR_GPU_READY || is_software))
    return;
  /* a GPU's first blur also allocates what the next ones reuse: it is
   * weighed against the prior, not taken whole */
  if (!figure_lookup (group, name, &figure) && ran_on == CBLUR_BACKEND_GL)
    figure = PRIOR_GL_RATE;
  figure_record (group, name, updated_rate (figure, work->pixels / ms));
}

void
cblur_choice_report (const CblurPrediction *prediction,
                     CblurRunReport        *report)
{
  report->predicted_cpu_ms = prediction->cpu_ms;
  report->predicted_gl_ms = prediction->gl_ms;
  if (report->ran_on == CBLUR_BACKEND_CPU && report->why_cpu == NULL)
    report->why_cpu = prediction->why_cpu;
}
