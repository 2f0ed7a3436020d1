#include "cblur-memory.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

/* A band's memory is hundreds of megabytes touched once per call:
 * faulting it in and zeroing it costs as much as a good part of the
 * blur, so freed band memory waits here for the next call with its
 * pages.  Blocks are whole multiples of BLOCK_GRAIN, so that bands of
 * nearly one size reuse each other's.  The CPU's pass between and each of
 * its threads' buffers are blocks of their own. */
#define BLOCK_GRAIN   ((gsize) 2 << 20)
#define CACHED_BLOCKS 64
#define CACHED_BYTES  ((gsize) 256 << 20)

/* Cached blocks hold on to their pages while blurs follow each other:
 * advised free (MADV_FREE) on every free, each page costs the processor
 * an assist to mark it dirty again on the next call's first write.  Once
 * no block has been freed for IDLE_US, a thread of its own advises the
 * cached ones free, so that the kernel may take their pages back
 * whenever it needs them.  (Transparent huge pages are not asked for: a first call would
 * wait on the kernel compacting memory for them.) */
#define IDLE_US (10 * G_USEC_PER_SEC)

typedef struct
{
  gpointer start;
  gsize    size;
  gboolean advised;   /* given MADV_FREE since its last use */
} Block;

static GMutex      cache_lock;
static GCond       cache_freed;
static Block       cache[CACHED_BLOCKS];
static gint64      last_freed;
/* the blocks handed out, by start, with their mapped sizes: one taken
 * from the cache may be larger than asked for */
static GHashTable *in_use;

static gsize
mapped_size (gsize bytes)
{
  return (MAX (bytes, 1) + BLOCK_GRAIN - 1) / BLOCK_GRAIN * BLOCK_GRAIN;
}

static gpointer
map_block (gsize size)
{
  gpointer mapped = mmap (NULL, size, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  return mapped != MAP_FAILED ? mapped : NULL;
}

/* whether a cached block waits for advice; under cache_lock */
static gboolean
has_unadvised (void)
{
  gint i;

  for (i = 0; i < CACHED_BLOCKS; i++)
    if (cache[i].start != NULL && !cache[i].advised)
      return TRUE;
  return FALSE;
}

static gpointer
advise_idle (gpointer data)
{
  gint i;

  g_mutex_lock (&cache_lock);
  for (;;)
    {
      gint64 due = last_freed + IDLE_US;

      if (!has_unadvised ())
        g_cond_wait (&cache_freed, &cache_lock);
      else if (g_get_monotonic_time () < due)
        g_cond_wait_until (&cache_freed, &cache_lock, due);
      else
        for (i = 0; i < CACHED_BLOCKS; i++)
          if (cache[i].start != NULL && !cache[i].advised)
            {
#ifdef MADV_FREE
              madvise (cache[i].start, cache[i].size, MADV_FREE);
#endif
              cache[i].advised = TRUE;
            }
    }
  return NULL;
}

static GOnce advising = G_ONCE_INIT;

/* the thread lives as long as the process, as the module does */
static gpointer
start_advising (gpointer data)
{
  return g_thread_new ("cblur-advise", advise_idle, NULL);
}

/* A fork while another thread holds the cache's lock would leave it held
 * for good in the child, which has that thread no more: the lock is taken
 * around fork(), and the child starts an advising thread of its own. */
static void
lock_for_fork (void)
{
  g_mutex_lock (&cache_lock);
}

static void
unlock_in_parent (void)
{
  g_mutex_unlock (&cache_lock);
}

static void
unlock_in_child (void)
{
  advising = (GOnce) G_ONCE_INIT;
  g_mutex_unlock (&cache_lock);
}

/* The smallest cached block that fits without wasting more than the band,
 * whole: bands of nearly one size (a region's first and last have less
 * halo) then reuse each other's blocks. */
static Block
take_cached (gsize size)
{
  Block found = { NULL, 0, FALSE };
  gint  best = -1;
  gint  i;

  for (i = 0; i < CACHED_BLOCKS; i++)
    if (cache[i].start != NULL && cache[i].size >= size && cache[i].size <= 2 * size &&
        (best < 0 || cache[i].size < cache[best].size))
      best = i;
  if (best >= 0)
    {
      found = cache[best];
      cache[best] = (Block) { NULL, 0, FALSE };
    }
  return found;
}

gpointer
cblur_pixels_alloc (gsize bytes)
{
  static gsize fork_watched = 0;
  Block        block;

  if (g_once_init_enter (&fork_watched))
    {
      pthread_atfork (lock_for_fork, unlock_in_parent, unlock_in_child);
      g_once_init_leave (&fork_watched, 1);
    }
  g_mutex_lock (&cache_lock);
  block = take_cached (mapped_size (bytes));
  g_mutex_unlock (&cache_lock);
  if (block.start == NULL)
    block = (Block) { map_block (mapped_size (bytes)), mapped_size (bytes), FALSE };
  if (block.start == NULL)
    return NULL;

  g_mutex_lock (&cache_lock);
  if (in_use == NULL)
    in_use = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (in_use, block.start, GSIZE_TO_POINTER (block.size));
  g_mutex_unlock (&cache_lock);
  return block.start;
}

gpointer
cblur_pixels_take (gsize bytes)
{
  gpointer pixels = cblur_pixels_alloc (bytes);

  if (pixels == NULL)
    g_error (_("cblur:gaussian-blur: failed to allocate %.1f MiB"), bytes / 1048576.0);
  return pixels;
}

void
cblur_pixels_free (gpointer pixels)
{
  Block evicted[CACHED_BLOCKS + 1];
  gsize n_evicted = 0;
  gsize cached;
  gsize size;
  gint  i;

  if (pixels == NULL)
    return;

  g_mutex_lock (&cache_lock);
  size = GPOINTER_TO_SIZE (g_hash_table_lookup (in_use, pixels));
  g_hash_table_remove (in_use, pixels);
  g_mutex_unlock (&cache_lock);
  g_return_if_fail (size > 0);

  g_once (&advising, start_advising, NULL);

  /* newest first; the least recently freed go back to the kernel */
  g_mutex_lock (&cache_lock);
  if (cache[CACHED_BLOCKS - 1].start != NULL)
    evicted[n_evicted++] = cache[CACHED_BLOCKS - 1];
  memmove (cache + 1, cache, (CACHED_BLOCKS - 1) * sizeof (Block));
  cache[0] = (Block) { pixels, size, FALSE };
  cached = 0;
  for (i = 0; i < CACHED_BLOCKS; i++)
    {
      cached += cache[i].size;
      if (cache[i].start != NULL && cached > CACHED_BYTES)
        {
          evicted[n_evicted++] = cache[i];
          cache[i] = (Block) { NULL, 0, FALSE };
        }
    }
  last_freed = g_get_monotonic_time ();
  g_cond_signal (&cache_freed);
  g_mutex_unlock (&cache_lock);

  while (n_evicted > 0)
    {
      n_evicted--;
      munmap (evicted[n_evicted].start, evicted[n_evicted].size);
    }
}
