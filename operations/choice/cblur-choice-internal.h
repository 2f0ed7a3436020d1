/* What the backend choice's files share beside their contract
 * (cblur-choice.h): the figures kept in the user's cache folder
 * (cblur-choice-figures.c) and the GPU's start in the background
 * (cblur-choice-start.c).  Every function is thread-safe. */
#ifndef CBLUR_CHOICE_INTERNAL_H
#define CBLUR_CHOICE_INTERNAL_H

#include "cblur-choice.h"

G_BEGIN_DECLS

/* A GPU before its blurs are measured on this machine: one that blurs a
 * 4K image in about ten milliseconds, in pixels a millisecond. */
#define CBLUR_CHOICE_PRIOR_GL_RATE 1.0e6

/* ---- the figures (cblur-choice-figures.c) ---- */

/* the figures' groups: the CPU's at this many cores, the GPU's of this
 * model and driver, both of this module's version */
const gchar *cblur_choice_cpu_group     (void);
const gchar *cblur_choice_gl_group      (void);

gboolean     cblur_choice_figure_lookup (const gchar     *group,
                                         const gchar     *name,
                                         gdouble         *value);
/* a finite, positive value; any other is not taken */
void         cblur_choice_figure_record (const gchar     *group,
                                         const gchar     *name,
                                         gdouble          value);

/* The rate of group's measured for work, at its size or else the
 * nearest size measured, in pixels a millisecond; 0 where none is. */
gdouble      cblur_choice_rate_for      (const gchar     *group,
                                         const CblurWork *work);

/* A rate (or any figure taken as one) measured again: taken whole where
 * it is faster, else averaged with the figure. */
gdouble      cblur_choice_updated_rate  (gdouble          figure,
                                         gdouble          measured);

/* What the CPU's blurs in this process have taken, in milliseconds. */
gdouble      cblur_choice_cpu_spent_ms  (void);

/* The figures into the file, in the background, where they changed and
 * the last save is a while ago; a save that fails tries again next time. */
void         cblur_choice_save          (void);

/* ---- the GPU's start (cblur-choice-start.c) ---- */

/* A start's phases: from the ask to the context made, to the programs
 * linked, to their first uses done. */
typedef struct
{
  gdouble context_ms;
  gdouble linking_ms;
  gdouble first_uses_ms;
} CblurStartTimes;

/* The start's figure after a start that took times, where one was known
 * (figure) or not. */
gdouble      cblur_choice_updated_start (gboolean               known,
                                         gdouble                figure,
                                         const CblurStartTimes *times);

/* The warm-ups the GPU's blurs need before it takes any, and the start's
 * measure after them: before any blur may start the GPU. */
void         cblur_choice_register_warm_ups (void);

/* The GPU as the rule sees it for blurs like work (gpu, why_no_gpu) and
 * what of its start is left to pay (start_left_ms). */
void         cblur_choice_read_gpu      (const CblurWork *work,
                                         CblurFigures    *figures);

/* The start, in the background, at once or once the region in hand is
 * done (cblur_choice_start_after_region, taken back by
 * cblur_choice_take_after_region), making blurs like work ready first;
 * its context made after pause_us (0: at once). */
void         cblur_choice_start_gpu     (const CblurWork *work,
                                         gint64           pause_us);
void         cblur_choice_start_after_region (void);
gboolean     cblur_choice_take_after_region  (void);

/* Waits up to ms for a starting GPU to be ready for blurs; whether it
 * is.  Returns at once where it is not starting (its start failed, or
 * it let go of its context). */
gboolean     cblur_choice_wait_ready    (gdouble          ms);

G_END_DECLS

#endif
