#include "bench-report.h"

#include <string.h>

#include "cblur-log.h"

static struct
{
  GMutex     lock;
  gint       runs;
  gboolean   saw_gl;
  gboolean   saw_cpu;
  BenchSplit sum;
} collected;

struct _BenchTable
{
  GArray *rows;
};

/* each band's report, as the op logs it */
static void
on_report (const CblurRunReport *report,
           const GeglRectangle  *band,
           gpointer              user_data)
{
  g_mutex_lock (&collected.lock);
  if (report->ran_on == CBLUR_BACKEND_GL)
    collected.saw_gl = TRUE;
  else
    collected.saw_cpu = TRUE;
  collected.sum.read_ms += report->read_ms;
  collected.sum.upload_ms += report->upload_ms;
  collected.sum.compute_ms += report->compute_ms;
  collected.sum.download_ms += report->download_ms;
  collected.sum.write_ms += report->write_ms;
  collected.sum.process_ms += report->total_ms;
  g_mutex_unlock (&collected.lock);
}

void
bench_report_init (void)
{
  cblur_log_watch (on_report, NULL);
}

void
bench_report_reset (void)
{
  g_mutex_lock (&collected.lock);
  collected.runs = 0;
  collected.saw_gl = collected.saw_cpu = FALSE;
  memset (&collected.sum, 0, sizeof collected.sum);
  g_mutex_unlock (&collected.lock);
}

void
bench_report_begin_run (void)
{
  g_mutex_lock (&collected.lock);
  collected.runs++;
  g_mutex_unlock (&collected.lock);
}

const gchar *
bench_report_backend (void)
{
  if (collected.saw_gl && collected.saw_cpu)
    return "gl+cpu";
  if (collected.saw_gl)
    return "gl";
  return collected.saw_cpu ? "cpu" : "gegl";
}

void
bench_report_split (BenchSplit *split)
{
  gdouble runs = MAX (collected.runs, 1);

  split->read_ms = collected.sum.read_ms / runs;
  split->upload_ms = collected.sum.upload_ms / runs;
  split->compute_ms = collected.sum.compute_ms / runs;
  split->download_ms = collected.sum.download_ms / runs;
  split->write_ms = collected.sum.write_ms / runs;
  split->process_ms = collected.sum.process_ms / runs;
}

BenchTable *
bench_table_new (void)
{
  BenchTable *table = g_new0 (BenchTable, 1);

  table->rows = g_array_new (FALSE, TRUE, sizeof (BenchRow));
  return table;
}

void
bench_table_add (BenchTable     *table,
                 const BenchRow *row)
{
  g_array_append_vals (table->rows, row, 1);
}

guint
bench_table_size (BenchTable *table)
{
  return table->rows->len;
}

const BenchRow *
bench_table_row (BenchTable *table,
                 guint       i)
{
  return &g_array_index (table->rows, BenchRow, i);
}

/* GEGL's `method` timed at the same size, radius and route, a baseline */
static const BenchRow *
baseline (BenchTable     *table,
          const BenchRow *row,
          const gchar    *method)
{
  guint i;

  for (i = 0; i < table->rows->len; i++)
    {
      const BenchRow *other = bench_table_row (table, i);

      if (other->width == row->width && other->height == row->height &&
          other->radius == row->radius && g_str_equal (other->route, row->route) &&
          g_str_equal (other->method, method))
        return other;
    }
  return NULL;
}

static void
print_ratio (BenchTable     *table,
             const BenchRow *row,
             const gchar    *method)
{
  const BenchRow *base = baseline (table, row, method);

  if (base != NULL)
    g_print (" %.2fx |", base->median_ms / row->median_ms);
  else
    g_print (" - |");
}

void
bench_table_print_markdown (BenchTable *table)
{
  guint i;

  g_print ("| size | radius | route | method | ran on | median ms | vs gegl IIR | vs gegl FIR "
           "| vs gegl variable | CPU ms | read | upload | compute | download | write | process |\n"
           "|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < table->rows->len; i++)
    {
      const BenchRow *row = bench_table_row (table, i);

      g_print ("| %dx%d | %g | %s | %s | %s | %.2f |", row->width, row->height, row->radius,
               row->route, row->method, row->ran_on, row->median_ms);
      print_ratio (table, row, "gegl-iir");
      print_ratio (table, row, "gegl-fir");
      print_ratio (table, row, "gegl-variable");
      g_print (" %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", row->cpu_ms, row->split.read_ms,
               row->split.upload_ms, row->split.compute_ms, row->split.download_ms,
               row->split.write_ms, row->split.process_ms);
    }
}

void
bench_table_free (BenchTable *table)
{
  g_array_unref (table->rows);
  g_free (table);
}
