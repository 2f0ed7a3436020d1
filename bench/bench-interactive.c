#include "bench-interactive.h"

#include <math.h>
#include <string.h>

#include "bench-report.h"
#include "cblur-host-view.h"

#define VIEW_WIDTH   1920
#define VIEW_HEIGHT  1080
#define CHUNK_WIDTH  256
#define CHUNK_HEIGHT 128
#define UPDATE_GRID  32
#define DAB_SIZE     64
/* pause's frames before the first pause: a live dialog's, long enough for
 * auto's GPU to be ready */
#define WARM_MS      4000

static gboolean    log_frames;
static const Babl *view_format;

void
bench_interactive_log_frames (gboolean log)
{
  log_frames = log;
}

void
bench_interactive_view_format (const Babl *format)
{
  view_format = format;
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

/* method's blur of an image, shown as GIMP's display shows it */
typedef struct
{
  GeglNode     *graph;
  GeglNode     *blur;
  CblurHostView host;
} View;

/* a view onto method's blur of image; nothing rendered yet */
static void
view_init (View              *view,
           GeglBuffer        *image,
           const BenchMethod *method,
           gdouble            radius)
{
  GeglNode *source;

  view->graph = gegl_node_new ();
  source = gegl_node_new_child (view->graph, "operation", "gegl:buffer-source",
                                "buffer", image, NULL);
  view->blur = bench_method_node (view->graph, method, radius);
  gegl_node_link (source, view->blur);
  cblur_host_view_init (&view->host, view->blur,
                        view_format != NULL ? view_format : gegl_buffer_get_format (image),
                        CHUNK_WIDTH, CHUNK_HEIGHT);
}

/* the first frame, of a view centred on image at level's scale; ms */
static gdouble
view_show (View       *view,
           GeglBuffer *image,
           gint        level)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (image);
  gint64               start = g_get_monotonic_time ();
  gint                 x = extent->x >> level, y = extent->y >> level;
  gint                 full_width = extent->width >> level, full_height = extent->height >> level;
  gint                 width = MIN (VIEW_WIDTH, full_width);
  gint                 height = MIN (VIEW_HEIGHT, full_height);

  cblur_host_view_show (&view->host, level,
                        GEGL_RECTANGLE (x + (full_width - width) / 2,
                                        y + (full_height - height) / 2, width, height));
  return (g_get_monotonic_time () - start) / 1000.0;
}

/* area of the view (display pixels) in GIMP's chunks; ms */
static gdouble
view_render (View                *view,
             const GeglRectangle *area)
{
  gint64 start = g_get_monotonic_time ();

  cblur_host_view_render (&view->host, area);
  return (g_get_monotonic_time () - start) / 1000.0;
}

static void
view_clear (View *view)
{
  cblur_host_view_clear (&view->host);
  g_clear_object (&view->graph);
}

static const gchar *
ran_on (const BenchMethod *method)
{
  return bench_method_is_gegl (method) ? "gegl" : bench_report_backend ();
}

/* one method's drag: its view and its frames' times */
typedef struct
{
  const BenchMethod *method;
  View               view;
  gint               n;
  gdouble           *ms;
  gdouble           *cpu_ms;
} Drag;

static void
drag_init (Drag              *drag,
           GeglBuffer        *image,
           const BenchMethod *method,
           const BenchSweep  *sweep)
{
  drag->method = method;
  drag->n = MAX (1, (gint) floor ((sweep->to - sweep->from) / sweep->step + 1e-9) + 1);
  drag->ms = g_new (gdouble, drag->n);
  drag->cpu_ms = g_new (gdouble, drag->n);
  view_init (&drag->view, image, method, sweep->from);
}

/* frame i: the sweep's i-th radius, the first frame a fresh graph's */
static void
drag_frame (Drag             *drag,
            GeglBuffer       *image,
            gint              level,
            const BenchSweep *sweep,
            const gchar      *scenario,
            gint              i)
{
  gint64  start = g_get_monotonic_time ();
  gdouble radius = sweep->from + i * sweep->step;

  drag->cpu_ms[i] = bench_cpu_ms ();
  if (i > 0)
    bench_method_set_radius (drag->view.blur, drag->method, radius);
  drag->ms[i] = (g_get_monotonic_time () - start) / 1000.0 +
                (i == 0 ? view_show (&drag->view, image, level)
                        : view_render (&drag->view, &drag->view.host.rect));
  drag->cpu_ms[i] = bench_cpu_ms () - drag->cpu_ms[i];
  log_frame (scenario, drag->method, "radius", radius, drag->ms[i]);
}

static void
drag_finish (Drag            *drag,
             BenchFrameTable *table,
             const gchar     *scenario)
{
  bench_frame_table_add (table, scenario, drag->method->name, ran_on (drag->method), drag->ms,
                         drag->cpu_ms, drag->n);
  view_clear (&drag->view);
  g_free (drag->ms);
  g_free (drag->cpu_ms);
}

void
bench_drag (BenchFrameTable    *table,
            GeglBuffer         *image,
            const BenchMethod **methods,
            gint                n_methods,
            gint                level,
            const BenchSweep   *sweep)
{
  g_autofree gchar *scenario = g_strdup_printf ("drag level %d", level);
  g_autofree Drag  *drags = g_new0 (Drag, n_methods);
  gint              m, i;

  for (m = 0; m < n_methods; m++)
    drag_init (&drags[m], image, methods[m], sweep);
  bench_report_reset ();
  for (i = 0; i < drags[0].n; i++)
    for (m = 0; m < n_methods; m++)
      drag_frame (&drags[m], image, level, sweep, scenario, i);
  for (m = 0; m < n_methods; m++)
    drag_finish (&drags[m], table, scenario);
}

/* the i-th dab of a stroke across the view: a square of one colour */
static void
paint_dab (GeglBuffer    *canvas,
           const View    *view,
           gint           i)
{
  guchar        colour[4] = { (guchar) (i * 53), (guchar) (255 - i * 29), (guchar) (i * 97), 255 };
  guchar        pixels[DAB_SIZE * DAB_SIZE * 4];
  const GeglRectangle *rect = &view->host.rect;
  gint          span = MAX (1, rect->width - 2 * DAB_SIZE);
  GeglRectangle dab = { rect->x + DAB_SIZE / 2 + (i * 37) % span,
                        rect->y + rect->height / 2 - DAB_SIZE / 2 +
                          (gint) (rect->height / 3 * sin (i * 0.2)),
                        DAB_SIZE, DAB_SIZE };
  gint          p;

  for (p = 0; p < DAB_SIZE * DAB_SIZE; p++)
    memcpy (pixels + 4 * p, colour, 4);
  gegl_buffer_set (canvas, &dab, 0, babl_format ("R'G'B'A u8"), pixels, GEGL_AUTO_ROWSTRIDE);
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

  view_init (&view, canvas, method, radius);
  bench_report_reset ();
  cpu_ms[0] = bench_cpu_ms ();
  ms[0] = view_show (&view, canvas, 0);
  cpu_ms[0] = bench_cpu_ms () - cpu_ms[0];
  for (i = 1; i <= dabs; i++)
    {
      gint64        start = g_get_monotonic_time ();
      GeglRectangle area;

      cpu_ms[i] = bench_cpu_ms ();
      paint_dab (canvas, &view, i);
      /* GIMP's projection renders the invalidated area on its update grid */
      area = cblur_host_view_take_invalidated (&view.host, UPDATE_GRID);
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
  ms = (g_get_monotonic_time () - start) / 1000.0 + view_render (view, &view->host.rect);
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

  view_init (&view, image, method, radius);
  first = view_show (&view, image, level);
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
