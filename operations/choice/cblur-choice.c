/* The backend choice for a blur: its figures read, the rule applied
 * (cblur-choice-rule.c), CBLUR_BACKEND's force, and the GPU's start begun
 * or waited for as the rule says. */
#include "config.h"
#include "cblur-choice-internal.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-machine.h"
#include "cblur-settings.h"

/* A GL blur's cost beside its pixels, its transfers and waits, before
 * the GPU's blurs of the kind are measured. */
#define GL_CALL_MS    2.0

/* A start after a region makes its context after this pause: a process
 * that blurs once and exits (the gegl command line on a photo) has gone
 * by then, and does not wait at its exit for a start it has no use for;
 * the next blur of one that stays begins it at once. */
#define AFTER_REGION_PAUSE_US (500 * 1000)

/* Where the CPU is predicted to win while the GPU is ready, one blur in
 * this many goes to the GPU all the same where it loses by little: its
 * figure is measured again. */
#define RECHECK_EVERY 16

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
  cblur_choice_read_gpu (work, figures);
  figures->cores = cblur_machine_cores ();
  figures->cpu_rate = cblur_choice_rate_for (cblur_choice_cpu_group (), work);
  figures->gl_call_ms = GL_CALL_MS;
  figures->gl_rate = cblur_choice_rate_for (cblur_choice_gl_group (), work);
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
  figures->cpu_spent_ms = cblur_choice_cpu_spent_ms ();
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

/* the rule's choice under auto, the start begun or waited for */
static void
choose (const CblurWork  *work,
        CblurPrediction  *prediction)
{
  CblurFigures figures = { 0 };

  read_figures (work, &figures);
  cblur_choice_decide (&figures, work->pixels, prediction);
  if (prediction->start == CBLUR_START_NOW)
    cblur_choice_start_gpu (work, 0);
  else if (prediction->start == CBLUR_START_AFTER)
    cblur_choice_start_after_region ();
  else if (prediction->wait_ms > 0 && cblur_choice_wait_ready (prediction->wait_ms))
    {
      read_figures (work, &figures);
      cblur_choice_decide (&figures, work->pixels, prediction);
    }
}

CblurBackendKind
cblur_choice_make (const CblurWork *work,
                   CblurPrediction *prediction)
{
  CblurBackendChoice setting = cblur_settings ()->backend;
  CblurFigures       figures = { 0 };

  cblur_choice_register_warm_ups ();
  if (setting == CBLUR_BACKEND_CHOICE_AUTO)
    {
      choose (work, prediction);
      return prediction->backend;
    }
  read_figures (work, &figures);
  cblur_choice_decide (&figures, work->pixels, prediction);
  prediction->hands_over = FALSE;
  prediction->wait_ms = 0;
  if (setting == CBLUR_BACKEND_CHOICE_CPU)
    {
      prediction->backend = CBLUR_BACKEND_CPU;
      prediction->why_cpu = "CBLUR_BACKEND=cpu";
    }
  else
    {
      if (!CBLUR_HAVE_GL)
        warn_no_gl ();
      prediction->backend = CBLUR_HAVE_GL ? CBLUR_BACKEND_GL : CBLUR_BACKEND_CPU;
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
  after = cblur_choice_take_after_region ();
  /* the region's own blurs may have measured the CPU for the first time */
  if (!after)
    {
      CblurFigures figures = { 0 };

      read_figures (work, &figures);
      cblur_choice_decide (&figures, work->pixels, &prediction);
      after = prediction.start != CBLUR_START_NONE;
    }
  if (after)
    cblur_choice_start_gpu (work, AFTER_REGION_PAUSE_US);
  cblur_choice_save ();
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
