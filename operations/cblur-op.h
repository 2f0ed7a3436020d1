/* What the ops share of GEGL's machinery: mipmap levels, the cache on
 * their node, and the warning that the GPU failed.  From the op's own
 * thread (GEGL's); included after gi18n-lib.h. */
#ifndef CBLUR_OP_H
#define CBLUR_OP_H

#include <gegl-plugin.h>

G_BEGIN_DECLS

/* rect, at level 0 (as GEGL hands it to process()), in the pixels of
 * `level` */
static inline GeglRectangle
cblur_rectangle_at_level (const GeglRectangle *rect,
                          gint                 level)
{
  GeglRectangle scaled;

  scaled.x = rect->x >> level;
  scaled.y = rect->y >> level;
  scaled.width = ((rect->x + rect->width) >> level) - scaled.x;
  scaled.height = ((rect->y + rect->height) >> level) - scaled.y;
  return scaled;
}

/* GEGL keeps an op's output in a cache on its node where the op's class
 * asks for one, which get_cached_region alone does.  An op needs it only
 * once it has blurred more than a region, so that GEGL's cache serves the
 * rest of the whole image to the chunks that follow; a host asking for the
 * whole image at once, as the gegl command line does, needs none.  That
 * command never frees the nodes it chains after "--", and a cache there
 * outlives gegl_exit(), where GEGL reports it as a leaked buffer.  So the
 * ops' classes keep none, and a node gets its cache at its first whole
 * image, unless the host has set the node's policy itself. */
/* the input's width and height; a megapixel's square for a plane
 * without bounds, which the backend choice weighs as a host's view */
static inline void
cblur_input_size (GeglOperation *operation,
                  gdouble       *width,
                  gdouble       *height)
{
  const GeglRectangle *in_rect = gegl_operation_source_get_bounding_box (operation, "input");
  gboolean             bounded = in_rect != NULL && !gegl_rectangle_is_infinite_plane (in_rect);

  *width = bounded ? in_rect->width : 1024;
  *height = bounded ? in_rect->height : 1024;
}

static inline void
cblur_cache_on_node (GeglOperation *operation)
{
  GeglCachePolicy policy;
  gboolean        dont_cache;

  g_object_get (operation->node, "cache-policy", &policy, "dont-cache", &dont_cache, NULL);
  if (policy == GEGL_CACHE_POLICY_AUTO && !dont_cache)
    g_object_set (operation->node, "cache-policy", GEGL_CACHE_POLICY_ALWAYS, NULL);
}

/* The one warning an op gives where the GPU fails, at the first failure
 * (*warned, the op's own; any thread): the later ones fall back to the
 * CPU as quietly, the log saying why. */
static inline void
cblur_warn_gpu_failed (gsize       *warned,
                       const gchar *op,
                       const gchar *why)
{
  if (g_once_init_enter (warned))
    {
      g_warning (_("%s: the GPU failed (%s); this and later failures are blurred "
                   "on the CPU"), op, why);
      g_once_init_leave (warned, 1);
    }
}

G_END_DECLS

#endif
