/* Times cblur:gaussian-blur per backend and mode against gegl:gaussian-blur
 * (IIR and FIR) at std-dev = radius / 3, end to end through fresh GEGL
 * graphs: buffer-source -> blur -> buffer-sink.  Prints a Markdown table
 * and writes the plot with GEGL itself.
 *
 * gegl-io is no blur: gegl:convert-format into the blurs' working format
 * reads and writes every pixel as they do, so it times what GEGL's own
 * reading and writing of the image cost an operation that does nothing
 * else, in GEGL's chunks (the GL blur, streaming, can take less).
 *
 *   cblur-bench [--sizes 1024x1024,3840x2160] [--radii 3,15] [--runs 5]
 *               [--methods cpu-direct,gl-box,gegl-iir,...] [--plot out.png]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gegl.h>

#include "bench-plot.h"
#include "bench-report.h"
#include "cblur-settings.h"

typedef struct
{
  const gchar *name;
  const gchar *operation;
  const gchar *backend;   /* CBLUR_BACKEND, for cblur */
  const gchar *mode;      /* cblur's mode, or gegl:gaussian-blur's filter */
} Method;

static const Method all_methods[] = {
  { "cpu-direct", "cblur:gaussian-blur", "cpu", "direct" },
  { "cpu-box",    "cblur:gaussian-blur", "cpu", "box" },
  { "cpu-auto",   "cblur:gaussian-blur", "cpu", "auto" },
  { "gl-direct",  "cblur:gaussian-blur", "gl",  "direct" },
  { "gl-box",     "cblur:gaussian-blur", "gl",  "box" },
  { "gl-auto",    "cblur:gaussian-blur", "gl",  "auto" },
  { "gegl-iir",   "gegl:gaussian-blur",  NULL,  "iir" },
  { "gegl-fir",   "gegl:gaussian-blur",  NULL,  "fir" },
  { "gegl-io",    "gegl:convert-format", NULL,  NULL },
};

static const gchar *const needed_operations[] = {
  "gegl:simplex-noise", "gegl:gaussian-blur", "cblur:gaussian-blur", "gegl:convert-format",
  NULL
};

/* The first of names that GEGL lacks: it would quietly put a pass-through
 * in a missing operation's place. */
static const gchar *
missing_operation (const gchar *const *names)
{
  for (; *names != NULL; names++)
    if (!gegl_has_operation (*names))
      return *names;
  return NULL;
}

/* Noise, rendered into the buffer's rectangle (a sink would render
 * nothing of a source without bounds), and checked not to be flat: a
 * blank input reads from GEGL's one shared empty tile, far faster than an
 * image. */
static GeglBuffer *
random_image (gint width,
              gint height)
{
  GeglRectangle rect = { 0, 0, width, height };
  GeglBuffer   *buffer = gegl_buffer_new (&rect, babl_format ("RGBA float"));
  GeglNode     *graph = gegl_node_new ();
  GeglNode     *noise = gegl_node_new_child (graph, "operation", "gegl:simplex-noise",
                                             "scale", 0.02, NULL);
  gfloat        corners[2][4];

  gegl_node_blit_buffer (noise, buffer, &rect, 0, GEGL_ABYSS_NONE);
  g_object_unref (graph);

  gegl_buffer_get (buffer, GEGL_RECTANGLE (0, 0, 1, 1), 1.0, babl_format ("RGBA float"),
                   corners[0], GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (buffer, GEGL_RECTANGLE (width / 2, height / 2, 1, 1), 1.0,
                   babl_format ("RGBA float"), corners[1], GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  if (corners[0][3] == 0.0f || corners[0][0] == corners[1][0])
    g_error ("the benchmark's input came out flat");
  return buffer;
}

static void
set_enum (GeglNode    *node,
          const gchar *property,
          const gchar *nick)
{
  GParamSpec           *spec = gegl_node_find_property (node, property);
  g_autoptr (GEnumClass) enums = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE (spec));
  GEnumValue           *value = g_enum_get_value_by_nick (enums, nick);

  g_assert (value != NULL);
  gegl_node_set (node, property, value->value, NULL);
}

static GeglNode *
blur_node (GeglNode     *graph,
           const Method *method,
           gdouble       radius)
{
  GeglNode *node = gegl_node_new_child (graph, "operation", method->operation, NULL);

  if (g_str_equal (method->operation, "gegl:convert-format"))
    gegl_node_set (node, "format", babl_format ("RaGaBaA float"), NULL);
  else if (g_str_equal (method->operation, "gegl:gaussian-blur"))
    {
      gegl_node_set (node, "std-dev-x", radius / 3.0, "std-dev-y", radius / 3.0, NULL);
      set_enum (node, "filter", method->mode);
    }
  else
    {
      g_setenv ("CBLUR_BACKEND", method->backend, TRUE);
      cblur_settings_reload ();
      gegl_node_set (node, "radius", radius, NULL);
      set_enum (node, "mode", method->mode);
    }
  return node;
}

static gdouble
run_once (GeglBuffer   *input,
          const Method *method,
          gdouble       radius)
{
  GeglNode   *graph = gegl_node_new ();
  GeglBuffer *output = NULL;
  GeglNode   *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                            "buffer", input, NULL);
  GeglNode   *blur = blur_node (graph, method, radius);
  GeglNode   *sink = gegl_node_new_child (graph, "operation", "gegl:buffer-sink",
                                          "buffer", &output, NULL);
  gint64      start;
  gdouble     ms;

  gegl_node_link_many (source, blur, sink, NULL);
  bench_report_begin_run ();
  start = g_get_monotonic_time ();
  gegl_node_process (sink);
  ms = (g_get_monotonic_time () - start) / 1000.0;

  g_clear_object (&output);
  g_object_unref (graph);
  return ms;
}

