/* Which region the plan blurs for the one GEGL asks for
 * (cblur_plan_get_cached_region). */
#include "config.h"
#include "cblur-plan-private.h"

#include "cblur-backend-offer.h"
#include "cblur-bands.h"
#include "cblur-op.h"

/* GEGL renders a whole image in chunks of a megapixel for each of its
 * threads: a 4K image in eight with one thread.  A region that is at
 * least this part of the image, each with its halo, takes the whole
 * image (region_takes_whole_image). */
#define WHOLE_IMAGE_FACTOR 8

/* rect (at level 0) with the halo of `reach`, in pixels of `level` */
static gdouble
pixels_with_halo (const GeglRectangle *rect,
                  gint                 reach,
                  gint                 level)
{
  GeglRectangle scaled = cblur_rectangle_at_level (rect, level);

  return ((gdouble) scaled.width + 2.0 * reach) * ((gdouble) scaled.height + 2.0 * reach);
}

/* whether part, with its halo, is at most half of whole with its */
static gboolean
is_small_part (const GeglRectangle *part,
               const GeglRectangle *whole,
               gint                 reach,
               gint                 level)
{
  return 2 * pixels_with_halo (part, reach, level) <= pixels_with_halo (whole, reach, level);
}

/* Where whole images pay (cblur_renders_whole_images), whether this
 * region takes one.  An image up to the backend's whole-image size
 * (cblur_backend_whole_image_pixels) is taken whole for any region.
 * Beyond it, blurring the whole image in the region's place bets that
 * GEGL asks for the rest too: taken at once where the image with its halo
 * is at most WHOLE_IMAGE_FACTOR times the region with its own, as in a
 * full render's chunks, and once regions blurred on their own have spent
 * on their halos (and on GL on their calls) what the whole image would
 * cost, as where a host applies in small chunks (GIMP); that bet costs at
 * most twice the whole image.
 *
 * There the CPU blurs a region of at least half the image on its own:
 * the whole would cost little less, and where it is the rest after chunks
 * blurred before (GIMP's last, most of the image), it would blur those
 * again.  GL's box tiles meet within float rounding rather than bit for
 * bit, so there any region that could take the whole image does, and an
 * image comes out the same bits however GEGL chunks it.
 *
 * A small region of a large image, which a viewer at high zoom asks for,
 * costs its own pixels and halo, whatever the image's size. */
static gboolean
region_takes_whole_image (CblurPlan           *plan,
                          const GeglRectangle *region,
                          const GeglRectangle *whole,
                          gint                 reach,
                          gint                 level)
{
  gdouble whole_pixels = pixels_with_halo (whole, reach, level);
  gdouble region_pixels = pixels_with_halo (region, reach, level);
  gdouble halo = region_pixels - pixels_with_halo (region, 0, level) +
                 (gdouble) cblur_backend_region_overhead (plan->backend);

  if (whole_pixels <= (gdouble) plan->whole_image_pixels)
    return TRUE;
  if (plan->backend != CBLUR_BACKEND_GL && 2 * region_pixels >= whole_pixels)
    return FALSE;
  if (whole_pixels <= WHOLE_IMAGE_FACTOR * region_pixels ||
      (gdouble) g_atomic_pointer_get (&plan->halo_pixels) + halo >= whole_pixels)
    return TRUE;

  g_atomic_pointer_add (&plan->halo_pixels, (gssize) MIN (halo, (gdouble) G_MAXSSIZE));
  return FALSE;
}

/* Where region meets what changes of the input invalidated and all of
 * that is a small part of the image, *take gets it all with region,
 * inside whole: a host renders it again in small chunks, each of which
 * would pay its halo on its own or, under the whole-image rules, blur the
 * whole image again, while GEGL's cache still holds the rest.  The CPU
 * blurs any part of an image to the same bits; GL's box tiles meet
 * within float rounding, so GL stays with the whole image. */
static gboolean
takes_dirty (CblurPlan           *plan,
             const GeglRectangle *region,
             const GeglRectangle *whole,
             gint                 reach,
             gint                 level,
             GeglRectangle       *take)
{
  gboolean small = FALSE;

  if (plan->backend != CBLUR_BACKEND_CPU)
    return FALSE;
  g_mutex_lock (&plan->lock);
  if (gegl_rectangle_intersect (NULL, &plan->dirty, region))
    {
      gegl_rectangle_bounding_box (take, &plan->dirty, region);
      gegl_rectangle_intersect (take, take, whole);
      small = is_small_part (take, whole, reach, level);
      if (small)
        plan->dirty = *GEGL_RECTANGLE (0, 0, 0, 0);
    }
  g_mutex_unlock (&plan->lock);
  return small;
}

/* A host shows a view, and after a change of properties alone renders
 * again, chunk by chunk, what it showed.  Where region lies in what the
 * frame before took and that is a small part of the image, *take gets it
 * all: blurred at once, the view pays one halo and one start rather than
 * one for each chunk, and where the rules would take the whole image,
 * blurs only what is shown.  CPU only, as takes_dirty. */
