/* The backend choice for every blur of every op: the backend predicted to
 * finish it first.  The CPU's time comes from this machine's measured CPU
 * throughput for the op, mode, format and size at this many cores; the
 * GPU's from its measured throughput plus whatever of its start (driver,
 * context, programs) is still to be paid.  No blur waits on a start
 * where the CPU would finish sooner: where the GPU wins even counting its
 * start, the start begins at once in the background and the CPU serves
 * meanwhile, handing the remaining bands of a region over once the GPU is
 * ready, or, on few cores, the blur waits for a start under way; where
 * the GPU would win only once started, it starts after the region is
 * done.  What a blur took is
 * learned, and kept across processes (cblur-measured.h).
 * CBLUR_BACKEND=gl|cpu force their backend.  Every function is
 * thread-safe. */
#ifndef CBLUR_CHOICE_H
#define CBLUR_CHOICE_H

#include "cblur-backend.h"

G_BEGIN_DECLS

/* A blur to predict, in what its cost depends on. */
typedef struct
{
  const gchar *op;       /* "gaussian-blur", "variable-blur" */
  const gchar *mode;     /* the kernel's mode, "variable" */
  const gchar *format;   /* the pixels as GEGL stores them: a babl name */
  gint         reach;    /* where each pixel's cost follows it (direct), else 0 */
  gdouble      pixels;   /* blurred, with the halo read */
} CblurWork;

/* The work of blurring a width × height region with a halo of reach
 * around it; cost_reach: reach where each pixel's cost follows it, else
 * 0.  format: a babl name. */
CblurWork        cblur_work_of_region (const gchar *op,
                                       const gchar *mode,
                                       const gchar *format,
                                       gint         cost_reach,
                                       gint         reach,
                                       gdouble      width,
                                       gdouble      height);

/* The GPU as a prediction sees it. */
typedef enum
{
  CBLUR_CHOICE_NO_GPU,         /* none, a software renderer, or its start failed */
  CBLUR_CHOICE_GPU_COLD,       /* not started: its whole start is to pay */
  CBLUR_CHOICE_GPU_STARTING,   /* starting in the background */
  CBLUR_CHOICE_GPU_READY       /* its context made and its programs linked */
} CblurChoiceGpu;

/* What a choice is made from; rates in pixels a millisecond, 0 where not
 * measured. */
typedef struct
{
  CblurChoiceGpu gpu;
  const gchar   *why_no_gpu;     /* where NO_GPU */
  gdouble        cpu_rate;
  gdouble        gl_rate;        /* once started; infinite for a GPU taken to
                                  * finish every blur first */
  gdouble        gl_call_ms;     /* a GL blur's cost beside its pixels */
  gdouble        start_left_ms;  /* of the GPU's start, still to pay */
  gboolean       gl_due;         /* the GPU's figure is due to be measured
                                  * again, where it loses by little */
  gdouble        cpu_spent_ms;   /* the CPU's blurs in this process so far */
  gint           cores;          /* the CPU's, 0 where not known */
  gboolean       start_known;    /* this GPU's start was measured before:
                                  * it has served this machine */
} CblurFigures;

typedef enum
{
  CBLUR_START_NONE,
  CBLUR_START_NOW,      /* the GPU wins this blur even counting its start */
  CBLUR_START_AFTER     /* it pays back its start over the blurs to come */
} CblurStart;

typedef struct
{
  CblurBackendKind backend;
  CblurStart       start;
  gdouble          cpu_ms;     /* predicted; 0 where not measured */
  gdouble          gl_ms;      /* predicted, with the start still to pay; 0
                                * without a GPU */
  const gchar     *why_cpu;    /* where the CPU was chosen */
  gboolean         hands_over; /* the CPU serves while the GPU starts, and
                                * hands the rest over once it is ready */
  gdouble          wait_ms;    /* the longest wait for a starting GPU
                                * before the CPU blurs, 0 for none */
} CblurPrediction;

/* The choice for a blur of `pixels` from figures, and nothing else: the
 * rule itself.  Under it the GPU, once ready, takes a blur it is
 * predicted to finish first, or any while the CPU is not measured, or
 * one it is predicted to take at most twice the CPU's time for where its
 * figure is due to be measured again: a figure only the backend's own
 * blurs correct would otherwise keep a slow first measure for good.  On
 * few cores, where the CPU's blur beside a start would slow it, a
 * starting GPU predicted to finish first even counting the rest of its
 * start is waited for (wait_ms, bounded by the prediction). */
void             cblur_choice_decide (const CblurFigures *figures,
                                      gdouble             pixels,
                                      CblurPrediction    *prediction);

/* The backend for work under CBLUR_BACKEND, with what was predicted and,
 * where the CPU was chosen, why; starts the GPU in the background where
 * the prediction says so (CBLUR_START_NOW).  Waits for the GPU only where
 * the rule says so (wait_ms), and chooses again once it is ready. */
CblurBackendKind cblur_choice_make   (const CblurWork    *work,
                                      CblurPrediction    *prediction);

/* What blurring work took on ran_on, in milliseconds, taken into the
 * figures: a prediction it proves wrong is measured again. */
void             cblur_choice_learn  (const CblurWork    *work,
                                      CblurBackendKind    ran_on,
                                      gdouble             ms);

/* A region of work is done: the GPU starts now where it pays back its
 * start over blurs like it (CBLUR_START_AFTER), with the CPU idle. */
void             cblur_choice_region_done (const CblurWork *work);

/* The prediction into the band's report: its figures, and where the band
 * ran on the CPU for no other reason, the prediction's. */
void             cblur_choice_report (const CblurPrediction *prediction,
                                      CblurRunReport        *report);

G_END_DECLS

#endif
