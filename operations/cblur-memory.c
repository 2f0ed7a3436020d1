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

static GMutex cache_lock;
static Block  cache[CACHED_BLOCKS];

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
 * cut down to size: cblur_pixels_free() knows only the size asked for. */
static gpointer
take_cached (gsize size)
{
  Block found = { NULL, 0 };
  gint  best = -1;
  gint  i;

  g_mutex_lock (&cache_lock);
  for (i = 0; i < CACHED_BLOCKS; i++)
    if (cache[i].start != NULL && cache[i].size >= size && cache[i].size <= 2 * size &&
        (best < 0 || cache[i].size < cache[best].size))
      best = i;
  if (best >= 0)
    {
      found = cache[best];
      cache[best] = (Block) { NULL, 0 };
    }
  g_mutex_unlock (&cache_lock);

  if (found.size > size)
    munmap ((guint8 *) found.start + size, found.size - size);
  return found.start;
}

gpointer
cblur_pixels_alloc (gsize bytes)
{
  gsize    size = mapped_size (bytes);
  gpointer pixels = take_cached (size);

  return pixels != NULL ? pixels : map_aligned (size);
}

void
cblur_pixels_free (gpointer pixels,
                   gsize    bytes)
{
  Block evicted[CACHED_BLOCKS + 1];
  gsize n_evicted = 0;
  gsize cached;
  gint  i;

  if (pixels == NULL)
    return;

#ifdef MADV_FREE
  madvise (pixels, mapped_size (bytes), MADV_FREE);
#endif
  /* newest first; the least recently freed go back to the kernel */
  g_mutex_lock (&cache_lock);
  if (cache[CACHED_BLOCKS - 1].start != NULL)
    evicted[n_evicted++] = cache[CACHED_BLOCKS - 1];
  memmove (cache + 1, cache, (CACHED_BLOCKS - 1) * sizeof (Block));
  cache[0] = (Block) { pixels, mapped_size (bytes) };
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