static gboolean
takes_last_frame (CblurPlan           *plan,
                  const GeglRectangle *region,
                  const GeglRectangle *whole,
                  gint                 reach,
                  gint                 level,
                  GeglRectangle       *take)
{
  if (plan->backend != CBLUR_BACKEND_CPU)
    return FALSE;
  g_mutex_lock (&plan->lock);
  *take = plan->last_frame;
  g_mutex_unlock (&plan->lock);
  return gegl_rectangle_contains (take, region) && is_small_part (take, whole, reach, level);
}

/* A frame after one that GL took whole at level 0 does not know what the
 * host shows, since GEGL's cache served the other chunks; chunk by chunk
 * the CPU would pay a start and a halo for each of them.  Where the choice
 * has the CPU finish the whole image before GL, the CPU takes it, as the
 * frame before did, as far as its memory allows, and so on while the CPU
 * serves.  A view the CPU alone took whole (box mode's rule) is learned
 * chunk by chunk, as a first frame's is: there the whole image at a
 * direct radius costs each frame more than that one frame's chunks. */
static gboolean
follows_whole_frame (CblurPlan           *plan,
                     const GeglRectangle *whole,
                     gint                 reach,
                     gint                 level)
{
  gboolean follows;

  if (plan->backend != CBLUR_BACKEND_CPU || level != 0 ||
      pixels_with_halo (whole, reach, level) > (gdouble) plan->whole_image_pixels)
    return FALSE;
  g_mutex_lock (&plan->lock);
  follows = plan->last_frame_whole;
  g_mutex_unlock (&plan->lock);
  return follows;
}

/* what to blur for region, inside whole: the dirty area, the last frame,
 * the whole image or region alone */
static GeglRectangle
choose_region (CblurPlan           *plan,
               const CblurBlur     *blur,
               const GeglRectangle *region,
               const GeglRectangle *whole,
               gint                 level)
{
  gint          reach = blur->reach;
  gboolean      whole_images = cblur_renders_whole_images (plan->backend, blur->mode, reach,
                                                           level);
  GeglRectangle take;

  if (whole_images && takes_dirty (plan, region, whole, reach, level, &take))
    return take;
  if (takes_last_frame (plan, region, whole, reach, level, &take))
    return take;
  if (whole_images ? !region_takes_whole_image (plan, region, whole, reach, level)
                   : !follows_whole_frame (plan, whole, reach, level))
    return *region;
  g_mutex_lock (&plan->lock);
  plan->dirty = *GEGL_RECTANGLE (0, 0, 0, 0);
  g_mutex_unlock (&plan->lock);
  return *whole;
}

/* GEGL does not say at which mipmap level it asks for roi.  A host
 * renders a view's chunks at one level, that of its zoom, so after a
 * change of the properties (a slider's frame) the level of the last
 * region blurred stands for it, and otherwise level 0
 * (level_after_change): after a zoom only the first region is judged at
 * the level before.  Which region is blurred changes only what a frame
 * costs, not its pixels (takes_dirty, region_takes_whole_image). */
static GeglRectangle
planned_region (CblurPlan           *plan,
                GeglOperation       *operation,
                const GeglRectangle *roi,
                const GeglRectangle *whole)
{
  const GeglRectangle *in_rect = gegl_operation_source_get_bounding_box (operation, "input");
  gint                 level = g_atomic_int_get (&plan->level);
  g_auto (CblurBlur)   blur = { 0 };
  GeglRectangle        region;
  GeglRectangle        take;

  if (in_rect == NULL || gegl_rectangle_is_infinite_plane (in_rect) ||
      !gegl_rectangle_intersect (&region, roi, whole))
    return *roi;

  plan->op_blur->describe (operation, level, &blur);
  take = choose_region (plan, &blur, &region, whole, level);
  g_mutex_lock (&plan->lock);
  gegl_rectangle_bounding_box (&plan->frame, &plan->frame, &take);
  plan->frame_whole |= level == 0 && gegl_rectangle_equal (&take, whole) &&
                       (plan->backend != CBLUR_BACKEND_CPU || plan->last_frame_whole);
  g_mutex_unlock (&plan->lock);
  if (gegl_rectangle_equal (&take, &region))
    return *roi;
  cblur_cache_on_node (operation);
  return take;
}

/* A region's halo inside the input costs as much as its own pixels, and
 * GEGL renders in chunks, each with its own: the whole image at once,
 * which reads only itself, where it fits the CPU's memory, pays it once,
 * and GEGL's cache serves the other chunks. */
static GeglRectangle
whole_if_fits (CblurPlan           *plan,
               GeglOperation       *operation,
               const GeglRectangle *roi,
               const GeglRectangle *whole)
{
  if (gegl_rectangle_is_infinite_plane (whole) ||
      (gdouble) whole->width * whole->height > (gdouble) plan->whole_image_pixels)
    return *roi;
  if (!gegl_rectangle_equal (roi, whole))
    cblur_cache_on_node (operation);
  return *whole;
}

GeglRectangle
cblur_plan_get_cached_region (GeglOperation       *operation,
                              const GeglRectangle *roi)
{
  CblurPlan    *plan = cblur_plan_of (operation);
  GeglRectangle whole;

  if (plan == NULL)
    return *roi;
  whole = GEGL_OPERATION_GET_CLASS (operation)->get_bounding_box (operation);
  if (plan->op_blur->regions == CBLUR_REGIONS_WHOLE_IF_FITS)
    return whole_if_fits (plan, operation, roi, &whole);
  return planned_region (plan, operation, roi, &whole);
}
