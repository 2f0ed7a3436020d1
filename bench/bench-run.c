#include "bench-run.h"

#include "bench-frames.h"
#include "bench-report.h"

/* GIMP renders a filter's result in chunks of about this size */
#define BLIT_CHUNK 512

static void
blit_chunks (GeglNode   *node,
             GeglBuffer *output)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (output);
  gint                 x, y;

  for (y = extent->y; y < extent->y + extent->height; y += BLIT_CHUNK)
    for (x = extent->x; x < extent->x + extent->width; x += BLIT_CHUNK)
      {
        GeglRectangle chunk = { x, y, MIN (BLIT_CHUNK, extent->x + extent->width - x),
                                MIN (BLIT_CHUNK, extent->y + extent->height - y) };

        gegl_node_blit_buffer (node, output, &chunk, 0, GEGL_ABYSS_NONE);
      }
}

GeglNode *
bench_run_blur (GeglNode          *graph,
                GeglBuffer        *input,
                GeglBuffer        *mask,
                const BenchMethod *method,
                gdouble            radius)
{
  GeglNode *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                          "buffer", input, NULL);
  GeglNode *blur = bench_method_node (graph, method, radius);

  gegl_node_link (source, blur);
  if (gegl_node_has_pad (blur, "aux"))
    gegl_node_connect_from (blur, "aux",
                            gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                 "buffer", mask, NULL), "output");
  return blur;
}

gdouble
bench_run_once (GeglBuffer        *input,
                GeglBuffer        *mask,
                const BenchRoute  *route,
                const BenchMethod *method,
                gdouble            radius,
                gdouble           *cpu)
{
  GeglNode   *graph = gegl_node_new ();
  GeglBuffer *output = NULL;
  GeglNode   *blur = bench_run_blur (graph, input, mask, method, radius);
  GeglNode   *sink = NULL;
  gint64      start;
  gdouble     ms;

  if (route->destination == BENCH_DESTINATION_SINK)
    sink = gegl_node_new_child (graph, "operation", "gegl:buffer-sink",
                                "buffer", &output, NULL);
  else
    output = gegl_buffer_new (gegl_buffer_get_extent (input), babl_format (route->format));
  if (route->destination == BENCH_DESTINATION_WRITE)
    sink = gegl_node_new_child (graph, "operation", "gegl:write-buffer",
                                "buffer", output, NULL);
  if (sink != NULL)
    gegl_node_link (blur, sink);

  bench_report_begin_run ();
  *cpu = bench_cpu_ms ();
  start = g_get_monotonic_time ();
  if (route->destination == BENCH_DESTINATION_BLIT)
    blit_chunks (blur, output);
  else
    gegl_node_process (sink);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  *cpu = bench_cpu_ms () - *cpu;

  g_clear_object (&output);
  g_object_unref (graph);
  return ms;
}
