/* GEGL's worker threads, as this process has them.  A child forked from a
 * process whose GEGL had started them has none of them, and GEGL's
 * parallel loops would wait for them forever: in a forked child every
 * loop runs on the calling thread.  Callable from any thread. */
#ifndef CBLUR_PARALLEL_H
#define CBLUR_PARALLEL_H

#include <gegl.h>

G_BEGIN_DECLS

/* GEGL's thread count; 1 in a forked child */
gint cblur_parallel_threads          (void);

/* gegl_parallel_distribute() and gegl_parallel_distribute_range(), on
 * the calling thread alone in a forked child */
void cblur_parallel_distribute       (gint                            max_n,
                                      GeglParallelDistributeFunc      func,
                                      gpointer                        user_data);
void cblur_parallel_distribute_range (gsize                           size,
                                      gdouble                         thread_cost,
                                      GeglParallelDistributeRangeFunc func,
                                      gpointer                        user_data);

/* As cblur_parallel_distribute_range(), but its threads take the range
 * a unit at a time as they come free, rather than a share each fixed
 * ahead: a thread that the system runs slower, or wakes later, takes
 * fewer, and none waits on another's last units.  func gets one unit
 * at a time. */
void cblur_parallel_share_range      (gsize                           size,
                                      gdouble                         thread_cost,
                                      GeglParallelDistributeRangeFunc func,
                                      gpointer                        user_data);

G_END_DECLS

#endif
