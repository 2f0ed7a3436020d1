#include "bench-interactive.h"

#include <math.h>
#include <string.h>

#include "bench-report.h"

#define VIEW_WIDTH   1920
#define VIEW_HEIGHT  1080
#define CHUNK_WIDTH  256
#define CHUNK_HEIGHT 128
#define UPDATE_GRID  32
#define DAB_SIZE     64
/* pause's frames before the first pause: a live dialog's, long enough for
 * auto's GPU to be ready */
#define WARM_MS      4000

static gboolean log_frames;

void
bench_interactive_log_frames (gboolean log)
{
  log_frames = log;
}

static void
log_frame (const gchar       *scenario,
           const BenchMethod *method,
           const gchar       *what,
           gdouble            value,
           gdouble            ms)
{
  if (log_frames)
    g_printerr ("frame %s %s %s=%g %.2f ms\n", scenario, method->name, what, value, ms);
}

/* a window onto the blurred image, as GIMP's display keeps it */
typedef struct
{
  GeglNode     *graph;
  GeglNode     *blur;
  gdouble       scale;
  GeglRectangle rect;          /* in display pixels: image pixels × scale */
  const Babl   *format;        /* the image's own */
  gint          bpp;
  gint          stride;
  guchar       *pixels;
  GeglRectangle invalidated;   /* image pixels GEGL said changed */
} View;

static void
on_invalidated (GeglNode            *node,
                const GeglRectangle *rect,
                gpointer             user_data)
{
  View *view = user_data;

  gegl_rectangle_bounding_box (&view->invalidated, &view->invalidated, rect);
}

/* a view centred on image at level's scale, onto method's blur of it */
static void
view_init (View              *view,
           GeglBuffer        *image,
           const BenchMethod *method,
           gdouble            radius,
           gint               level)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (image);
  GeglNode            *source;
  gint                 width, height;

  view->graph = gegl_node_new ();
  source = gegl_node_new_child (view->graph, "operation", "gegl:buffer-source",
                                "buffer", image, NULL);
  view->blur = bench_method_node (view->graph, method, radius);
  gegl_node_link (source, view->blur);

  view->scale = 1.0 / (1 << level);
  width = MIN (VIEW_WIDTH, (gint) (extent->width * view->scale));
  height = MIN (VIEW_HEIGHT, (gint) (extent->height * view->scale));
  view->rect = *GEGL_RECTANGLE ((gint) (extent->x * view->scale) +
                                  ((gint) (extent->width * view->scale) - width) / 2,
                                (gint) (extent->y * view->scale) +
                                  ((gint) (extent->height * view->scale) - height) / 2,
                                width, height);
  view->format = gegl_buffer_get_format (image);
  view->bpp = babl_format_get_bytes_per_pixel (view->format);
  view->stride = width * view->bpp;
  view->pixels = g_malloc ((gsize) view->stride * height);
  view->invalidated = *GEGL_RECTANGLE (0, 0, 0, 0);
  g_signal_connect (view->blur, "invalidated", G_CALLBACK (on_invalidated), view);
}

static void
view_clear (View *view)
{
  g_clear_object (&view->graph);
  g_clear_pointer (&view->pixels, g_free);
}

/* area of the view (display pixels) in GIMP's chunks; milliseconds */
static gdouble
view_render (View                *view,
             const GeglRectangle *area)
{
  gint64 start = g_get_monotonic_time ();
  gint   x, y;

  for (y = area->y; y < area->y + area->height; y += CHUNK_HEIGHT)
    for (x = area->x; x < area->x + area->width; x += CHUNK_WIDTH)
      {
        GeglRectangle chunk = { x, y, MIN (CHUNK_WIDTH, area->x + area->width - x),
                                MIN (CHUNK_HEIGHT, area->y + area->height - y) };
        guchar       *at = view->pixels + (gsize) (y - view->rect.y) * view->stride +
                           (gsize) (x - view->rect.x) * view->bpp;

        gegl_node_blit (view->blur, view->scale, &chunk, view->format, at, view->stride,
                        GEGL_BLIT_DEFAULT);
      }
  return (g_get_monotonic_time () - start) / 1000.0;
}

