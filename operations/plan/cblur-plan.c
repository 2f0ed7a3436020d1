#include "config.h"
#include "cblur-plan-private.h"

#include "cblur-backend-offer.h"
#include "cblur-op.h"

G_DEFINE_QUARK (cblur-plan, plan)

static void
plan_free (gpointer data)
{
  CblurPlan *plan = data;

  if (g_atomic_int_get (&plan->holds_gpu))
    cblur_backend_hold_gpu (FALSE);
  g_mutex_clear (&plan->lock);
  g_clear_pointer (&plan->kept, cblur_kept_free);
  g_clear_pointer (&plan->values, g_bytes_unref);
  g_free (plan);
}

CblurPlan *
cblur_plan_of (GeglOperation *operation)
{
  return g_object_get_qdata (G_OBJECT (operation), plan_quark ());
}

/* GEGL prepares an op on one thread at a time */
static CblurPlan *
plan_for (const CblurOpBlur *op_blur,
          GeglOperation     *operation)
{
  CblurPlan *plan = cblur_plan_of (operation);

  if (plan != NULL)
    return plan;
  plan = g_new0 (CblurPlan, 1);
  plan->op_blur = op_blur;
  g_mutex_init (&plan->lock);
  plan->kept = cblur_kept_new ();
  g_object_set_qdata_full (G_OBJECT (operation), plan_quark (), plan, plan_free);
  return plan;
}

CblurWork
cblur_plan_work (const CblurOpBlur *op_blur,
                 const CblurBlur   *blur,
                 const Babl        *format,
                 gdouble            width,
                 gdouble            height)
{
  return cblur_work_of_region (op_blur->work_op, blur->work_mode, babl_get_name (format),
                               blur->cost_reach, blur->reach, width, height);
}

/* A change of the graph that leaves the properties as the last region
 * was blurred with (a host's apply, a brush's dab) may come at another
 * level than that region's, at which only a slider's frames stay.  GEGL
 * prepares more than once for one change. */
static void
level_after_change (CblurPlan       *plan,
                    const CblurBlur *blur)
{
  g_mutex_lock (&plan->lock);
  if (blur->values != NULL && plan->values != NULL &&
      g_bytes_equal (blur->values, plan->values))
    g_atomic_int_set (&plan->level, 0);
  g_mutex_unlock (&plan->lock);
}

void
cblur_plan_prepare (const CblurOpBlur *op_blur,
                    GeglOperation     *operation)
{
  CblurPlan         *plan = plan_for (op_blur, operation);
  g_auto (CblurBlur) blur = { 0 };
  CblurWork          work;
  CblurPrediction    prediction;
  gdouble            width, height;

  op_blur->describe (operation, 0, &blur);
  cblur_input_size (operation, &width, &height);
  work = cblur_plan_work (op_blur, &blur, gegl_operation_get_format (operation, "output"),
                          width, height);
  /* the GPU starts as soon as the graph says it will pay */
  plan->backend = cblur_choice_make (&work, &prediction);
  /* a blur whose halo costs what its own pixels do takes the whole image
   * for any region as far as the CPU's memory allows */
  plan->whole_image_pixels =
    cblur_backend_whole_image_pixels (op_blur->regions == CBLUR_REGIONS_PLANNED
                                      ? plan->backend : CBLUR_BACKEND_CPU);
  g_atomic_pointer_set (&plan->halo_pixels, 0);
  level_after_change (plan, &blur);
  /* a change of the graph begins a frame; a prepare without a region
   * taken since (GEGL's bounding box, say) does not */
  g_mutex_lock (&plan->lock);
  if (!gegl_rectangle_is_empty (&plan->frame))
    {
      plan->last_frame = plan->input_changed ? *GEGL_RECTANGLE (0, 0, 0, 0) : plan->frame;
      plan->last_frame_whole = plan->frame_whole && !plan->input_changed;
      plan->frame = *GEGL_RECTANGLE (0, 0, 0, 0);
      plan->frame_whole = FALSE;
      plan->input_changed = FALSE;
    }
  g_mutex_unlock (&plan->lock);
}

/* GEGL's cache of the output holds all but what changes of the input
 * invalidate, such as a brush's dabs under the blur; that is noted here
 * for cblur_plan_cached_region, grown to whole tiles of GEGL's, which its
 * cache lets go of whole. */
void
cblur_plan_invalidated (GeglOperation       *operation,
                        const GeglRectangle *changed)
{
  CblurPlan    *plan = cblur_plan_of (operation);
  GeglRectangle tiles;
  gint          tile_width, tile_height;

  if (plan == NULL)
    return;
  g_object_get (gegl_config (), "tile-width", &tile_width, "tile-height", &tile_height, NULL);
  gegl_rectangle_align (&tiles, changed, GEGL_RECTANGLE (0, 0, tile_width, tile_height),
                        GEGL_RECTANGLE_ALIGNMENT_SUPERSET);
  g_mutex_lock (&plan->lock);
  gegl_rectangle_bounding_box (&plan->dirty, &plan->dirty, &tiles);
  plan->input_changed = TRUE;
  g_mutex_unlock (&plan->lock);
  cblur_kept_forget (plan->kept);
}

void
cblur_plan_region_begins (CblurPlan       *plan,
                          const CblurBlur *blur,
                          gint             level)
{
  GBytes *values = blur->values != NULL ? g_bytes_ref (blur->values) : NULL;

  g_mutex_lock (&plan->lock);
  g_atomic_int_set (&plan->level, level);
  g_clear_pointer (&plan->values, g_bytes_unref);
  plan->values = values;
  g_mutex_unlock (&plan->lock);
}

void
cblur_plan_ran_on_gpu (CblurPlan *plan)
{
  if (g_atomic_int_compare_and_exchange (&plan->holds_gpu, FALSE, TRUE))
    cblur_backend_hold_gpu (TRUE);
}
