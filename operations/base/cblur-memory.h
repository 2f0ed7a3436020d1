/* Band memory (whole bands of pixels) and the CPU's own buffers, cached
 * between calls with their pages; non-temporal stores into them. */
#ifndef CBLUR_MEMORY_H
#define CBLUR_MEMORY_H

#include <string.h>
#include <glib.h>
#ifdef __SSE__
#include <immintrin.h>
#endif

G_BEGIN_DECLS

/* NULL when there is no room, rather than aborting as g_malloc does */
gpointer cblur_pixels_alloc (gsize    bytes);
/* for the CPU's own buffers, which have no fallback: aborts with a message
 * where there is no room, as gegl_malloc does */
gpointer cblur_pixels_take  (gsize    bytes);
void     cblur_pixels_free  (gpointer pixels);

/* One pixel (four floats, `to` 16-byte aligned) in a non-temporal store,
 * around the cache, for a pass between that is read back only once a
 * pass has written all of it: through the cache each store would read
 * its line first and evict the pass's own lines.  A thread's non-temporal
 * stores are ordered only by cblur_non_temporal_stores_fence(), which it
 * calls before others read them. */
static inline void
cblur_pixel_store_non_temporal (gfloat       *to,
                                const gfloat *pixel)
{
#ifdef __SSE__
  _mm_stream_ps (to, _mm_loadu_ps (pixel));
#else
  memcpy (to, pixel, 4 * sizeof (gfloat));
#endif
}

static inline void
cblur_non_temporal_stores_fence (void)
{
#ifdef __SSE__
  _mm_sfence ();
#endif
}

G_END_DECLS

#endif
