#include "bench-frames.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

struct _BenchFrameTable
{
  GArray *rows;
};

static gint
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

gdouble
bench_cpu_ms (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

gdouble
bench_median (gdouble *values,
              gint     n)
{
  qsort (values, n, sizeof (gdouble), compare_doubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

gdouble
bench_percentile (const gdouble *sorted,
                  gint           n,
                  gdouble        p)
{
  gint rank = (gint) (p / 100.0 * n + 0.999999);

  return sorted[CLAMP (rank, 1, n) - 1];
}

BenchFrameTable *
bench_frame_table_new (void)
{
  BenchFrameTable *table = g_new0 (BenchFrameTable, 1);

  table->rows = g_array_new (FALSE, TRUE, sizeof (BenchFrameRow));
  return table;
}

void
bench_frame_table_add (BenchFrameTable *table,
                       const gchar     *scenario,
                       const gchar     *method,
                       const gchar     *ran_on,
                       const gdouble   *ms,
                       const gdouble   *cpu_ms,
                       gint             n)
{
  BenchFrameRow       row = { g_strdup (scenario), method, ran_on, n - 1, ms[0] };
  g_autofree gdouble *sorted = g_new (gdouble, MAX (n - 1, 1));
  gint                i;

  if (n > 1)
    {
      memcpy (sorted, cpu_ms + 1, sizeof (gdouble) * (n - 1));
      row.cpu_median_ms = bench_median (sorted, n - 1);
      memcpy (sorted, ms + 1, sizeof (gdouble) * (n - 1));
      row.median_ms = bench_median (sorted, n - 1);
      row.p90_ms = bench_percentile (sorted, n - 1, 90.0);
      row.p99_ms = bench_percentile (sorted, n - 1, 99.0);
      row.worst_ms = sorted[n - 2];
      for (i = 0; i < n - 1; i++)
        row.over_budget += sorted[i] > BENCH_FRAME_BUDGET_MS;
    }
  g_array_append_val (table->rows, row);
  g_printerr ("%-14s %-10s %-6s first %8.2f  median %7.2f  p90 %7.2f  worst %7.2f ms\n",
              scenario, method, ran_on, row.first_ms, row.median_ms, row.p90_ms,
              row.worst_ms);
}

static const BenchFrameRow *
find_row (BenchFrameTable *table,
          const gchar     *scenario,
          const gchar     *method)
{
  guint i;

  for (i = 0; i < table->rows->len; i++)
    {
      const BenchFrameRow *row = &g_array_index (table->rows, BenchFrameRow, i);

      if (g_str_equal (row->scenario, scenario) && g_str_equal (row->method, method))
        return row;
    }
  return NULL;
}

static void
print_ratio (gdouble base,
             gdouble ours)
{
  if (base > 0.0 && ours > 0.0)
    g_print (" %.1fx |", base / ours);
  else
    g_print (" - |");
}

void
bench_frame_table_print (BenchFrameTable *table,
                         const gchar     *baseline)
{
  guint i;

  if (table->rows->len == 0)
    return;
  g_print ("\n| scenario | method | ran on | frames | first ms | median | p90 | p99 | worst "
           "| over %.0f ms | vs %s (median) | CPU ms (median) | vs %s (CPU) |\n"
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
           BENCH_FRAME_BUDGET_MS, baseline, baseline);
  for (i = 0; i < table->rows->len; i++)
    {
      const BenchFrameRow *row = &g_array_index (table->rows, BenchFrameRow, i);
      const BenchFrameRow *base = find_row (table, row->scenario, baseline);

      g_print ("| %s | %s | %s | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %d |", row->scenario,
               row->method, row->ran_on, row->frames, row->first_ms, row->median_ms,
               row->p90_ms, row->p99_ms, row->worst_ms, row->over_budget);
      print_ratio (base != NULL ? base->median_ms : 0.0, row->median_ms);
      g_print (" %.2f |", row->cpu_median_ms);
      print_ratio (base != NULL ? base->cpu_median_ms : 0.0, row->cpu_median_ms);
      g_print ("\n");
    }
}

void
bench_frame_table_free (BenchFrameTable *table)
{
  guint i;

  for (i = 0; i < table->rows->len; i++)
    g_free (g_array_index (table->rows, BenchFrameRow, i).scenario);
  g_array_unref (table->rows);
  g_free (table);
}
