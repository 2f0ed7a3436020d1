/* CblurPlan's insides, shared by cblur-plan.c (the node's state),
 * cblur-region.c (which region) and cblur-band-loop.c (the loop's
 * side).  Not for the ops. */
#ifndef CBLUR_PLAN_PRIVATE_H
#define CBLUR_PLAN_PRIVATE_H

#include "cblur-kept.h"
#include "cblur-plan.h"

G_BEGIN_DECLS

struct _CblurPlan
{
  const CblurOpBlur *op_blur;
  CblurBackendKind backend;             /* the choice for the whole image at level 0 */
  gsize            whole_image_pixels;  /* cblur_backend_whole_image_pixels */
  /* the mipmap level of the last region blurred and the properties it
   * was blurred with: the level stands for the next region's where the
   * properties changed since (cblur_plan_cached_region) */
  gint             level;
  GBytes          *values;
  /* halo pixels blurred for regions on their own since the graph last
   * changed, to weigh against blurring the whole image once */
  gsize            halo_pixels;
  GMutex           lock;                /* guards values, the frames, input_changed */
  /* the output that changes of the input alone invalidated since a
   * region last took it (a host's brush under the blur) */
  GeglRectangle    dirty;
  /* what regions took since the graph last changed (a host's frame), and
   * what the frame before took where only properties changed since */
  GeglRectangle    frame;
  GeglRectangle    last_frame;
  /* whether a region of the frame, and of the frame before, took the
   * whole image at level 0 on GL, or on the CPU after such a frame:
   * GEGL's cache then served the other chunks, so what the host shows is
   * not known */
  gboolean         frame_whole;
  gboolean         last_frame_whole;
  gboolean         input_changed;       /* since the frame began */
  gint             holds_gpu;           /* has blurred on GL: the context stays */
  CblurKept       *kept;                /* the source's pixels between frames */
};

/* The work of a width × height part of blur's region, as the choice
 * weighs it, in the op's format. */
CblurWork cblur_plan_work          (const CblurOpBlur *op_blur,
                                    const CblurBlur   *blur,
                                    const Babl        *format,
                                    gdouble            width,
                                    gdouble            height);

/* A region is blurred at level with blur's properties. */
void      cblur_plan_region_begins (CblurPlan         *plan,
                                    const CblurBlur   *blur,
                                    gint               level);

/* A band ran on GL: a live preview's next render after a pause finds
 * the context. */
void      cblur_plan_ran_on_gpu    (CblurPlan         *plan);

G_END_DECLS

#endif
