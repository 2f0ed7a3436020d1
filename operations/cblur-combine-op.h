/* The GEGL wiring the blurs with arithmetic share (cblur:unsharp-mask,
 * cblur:high-pass, cblur:difference-of-gaussians), on the plan's band
 * loop (plan/cblur-band-combine.h).  Included after gegl-op.h, by an op
 * that defines `static void combine_of (GeglOperation *operation,
 * CblurCombine *combine)` (its properties at level 0, the rest 0). */
#ifndef CBLUR_COMBINE_OP_H
#define CBLUR_COMBINE_OP_H

#include "cblur-backend-offer.h"
#include "cblur-band-combine.h"
#include "cblur-band-loop.h"
#include "cblur-bands.h"
#include "cblur-op.h"
#include "cblur-op-vfuncs.h"

/* The result in the format the Gaussian blur gives its source's
 * (cblur_format_for_result: the source's, a half one's in float),
 * encoded by the backends from their premultiplied
 * pixels and written in place as the blur's band writes: a host stores
 * GEGL's result in the image's format, so an integer format clips a
 * difference below 0 or a sharpened edge beyond 1 where the host would,
 * and a float source keeps them for the ops that follow.  The source is
 * read as it is stored. */
static inline void
cblur_combine_op_formats (GeglOperation *operation)
{
  const Babl *format = cblur_op_format (operation);

  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", cblur_format_for_result (format));
}

/* describe, the op's CblurOpBlur `op_blur`, prepare, the bounding box
 * (the input's extent, as GEGL's blur inside these ops keeps it) and
 * process; set_wiring (klass) sets them with the plan's shared vfuncs and
 * says whether the blur likely runs on the GPU, for the title and menu,
 * as far as is known without opening GL.  The backends thread (CPU) or
 * serialize (GL) the work themselves. */
#define CBLUR_COMBINE_OP_WIRING(op_name, work_op)                                     \
static void                                                                         \
describe (GeglOperation *operation,                                                 \
          gint           level,                                                     \
          CblurBlur     *blur)                                                      \
{                                                                                   \
  CblurCombine combine;                                                             \
                                                                                    \
  memset (&combine, 0, sizeof combine);                                             \
  combine_of (operation, &combine);                                                 \
  cblur_blur_describe_combine (blur, &combine, level);                              \
}                                                                                   \
                                                                                    \
static const CblurOpBlur op_blur =                                                  \
{                                                                                   \
  op_name, work_op, CBLUR_REGIONS_PLANNED, cblur_band_rows_kernel,                  \
  cblur_blur_band_combine, describe                                                 \
};                                                                                  \
                                                                                    \
static void                                                                         \
prepare (GeglOperation *operation)                                                  \
{                                                                                   \
  GeglOperationAreaFilter *area = GEGL_OPERATION_AREA_FILTER (operation);           \
  g_auto (CblurBlur)       blur = { 0 };                                            \
                                                                                    \
  describe (operation, 0, &blur);                                                   \
  area->left = area->right = area->top = area->bottom = blur.reach;                 \
  cblur_combine_op_formats (operation);                                             \
  cblur_plan_prepare (&op_blur, operation);                                         \
}                                                                                   \
                                                                                    \
static GeglRectangle                                                                \
get_bounding_box (GeglOperation *operation)                                         \
{                                                                                   \
  const GeglRectangle *in_rect = gegl_operation_source_get_bounding_box (operation, \
                                                                         "input");  \
                                                                                    \
  return in_rect != NULL ? *in_rect : *GEGL_RECTANGLE (0, 0, 0, 0);                 \
}                                                                                   \
                                                                                    \
static gboolean                                                                     \
process (GeglOperation       *operation,                                            \
         GeglBuffer          *input,                                                \
         GeglBuffer          *output,                                               \
         const GeglRectangle *result,                                               \
         gint                 level)                                                \
{                                                                                   \
  g_auto (CblurBlur) blur = { 0 };                                                  \
  CblurCombine       combine;                                                       \
                                                                                    \
  memset (&combine, 0, sizeof combine);                                             \
  combine_of (operation, &combine);                                                 \
  describe (operation, level, &blur);                                               \
  combine = cblur_combine_at_level (&combine, level);                               \
  blur.data = &combine;                                                             \
  return cblur_plan_blur_region (&blur, operation, input, NULL, output, result,     \
                                 level);                                            \
}                                                                                   \
                                                                                    \
static gboolean                                                                     \
set_wiring (GeglOpClass *klass)                                                     \
{                                                                                   \
  GeglOperationClass *operation_class = GEGL_OPERATION_CLASS (klass);               \
                                                                                    \
  operation_class->prepare = prepare;                                               \
  operation_class->process = cblur_op_process;                                      \
  operation_class->get_bounding_box = get_bounding_box;                             \
  operation_class->get_cached_region = cblur_plan_get_cached_region;                \
  operation_class->get_invalidated_by_change = cblur_op_get_invalidated_by_change;  \
  operation_class->threaded = FALSE;                                                \
  operation_class->cache_policy = GEGL_CACHE_POLICY_NEVER;                          \
  GEGL_OPERATION_FILTER_CLASS (klass)->process = process;                           \
  return cblur_backend_likely () == CBLUR_BACKEND_GL;                               \
}

#endif
