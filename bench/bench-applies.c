#include "bench-applies.h"

#include <string.h>

#include "bench-frames.h"
#include "bench-input.h"
#include "bench-method.h"
#include "bench-report.h"
#include "bench-run.h"
#include "cblur-host-view.h"

#define DEFAULT_METHODS "auto,gegl-iir,auto-variable,gegl-variable"

/* the window a dialog's preview shows the image in, and GIMP's chunks */
#define PREVIEW_WIDTH  1920
#define PREVIEW_HEIGHT 1080
#define PREVIEW_CHUNK_WIDTH  256
#define PREVIEW_CHUNK_HEIGHT 128

/* one method's run of applies */
typedef struct
{
  const BenchMethod *method;
  gint               n;
  gdouble           *ms;
  gdouble           *cpu_ms;
  gdouble           *preview_ms; /* each apply's preview, where there is one */
  const gchar      **ran_on;    /* each apply's: cpu, gl, gl+cpu or gegl */
  gdouble            median_ms; /* of the applies after the first, as p90 and worst */
  gdouble            p90_ms;
  gdouble            worst_ms;
  gdouble            cpu_median_ms;
} Run;

/* The dialog's preview of method's blur of image: the whole image at the
 * mipmap level that fits the window, rendered in chunks into the image's
 * format through a fresh graph; ms. */
static gdouble
preview_once (GeglBuffer        *image,
              GeglBuffer        *mask,
              const BenchMethod *method,
              gdouble            radius)
{
  g_autoptr (GeglNode) graph = gegl_node_new ();
  GeglNode            *blur = bench_run_blur (graph, image, mask, method, radius);
  const GeglRectangle *extent = gegl_buffer_get_extent (image);
  CblurHostView        view;
  gint                 level = 0;
  gint64               start;
  gdouble              ms;

  while ((extent->width >> level) > PREVIEW_WIDTH || (extent->height >> level) > PREVIEW_HEIGHT)
    level++;
  cblur_host_view_init (&view, blur, gegl_buffer_get_format (image), PREVIEW_CHUNK_WIDTH,
                        PREVIEW_CHUNK_HEIGHT);
  start = g_get_monotonic_time ();
  cblur_host_view_show (&view, level,
                        GEGL_RECTANGLE (extent->x >> level, extent->y >> level,
                                        extent->width >> level, extent->height >> level));
  ms = (g_get_monotonic_time () - start) / 1000.0;
  cblur_host_view_clear (&view);
  return ms;
}

/* choice->applies applies of run's method, a pause before each after the
 * first, each after its preview where choice has one; each apply's line
 * on stderr as it is taken */
static void
run_applies (Run                *run,
             GeglBuffer         *image,
             GeglBuffer         *mask,
             const BenchRoute   *route,
             const BenchApplies *choice)
{
  gint i;

  run->n = choice->applies;
  run->ms = g_new (gdouble, run->n);
  run->cpu_ms = g_new (gdouble, run->n);
  run->preview_ms = g_new0 (gdouble, run->n);
  run->ran_on = g_new (const gchar *, run->n);
  for (i = 0; i < run->n; i++)
    {
      if (i > 0)
        g_usleep ((gulong) (choice->pause_s * G_USEC_PER_SEC));
      if (choice->preview_s >= 0)
        {
          bench_report_reset ();
          run->preview_ms[i] = preview_once (image, mask, run->method, choice->radius);
          g_printerr ("preview %s %d/%d %.2f ms (%s)\n", run->method->name, i + 1, run->n,
                      run->preview_ms[i], bench_report_backend ());
          g_usleep ((gulong) (choice->preview_s * G_USEC_PER_SEC));
        }
      bench_report_reset ();
      run->ms[i] = bench_run_once (image, mask, route, run->method, choice->radius,
                                   &run->cpu_ms[i]);
      run->ran_on[i] = bench_report_backend ();
      g_printerr ("apply %s %d/%d %.2f ms, CPU %.2f ms (%s)\n", run->method->name, i + 1,
                  run->n, run->ms[i], run->cpu_ms[i], run->ran_on[i]);
    }
}

