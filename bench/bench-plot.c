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

static GeglNode *
overlay (GeglNode *graph,
         GeglNode *below,
         GeglNode *source)
{
  GeglNode *over = gegl_node_new_child (graph, "operation", "gegl:over", NULL);

  gegl_node_link (below, over);
  gegl_node_connect_from (over, "aux", source, "output");
  return over;
}

static GeglNode *
stroke (GeglNode    *graph,
        GeglNode    *below,
        const gchar *path,
        const gchar *color,
        gdouble      width)
{
  GeglColor *paint = gegl_color_new (color);
  GeglPath  *d = gegl_path_new_from_string (path);
  GeglNode  *source = gegl_node_new_child (graph, "operation", "gegl:vector-stroke",
                                           "d", d, "color", paint, "width", width, NULL);

  g_object_unref (paint);
  g_object_unref (d);
  return overlay (graph, below, source);
}

static GeglNode *
label (GeglNode    *graph,
       GeglNode    *below,
       const gchar *text,
       const gchar *color,
       gdouble      x,
       gdouble      y)
{
  GeglColor *ink = gegl_color_new (color);
  GeglNode  *source = gegl_node_new_child (graph, "operation", "gegl:text",
                                           "string", text, "size", 14.0, "color", ink, NULL);
  GeglNode  *moved = gegl_node_new_child (graph, "operation", "gegl:translate",
                                           "x", x, "y", y, NULL);

  g_object_unref (ink);

  gegl_node_link (source, moved);
  return overlay (graph, below, moved);
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
  GeglColor            *white;
  g_autoptr (GPtrArray) methods = g_ptr_array_new ();
  GeglNode             *graph, *top, *save;
  const gchar          *route = NULL;
  gint                  width = 0, height = 0;
  Axes                  axes = { INFINITY, -INFINITY, INFINITY, -INFINITY };
  guint                 i, m;
  gdouble               decade;

  /* the plot shows the largest image that was measured, along the first
   * route */
  if (bench_table_size (table) > 0)
    route = bench_table_row (table, 0)->route;
  for (i = 0; i < bench_table_size (table); i++)
    {
      const BenchRow *row = bench_table_row (table, i);

      if ((gint64) row->width * row->height > (gint64) width * height)
        width = row->width, height = row->height;
    }
  for (i = 0; i < bench_table_size (table); i++)
    {
      const BenchRow *row = bench_table_row (table, i);

      if (row->width != width || row->height != height || row->median_ms <= 0.0 ||
          !g_str_equal (row->route, route))
        continue;
      axes.log_x0 = MIN (axes.log_x0, log10 (row->radius));
      axes.log_x1 = MAX (axes.log_x1, log10 (row->radius));
      axes.log_y0 = MIN (axes.log_y0, floor (log10 (row->median_ms)));
      axes.log_y1 = MAX (axes.log_y1, ceil (log10 (row->median_ms)));
      if (!g_ptr_array_find_with_equal_func (methods, row->method, g_str_equal, NULL))
        g_ptr_array_add (methods, (gpointer) row->method);
    }
  if (methods->len == 0 || axes.log_x1 <= axes.log_x0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "need at least two radii to plot");
      return FALSE;
    }
  axes.log_y1 = MAX (axes.log_y1, axes.log_y0 + 1.0);

  graph = gegl_node_new ();
  white = gegl_color_new ("white");
  top = gegl_node_new_child (graph, "operation", "gegl:rectangle", "x", 0.0, "y", 0.0,
                             "width", (gdouble) PLOT_WIDTH, "height", (gdouble) PLOT_HEIGHT,
                             "color", white, NULL);
  g_object_unref (white);

  for (decade = axes.log_y0; decade <= axes.log_y1; decade += 1.0)
    {
      gdouble           y = to_y (&axes, pow (10.0, decade));
      g_autofree gchar *grid = g_strdup_printf ("M %d %.1f L %d %.1f", LEFT, y,
                                                PLOT_WIDTH - RIGHT, y);
      g_autofree gchar *text = g_strdup_printf ("%g ms", pow (10.0, decade));

      top = stroke (graph, top, grid, "#cccccc", 1.0);
      top = label (graph, top, text, "black", 10, y - 8);
    }
  for (i = 0; i < bench_table_size (table); i++)
    {
      const BenchRow   *row = bench_table_row (table, i);
      g_autofree gchar *text = g_strdup_printf ("r=%g", row->radius);

      if (row->width == width && row->height == height && g_str_equal (row->route, route) &&
          g_str_equal (row->method, g_ptr_array_index (methods, 0)))
        top = label (graph, top, text, "black", to_x (&axes, row->radius) - 15,
                     PLOT_HEIGHT - BOTTOM + 10);
    }

  for (m = 0; m < methods->len; m++)
    {
      const gchar *method = g_ptr_array_index (methods, m);
      const gchar *color = palette[m % G_N_ELEMENTS (palette)];
      GString     *line = g_string_new (NULL);

      for (i = 0; i < bench_table_size (table); i++)
        {
          const BenchRow *row = bench_table_row (table, i);

          if (row->width == width && row->height == height && g_str_equal (row->route, route) &&
              g_str_equal (row->method, method) && row->median_ms > 0.0)
            g_string_append_printf (line, "%s %.1f %.1f ", line->len ? "L" : "M",
                                    to_x (&axes, row->radius), to_y (&axes, row->median_ms));
        }
      top = stroke (graph, top, line->str, color, 3.0);
      top = label (graph, top, method, color, PLOT_WIDTH - RIGHT + 15, TOP + 22 * m);
      g_string_free (line, TRUE);
    }

  {
    g_autofree gchar *title = g_strdup_printf ("Gaussian blur of a %d×%d image, %s: "
                                               "median ms against radius (log-log)",
                                               width, height, route);
    top = label (graph, top, title, "black", LEFT, 15);
  }

  save = gegl_node_new_child (graph, "operation", "gegl:png-save", "path", path, NULL);
  gegl_node_link (top, save);
  gegl_node_process (save);
  g_object_unref (graph);
  return TRUE;
}
