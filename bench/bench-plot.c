#include "bench-plot.h"

#include <math.h>
#include <gegl.h>

#define PLOT_WIDTH  960
#define PLOT_HEIGHT 600
#define LEFT        90
#define RIGHT       190
#define TOP         50
#define BOTTOM      60

static const gchar *palette[] = {
  "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"
};

typedef struct
{
  gdouble log_x0, log_x1, log_y0, log_y1;
} Axes;

static gdouble
to_x (const Axes *axes,
      gdouble     radius)
{
  return LEFT + (log10 (radius) - axes->log_x0) / (axes->log_x1 - axes->log_x0)
                * (PLOT_WIDTH - LEFT - RIGHT);
}

static gdouble
to_y (const Axes *axes,
      gdouble     ms)
{
  return PLOT_HEIGHT - BOTTOM - (log10 (ms) - axes->log_y0) / (axes->log_y1 - axes->log_y0)
                                * (PLOT_HEIGHT - TOP - BOTTOM);
}

/* The plot shows the largest image measured, along the first route, one
 * line for each method, drawn node over node onto `top`. */
typedef struct
{
  BenchTable  *table;
  const gchar *route;
  gint         width;
  gint         height;
  GPtrArray   *methods;
  Axes         axes;
  GeglNode    *graph;
  GeglNode    *top;
} Plot;

static gboolean
shows (const Plot     *plot,
       const BenchRow *row)
{
  return row->width == plot->width && row->height == plot->height &&
         g_str_equal (row->route, plot->route);
}

static void
choose_image (Plot *plot)
{
  guint i;

  if (bench_table_size (plot->table) > 0)
    plot->route = bench_table_row (plot->table, 0)->route;
  for (i = 0; i < bench_table_size (plot->table); i++)
    {
      const BenchRow *row = bench_table_row (plot->table, i);

      if ((gint64) row->width * row->height > (gint64) plot->width * plot->height)
        plot->width = row->width, plot->height = row->height;
    }
}

/* the methods measured, and axes that hold all their times */
static gboolean
fit_axes (Plot    *plot,
          GError **error)
{
  Axes *axes = &plot->axes;
  guint i;

  *axes = (Axes) { INFINITY, -INFINITY, INFINITY, -INFINITY };
  for (i = 0; i < bench_table_size (plot->table); i++)
    {
      const BenchRow *row = bench_table_row (plot->table, i);

      if (!shows (plot, row) || row->median_ms <= 0.0)
        continue;
      axes->log_x0 = MIN (axes->log_x0, log10 (row->radius));
      axes->log_x1 = MAX (axes->log_x1, log10 (row->radius));
      axes->log_y0 = MIN (axes->log_y0, floor (log10 (row->median_ms)));
      axes->log_y1 = MAX (axes->log_y1, ceil (log10 (row->median_ms)));
      if (!g_ptr_array_find_with_equal_func (plot->methods, row->method, g_str_equal, NULL))
        g_ptr_array_add (plot->methods, (gpointer) row->method);
    }
  if (plot->methods->len == 0 || axes->log_x1 <= axes->log_x0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "need at least two radii to plot");
      return FALSE;
    }
  axes->log_y1 = MAX (axes->log_y1, axes->log_y0 + 1.0);
  return TRUE;
}

static void
overlay (Plot     *plot,
         GeglNode *source)
{
  GeglNode *over = gegl_node_new_child (plot->graph, "operation", "gegl:over", NULL);

  gegl_node_link (plot->top, over);
  gegl_node_connect_from (over, "aux", source, "output");
  plot->top = over;
}

static void
stroke (Plot        *plot,
        const gchar *path,
        const gchar *color,
        gdouble      width)
{
  GeglColor *paint = gegl_color_new (color);
  GeglPath  *d = gegl_path_new_from_string (path);

  overlay (plot, gegl_node_new_child (plot->graph, "operation", "gegl:vector-stroke",
                                      "d", d, "color", paint, "width", width, NULL));
  g_object_unref (paint);
  g_object_unref (d);
}

