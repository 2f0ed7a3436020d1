/* The benchmark's plot: time against radius, log-log, one line per method,
 * for the largest image measured, drawn with GEGL's own vector and text
 * operations. */
#ifndef BENCH_PLOT_H
#define BENCH_PLOT_H

#include "bench-report.h"

/* the GEGL operations the plot draws with, NULL-terminated */
extern const gchar *const bench_plot_operations[];

gboolean bench_plot_write (BenchTable  *table,
                           const gchar *path,
                           GError     **error);

#endif
