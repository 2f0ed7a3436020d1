/* The blurs the benchmark times: cblur:gaussian-blur per backend and mode,
 * gegl:gaussian-blur per filter at std-dev = radius / 3, cblur's and
 * GEGL's variable blurs at radius (the largest std-dev), and GEGL's own
 * reading and writing of an image without a blur. */
#ifndef BENCH_METHOD_H
#define BENCH_METHOD_H

#include <gegl.h>

typedef struct
{
  const gchar *name;
  const gchar *operation;
  const gchar *backend;   /* CBLUR_BACKEND, for cblur */
  const gchar *mode;      /* cblur's mode (none for its variable blur), or
                           * gegl:gaussian-blur's filter */
} BenchMethod;

extern const BenchMethod bench_methods[];
extern const gsize       bench_n_methods;

/* whether method is one of GEGL's own operations rather than cblur */
gboolean  bench_method_is_gegl       (const BenchMethod *method);
/* whether method is a blur with arithmetic (sharpen, high pass, the
 * difference of Gaussians), cblur's or GEGL's */
gboolean  bench_method_is_combine    (const BenchMethod *method);

/* A node of method's operation at radius in graph; for cblur, with
 * CBLUR_BACKEND set to method's backend first. */
GeglNode *bench_method_node          (GeglNode          *graph,
                                      const BenchMethod *method,
                                      gdouble            radius);

/* Sets node's radius as a host's dialog does: one property change. */
void      bench_method_set_radius    (GeglNode          *node,
                                      const BenchMethod *method,
                                      gdouble            radius);

#endif
