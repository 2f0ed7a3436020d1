/* Times cblur:gaussian-blur per backend and mode against gegl:gaussian-blur
 * (IIR and FIR) at std-dev = radius / 3, end to end through fresh GEGL
 * graphs, along routes: where the source comes from and where the result
 * goes.  Prints a Markdown table and writes the plot with GEGL itself.
 *
 * The host routes are the path users take: a source in the image's own
 * format, the result written by gegl:write-buffer into a buffer of that
 * format (as the gegl CLI and hosts that render into an image do), or by
 * GIMP-like gegl_node_blit_buffer() calls of 512×512 chunks into it.
 * sink-float, an RGBA float source whose result a gegl:buffer-sink takes
 * in whatever format the op gives, is the view of the blur alone.
 *
 * cpu-variable, gl-variable and auto-variable (cblur:variable-blur on
 * each backend) and gegl-variable (gegl:variable-blur) blur through a
 * smooth mask on their aux pad, a Y' u8 gradient as a painted channel
 * would be; for them a radius is the largest standard deviation,
 * gegl:variable-blur's radius.
 *
 * gegl-io and gegl-invert are no blurs: gegl:convert-format into the
 * blurs' working format, and gegl:invert-linear, read and write every
 * pixel as a blur does: what GEGL's own reading, converting and writing
 * cost an op.  gegl-nop's view shows the image itself: what GEGL's mipmap
 * and the conversion into the view's format cost a frame.
 *
 *   cblur-bench [--sizes 1024x1024,3840x2160] [--radii 3,15] [--runs 5]
 *               [--methods cpu-direct,gl-box,gegl-iir,...]
 *               [--routes sink-float,write-u8,blit-u8,...] [--idle 0]
 *               [--in-turn] [--plot out.png]
 *
 * --idle pauses before each timed run: an idle GPU lowers its clocks, and
 * a user applies a filter after a pause, not in a tight loop.  --in-turn
 * takes the methods' timed runs in turn, and drag's frames, for a shared
 * machine whose speed drifts while they run.
 *
 * The interactive methods time GIMP's live preview frame by frame
 * (bench-interactive.h), after the full renders:
 *
 *   cblur-bench --sizes '' --interactive drag,paint,pause
 *               [--view-image 3840x2160] [--levels 0,1] [--sweep 1:60:0.5]
 *               [--paint-radii 20,100] [--dabs 40] [--pauses 2000,60000]
 *               [--frames] [--in-turn]
 *
 * The applies method times a GIMP user's applies of a filter, a fresh
 * graph each, written into the image's own format (bench-applies.h),
 * before everything else, so that its first apply is a new process's:
 *
 *   cblur-bench --sizes '' --applies 12 [--pause 2] [--methods auto] [--apply-preview 3]
 *               [--apply-image 3840x2160] [--apply-format "R'G'B'A u8"] [--apply-radius 30]
 */
#include <stdlib.h>
#include <string.h>
#include <gegl.h>

#include "bench-applies.h"
#include "bench-frames.h"
#include "bench-input.h"
#include "bench-interactive.h"
#include "bench-method.h"
#include "bench-plot.h"
#include "bench-report.h"
#include "bench-run.h"

static const BenchRoute all_routes[] = {
  { "sink-float",  "RGBA float",  BENCH_DESTINATION_SINK },
  { "write-u8",    "R'G'B'A u8",  BENCH_DESTINATION_WRITE },
  { "blit-u8",     "R'G'B'A u8",  BENCH_DESTINATION_BLIT },
  { "write-u16",   "R'G'B'A u16", BENCH_DESTINATION_WRITE },
  { "write-half",  "RGBA half",   BENCH_DESTINATION_WRITE },
  { "write-float", "RGBA float",  BENCH_DESTINATION_WRITE },
  { "blit-float",  "RGBA float",  BENCH_DESTINATION_BLIT },
};

