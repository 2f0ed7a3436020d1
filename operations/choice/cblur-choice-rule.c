/* The backend choice's rule: from figures alone, the backend predicted to
 * finish a blur first, and when the GPU starts (cblur_choice_decide). */
#include "config.h"
#include "cblur-choice-internal.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

/* A GPU that would win only once started starts where what it saves on
 * blurs like this one pays back its start within this many of them: a
 * live preview's frames, a user's run of applies. */
#define PAYBACK_BLURS  64.0

/* A ready GPU whose figure is due to be measured again takes a blur it
 * is predicted to take at most this many times the CPU's time for. */
#define RECHECK_WITHIN 2.0

/* On at most this many cores the CPU's blur takes the cores that the
 * GPU's start runs on, which then ends late: there a starting GPU
 * predicted to finish first even counting the rest of its start is
 * waited for rather than blurred beside. */
#define FEW_CORES      4

/* A blur of at least this many pixels (a view's) whose CPU figure is not
 * measured yet starts a GPU that has served this machine before while
 * the CPU blurs it, on more than FEW_CORES cores, where the start runs on
 * a core the blur leaves: measured first, the CPU would start it a frame
 * of a preview later.  Only in a process that has blurred before: one
 * that blurs once and exits (the gegl CLI) would wait at its exit for a
 * start it has no use for. */
#define UNMEASURED_START_PIXELS (1024.0 * 1024.0)

static const gchar *
why_starting (void)
{
  return _("the GPU is starting; the CPU blurs meanwhile");
}

/* A starting GPU: the CPU blurs meanwhile, and hands the rest over where
 * the GPU, once ready, is predicted to finish it first.  On few cores,
 * where both backends' rates are measured and the GPU wins even counting
 * the rest of its start, the blur waits for it instead: at most until
 * the start has run twice what is left of it, or half of what the GPU is
 * predicted to save has passed beyond its predicted end, so that a start
 * that runs late costs at most that.  A start already past its predicted
 * end is not waited for. */
static void
decide_starting (const CblurFigures *figures,
                 gdouble             warm,
                 CblurPrediction    *prediction)
{
  gboolean cpu_known = figures->cpu_rate > 0;
  gboolean gl_known = figures->gl_rate > 0 && isfinite (figures->gl_rate);

  prediction->why_cpu = why_starting ();
  prediction->hands_over = !cpu_known || warm < prediction->cpu_ms;
  if (cpu_known && gl_known && figures->cores > 0 && figures->cores <= FEW_CORES &&
      figures->start_left_ms > 0 && prediction->gl_ms < prediction->cpu_ms)
    prediction->wait_ms = MIN (2 * figures->start_left_ms,
                               figures->start_left_ms +
                               (prediction->cpu_ms - prediction->gl_ms) / 2);
}

/* A GPU not started: with the CPU not measured, it starts meanwhile
 * only for a process's later large blur on many cores where it has
 * served this machine before (UNMEASURED_START_PIXELS).  A GPU that
 * would win once started, whose start the figures say a run of blurs
 * like this one would not pay back, starts all the same once the CPU's
 * blurs in this process have cost as much as it: a start figure taken
 * too high (a busy host, a driver's cache gone) is then measured again
 * rather than kept for good, at a cost of at most what the CPU has
 * spent. */
static void
decide_cold (const CblurFigures *figures,
             gdouble             pixels,
             gdouble             warm,
             CblurPrediction    *prediction)
{
  if (figures->cpu_rate <= 0 && figures->start_known && figures->cpu_spent_ms > 0 &&
      figures->cores > FEW_CORES && pixels >= UNMEASURED_START_PIXELS)
    {
      prediction->start = CBLUR_START_NOW;
      prediction->hands_over = TRUE;
      prediction->why_cpu = _("the CPU's speed here is not measured yet: it blurs "
                              "first while the GPU starts");
    }
  else if (figures->cpu_rate <= 0)
    prediction->why_cpu = _("the CPU's speed here is not measured yet: it blurs "
                            "first, and the GPU starts where it would pay");
  else if (prediction->gl_ms < prediction->cpu_ms)
    {
      prediction->start = CBLUR_START_NOW;
      prediction->hands_over = TRUE;
      prediction->why_cpu = why_starting ();
    }
  else if ((prediction->cpu_ms - warm) * PAYBACK_BLURS >= figures->start_left_ms)
    {
      prediction->start = CBLUR_START_AFTER;
      prediction->why_cpu = _("the CPU finishes first while the GPU is not started; "
                              "the GPU starts after this blur");
    }
  else if (warm < prediction->cpu_ms && figures->cpu_spent_ms >= figures->start_left_ms)
    {
      prediction->start = CBLUR_START_AFTER;
      prediction->why_cpu = _("the CPU's blurs here have cost as much as the GPU's "
                              "start; the GPU starts after this blur");
    }
  else
    prediction->why_cpu = _("the CPU is predicted to finish first, and the GPU "
                            "would not pay back its start");
}

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
  prediction->wait_ms = 0;
  if (figures->gpu == CBLUR_CHOICE_NO_GPU)
    {
      prediction->why_cpu = figures->why_no_gpu;
      return;
    }
  warm = figures->gl_call_ms + pixels / (figures->gl_rate > 0 ? figures->gl_rate
                                                              : CBLUR_CHOICE_PRIOR_GL_RATE);
  prediction->gl_ms = warm + (figures->gpu == CBLUR_CHOICE_GPU_READY ? 0
                                                                     : figures->start_left_ms);
  if (figures->gpu == CBLUR_CHOICE_GPU_READY)
    {
      if (!cpu_known || warm < prediction->cpu_ms ||
          (figures->gl_due && warm < RECHECK_WITHIN * prediction->cpu_ms))
        prediction->backend = CBLUR_BACKEND_GL;
      else
        prediction->why_cpu = _("the CPU is predicted to finish first");
    }
  else if (figures->gpu == CBLUR_CHOICE_GPU_STARTING)
    decide_starting (figures, warm, prediction);
  else
    decide_cold (figures, pixels, warm, prediction);
}