static const gchar *
ran_on (const BenchMethod *method)
{
  return bench_method_is_gegl (method) ? "gegl" : bench_report_backend ();
}

void
bench_drag (BenchFrameTable   *table,
            GeglBuffer        *image,
            const BenchMethod *method,
            gint               level,
            const BenchSweep  *sweep)
{
  gint                n = MAX (1, (gint) floor ((sweep->to - sweep->from) / sweep->step + 1e-9) + 1);
  g_autofree gdouble *ms = g_new (gdouble, n);
  g_autofree gdouble *cpu_ms = g_new (gdouble, n);
  g_autofree gchar   *scenario = g_strdup_printf ("drag level %d", level);
  View                view;
  gint                i;

  view_init (&view, image, method, sweep->from, level);
  bench_report_reset ();
  for (i = 0; i < n; i++)
    {
      gint64 start = g_get_monotonic_time ();

      cpu_ms[i] = bench_cpu_ms ();
      if (i > 0)
        bench_method_set_radius (view.blur, method, sweep->from + i * sweep->step);
      ms[i] = (g_get_monotonic_time () - start) / 1000.0 + view_render (&view, &view.rect);
      cpu_ms[i] = bench_cpu_ms () - cpu_ms[i];
      log_frame (scenario, method, "radius", sweep->from + i * sweep->step, ms[i]);
    }
  bench_frame_table_add (table, scenario, method->name, ran_on (method), ms, cpu_ms, n);
  view_clear (&view);
}

/* the i-th dab of a stroke across the view: a square of one colour */
static void
paint_dab (GeglBuffer    *canvas,
           const View    *view,
           gint           i)
{
  guchar        colour[4] = { (guchar) (i * 53), (guchar) (255 - i * 29), (guchar) (i * 97), 255 };
  guchar        pixels[DAB_SIZE * DAB_SIZE * 4];
  gint          span = MAX (1, view->rect.width - 2 * DAB_SIZE);
  GeglRectangle dab = { view->rect.x + DAB_SIZE / 2 + (i * 37) % span,
                        view->rect.y + view->rect.height / 2 - DAB_SIZE / 2 +
                          (gint) (view->rect.height / 3 * sin (i * 0.2)),
                        DAB_SIZE, DAB_SIZE };
  gint          p;

  for (p = 0; p < DAB_SIZE * DAB_SIZE; p++)
    memcpy (pixels + 4 * p, colour, 4);
  gegl_buffer_set (canvas, &dab, 0, babl_format ("R'G'B'A u8"), pixels, GEGL_AUTO_ROWSTRIDE);
}

/* what GIMP's projection renders again: the invalidated area on its
 * update grid, inside the view (level 0: display pixels are image
 * pixels) */
static GeglRectangle
area_to_render (View *view)
{
  GeglRectangle *changed = &view->invalidated;
  gint           x0 = (gint) floor ((gdouble) changed->x / UPDATE_GRID) * UPDATE_GRID;
  gint           y0 = (gint) floor ((gdouble) changed->y / UPDATE_GRID) * UPDATE_GRID;
  gint           x1 = (gint) ceil ((gdouble) (changed->x + changed->width) / UPDATE_GRID) *
                      UPDATE_GRID;
  gint           y1 = (gint) ceil ((gdouble) (changed->y + changed->height) / UPDATE_GRID) *
                      UPDATE_GRID;
  GeglRectangle  area = { 0 };

  gegl_rectangle_intersect (&area, GEGL_RECTANGLE (x0, y0, x1 - x0, y1 - y0), &view->rect);
  *changed = *GEGL_RECTANGLE (0, 0, 0, 0);
  return area;
}

