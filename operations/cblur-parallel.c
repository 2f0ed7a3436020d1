#include "cblur-parallel.h"

#include <pthread.h>

/* set in the child of every fork; read without a lock, since a child
 * starts with one thread, its own */
static gboolean forked;

static void
note_child (void)
{
  forked = TRUE;
}

/* At load, not at the first blur: a fork before that leaves GEGL's
 * threads behind too. */
__attribute__ ((constructor)) static void
watch_forks (void)
{
  pthread_atfork (NULL, NULL, note_child);
}

gint
cblur_parallel_threads (void)
{
  gint threads = 1;

  if (forked)
    return 1;
  g_object_get (gegl_config (), "threads", &threads, NULL);
  return MAX (threads, 1);
}

void
cblur_parallel_distribute (gint                       max_n,
                           GeglParallelDistributeFunc func,
                           gpointer                   user_data)
{
  if (forked && max_n != 0)
    func (0, 1, user_data);
  else
    gegl_parallel_distribute (max_n, func, user_data);
}

void
cblur_parallel_distribute_range (gsize                           size,
                                 gdouble                         thread_cost,
                                 GeglParallelDistributeRangeFunc func,
                                 gpointer                        user_data)
{
  if (forked && size > 0)
    func (0, size, user_data);
  else
    gegl_parallel_distribute_range (size, thread_cost, func, user_data);
}
