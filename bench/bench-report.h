/* What the benchmark collects: the backend's report of each band the op
 * blurs (backend, GEGL read/write, GL upload/compute/download and
 * process() times) and the table. */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <glib.h>

typedef struct
{
  gdouble read_ms;
  gdouble upload_ms;
  gdouble compute_ms;
  gdouble download_ms;
  gdouble write_ms;
  gdouble process_ms;   /* all of process(): the rest of a run is GEGL's */
} BenchSplit;

typedef struct
{
  gint         width;
  gint         height;
  gdouble      radius;
  const gchar *method;
  const gchar *route;      /* the source's format and the destination */
  gdouble      median_ms;
  gdouble      cpu_ms;     /* median CPU time of all threads */
  const gchar *ran_on;     /* cpu, gl, or gegl for GEGL's blur */
  BenchSplit   split;      /* mean per timed run */
} BenchRow;

typedef struct _BenchTable BenchTable;

void         bench_report_init          (void);
void         bench_report_reset         (void);
void         bench_report_begin_run     (void);
const gchar *bench_report_backend       (void);
void         bench_report_split         (BenchSplit     *split);

BenchTable  *bench_table_new            (void);
void         bench_table_add            (BenchTable     *table,
                                         const BenchRow *row);
guint        bench_table_size           (BenchTable     *table);
const BenchRow *bench_table_row         (BenchTable     *table,
                                         guint           i);
void         bench_table_print_markdown (BenchTable     *table);
void         bench_table_free           (BenchTable     *table);

#endif
