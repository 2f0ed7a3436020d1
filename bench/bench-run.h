/* One timed render of a method's blur through a fresh GEGL graph along a
 * route: where the source comes from and where the result goes. */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <gegl.h>

#include "bench-method.h"

typedef enum
{
  BENCH_DESTINATION_SINK,    /* gegl:buffer-sink, in the op's own format */
  BENCH_DESTINATION_WRITE,   /* gegl:write-buffer into a buffer of the route's format */
  BENCH_DESTINATION_BLIT,    /* gegl_node_blit_buffer() of chunks into one */
} BenchDestination;

typedef struct
{
  const gchar     *name;
  const gchar     *format;   /* the source's, and the destination buffer's */
  BenchDestination destination;
} BenchRoute;

/* gegl:buffer-source of input → method's blur at radius in graph, with
 * gegl:buffer-source of mask on its aux pad where it has one; the blur's
 * node. */
GeglNode *bench_run_blur (GeglNode          *graph,
                          GeglBuffer        *input,
                          GeglBuffer        *mask,
                          const BenchMethod *method,
                          gdouble            radius);

/* A fresh graph, gegl:buffer-source of input → method's blur at radius
 * (mask on its aux pad where it has one) → route's destination, rendered
 * whole.  The destination buffer exists before the clock starts, as a
 * host's image does; its tiles are allocated as the result is written.
 * Returns wall milliseconds; *cpu gets the CPU time of all threads, which
 * other processes on a shared machine disturb less.  The op's reports of
 * the render go to bench-report's collection. */
gdouble bench_run_once (GeglBuffer        *input,
                        GeglBuffer        *mask,
                        const BenchRoute  *route,
                        const BenchMethod *method,
                        gdouble            radius,
                        gdouble           *cpu);

#endif