void
bench_paint (BenchFrameTable   *table,
             GeglBuffer        *image,
             const BenchMethod *method,
             gdouble            radius,
             gint               dabs)
{
  g_autoptr (GeglBuffer) canvas = gegl_buffer_dup (image);
  g_autofree gdouble    *ms = g_new (gdouble, dabs + 1);
  g_autofree gdouble    *cpu_ms = g_new (gdouble, dabs + 1);
  g_autofree gchar      *scenario = g_strdup_printf ("paint r %g", radius);
  View                   view;
  gint                   i;

  view_init (&view, canvas, method, radius, 0);
  bench_report_reset ();
  cpu_ms[0] = bench_cpu_ms ();
  ms[0] = view_render (&view, &view.rect);
  cpu_ms[0] = bench_cpu_ms () - cpu_ms[0];
  for (i = 1; i <= dabs; i++)
    {
      gint64        start = g_get_monotonic_time ();
      GeglRectangle area;

      cpu_ms[i] = bench_cpu_ms ();
      paint_dab (canvas, &view, i);
      area = area_to_render (&view);
      if (area.width <= 0 || area.height <= 0)
        g_error ("a dab invalidated nothing in view");
      ms[i] = (g_get_monotonic_time () - start) / 1000.0 + view_render (&view, &area);
      cpu_ms[i] = bench_cpu_ms () - cpu_ms[i];
      log_frame (scenario, method, "dab", i, ms[i]);
    }
  bench_frame_table_add (table, scenario, method->name, ran_on (method), ms, cpu_ms,
                         dabs + 1);
  view_clear (&view);
}

/* one frame after the slider moves by step: the move's and the render's ms */
static gdouble
slider_frame (View              *view,
              const BenchMethod *method,
              gdouble            radius,
              gdouble           *cpu_ms)
{
  gint64  start = g_get_monotonic_time ();
  gdouble cpu = bench_cpu_ms ();
  gdouble ms;

  bench_method_set_radius (view->blur, method, radius);
  ms = (g_get_monotonic_time () - start) / 1000.0 + view_render (view, &view->rect);
  *cpu_ms = bench_cpu_ms () - cpu;
  return ms;
}

void
bench_pause (BenchFrameTable   *table,
             GeglBuffer        *image,
             const BenchMethod *method,
             gint               level,
             gdouble            radius,
             const gint        *pauses_ms,
             gint               n)
{
  g_autofree gdouble *ms = g_new (gdouble, n);
  g_autofree gdouble *cpu_ms = g_new (gdouble, n);
  gint64              warm_until = g_get_monotonic_time () + WARM_MS * G_TIME_SPAN_MILLISECOND;
  View                view;
  gdouble             cpu, first_cpu = bench_cpu_ms ();
  gdouble             first;
  gint                i, j, frames = 0;

  view_init (&view, image, method, radius, level);
  first = view_render (&view, &view.rect);
  first_cpu = bench_cpu_ms () - first_cpu;
  while (g_get_monotonic_time () < warm_until)
    slider_frame (&view, method, radius + 0.5 * (++frames % 2), &cpu);
  bench_report_reset ();
  for (i = 0; i < n; i++)
    {
      g_usleep (pauses_ms[i] * G_TIME_SPAN_MILLISECOND);
      ms[i] = slider_frame (&view, method, radius + 0.5 * (++frames % 2), &cpu_ms[i]);
      log_frame ("pause", method, "ms", pauses_ms[i], ms[i]);
    }
  /* a row per pause, the view's first frame and then the pause's */
  for (i = 0; i < n; i++)
    {
      g_autofree gchar   *scenario = NULL;
      g_autofree gdouble *row = g_new (gdouble, n + 1);
      g_autofree gdouble *row_cpu = g_new (gdouble, n + 1);
      gint                k = 1;

      row[0] = first;
      row_cpu[0] = first_cpu;
      for (j = 0; j < i && pauses_ms[j] != pauses_ms[i]; j++)
        ;
      if (j < i)
        continue;
      for (j = i; j < n; j++)
        if (pauses_ms[j] == pauses_ms[i])
          {
            row[k] = ms[j];
            row_cpu[k++] = cpu_ms[j];
          }
      scenario = g_strdup_printf ("pause %g s level %d", pauses_ms[i] / 1000.0, level);
      bench_frame_table_add (table, scenario, method->name, ran_on (method), row, row_cpu, k);
    }
  view_clear (&view);
}