/* the median, p90 and worst of the applies after the first */
static void
run_summarize (Run *run)
{
  gint                after = run->n - 1;
  g_autofree gdouble *sorted = NULL;

  if (after < 1)
    return;
  sorted = g_new (gdouble, after);
  memcpy (sorted, run->cpu_ms + 1, sizeof (gdouble) * after);
  run->cpu_median_ms = bench_median (sorted, after);
  memcpy (sorted, run->ms + 1, sizeof (gdouble) * after);
  run->median_ms = bench_median (sorted, after);
  run->p90_ms = bench_percentile (sorted, after, 90.0);
  run->worst_ms = sorted[after - 1];
}

/* where each apply ran, runs of one backend counted: "11 cpu, 1 gl" */
static gchar *
ran_on_summary (const Run *run)
{
  GString *summary = g_string_new (NULL);
  gint     i, same;

  for (i = 0; i < run->n; i += same)
    {
      for (same = 1; i + same < run->n && g_str_equal (run->ran_on[i + same], run->ran_on[i]);
           same++)
        ;
      g_string_append_printf (summary, "%s%d %s", summary->len > 0 ? ", " : "", same,
                              run->ran_on[i]);
    }
  return g_string_free (summary, FALSE);
}

/* GEGL's own op of run's kind (gegl:gaussian-blur for cblur:gaussian-blur)
 * among runs, the first of them; NULL where none ran */
static const Run *
gegl_baseline (const Run *runs,
               gint       n_runs,
               const Run *run)
{
  const gchar *kind = strchr (run->method->operation, ':');
  gint         i;

  for (i = 0; i < n_runs; i++)
    if (bench_method_is_gegl (runs[i].method) &&
        g_str_equal (strchr (runs[i].method->operation, ':'), kind))
      return &runs[i];
  return NULL;
}