static gint
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

static gdouble
median (gdouble *values,
        gint     n)
{
  qsort (values, n, sizeof (gdouble), compare_doubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* what the process held at its worst: input, output, GEGL's cache and ours */
static void
print_peak_memory (void)
{
  g_autofree gchar *status = NULL;
  const gchar      *line;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL) &&
      (line = strstr (status, "VmHWM:")) != NULL)
    g_print ("\npeak resident memory: %.0f MiB\n",
             g_ascii_strtod (line + strlen ("VmHWM:"), NULL) / 1024.0);
}

static gboolean
method_selected (const Method *method,
                 gchar       **names)
{
  return names == NULL || g_strv_contains ((const gchar * const *) names, method->name);
}

gint
main (gint    argc,
      gchar **argv)
{
  g_autofree gchar *sizes_arg = g_strdup ("1024x1024,3840x2160,7680x4320");
  g_autofree gchar *radii_arg = g_strdup ("3,15,30,150,600");
  g_autofree gchar *methods_arg = NULL;
  g_autofree gchar *plot_path = g_strdup ("cblur-bench.png");
  gint              runs = 5;
  GOptionEntry      entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_arg, "image sizes, WxH,...", NULL },
    { "radii", 0, 0, G_OPTION_ARG_STRING, &radii_arg, "radii in pixels, ...", NULL },
    { "methods", 0, 0, G_OPTION_ARG_STRING, &methods_arg, "methods to time (default all)", NULL },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "timed runs after one warm-up (median)", NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot_path, "PNG plot to write", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) options = g_option_context_new ("- time Gaussian blurs");
  g_autoptr (GError)         error = NULL;
  g_auto (GStrv)             sizes = NULL, radii = NULL, methods = NULL;
  BenchTable                *table;
  const gchar               *missing;
  gint                       s, r;
  gsize                      m;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  runs = MAX (runs, 1);
  gegl_init (&argc, &argv);
  bench_report_init ();
  missing = missing_operation (needed_operations);
  if (missing != NULL)
    {
      g_printerr ("GEGL has no %s (GEGL_PATH?)\n", missing);
      return 2;
    }

  sizes = g_strsplit (sizes_arg, ",", -1);
  radii = g_strsplit (radii_arg, ",", -1);
  if (methods_arg)
    methods = g_strsplit (methods_arg, ",", -1);
  table = bench_table_new ();

  for (s = 0; sizes[s]; s++)
    {
      gint        width = 0, height = 0;
      GeglBuffer *input;

      if (sscanf (sizes[s], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0)
        {
          g_printerr ("bad size '%s'\n", sizes[s]);
          return 2;
        }
      input = random_image (width, height);

      for (r = 0; radii[r]; r++)
        for (m = 0; m < G_N_ELEMENTS (all_methods); m++)
          {
            const Method *method = &all_methods[m];
            gdouble       radius = g_ascii_strtod (radii[r], NULL);
            gdouble      *times = g_new (gdouble, runs);
            BenchRow      row = { width, height, radius, method->name };
            gint          i;

            if (!method_selected (method, methods))
              continue;

            run_once (input, method, radius);
            bench_report_reset ();
            for (i = 0; i < runs; i++)
              times[i] = run_once (input, method, radius);

            row.median_ms = median (times, runs);
            row.ran_on = bench_report_backend ();
            bench_report_split (&row.split);
            bench_table_add (table, &row);
            g_printerr ("%dx%d r=%g %-10s %9.2f ms (%s)\n", width, height, radius,
                        method->name, row.median_ms, row.ran_on);
            g_free (times);
          }
      g_object_unref (input);
    }

  bench_table_print_markdown (table);
  print_peak_memory ();
  missing = missing_operation (bench_plot_operations);
  if (missing != NULL)
    g_printerr ("plot: GEGL has no %s (a module missing from GEGL_PATH)\n", missing);
  else if (!bench_plot_write (table, plot_path, &error))
    g_printerr ("plot: %s\n", error->message);

  bench_table_free (table);
  gegl_exit ();
  return 0;
}
