/* What the ops and the plan share of GEGL's machinery: mipmap levels,
 * the input's size, and the cache on an op's node.  From the op's own
 * thread (GEGL's). */
#ifndef CBLUR_OP_H
#define CBLUR_OP_H

#include <gegl-plugin.h>

#include "cblur-format.h"

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

/* The source's own format where cblur-format covers it or babl holds a
 * float result in it: an op writes its result in it, converting inside
 * its own threaded reads and writes (cblur_format_for_source). */
static inline const Babl *
cblur_op_format (GeglOperation *operation)
{
  return cblur_format_for_source (gegl_operation_get_source_format (operation, "input"),
                                  gegl_operation_get_source_space (operation, "input"));
}

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

/* GEGL holds an op's output in a cache on its node where the op's class
 * asks for one, which get_cached_region alone does.  An op needs it only
 * once it has blurred more than a region, so that GEGL's cache serves the
 * rest of the whole image to the chunks that follow; a host asking for the
 * whole image at once, as the gegl command line does, needs none.  That
 * command never frees the nodes it chains after "--", and a cache there
 * outlives gegl_exit(), where GEGL reports it as a leaked buffer.  So the
 * ops' classes ask for none, and a node gets its cache at its first whole
 * image, unless the host has set the node's policy itself. */
static inline void
cblur_cache_on_node (GeglOperation *operation)
{
  GeglCachePolicy policy;
  gboolean        dont_cache;

  g_object_get (operation->node, "cache-policy", &policy, "dont-cache", &dont_cache, NULL);
  if (policy == GEGL_CACHE_POLICY_AUTO && !dont_cache)
    g_object_set (operation->node, "cache-policy", GEGL_CACHE_POLICY_ALWAYS, NULL);
}

G_END_DECLS

#endif
