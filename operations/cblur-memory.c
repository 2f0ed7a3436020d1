#include "cblur-memory.h"

#include <string.h>
#include <sys/mman.h>

/* A band is hundreds of megabytes touched once per call: in 4 KiB pages
 * the kernel spent a quarter of a 4K box blur's time faulting them in.
 * Huge pages cut the faults 512-fold where the kernel offers them only on
 * request (transparent_hugepage=madvise, as on Debian). */
#define HUGE_PAGE ((gsize) 2 << 20)

/* Even in huge pages, zeroing fresh memory took a third of a 4K box blur
 * on two cores, so freed bands wait here for the next call.  MADV_FREE
 * lets the kernel take their pages back whenever it needs them, without
 * the process giving up the addresses; a band reused before that costs no
 * fault at all.  The CPU's pass between and each of its threads' buffers
 * are blocks of their own. */
#define CACHED_BLOCKS 64
#define CACHED_BYTES  ((gsize) 256 << 20)

typedef struct
{
  gpointer start;
  gsize    size;
} Block;

static GMutex      cache_lock;
static Block       cache[CACHED_BLOCKS];
/* the blocks handed out, by start, with their mapped sizes: one taken
 * from the cache may be larger than was asked for */
static GHashTable *in_use;

static gsize
mapped_size (gsize bytes)
{
  return (MAX (bytes, 1) + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

/* mmap aligns to pages only: map a huge page more and trim both ends */
static gpointer
map_aligned (gsize size)
{
  guint8 *mapped = mmap (NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  guint8 *start;
  gsize   head;

  if (mapped == MAP_FAILED)
    return NULL;
  start = (guint8 *) (((guintptr) mapped + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1));
  head = start - mapped;
  if (head > 0)
    munmap (mapped, head);
  munmap (start + size, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
  madvise (start, size, MADV_HUGEPAGE);
#endif
  return start;
}

/* The smallest cached block that fits without wasting more than the band,
 * whole: bands of nearly one size (a region's first and last have less
 * halo) then reuse each other's blocks. */
static Block
take_cached (gsize size)
{
  Block found = { NULL, 0 };
  gint  best = -1;
  gint  i;

  for (i = 0; i < CACHED_BLOCKS; i++)
    if (cache[i].start != NULL && cache[i].size >= size && cache[i].size <= 2 * size &&
        (best < 0 || cache[i].size < cache[best].size))
      best = i;
  if (best >= 0)
    {
      found = cache[best];
      cache[best] = (Block) { NULL, 0 };
    }
  return found;
}

gpointer
cblur_pixels_alloc (gsize bytes)
{
  Block block;

  g_mutex_lock (&cache_lock);
  block = take_cached (mapped_size (bytes));
  g_mutex_unlock (&cache_lock);
  if (block.start == NULL)
    block = (Block) { map_aligned (mapped_size (bytes)), mapped_size (bytes) };
  if (block.start == NULL)
    return NULL;

  g_mutex_lock (&cache_lock);
  if (in_use == NULL)
    in_use = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (in_use, block.start, GSIZE_TO_POINTER (block.size));
  g_mutex_unlock (&cache_lock);
  return block.start;
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

#ifdef MADV_FREE
  madvise (pixels, size, MADV_FREE);
#endif
  /* newest first; the least recently freed go back to the kernel */
  g_mutex_lock (&cache_lock);
  if (cache[CACHED_BLOCKS - 1].start != NULL)
    evicted[n_evicted++] = cache[CACHED_BLOCKS - 1];
  memmove (cache + 1, cache, (CACHED_BLOCKS - 1) * sizeof (Block));
  cache[0] = (Block) { pixels, size };
  cached = 0;
  for (i = 0; i < CACHED_BLOCKS; i++)
    {
      cached += cache[i].size;
      if (cache[i].start != NULL && cached > CACHED_BYTES)
        {
          evicted[n_evicted++] = cache[i];
          cache[i] = (Block) { NULL, 0 };
        }
    }
  g_mutex_unlock (&cache_lock);

  while (n_evicted > 0)
    {
      n_evicted--;
      munmap (evicted[n_evicted].start, evicted[n_evicted].size);
    }
}