static void
print_summary (const Run          *runs,
               gint                n_runs,
               const BenchApplies *choice)
{
  gint i;

  g_print ("\n| method | pause s | applies | ran on | first ms | median | p90 | worst "
           "| vs GEGL (median) | CPU ms (median) |\n"
           "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
  for (i = 0; i < n_runs; i++)
    {
      const Run        *run = &runs[i];
      const Run        *base = gegl_baseline (runs, n_runs, run);
      g_autofree gchar *ran_on = ran_on_summary (run);

      g_print ("| %s | %g | %d | %s | %.1f |", run->method->name, choice->pause_s, run->n,
               ran_on, run->ms[0]);
      if (run->n < 2)
        g_print (" - | - | - | - | - |\n");
      else if (base == NULL || base == run)
        g_print (" %.2f | %.2f | %.2f | - | %.2f |\n", run->median_ms, run->p90_ms,
                 run->worst_ms, run->cpu_median_ms);
      else
        g_print (" %.2f | %.2f | %.2f | %.1fx | %.2f |\n", run->median_ms, run->p90_ms,
                 run->worst_ms, base->median_ms / run->median_ms, run->cpu_median_ms);
    }
}

/* every apply's time and backend, a row a method */
static void
print_applies (const Run *runs,
               gint       n_runs)
{
  gint i, j;

  g_print ("\n| method |");
  for (j = 0; j < runs[0].n; j++)
    g_print (" %d |", j + 1);
  g_print ("\n|---|");
  for (j = 0; j < runs[0].n; j++)
    g_print ("---:|");
  for (i = 0; i < n_runs; i++)
    {
      g_print ("\n| %s |", runs[i].method->name);
      for (j = 0; j < runs[i].n; j++)
        g_print (" %.1f %s |", runs[i].ms[j], runs[i].ran_on[j]);
    }
  g_print ("\n");
}

static const BenchMethod *
find_method (const gchar *name)
{
  gsize m;

  for (m = 0; m < bench_n_methods; m++)
    if (g_str_equal (bench_methods[m].name, name))
      return &bench_methods[m];
  return NULL;
}

/* names' methods into runs, in their order; FALSE after a message where
 * one is no method */
static gboolean
find_methods (gchar **names,
              Run    *runs)
{
  gint i;

  for (i = 0; names[i] != NULL; i++)
    if ((runs[i].method = find_method (names[i])) == NULL)
      {
        g_printerr ("no method '%s'\n", names[i]);
        return FALSE;
      }
  return TRUE;
}

static void
time_runs (Run                *runs,
           gint                n_runs,
           const BenchApplies *choice,
           gint                width,
           gint                height)
{
  g_autoptr (GeglBuffer) noise = bench_noise_image (width, height);
  g_autoptr (GeglBuffer) image = bench_converted (noise, choice->format);
  g_autoptr (GeglBuffer) mask = bench_smooth_mask (width, height);
  BenchRoute             route = { "apply", choice->format, BENCH_DESTINATION_WRITE };
  gint                   i;

  for (i = 0; i < n_runs; i++)
    {
      run_applies (&runs[i], image, mask, &route, choice);
      run_summarize (&runs[i]);
    }
  g_print ("\napplies of a %s %s image at radius %g, %g s apart\n", choice->image,
           choice->format, choice->radius, choice->pause_s);
  if (choice->preview_s >= 0)
    g_print ("each %g s after its dialog's preview\n", choice->preview_s);
  print_summary (runs, n_runs, choice);
  print_applies (runs, n_runs);
}

gboolean
bench_applies_time (const BenchApplies *choice,
                    gchar             **methods)
{
  g_auto (GStrv)   defaults = g_strsplit (DEFAULT_METHODS, ",", -1);
  gchar          **names = methods != NULL ? methods : defaults;
  gint             n_runs = (gint) g_strv_length (names);
  g_autofree Run  *runs = g_new0 (Run, MAX (n_runs, 1));
  gint             width = 0, height = 0;
  gboolean         found;
  gint             i;

  if (!bench_parse_size (choice->image, &width, &height))
    return FALSE;
  if (!babl_format_exists (choice->format))
    {
      g_printerr ("no babl format '%s'\n", choice->format);
      return FALSE;
    }
  found = find_methods (names, runs);
  if (found && n_runs > 0)
    time_runs (runs, n_runs, choice, width, height);
  for (i = 0; i < n_runs; i++)
    {
      g_free (runs[i].ms);
      g_free (runs[i].cpu_ms);
      g_free (runs[i].preview_ms);
      g_free (runs[i].ran_on);
    }
  return found;
}

gboolean
bench_applies_parse (gint          *argc,
                     gchar       ***argv,
                     BenchApplies  *choice)
{
  GOptionEntry entries[] = {
    { "applies", 0, 0, G_OPTION_ARG_INT, &choice->applies,
      "applies in a run of the applies method (default 0: none)", NULL },
    { "pause", 0, 0, G_OPTION_ARG_DOUBLE, &choice->pause_s,
      "seconds between applies (default 2)", NULL },
    { "apply-image", 0, 0, G_OPTION_ARG_STRING, &choice->image,
      "the applies' image size, WxH (default 3840x2160)", NULL },
    { "apply-format", 0, 0, G_OPTION_ARG_STRING, &choice->format,
      "the applies' image format (default R'G'B'A u8)", NULL },
    { "apply-radius", 0, 0, G_OPTION_ARG_DOUBLE, &choice->radius,
      "the applies' radius (default 30)", NULL },
    { "apply-preview", 0, 0, G_OPTION_ARG_DOUBLE, &choice->preview_s,
      "render each apply's dialog preview first, this many seconds before "
      "the apply (default: no preview)", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) options = g_option_context_new ("- time Gaussian blurs");
  g_autoptr (GError)         error = NULL;

  choice->pause_s = 2.0;
  choice->radius = 30.0;
  choice->preview_s = -1.0;
  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_set_ignore_unknown_options (options, TRUE);
  g_option_context_set_help_enabled (options, FALSE);
  if (!g_option_context_parse (options, argc, argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  if (choice->image == NULL)
    choice->image = g_strdup ("3840x2160");
  if (choice->format == NULL)
    choice->format = g_strdup ("R'G'B'A u8");
  choice->applies = MAX (choice->applies, 0);
  choice->pause_s = MAX (choice->pause_s, 0.0);
  return TRUE;
}

void
bench_applies_clear (BenchApplies *choice)
{
  g_clear_pointer (&choice->image, g_free);
  g_clear_pointer (&choice->format, g_free);
}
