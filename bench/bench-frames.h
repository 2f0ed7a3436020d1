/* Frame times of the interactive methods (a slider dragged, dabs painted
 * under a live blur) and their table: the first frame on its own, then
 * the median, 90th and 99th percentile and worst of the frames after it,
 * and how many of those missed 30 frames a second. */
#ifndef BENCH_FRAMES_H
#define BENCH_FRAMES_H

#include <glib.h>

/* a frame slower than this misses 30 frames a second */
#define BENCH_FRAME_BUDGET_MS 33.0

typedef struct
{
  gchar       *scenario;   /* "drag level 1", "paint r 20", ... */
  const gchar *method;
  const gchar *ran_on;     /* cpu, gl, gl+cpu, or gegl */
  gint         frames;     /* after the first */
  gdouble      first_ms;
  gdouble      median_ms;
  gdouble      p90_ms;
  gdouble      p99_ms;
  gdouble      worst_ms;
  gint         over_budget;
  gdouble      cpu_median_ms;   /* CPU time of all threads, after the first */
} BenchFrameRow;

typedef struct _BenchFrameTable BenchFrameTable;

/* the process's CPU time so far, all threads, user and system: steadier
 * than the wall clock on a machine shared with other work */
gdouble          bench_cpu_ms            (void);

/* The median of values[0..n-1], n >= 1, which it sorts. */
gdouble          bench_median            (gdouble         *values,
                                          gint             n);

/* The nearest-rank percentile p of sorted[0..n-1], n >= 1. */
gdouble          bench_percentile        (const gdouble  *sorted,
                                          gint            n,
                                          gdouble         p);

BenchFrameTable *bench_frame_table_new   (void);
/* Adds a row for frames of ms[0..n-1] wall and cpu_ms[0..n-1] CPU time,
 * the first frame first; n >= 1. */
void             bench_frame_table_add   (BenchFrameTable *table,
                                          const gchar     *scenario,
                                          const gchar     *method,
                                          const gchar     *ran_on,
                                          const gdouble   *ms,
                                          const gdouble   *cpu_ms,
                                          gint             n);
/* Markdown, each row's median wall and CPU time against those of
 * `baseline` (a method name) in the same scenario, where it ran. */
void             bench_frame_table_print (BenchFrameTable *table,
                                          const gchar     *baseline);
void             bench_frame_table_free  (BenchFrameTable *table);

#endif
