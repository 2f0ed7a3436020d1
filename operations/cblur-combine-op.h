/* What the ops that join a blur with their source share of GEGL's side
 * (cblur:unsharp-mask, cblur:high-pass, cblur:difference-of-gaussians):
 * the backend choice, the region GEGL caches, and their bands, read and
 * written on GEGL's threads.  From the op's own thread (GEGL's); included
 * after gi18n-lib.h. */
#ifndef CBLUR_COMBINE_OP_H
#define CBLUR_COMBINE_OP_H

#include <gegl-plugin.h>

#include "cblur-combine-band.h"

G_BEGIN_DECLS

typedef struct _CblurCombineOp CblurCombineOp;

/* op: the name for the choice's rates and the messages ("unsharp-mask") */
CblurCombineOp *cblur_combine_op_new      (const gchar         *op);
void            cblur_combine_op_free     (CblurCombineOp      *state);

/* The choice for the whole input, the halo and the formats: the source's
 * own in and out where the op reads and writes it as it is. */
void            cblur_combine_op_prepare  (CblurCombineOp      *state,
                                           GeglOperation       *operation,
                                           const CblurCombine  *combine);

/* Where the GPU or the image's size makes the whole image cheaper than
 * GEGL's chunks one by one, the whole input, which GEGL's cache on the
 * node then serves; else roi. */
GeglRectangle   cblur_combine_op_region   (CblurCombineOp      *state,
                                           GeglOperation       *operation,
                                           const GeglRectangle *roi);

/* result (at level 0) of input joined with its blurs into output at
 * level; combine's radii are level 0's. */
gboolean        cblur_combine_op_process  (CblurCombineOp      *state,
                                           GeglOperation       *operation,
                                           const CblurCombine  *combine,
                                           GeglBuffer          *input,
                                           GeglBuffer          *output,
                                           const GeglRectangle *result,
                                           gint                 level);

/* GEGL's threshold (Y' in space) as linear luminance, with space's
 * weights */
void            cblur_combine_op_threshold (const Babl         *space,
                                            gdouble             threshold,
                                            CblurThreshold     *out);

/* An op's GEGL wiring, after gegl-op.h, for the op's own
 * `static CblurCombine combine_of (GeglOperation *operation)`: prepare,
 * the bounding box, the region GEGL caches, process and finalize, the
 * state in user_data; set_wiring (klass) sets them. */
#define CBLUR_COMBINE_OP_WIRING(op_name)                                              \
static void                                                                         \
prepare (GeglOperation *operation)                                                  \
{                                                                                   \
  GeglProperties *o = GEGL_PROPERTIES (operation);                                  \
  CblurCombine    combine = combine_of (operation);                                 \
                                                                                    \
  if (o->user_data == NULL)                                                         \
    o->user_data = cblur_combine_op_new (op_name);                                  \
  cblur_combine_op_prepare (o->user_data, operation, &combine);                     \
}                                                                                   \
                                                                                    \
static GeglRectangle                                                                \
get_cached_region (GeglOperation       *operation,                                  \
                   const GeglRectangle *roi)                                        \
{                                                                                   \
  GeglProperties *o = GEGL_PROPERTIES (operation);                                  \
                                                                                    \
  return o->user_data != NULL ? cblur_combine_op_region (o->user_data, operation, roi) \
                              : *roi;                                               \
}                                                                                   \
                                                                                    \
static gboolean                                                                     \
process (GeglOperation       *operation,                                            \
         GeglBuffer          *input,                                                \
         GeglBuffer          *output,                                               \
         const GeglRectangle *result,                                               \
         gint                 level)                                                \
{                                                                                   \
  CblurCombine combine = combine_of (operation);                                    \
                                                                                    \
  return cblur_combine_op_process (GEGL_PROPERTIES (operation)->user_data, operation, \
                                   &combine, input, output, result, level);         \
}                                                                                   \
                                                                                    \
/* the input's extent, as GEGL's blur inside these ops keeps it */                \
static GeglRectangle                                                                \
get_bounding_box (GeglOperation *operation)                                         \
{                                                                                   \
  const GeglRectangle *in_rect = gegl_operation_source_get_bounding_box (operation, \
                                                                         "input");  \
                                                                                    \
  return in_rect != NULL ? *in_rect : *GEGL_RECTANGLE (0, 0, 0, 0);                 \
}                                                                                   \
                                                                                    \
static void                                                                         \
finalize (GObject *object)                                                          \
{                                                                                   \
  GeglProperties *o = GEGL_PROPERTIES (object);                                     \
                                                                                    \
  g_clear_pointer (&o->user_data, cblur_combine_op_free);                           \
  G_OBJECT_CLASS (gegl_op_parent_class)->finalize (object);                         \
}                                                                                   \
                                                                                    \
/* the backends thread (CPU) or serialize (GL) the work themselves */               \
static void                                                                         \
set_wiring (GeglOpClass *klass)                                                     \
{                                                                                   \
  G_OBJECT_CLASS (klass)->finalize = finalize;                                      \
  GEGL_OPERATION_CLASS (klass)->prepare = prepare;                                  \
  GEGL_OPERATION_CLASS (klass)->get_cached_region = get_cached_region;              \
  GEGL_OPERATION_CLASS (klass)->get_bounding_box = get_bounding_box;                \
  GEGL_OPERATION_CLASS (klass)->threaded = FALSE;                                   \
  GEGL_OPERATION_CLASS (klass)->cache_policy = GEGL_CACHE_POLICY_NEVER;             \
  GEGL_OPERATION_FILTER_CLASS (klass)->process = process;                           \
}

G_END_DECLS

#endif