static void
label (Plot        *plot,
       const gchar *text,
       const gchar *color,
       gdouble      x,
       gdouble      y)
{
  GeglColor *ink = gegl_color_new (color);
  GeglNode  *source = gegl_node_new_child (plot->graph, "operation", "gegl:text",
                                           "string", text, "size", 14.0, "color", ink, NULL);
  GeglNode  *moved = gegl_node_new_child (plot->graph, "operation", "gegl:translate",
                                           "x", x, "y", y, NULL);

  g_object_unref (ink);
  gegl_node_link (source, moved);
  overlay (plot, moved);
}

static void
draw_background (Plot *plot)
{
  GeglColor *white = gegl_color_new ("white");

  plot->top = gegl_node_new_child (plot->graph, "operation", "gegl:rectangle",
                                   "x", 0.0, "y", 0.0, "width", (gdouble) PLOT_WIDTH,
                                   "height", (gdouble) PLOT_HEIGHT, "color", white, NULL);
  g_object_unref (white);
}

/* a line and a label at each power of ten of milliseconds */
static void
draw_grid (Plot *plot)
{
  gdouble decade;

  for (decade = plot->axes.log_y0; decade <= plot->axes.log_y1; decade += 1.0)
    {
      gdouble           y = to_y (&plot->axes, pow (10.0, decade));
      g_autofree gchar *grid = g_strdup_printf ("M %d %.1f L %d %.1f", LEFT, y,
                                                PLOT_WIDTH - RIGHT, y);
      g_autofree gchar *text = g_strdup_printf ("%g ms", pow (10.0, decade));

      stroke (plot, grid, "#cccccc", 1.0);
      label (plot, text, "black", 10, y - 8);
    }
}

/* the radii measured, under the axis */
static void
draw_radii (Plot *plot)
{
  const gchar *first = g_ptr_array_index (plot->methods, 0);
  guint        i;

  for (i = 0; i < bench_table_size (plot->table); i++)
    {
      const BenchRow   *row = bench_table_row (plot->table, i);
      g_autofree gchar *text = g_strdup_printf ("r=%g", row->radius);

      if (shows (plot, row) && g_str_equal (row->method, first))
        label (plot, text, "black", to_x (&plot->axes, row->radius) - 15,
               PLOT_HEIGHT - BOTTOM + 10);
    }
}

/* the m-th method's times, and its name beside the plot */
static void
draw_method (Plot *plot,
             guint m)
{
  const gchar        *method = g_ptr_array_index (plot->methods, m);
  const gchar        *color = palette[m % G_N_ELEMENTS (palette)];
  g_autoptr (GString) line = g_string_new (NULL);
  guint               i;

  for (i = 0; i < bench_table_size (plot->table); i++)
    {
      const BenchRow *row = bench_table_row (plot->table, i);

      if (shows (plot, row) && g_str_equal (row->method, method) && row->median_ms > 0.0)
        g_string_append_printf (line, "%s %.1f %.1f ", line->len ? "L" : "M",
                                to_x (&plot->axes, row->radius),
                                to_y (&plot->axes, row->median_ms));
    }
  stroke (plot, line->str, color, 3.0);
  label (plot, method, color, PLOT_WIDTH - RIGHT + 15, TOP + 22 * m);
}

const gchar *const bench_plot_operations[] = {
  "gegl:over", "gegl:vector-stroke", "gegl:text", "gegl:translate", "gegl:rectangle",
  "gegl:png-save", NULL
};

gboolean
bench_plot_write (BenchTable  *table,
                  const gchar *path,
                  GError     **error)
{
  g_autoptr (GPtrArray) methods = g_ptr_array_new ();
  Plot                  plot = { table, NULL, 0, 0, methods };
  g_autofree gchar     *title = NULL;
  GeglNode             *save;
  guint                 m;

  choose_image (&plot);
  if (!fit_axes (&plot, error))
    return FALSE;

  plot.graph = gegl_node_new ();
  draw_background (&plot);
  draw_grid (&plot);
  draw_radii (&plot);
  for (m = 0; m < methods->len; m++)
    draw_method (&plot, m);
  title = g_strdup_printf ("Gaussian blur of a %d×%d image, %s: median ms against radius "
                           "(log-log)", plot.width, plot.height, plot.route);
  label (&plot, title, "black", LEFT, 15);

  save = gegl_node_new_child (plot.graph, "operation", "gegl:png-save", "path", path, NULL);
  gegl_node_link (plot.top, save);
  gegl_node_process (save);
  g_object_unref (plot.graph);
  return TRUE;
}
