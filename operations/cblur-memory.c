#include "cblur-memory.h"

#include <stdlib.h>
#include <sys/mman.h>

/* A band is hundreds of megabytes touched once per call: in 4 KiB pages
 * the kernel spent a quarter of a 4K box blur's time faulting them in.
 * Huge pages cut the faults 512-fold where the kernel offers them only on
 * request (transparent_hugepage=madvise, as on Debian). */
#define HUGE_PAGE ((gsize) 2 << 20)

gpointer
cblur_pixels_alloc (gsize bytes)
{
  gpointer pixels = NULL;

  if (posix_memalign (&pixels, HUGE_PAGE, MAX (bytes, 1)) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  if (bytes >= HUGE_PAGE)
    madvise (pixels, bytes - bytes % HUGE_PAGE, MADV_HUGEPAGE);
#endif
  return pixels;
}

void
cblur_pixels_free (gpointer pixels)
{
  free (pixels);
}