static const gchar *const needed_operations[] = {
  "gegl:simplex-noise", "gegl:gaussian-blur", "cblur:gaussian-blur", "gegl:convert-format",
  "gegl:invert-linear", "gegl:write-buffer", "cblur:variable-blur", "gegl:variable-blur",
  "cblur:unsharp-mask", "gegl:unsharp-mask", "cblur:high-pass", "gegl:high-pass",
  "cblur:difference-of-gaussians", "gegl:difference-of-gaussians", "gegl:nop", NULL
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
selected (const gchar *name,
          gchar      **names)
{
  return names == NULL || g_strv_contains ((const gchar * const *) names, name);
}

/* one method's runs at one radius */
typedef struct
{
  const BenchMethod *method;
  gdouble           *times;
  gdouble           *cpu_times;
  BenchSplit         split;    /* summed over the runs */
  const gchar       *ran_on;   /* of every run, or gl+cpu where they differ */
} Timing;

static void
add_split (BenchSplit       *sum,
           const BenchSplit *run)
{
  sum->read_ms += run->read_ms;
  sum->upload_ms += run->upload_ms;
  sum->compute_ms += run->compute_ms;
  sum->download_ms += run->download_ms;
  sum->write_ms += run->write_ms;
  sum->process_ms += run->process_ms;
}

/* a timed run of one method, after idle_ms, into its timing */
static void
time_run (Timing           *timing,
          gint              i,
          GeglBuffer       *input,
          GeglBuffer       *mask,
          const BenchRoute *route,
          gdouble           radius,
          gint              idle_ms)
{
  BenchSplit   split;
  const gchar *ran_on;

  g_usleep (idle_ms * G_TIME_SPAN_MILLISECOND);
  bench_report_reset ();
  timing->times[i] = bench_run_once (input, mask, route, timing->method, radius,
                                     timing->cpu_times + i);
  bench_report_split (&split);
  add_split (&timing->split, &split);
  ran_on = bench_report_backend ();
  timing->ran_on = timing->ran_on == NULL || strcmp (timing->ran_on, ran_on) == 0 ? ran_on
                                                                                   : "gl+cpu";
}

/* a method's row: medians of its runs, the mean of its splits */
static void
add_row (BenchTable       *table,
         const Timing     *timing,
         GeglBuffer       *input,
         const BenchRoute *route,
         gdouble           radius,
         gint              runs)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (input);
  BenchRow             row = { extent->width, extent->height, radius, timing->method->name,
                               route->name };

  row.median_ms = bench_median (timing->times, runs);
  row.cpu_ms = bench_median (timing->cpu_times, runs);
  row.ran_on = timing->ran_on;
  row.split = timing->split;
  row.split.read_ms /= runs;
  row.split.upload_ms /= runs;
  row.split.compute_ms /= runs;
  row.split.download_ms /= runs;
  row.split.write_ms /= runs;
  row.split.process_ms /= runs;
  bench_table_add (table, &row);
  g_printerr ("%dx%d r=%g %-11s %-11s %9.2f ms, CPU %9.2f ms (%s)\n", row.width, row.height,
              radius, route->name, row.method, row.median_ms, row.cpu_ms, row.ran_on);
}

/* what the command line chose to time */
typedef struct
{
  gchar  **radii;
  gchar  **methods;   /* NULL: all */
  gchar  **routes;
  gint     runs;
  gint     idle_ms;   /* before each timed run */
  gboolean in_turn;   /* the methods' runs taken in turn */
} Choice;

/* The methods at one radius, each warmed up once, then their timed runs:
 * one method's after another, or in turn, a run of each at a time, where
 * a shared machine's load and clocks drift over seconds and should fall
 * on every method alike rather than on whichever ran while they were
 * worst (a GPU's clocks then fall between its runs too). */
