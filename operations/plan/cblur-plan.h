/* What the plan holds for an op's node across its regions, and which
 * region it blurs for the one GEGL asks for: the backend chosen for the
 * graph, the level and properties of the last region, the frames a host
 * renders, the output a brush dirtied, the source kept between frames,
 * and whether the GPU's context stays.  One a node, made in the op's
 * first prepare and freed with the op; every function is thread-safe
 * (GEGL calls the vfuncs from its threads). */
#ifndef CBLUR_PLAN_H
#define CBLUR_PLAN_H

#include <gegl-plugin.h>

#include "cblur-blur.h"

G_BEGIN_DECLS

typedef struct _CblurPlan CblurPlan;

/* A change of the graph (the op's prepare, after it set its formats):
 * the backend for the whole image at level 0, and a new frame.  The
 * first makes the node's plan, which lives as long as the op. */
void          cblur_plan_prepare           (const CblurOpBlur   *op_blur,
                                            GeglOperation       *operation);

/* The plan that cblur_plan_prepare() made for operation, or NULL. */
CblurPlan    *cblur_plan_of                (GeglOperation       *operation);

/* For the op's get_invalidated_by_change: notes what a change of the
 * input invalidated (grown to GEGL's tiles) and forgets the kept
 * source. */
void          cblur_plan_invalidated       (GeglOperation       *operation,
                                            const GeglRectangle *changed);

/* The op's get_cached_region: the region to blur for roi, inside the
 * op's bounding box, by its CblurOpBlur's regions rule; gives the node
 * its cache where the region is more than roi. */
GeglRectangle cblur_plan_get_cached_region (GeglOperation       *operation,
                                            const GeglRectangle *roi);

G_END_DECLS

#endif
