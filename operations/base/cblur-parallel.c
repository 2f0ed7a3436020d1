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

typedef struct
{
  gsize                           size;
  gsize                           next;   /* the first unit no thread has taken */
  GeglParallelDistributeRangeFunc func;
  gpointer                        user_data;
} Share;

static void
take_units (gint     i,
            gint     n,
            gpointer user_data)
{
  Share *share = user_data;
  gsize  unit;

  while ((unit = g_atomic_pointer_add (&share->next, 1)) < share->size)
    share->func (unit, 1, share->user_data);
}

void
cblur_parallel_share_range (gsize                           size,
                            gdouble                         thread_cost,
                            GeglParallelDistributeRangeFunc func,
                            gpointer                        user_data)
{
  Share share = { size, 0, func, user_data };
  gint  threads = (gint) MIN ((gdouble) cblur_parallel_threads (),
                              size / MAX (thread_cost, 1.0));

  if (size == 0)
    return;
  if (threads <= 1)
    func (0, size, user_data);
  else
    gegl_parallel_distribute (threads, take_units, &share);
}