static void
time_methods (BenchTable         *table,
              GeglBuffer         *input,
              GeglBuffer         *mask,
              const BenchRoute   *route,
              const BenchMethod **methods,
              guint               n_methods,
              gdouble             radius,
              const Choice       *choice)
{
  gint               runs = choice->runs;
  g_autofree Timing *timings = g_new0 (Timing, n_methods);
  gdouble            cpu;
  guint              m;
  gint               i;

  for (m = 0; m < n_methods; m++)
    {
      timings[m].method = methods[m];
      timings[m].times = g_new (gdouble, runs);
      timings[m].cpu_times = g_new (gdouble, runs);
      if (choice->in_turn)
        bench_run_once (input, mask, route, methods[m], radius, &cpu);
    }
  for (m = 0; !choice->in_turn && m < n_methods; m++)
    {
      bench_run_once (input, mask, route, methods[m], radius, &cpu);
      for (i = 0; i < runs; i++)
        time_run (&timings[m], i, input, mask, route, radius, choice->idle_ms);
    }
  for (i = 0; choice->in_turn && i < runs; i++)
    for (m = 0; m < n_methods; m++)
      time_run (&timings[m], i, input, mask, route, radius, choice->idle_ms);
  for (m = 0; m < n_methods; m++)
    {
      add_row (table, &timings[m], input, route, radius, runs);
      g_free (timings[m].times);
      g_free (timings[m].cpu_times);
    }
}

/* each chosen route, radius and method on an image of `size` (WxH);
 * FALSE where that is no size */
static gboolean
time_size (BenchTable   *table,
           const gchar  *size,
           const Choice *choice)
{
  g_autofree const BenchMethod **methods = g_new (const BenchMethod *, bench_n_methods);
  guint                          n_methods = 0;
  gint                           width = 0, height = 0;
  GeglBuffer                    *input;
  GeglBuffer                    *mask;
  gsize                          d, m;
  gint                           r;

  if (!bench_parse_size (size, &width, &height))
    return FALSE;
  for (m = 0; m < bench_n_methods; m++)
    if (selected (bench_methods[m].name, choice->methods))
      methods[n_methods++] = &bench_methods[m];
  input = bench_noise_image (width, height);
  mask = bench_smooth_mask (width, height);
  for (d = 0; d < G_N_ELEMENTS (all_routes); d++)
    {
      const BenchRoute *route = &all_routes[d];
      GeglBuffer       *source;

      if (!selected (route->name, choice->routes))
        continue;
      source = bench_converted (input, route->format);
      for (r = 0; choice->radii[r]; r++)
        time_methods (table, source, mask, route, methods, n_methods,
                      g_ascii_strtod (choice->radii[r], NULL), choice);
      g_object_unref (source);
    }
  g_object_unref (input);
  g_object_unref (mask);
  return TRUE;
}

static void
write_plot (BenchTable  *table,
            const gchar *path)
{
  g_autoptr (GError) error = NULL;
  const gchar       *missing = missing_operation (bench_plot_operations);

  if (missing != NULL)
    g_printerr ("plot: GEGL has no %s (a module missing from GEGL_PATH)\n", missing);
  else if (!bench_plot_write (table, path, &error))
    g_printerr ("plot: %s\n", error->message);
}

/* what the command line chose for the interactive methods */
typedef struct
{
  gchar     **scenarios;     /* drag, paint */
  gchar     **levels;        /* drag's mipmap levels */
  gchar     **paint_radii;
  gchar     **pauses;        /* pause's, in ms */
  gchar      *image_size;
  gchar      *image_format;  /* the views' image's */
  gchar      *view_format;   /* the views' own, NULL: the image's */
  BenchSweep  sweep;
  gint        dabs;
  gboolean    log_frames;
  gboolean    in_turn;       /* drag's methods' frames taken in turn */
} Interactive;

/* the blurs of the interactive methods, with or without arithmetic, and
 * gegl-nop, their floor: a view of the image itself, the same at every
 * radius; GEGL's other no-blur methods have no radius to drag, and the
 * variable blurs no mask */
static gboolean
interactive_method (const BenchMethod *method,
                    gchar            **methods)
{
  static const gchar *const usual[] = { "cpu-auto", "gl-auto", "gegl-iir", NULL };

  if (!g_str_has_suffix (method->operation, "gaussian-blur") &&
      !bench_method_is_combine (method) && !g_str_equal (method->operation, "gegl:nop"))
    return FALSE;
  return methods != NULL ? g_strv_contains ((const gchar * const *) methods, method->name)
                         : g_strv_contains (usual, method->name);
}

/* pause at each level, from the sweep's first radius */
static void
time_pauses (BenchFrameTable   *table,
             GeglBuffer        *image,
             const Interactive *choice,
             gchar            **methods)
{
  gint               n = (gint) g_strv_length (choice->pauses);
  g_autofree gint   *pauses_ms = g_new (gint, MAX (n, 1));
  gsize              m;
  gint               i;

  for (i = 0; i < n; i++)
    pauses_ms[i] = MAX (0, atoi (choice->pauses[i]));
  for (i = 0; choice->levels[i]; i++)
    for (m = 0; m < bench_n_methods; m++)
      if (interactive_method (&bench_methods[m], methods))
        bench_pause (table, image, &bench_methods[m], atoi (choice->levels[i]),
                     choice->sweep.from, pauses_ms, n);
}

/* drag at level: each method on its own, or all in turn */
static void
time_drags (BenchFrameTable   *table,
            GeglBuffer        *image,
            const Interactive *choice,
            gchar            **methods,
            gint               level)
{
  g_autofree const BenchMethod **chosen = g_new (const BenchMethod *, bench_n_methods);
  gint                           n = 0;
  gsize                          m;

  for (m = 0; m < bench_n_methods; m++)
    if (interactive_method (&bench_methods[m], methods))
      chosen[n++] = &bench_methods[m];
  if (choice->in_turn && n > 0)
    bench_drag (table, image, chosen, n, level, &choice->sweep);
  else
    for (m = 0; m < (gsize) n; m++)
      bench_drag (table, image, &chosen[m], 1, level, &choice->sweep);
}

/* each chosen scenario and method over one image in the chosen format */
static gboolean
time_interactive (const Interactive *choice,
                  gchar            **methods)
{
  BenchFrameTable       *table;
  g_autoptr (GeglBuffer) noise = NULL;
  g_autoptr (GeglBuffer) image = NULL;
  gint                   width = 0, height = 0;
  gsize                  m;
  gint                   i;

  if (!bench_parse_size (choice->image_size, &width, &height))
    return FALSE;
  for (i = 0; i < 2; i++)
    {
      const gchar *name = i == 0 ? choice->image_format : choice->view_format;

      if (name != NULL && !babl_format_exists (name))
        {
          g_printerr ("no babl format '%s'\n", name);
          return FALSE;
        }
    }
  bench_interactive_view_format (choice->view_format != NULL
                                 ? babl_format (choice->view_format) : NULL);
  noise = bench_noise_image (width, height);
  image = bench_converted (noise, choice->image_format);
  bench_interactive_log_frames (choice->log_frames);
  table = bench_frame_table_new ();
  for (i = 0; choice->levels[i] && selected ("drag", choice->scenarios); i++)
    time_drags (table, image, choice, methods, atoi (choice->levels[i]));
  for (i = 0; choice->paint_radii[i] && selected ("paint", choice->scenarios); i++)
    for (m = 0; m < bench_n_methods; m++)
      if (interactive_method (&bench_methods[m], methods))
        bench_paint (table, image, &bench_methods[m],
                     g_ascii_strtod (choice->paint_radii[i], NULL), choice->dabs);
  if (selected ("pause", choice->scenarios))
    time_pauses (table, image, choice, methods);
  bench_frame_table_print (table, "gegl-iir");
  bench_frame_table_free (table);
  return TRUE;
}

/* FROM:TO:STEP into sweep; FALSE where that is no sweep */
static gboolean
parse_sweep (const gchar *text,
             BenchSweep  *sweep)
{
  g_auto (GStrv) parts = g_strsplit (text, ":", -1);

  if (g_strv_length (parts) != 3)
    return FALSE;
  sweep->from = g_ascii_strtod (parts[0], NULL);
  sweep->to = g_ascii_strtod (parts[1], NULL);
  sweep->step = g_ascii_strtod (parts[2], NULL);
  return sweep->step > 0.0 && sweep->to >= sweep->from && sweep->from >= 0.0;
}

static void
interactive_clear (Interactive *interactive)
{
  g_strfreev (interactive->scenarios);
  g_strfreev (interactive->levels);
  g_strfreev (interactive->paint_radii);
  g_strfreev (interactive->pauses);
  g_free (interactive->image_size);
  g_free (interactive->image_format);
  g_free (interactive->view_format);
}

/* the interactive methods' options; FALSE after a message where they are
 * bad */
static gboolean
parse_interactive (gint        *argc,
                   gchar     ***argv,
                   Interactive *choice)
{
  g_autofree gchar *scenarios = g_strdup ("");
  g_autofree gchar *levels = g_strdup ("0,1");
  g_autofree gchar *radii = g_strdup ("20,100");
  g_autofree gchar *sweep = g_strdup ("1:60:0.5");
  g_autofree gchar *pauses = g_strdup ("2000,2000,2000");
  GOptionEntry      entries[] = {
    { "interactive", 0, 0, G_OPTION_ARG_STRING, &scenarios,
      "interactive methods to time: drag,paint,pause (default none)", NULL },
    { "view-image", 0, 0, G_OPTION_ARG_STRING, &choice->image_size,
      "their image's size, WxH (default 3840x2160)", NULL },
    { "drag-format", 0, 0, G_OPTION_ARG_STRING, &choice->image_format,
      "their image's babl format (default \"R'G'B'A u8\")", NULL },
    { "view-format", 0, 0, G_OPTION_ARG_STRING, &choice->view_format,
      "the babl format their views render into (default: the image's)", NULL },
    { "levels", 0, 0, G_OPTION_ARG_STRING, &levels, "drag's mipmap levels (default 0,1)", NULL },
    { "sweep", 0, 0, G_OPTION_ARG_STRING, &sweep,
      "drag's radii, FROM:TO:STEP (default 1:60:0.5)", NULL },
    { "paint-radii", 0, 0, G_OPTION_ARG_STRING, &radii, "paint's radii (default 20,100)", NULL },
    { "dabs", 0, 0, G_OPTION_ARG_INT, &choice->dabs, "paint's dabs (default 40)", NULL },
    { "pauses", 0, 0, G_OPTION_ARG_STRING, &pauses,
      "pause's pauses in ms, each before a frame (default 2000,2000,2000)", NULL },
    { "frames", 0, 0, G_OPTION_ARG_NONE, &choice->log_frames, "each frame's time to stderr",
      NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) options = g_option_context_new ("- time Gaussian blurs");
  g_autoptr (GError)         error = NULL;

  choice->image_size = g_strdup ("3840x2160");
  choice->image_format = g_strdup ("R'G'B'A u8");
  choice->dabs = 40;
  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_set_ignore_unknown_options (options, TRUE);
  g_option_context_set_help_enabled (options, FALSE);
  if (!g_option_context_parse (options, argc, argv, &error) ||
      !parse_sweep (sweep, &choice->sweep))
    {
      g_printerr ("%s\n", error != NULL ? error->message : "bad --sweep, FROM:TO:STEP");
      return FALSE;
    }
  choice->scenarios = g_strsplit (scenarios, ",", -1);
  choice->levels = g_strsplit (levels, ",", -1);
  choice->paint_radii = g_strsplit (radii, ",", -1);
  choice->pauses = g_strsplit (pauses, ",", -1);
  choice->dabs = MAX (choice->dabs, 1);
  return TRUE;
}

static gboolean
parse_options (gint    *argc,
               gchar ***argv,
               Choice  *choice,
               gchar  **sizes_arg,
               gchar  **plot_path)
{
  g_autofree gchar *radii_arg = g_strdup ("3,15,30,150,600");
  g_autofree gchar *methods_arg = NULL;
  g_autofree gchar *routes_arg = g_strdup ("sink-float,write-u8,blit-u8,write-float,blit-float");
  GOptionEntry      entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, sizes_arg, "image sizes, WxH,... ('' for none)",
      NULL },
    { "radii", 0, 0, G_OPTION_ARG_STRING, &radii_arg, "radii in pixels, ...", NULL },
    { "methods", 0, 0, G_OPTION_ARG_STRING, &methods_arg, "methods to time (default all)", NULL },
    { "routes", 0, 0, G_OPTION_ARG_STRING, &routes_arg, "sources and destinations, ...", NULL },
    { "runs", 0, 0, G_OPTION_ARG_INT, &choice->runs, "timed runs after one warm-up (median)",
      NULL },
    { "idle", 0, 0, G_OPTION_ARG_INT, &choice->idle_ms,
      "milliseconds to pause before each timed run, as between a user's applies", NULL },
    { "in-turn", 0, 0, G_OPTION_ARG_NONE, &choice->in_turn,
      "take the methods' timed runs in turn, a run of each at a time (drag: a frame)",
      NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, plot_path, "PNG plot to write", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) options = g_option_context_new ("- time Gaussian blurs");
  g_autoptr (GError)         error = NULL;

  g_option_context_add_main_entries (options, entries, NULL);
  g_option_context_set_description (options, "Interactive methods: --interactive "
                                    "drag,paint,pause --view-image WxH --drag-format FORMAT "
                                    "--view-format FORMAT --levels 0,1 "
                                    "--sweep FROM:TO:STEP --paint-radii R,... --dabs N "
                                    "--pauses MS,... --frames.  The applies method: --applies N "
                                    "--pause S --apply-image WxH --apply-format FORMAT "
                                    "--apply-radius R");
  if (!g_option_context_parse (options, argc, argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  choice->runs = MAX (choice->runs, 1);
  choice->radii = g_strsplit (radii_arg, ",", -1);
  choice->methods = methods_arg != NULL ? g_strsplit (methods_arg, ",", -1) : NULL;
  choice->routes = g_strsplit (routes_arg, ",", -1);
  return TRUE;
}

gint
main (gint    argc,
      gchar **argv)
{
  g_autofree gchar *sizes_arg = g_strdup ("1024x1024,3840x2160,7680x4320");
  g_autofree gchar *plot_path = g_strdup ("cblur-bench.png");
  Choice            choice = { NULL, NULL, NULL, 5, 0 };
  Interactive       interactive = { NULL };
  BenchApplies      applies = { 0 };
  g_auto (GStrv)    sizes = NULL;
  BenchTable       *table;
  const gchar      *missing;
  gint              s;

  if (!parse_interactive (&argc, &argv, &interactive) ||
      !bench_applies_parse (&argc, &argv, &applies) ||
      !parse_options (&argc, &argv, &choice, &sizes_arg, &plot_path))
    return 2;
  interactive.in_turn = choice.in_turn;
  /* the interactive methods render a view at scale 0.5 at mipmap level 1 */
  g_setenv ("GEGL_MIPMAP_RENDERING", "1", FALSE);
  gegl_init (&argc, &argv);
  bench_report_init ();
  missing = missing_operation (needed_operations);
  if (missing != NULL)
    {
      g_printerr ("GEGL has no %s (GEGL_PATH?)\n", missing);
      return 2;
    }

  if (applies.applies > 0 && !bench_applies_time (&applies, choice.methods))
    return 2;
  sizes = g_strsplit (sizes_arg, ",", -1);
  table = bench_table_new ();
  for (s = 0; sizes[s]; s++)
    if (!time_size (table, sizes[s], &choice))
      return 2;
  if (bench_table_size (table) > 0)
    {
      bench_table_print_markdown (table);
      write_plot (table, plot_path);
    }
  if (!time_interactive (&interactive, choice.methods))
    return 2;
  print_peak_memory ();

  bench_table_free (table);
  interactive_clear (&interactive);
  bench_applies_clear (&applies);
  g_strfreev (choice.radii);
  g_strfreev (choice.methods);
  g_strfreev (choice.routes);
  gegl_exit ();
  return 0;
}
