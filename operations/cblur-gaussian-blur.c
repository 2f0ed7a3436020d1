/* cblur:gaussian-blur — a Gaussian blur that runs on the GPU through OpenGL
 * compute shaders and on the CPU where no GL 4.3 context can be had.
 *
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 3 of the License, or (at your
 * option) any later version.
 */

#include "config.h"
#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

#include "cblur-kernel.h"

#ifdef GEGL_PROPERTIES

#define RADIUS_DEFAULT 10.0

enum_start (cblur_op_mode)
  enum_value (CBLUR_OP_MODE_AUTO,   "auto",   N_("Auto (direct up to radius 25, box above)"))
  enum_value (CBLUR_OP_MODE_DIRECT, "direct", N_("Direct (exact)"))
  enum_value (CBLUR_OP_MODE_BOX,    "box",    N_("Box (constant time)"))
enum_end (CblurOpMode)

/* An axis at the default blurs at radius: graphs, scripts and saved
 * layer effects that give radius alone blur at it along both axes.  GIMP sets every property of a filter in the order declared, and
 * puts those its settings do not give back to their defaults, so the
 * axes follow radius in any order, rather than radius setting them.
 * Reading an axis gives the radius it blurs at.  GIMP shows the axes,
 * chained while they are equal, and not radius. */
property_double (radius, _("Radius"), RADIUS_DEFAULT)
  description (_("Half-width of the blur in pixels along each axis whose "
                 "own radius is at its default, 10: three standard deviations "
                 "(3σ), so radius 30 blurs as GIMP's Gaussian Blur at Size 10 "
                 "and Variable Blur (GPU or CPU) at radius 10"))
  value_range (0.0, CBLUR_RADIUS_MAX)
  ui_range    (0.0, 300.0)
  ui_gamma    (2.0)
  ui_digits   (1)
  ui_steps    (0.5, 5.0)
  ui_meta     ("unit", "pixel-distance")
  ui_meta     ("visible", "0")

property_double (radius_x, _("Radius X (3 × Size X)"), RADIUS_DEFAULT)
  description (_("Half-width of the blur along x in pixels: three standard "
                 "deviations (3σ), so radius 30 blurs as GIMP's Gaussian Blur "
                 "at Size 10 and Variable Blur (GPU or CPU) at radius 10; 0 "
                 "blurs along y only"))
  value_range (0.0, CBLUR_RADIUS_MAX)
  ui_range    (0.0, 300.0)
  ui_gamma    (2.0)
  ui_digits   (1)
  ui_steps    (0.5, 5.0)
  ui_meta     ("unit", "pixel-distance")
  ui_meta     ("axis", "x")

property_double (radius_y, _("Radius Y (3 × Size Y)"), RADIUS_DEFAULT)
  description (_("Half-width of the blur along y in pixels: three standard "
                 "deviations (3σ), so radius 30 blurs as GIMP's Gaussian Blur "
                 "at Size 10 and Variable Blur (GPU or CPU) at radius 10; 0 "
                 "blurs along x only"))
  value_range (0.0, CBLUR_RADIUS_MAX)
  ui_range    (0.0, 300.0)
  ui_gamma    (2.0)
  ui_digits   (1)
  ui_steps    (0.5, 5.0)
  ui_meta     ("unit", "pixel-distance")
  ui_meta     ("axis", "y")

property_enum (mode, _("Mode"), CblurOpMode, cblur_op_mode, CBLUR_OP_MODE_AUTO)
  description (_("Direct convolution is exact; repeated box filters cost the "
                 "same at any radius; auto picks, for each axis, direct up to "
                 "radius 25 and box above"))

/* GIMP's dialog cannot tell which mode auto picks for a radius: there
 * its label says where the passes count */
property_int (iterations, _("Box passes"), 4)
  description (_("Box filter passes per axis in box mode: more passes come "
                 "closer to a true Gaussian"))
  value_range (CBLUR_ITERATIONS_MIN, CBLUR_ITERATIONS_MAX)
  ui_meta     ("sensitive", "mode {auto, box}")
  ui_meta     ("label", "[mode {auto} : auto-label, mode {direct, box} : box-label]")
  ui_meta     ("auto-label", _("Box passes above radius 25"))
  ui_meta     ("box-label", _("Box passes"))

property_enum (abyss_policy, _("Abyss policy"), GeglAbyssPolicy,
               gegl_abyss_policy, GEGL_ABYSS_CLAMP)
  description (_("How image edges are handled"))

property_boolean (clip_extent, _("Clip to the input extent"), TRUE)
  description (_("Should the output extent be clipped to the input extent"))

#else

#define GEGL_OP_AREA_FILTER
#define GEGL_OP_BUNDLE
#define GEGL_OP_NAME     cblur_gaussian_blur
#define GEGL_OP_C_SOURCE cblur-gaussian-blur.c

#include "gegl-op.h"

#include "cblur-backend.h"
#include "cblur-choice.h"
#include "cblur-format.h"
#include "cblur-op.h"
#include "cblur-log.h"
#include "cblur-settings.h"

G_STATIC_ASSERT ((gint) CBLUR_OP_MODE_AUTO == (gint) CBLUR_MODE_AUTO);
G_STATIC_ASSERT ((gint) CBLUR_OP_MODE_DIRECT == (gint) CBLUR_MODE_DIRECT);
G_STATIC_ASSERT ((gint) CBLUR_OP_MODE_BOX == (gint) CBLUR_MODE_BOX);

/* Host memory for one band of the region: input with halo, the pass
 * between, and output stay below a few hundred MB on 8K images.  Whole
 * images go in larger bands: a 4K image with the widest halo is one band,
 * which pays the halo once. */
#define CHUNK_BAND_PIXELS (8 * 1024 * 1024)
#define WHOLE_BAND_PIXELS (24 * 1024 * 1024)

/* The CPU holds only the pass between, 16 bytes a pixel, which is most of
 * what a blur adds to a host's memory and all that a first blur faults
 * in. */
#define CPU_BAND_PIXELS (4 * 1024 * 1024)

/* from these reaches on, the CPU too blurs whole images: from there a
 * chunk's halo costs more than a whole image's longer passes.  Direct
 * mode loses more on whole images' tall column strips than it gains. */
#define WHOLE_IMAGE_REACH_BOX    24
#define WHOLE_IMAGE_REACH_DIRECT 128

/* GEGL renders a whole image in chunks of a megapixel for each of its
 * threads: a 4K image in eight with one thread.  A region that is at
 * least this part of the image, each with its halo, takes the whole
 * image (region_takes_whole_image). */
#define WHOLE_IMAGE_FACTOR 8

/* the properties a blur's pixels depend on */
typedef struct
{
  gdouble  radius_x;
  gdouble  radius_y;
  gint     mode;
  gint     iterations;
  gint     abyss;
  gboolean clip_extent;
} Values;

typedef struct
{
  CblurBackendKind backend;
  gsize            whole_image_pixels;  /* cblur_backend_whole_image_pixels */
  /* the mipmap level of the last region blurred and the properties it
   * was blurred with: the level stands for the next region's where the
   * properties changed since (see get_cached_region) */
  gint             level;
  Values           values;
  /* halo pixels blurred for regions on their own since the graph last
   * changed, to weigh against blurring the whole image once */
  gsize            halo_pixels;
  GMutex           lock;                /* guards values, the rectangles, input_changed */
  /* the output that changes of the input alone invalidated since a
   * region last took it (a host's brush under the blur) */
  GeglRectangle    dirty;
  /* what regions took since the graph last changed (a host's frame), and
   * what the frame before took where only properties changed since */
  GeglRectangle    frame;
  GeglRectangle    last_frame;
  gboolean         input_changed;       /* since the frame began */
  gint             keeps_gpu;           /* has blurred on GL: the context stays */
  CblurKept       *kept;                /* the source's pixels between frames */
} State;

/* GEGL renders in chunks, each with its own halo.  The GPU pays for that
 * halo in transfers and a call of its own, and the CPU, at long reaches,
 * in reading and blurring it, so there the whole image at once, which the
 * backends cut into bands themselves, pays it only once, and GEGL's cache
 * of the result serves the chunks that follow.  Direct mode on the CPU
 * loses more on a whole image's tall column strips than it gains.
 *
 * Above level 0 a host shows the image zoomed out (GIMP's canvas), in
 * chunks of a few thousand pixels of the level each: there the CPU spends
 * more on each chunk's start (threads, reads, a halo as wide as the
 * chunk's own rows) than on its pixels, and the image at the level is a
 * quarter of its pixels or less, so the CPU too blurs it whole at any
 * reach. */
static gboolean
renders_whole_images (CblurBackendKind backend,
                      CblurMode        mode,
                      gint             reach,
                      gint             level)
{
  return backend == CBLUR_BACKEND_GL || level > 0 ||
         reach >= (mode == CBLUR_MODE_BOX ? WHOLE_IMAGE_REACH_BOX : WHOLE_IMAGE_REACH_DIRECT);
}

/* an axis at the default blurs at radius (see the properties) */
static gdouble
axis_radius (GeglProperties *o,
             gdouble         radius)
{
  return radius == RADIUS_DEFAULT ? o->radius : radius;
}

static gint
axis_reach (GeglProperties *o,
            gdouble         radius,
            gint            level)
{
  return cblur_kernel_reach (axis_radius (o, radius) / (1 << level), (CblurMode) o->mode,
                             o->iterations);
}

/* the larger axis's */
static gint
reach_at_level (GeglProperties *o,
                gint            level)
{
  return MAX (axis_reach (o, o->radius_x, level), axis_reach (o, o->radius_y, level));
}

/* the mode of the axis that reaches further */
static CblurMode
mode_at_level (GeglProperties *o,
               gint            level)
{
  gdouble further = axis_reach (o, o->radius_y, level) > axis_reach (o, o->radius_x, level)
                    ? axis_radius (o, o->radius_y) : axis_radius (o, o->radius_x);

  return cblur_kernel_resolve_mode (further / (1 << level), (CblurMode) o->mode);
}

/* The source's own format where cblur-format covers it or babl holds a
 * float result in it: the op writes its result in it, converting inside
 * its own threaded reads and writes (cblur_format_for_source). */
static const Babl *
output_format (GeglOperation *operation)
{
  return cblur_format_for_source (gegl_operation_get_source_format (operation, "input"),
                                  gegl_operation_get_source_space (operation, "input"));
}

/* a width × height region's blur at level, in the op's format, as the
 * backend choice weighs it */
static CblurWork
work_of (GeglProperties *o,
         const Babl     *format,
         gdouble         width,
         gdouble         height,
         gint            level)
{
  gint      reach = reach_at_level (o, level);
  CblurMode mode = mode_at_level (o, level);

  return cblur_work_of_region ("gaussian-blur", cblur_mode_name (mode), babl_get_name (format),
                               mode == CBLUR_MODE_DIRECT ? reach : 0, reach, width, height);
}

static Values
values_of (GeglProperties *o)
{
  return (Values) { axis_radius (o, o->radius_x), axis_radius (o, o->radius_y), o->mode,
                    o->iterations, o->abyss_policy, o->clip_extent };
}

static gboolean
values_equal (const Values *a,
              const Values *b)
{
  return a->radius_x == b->radius_x && a->radius_y == b->radius_y && a->mode == b->mode &&
         a->iterations == b->iterations && a->abyss == b->abyss &&
         a->clip_extent == b->clip_extent;
}

/* A change of the graph that leaves the properties as the last region
 * was blurred with (a host's apply, a brush's dab) may come at another
 * level than that region's, which only a slider's frames keep.  GEGL
 * prepares more than once for one change. */
static void
keep_level_for_slider (GeglProperties *o,
                       State          *state)
{
  Values now = values_of (o);

  g_mutex_lock (&state->lock);
  if (values_equal (&now, &state->values))
    g_atomic_int_set (&state->level, 0);
  g_mutex_unlock (&state->lock);
}

static void
prepare (GeglOperation *operation)
{
  GeglOperationAreaFilter *area = GEGL_OPERATION_AREA_FILTER (operation);
  GeglProperties          *o = GEGL_PROPERTIES (operation);
  const Babl              *format = output_format (operation);
  State                   *state = o->user_data;
  CblurWork                work;
  CblurPrediction          prediction;
  gdouble                  width, height;
  gint                     reach;

  if (state == NULL)
    {
      o->user_data = state = g_new0 (State, 1);
      g_mutex_init (&state->lock);
      state->kept = cblur_kept_new ();
    }
  cblur_input_size (operation, &width, &height);
  work = work_of (o, format, width, height, 0);
  state->backend = cblur_choice_make (&work, &prediction);
  state->whole_image_pixels = cblur_backend_whole_image_pixels (state->backend);
  g_atomic_pointer_set (&state->halo_pixels, 0);
  keep_level_for_slider (o, state);
  /* a change of the graph begins a frame; a prepare without a region
   * taken since (GEGL's bounding box, say) does not */
  g_mutex_lock (&state->lock);
  if (!gegl_rectangle_is_empty (&state->frame))
    {
      state->last_frame = state->input_changed ? *GEGL_RECTANGLE (0, 0, 0, 0) : state->frame;
      state->frame = *GEGL_RECTANGLE (0, 0, 0, 0);
      state->input_changed = FALSE;
    }
  g_mutex_unlock (&state->lock);

  reach = reach_at_level (o, 0);
  area->left = area->right = area->top = area->bottom = reach;

  gegl_operation_set_format (operation, "input", format);
  gegl_operation_set_format (operation, "output", format);
}

static void
finalize (GObject *object)
{
  GeglProperties *o = GEGL_PROPERTIES (object);
  State          *state = o->user_data;

  if (state != NULL && g_atomic_int_get (&state->keeps_gpu))
    cblur_backend_keep_gpu (FALSE);
  if (state != NULL)
    {
      g_mutex_clear (&state->lock);
      g_clear_pointer (&state->kept, cblur_kept_free);
    }
  g_clear_pointer (&o->user_data, g_free);
  G_OBJECT_CLASS (gegl_op_parent_class)->finalize (object);
}

static GeglAbyssPolicy
get_abyss_policy (GeglOperation *operation,
                  const gchar   *input_pad)
{
  return GEGL_PROPERTIES (operation)->abyss_policy;
}

static GeglRectangle
get_bounding_box (GeglOperation *operation)
{
  GeglOperationAreaFilter *area = GEGL_OPERATION_AREA_FILTER (operation);
  GeglProperties          *o = GEGL_PROPERTIES (operation);
  const GeglRectangle     *in_rect =
    gegl_operation_source_get_bounding_box (operation, "input");
  GeglRectangle            box;

  if (in_rect == NULL)
    return *GEGL_RECTANGLE (0, 0, 0, 0);

  box = *in_rect;
  if (o->clip_extent || gegl_rectangle_is_infinite_plane (&box))
    return box;

  box.x -= area->left;
  box.y -= area->top;
  box.width += area->left + area->right;
  box.height += area->top + area->bottom;
  return box;
}

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

/* Where whole images pay (renders_whole_images), whether this region
 * takes one.  An image up to the backend's whole-image size
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
region_takes_whole_image (State               *state,
                          const GeglRectangle *region,
                          const GeglRectangle *whole,
                          gint                 reach,
                          gint                 level)
{
  gdouble whole_pixels = pixels_with_halo (whole, reach, level);
  gdouble region_pixels = pixels_with_halo (region, reach, level);
  gdouble halo = region_pixels - pixels_with_halo (region, 0, level) +
                 (gdouble) cblur_backend_region_overhead (state->backend);

  if (whole_pixels <= (gdouble) state->whole_image_pixels)
    return TRUE;
  if (state->backend != CBLUR_BACKEND_GL && 2 * region_pixels >= whole_pixels)
    return FALSE;
  if (whole_pixels <= WHOLE_IMAGE_FACTOR * region_pixels ||
      (gdouble) g_atomic_pointer_get (&state->halo_pixels) + halo >= whole_pixels)
    return TRUE;

  g_atomic_pointer_add (&state->halo_pixels, (gssize) MIN (halo, (gdouble) G_MAXSSIZE));
  return FALSE;
}

/* GEGL's cache of the output keeps all but what changes of the input
 * invalidate, such as a brush's dabs under the blur; that is noted here
 * for get_cached_region, grown to whole tiles of GEGL's, which its cache
 * lets go of whole. */
static GeglRectangle
get_invalidated_by_change (GeglOperation       *operation,
                           const gchar         *input_pad,
                           const GeglRectangle *input_region)
{
  GeglOperationClass *parent = GEGL_OPERATION_CLASS (gegl_op_parent_class);
  State              *state = GEGL_PROPERTIES (operation)->user_data;
  GeglRectangle       changed = parent->get_invalidated_by_change (operation, input_pad,
                                                                   input_region);
  GeglRectangle       tiles;
  gint                tile_width, tile_height;

  if (state == NULL)
    return changed;
  g_object_get (gegl_config (), "tile-width", &tile_width, "tile-height", &tile_height, NULL);
  gegl_rectangle_align (&tiles, &changed, GEGL_RECTANGLE (0, 0, tile_width, tile_height),
                        GEGL_RECTANGLE_ALIGNMENT_SUPERSET);
  g_mutex_lock (&state->lock);
  gegl_rectangle_bounding_box (&state->dirty, &state->dirty, &tiles);
  state->input_changed = TRUE;
  g_mutex_unlock (&state->lock);
  cblur_kept_forget (state->kept);
  return changed;
}

/* Where region meets what changes of the input invalidated and all of
 * that is a small part of the image, *take gets it all with region,
 * inside whole: a host renders it again in small chunks, each of which
 * would pay its halo on its own or, under the whole-image rules, blur the
 * whole image again, while GEGL's cache still holds the rest.  The CPU
 * blurs any part of an image to the same bits; GL's box tiles meet
 * within float rounding, so GL keeps to the whole image. */
static gboolean
takes_dirty (State               *state,
             const GeglRectangle *region,
             const GeglRectangle *whole,
             gint                 reach,
             gint                 level,
             GeglRectangle       *take)
{
  gboolean small = FALSE;

  if (state->backend != CBLUR_BACKEND_CPU)
    return FALSE;
  g_mutex_lock (&state->lock);
  if (gegl_rectangle_intersect (NULL, &state->dirty, region))
    {
      gegl_rectangle_bounding_box (take, &state->dirty, region);
      gegl_rectangle_intersect (take, take, whole);
      small = is_small_part (take, whole, reach, level);
      if (small)
        state->dirty = *GEGL_RECTANGLE (0, 0, 0, 0);
    }
  g_mutex_unlock (&state->lock);
  return small;
}

/* A host shows a view, and after a change of properties alone renders
 * again, chunk by chunk, what it showed.  Where region lies in what the
 * frame before took and that is a small part of the image, *take gets it
 * all: blurred at once, the view pays one halo and one start rather than
 * one for each chunk, and where the rules would take the whole image,
 * blurs only what is shown.  CPU only, as takes_dirty. */
static gboolean
takes_last_frame (State               *state,
                  const GeglRectangle *region,
                  const GeglRectangle *whole,
                  gint                 reach,
                  gint                 level,
                  GeglRectangle       *take)
{
  if (state->backend != CBLUR_BACKEND_CPU)
    return FALSE;
  g_mutex_lock (&state->lock);
  *take = state->last_frame;
  g_mutex_unlock (&state->lock);
  return gegl_rectangle_contains (take, region) && is_small_part (take, whole, reach, level);
}

/* what to blur for region, inside whole: the dirty area, the last frame,
 * the whole image or region alone */
static GeglRectangle
choose_region (GeglProperties      *o,
               State               *state,
               const GeglRectangle *region,
               const GeglRectangle *whole,
               gint                 level)
{
  gint          reach = reach_at_level (o, level);
  gboolean      whole_images = renders_whole_images (state->backend, mode_at_level (o, level),
                                                     reach, level);
  GeglRectangle take;

  if (whole_images && takes_dirty (state, region, whole, reach, level, &take))
    return take;
  if (takes_last_frame (state, region, whole, reach, level, &take))
    return take;
  if (!whole_images || !region_takes_whole_image (state, region, whole, reach, level))
    return *region;
  g_mutex_lock (&state->lock);
  state->dirty = *GEGL_RECTANGLE (0, 0, 0, 0);
  g_mutex_unlock (&state->lock);
  return *whole;
}

/* GEGL does not say at which mipmap level it asks for roi.  A host
 * renders a view's chunks at one level, that of its zoom, so after a
 * change of the properties (a slider's frame) the level of the last
 * region blurred stands for it, and otherwise level 0
 * (keep_level_for_slider): after a zoom only the first region is judged
 * at the level before.  Which region is blurred changes only what a
 * frame costs, not its pixels (takes_dirty, region_takes_whole_image). */
static GeglRectangle
get_cached_region (GeglOperation       *operation,
                   const GeglRectangle *roi)
{
  GeglProperties      *o = GEGL_PROPERTIES (operation);
  State               *state = o->user_data;
  const GeglRectangle *in_rect = gegl_operation_source_get_bounding_box (operation, "input");
  GeglRectangle        whole;
  GeglRectangle        region;
  GeglRectangle        take;

  if (state == NULL || in_rect == NULL || gegl_rectangle_is_infinite_plane (in_rect))
    return *roi;
  whole = get_bounding_box (operation);
  if (!gegl_rectangle_intersect (&region, roi, &whole))
    return *roi;

  take = choose_region (o, state, &region, &whole, g_atomic_int_get (&state->level));
  g_mutex_lock (&state->lock);
  gegl_rectangle_bounding_box (&state->frame, &state->frame, &take);
  g_mutex_unlock (&state->lock);
  if (gegl_rectangle_equal (&take, &region))
    return *roi;
  cblur_cache_on_node (operation);
  return take;
}

static gboolean
radius_is_zero (GeglProperties *o)
{
  return reach_at_level (o, 0) == 0;
}

/* Radius 0 hands the input on untouched, not even converted. */
static gboolean
operation_process (GeglOperation        *operation,
                   GeglOperationContext *context,
                   const gchar          *output_prop,
                   const GeglRectangle  *result,
                   gint                  level)
{
  GeglOperationClass *parent = GEGL_OPERATION_CLASS (gegl_op_parent_class);
  GeglProperties     *o = GEGL_PROPERTIES (operation);

  if (radius_is_zero (o))
    {
      gegl_operation_context_set_object (context, "output",
                                         gegl_operation_context_get_object (context, "input"));
      return TRUE;
    }

  return parent->process (operation, context, output_prop, result, level);
}

/* GEGL's abyss at a mipmap level: the pixels whole inside the image */
static GeglRectangle
abyss_at_level (const GeglRectangle *abyss,
                gint                 level)
{
  if (gegl_rectangle_is_infinite_plane (abyss))
    return *abyss;
  return cblur_rectangle_at_level (abyss, level);
}

/* GEGL's side of a band.  Pixels go in and out as premultiplied float,
 * or, where native formats are set, as GEGL stores them, which the
 * backends convert (a straight RGBA float source the band holds as
 * float, which the backends premultiply): GEGL's threads only copy. */
typedef struct
{
  GeglBuffer        *input;
  GeglBuffer        *output;
  const Babl        *premultiplied;
  const CblurFormat *read_native;
  const CblurFormat *write_native;
  gint               level;
  GeglAbyssPolicy    abyss;
} BandIo;

static void
read_part (const CblurImage *src,
           gint              x,
           gint              y,
           gint              width,
           gint              height,
           gpointer          user_data)
{
  const BandIo      *io = user_data;
  GeglRectangle      part = { src->x + x, src->y + y, width, height };
  const CblurFormat *stored = src->format != NULL ? src->format : io->read_native;

  gegl_buffer_get (io->input, &part, 1.0 / (1 << io->level),
                   stored != NULL ? stored->babl : io->premultiplied,
                   cblur_image_bytes (src, x, y), src->stride * sizeof (gfloat), io->abyss);
}

static void
write_part (const CblurImage *dst,
            gint              x,
            gint              y,
            gint              width,
            gint              height,
            gpointer          user_data)
{
  const BandIo *io = user_data;
  GeglRectangle part = { dst->x + x, dst->y + y, width, height };

  gegl_buffer_set (io->output, &part, io->level,
                   dst->format != NULL ? dst->format->babl : io->premultiplied,
                   cblur_image_bytes (dst, x, y), dst->stride * sizeof (gfloat));
}

/* GEGL's tiles of the output as the CPU writes them, one at a time: a
 * whole tile in its own memory, without the copy a write makes, a part of
 * one in a copy that GEGL writes back */
static void
write_in_place (const CblurImage *dst,
                gint              x,
                gint              y,
                gint              width,
                gint              height,
                CblurStreamFill   fill,
                gpointer          fill_data,
                gpointer          user_data)
{
  const BandIo       *io = user_data;
  GeglRectangle       part = { dst->x + x, dst->y + y, width, height };
  GeglBufferIterator *parts = gegl_buffer_iterator_new (io->output, &part, io->level,
                                                        dst->format->babl, GEGL_ACCESS_WRITE,
                                                        GEGL_ABYSS_NONE, 1);

  while (gegl_buffer_iterator_next (parts))
    {
      const GeglRectangle *roi = &parts->items[0].roi;

      fill (roi->x - dst->x, roi->y - dst->y, roi->width, roi->height, parts->items[0].data,
            (gsize) roi->width * dst->format->bytes_per_pixel, fill_data);
    }
}

/* A band holds GEGL's pixels as they are stored, a quarter of the memory
 * in 8 bits, which the GPU converts in its shaders; a straight RGBA float
 * source the backends read as their own pixels.  The CPU holds no band:
 * it reads rows as its blur gathers them and hands back column strips as
 * they come out, converting them in its own loops, and holds only the
 * pass between. */
static gboolean
blur_band (const CblurKernel   *kernel,
           CblurBackendKind     backend,
           const GeglRectangle *band,
           CblurRunReport      *report,
           CblurStream         *stream)
{
  const BandIo         *io = stream->user_data;
  gint                  reach = kernel->reach;
  CblurImage            src = { NULL, band->x - reach, band->y - reach,
                                band->width + 2 * reach, band->height + 2 * reach, 0,
                                cblur_format_is_rgba_float (io->read_native)
                                  ? NULL : io->read_native };
  CblurImage            dst = { NULL, band->x, band->y, band->width, band->height, 0,
                                io->write_native };
  g_autoptr (CblurBand) pixels = cblur_band_new (backend, kernel, stream, &src, &dst);

  if (pixels == NULL)
    return FALSE;
  cblur_backend_blur (pixels, backend, kernel, &src, &dst, stream, report);
  if (report->gl_failure != NULL)
    {
      static gsize warned = 0;

      cblur_warn_gpu_failed (&warned, "cblur:gaussian-blur", report->gl_failure);
    }
  return TRUE;
}

static gint
band_height (CblurBackendKind   backend,
             const CblurKernel *kernel,
             gint               level,
             gint               width,
             gint               height)
{
  gint   reach = kernel->reach;
  gint64 budget = cblur_setting_or (cblur_settings ()->band_pixels,
                                    backend == CBLUR_BACKEND_CPU ? CPU_BAND_PIXELS
                                    : renders_whole_images (backend, kernel->mode, reach, level)
                                      ? WHOLE_BAND_PIXELS : CHUNK_BAND_PIXELS);
  gint64 rows = budget / ((gint64) width + 2 * reach) - 2 * reach;
  /* never let the halo dominate a band: on the CPU, which reads and blurs
   * it, let it be a third of it at most */
  gint64 least = MIN (height, MAX (64, (backend == CBLUR_BACKEND_CPU ? 6 : 2) * reach));
  gint64 bands;

  rows = CLAMP (rows, least, height);
  /* bands of one height, rather than a sliver at the bottom */
  bands = (height + rows - 1) / rows;
  return (gint) MAX ((height + bands - 1) / bands, least);
}

/* The backend for the region's rows from y on: the CPU hands them to the
 * GPU between bands once that is ready and predicted to finish them
 * first. */
static CblurBackendKind
choose_rest (GeglProperties      *o,
             const Babl          *format,
             const GeglRectangle *roi,
             gint                 y,
             gint                 level,
             CblurPrediction     *prediction)
{
  CblurWork rest = work_of (o, format, roi->width, roi->y + roi->height - y, level);

  return cblur_choice_make (&rest, prediction);
}

/* what the band took on the backend that ran it, learned, and its line */
static void
report_band (GeglProperties        *o,
             const Babl            *format,
             const GeglRectangle   *band,
             gint                   level,
             const CblurPrediction *prediction,
             CblurRunReport        *report)
{
  CblurWork work = work_of (o, format, band->width, band->height, level);

  cblur_choice_learn (&work, report->ran_on, report->total_ms);
  cblur_choice_report (prediction, report);
  /* one line a band, each with only its own figures, so that the
   * benchmark's sums over the lines are a region's */
  cblur_log_band (report, band, level);
  cblur_run_report_clear (report);
}

static gboolean
process (GeglOperation       *operation,
         GeglBuffer          *input,
         GeglBuffer          *output,
         const GeglRectangle *result,
         gint                 level)
{
  GeglProperties         *o = GEGL_PROPERTIES (operation);
  State                  *state = o->user_data;
  GeglRectangle           roi = cblur_rectangle_at_level (result, level);
  g_autoptr (CblurKernel) kernel = NULL;
  CblurRunReport          report = { 0 };
  const Babl             *format = gegl_operation_get_format (operation, "output");
  const Babl             *premultiplied =
    babl_format_with_space ("RaGaBaA float", babl_format_get_space (format));
  BandIo                  io = { input, output, premultiplied, NULL, cblur_format_get (format),
                                 level, o->abyss_policy };
  CblurStream             stream = { read_part, write_part, &io, .kept = state->kept,
                                     .write_in_place = write_in_place };
  CblurWork               work = work_of (o, format, roi.width, roi.height, level);
  CblurPrediction         prediction;
  CblurBackendKind        backend;
  gint                    rows;
  gint                    y;

  if (roi.width <= 0 || roi.height <= 0)
    return TRUE;
  g_mutex_lock (&state->lock);
  g_atomic_int_set (&state->level, level);
  state->values = values_of (o);
  g_mutex_unlock (&state->lock);

  kernel = cblur_kernel_new_xy (axis_radius (o, o->radius_x) / (1 << level),
                                axis_radius (o, o->radius_y) / (1 << level),
                                (CblurMode) o->mode, o->iterations);
  g_object_get (output, "tile-width", &stream.tile_width,
                "tile-height", &stream.tile_height, NULL);
  /* The backends make the abyss beyond the input at every level, so that
   * a band holds only the input's pixels and its size does not change
   * with the reach, and GEGL reads only rectangles inside its mipmap:
   * those across the edge take another path there, whose pixels depend
   * on the rectangle. */
  stream.inside = abyss_at_level (gegl_buffer_get_abyss (input), level);
  stream.abyss = o->abyss_policy;
  /* A source in a covered format GEGL copies as it is, and the op
   * converts it, the backend premultiplying it on the way in: babl's
   * conversion on GEGL's threads costs several times the copy, even from
   * straight RGBA float.  At other levels too: GEGL makes a mipmap's
   * pixels from the stored ones in the stored format, whichever format
   * they are read in, and copies them as they are. */
  io.read_native = cblur_format_get (gegl_buffer_get_format (input));
  cblur_kept_source (state->kept, input, level);
  stream.straight_alpha = io.read_native != NULL;
  backend = cblur_choice_make (&work, &prediction);
  rows = band_height (backend, kernel, level, roi.width, roi.height);

  for (y = roi.y; y < roi.y + roi.height; y += rows)
    {
      GeglRectangle band;

      if (y > roi.y && backend == CBLUR_BACKEND_CPU &&
          choose_rest (o, format, &roi, y, level, &prediction) == CBLUR_BACKEND_GL)
        {
          backend = CBLUR_BACKEND_GL;
          rows = band_height (backend, kernel, level, roi.width, roi.y + roi.height - y);
        }
      band = (GeglRectangle) { roi.x, y, roi.width, MIN (rows, roi.y + roi.height - y) };
      if (!blur_band (kernel, backend, &band, &report, &stream))
        {
          g_warning (_("cblur:gaussian-blur: out of memory for a %d×%d region"),
                     band.width, band.height);
          return FALSE;
        }

      /* a live preview's next render after a pause finds the context */
      if (report.ran_on == CBLUR_BACKEND_GL &&
          g_atomic_int_compare_and_exchange (&state->keeps_gpu, FALSE, TRUE))
        cblur_backend_keep_gpu (TRUE);
      report_band (o, format, &band, level, &prediction, &report);

      if (roi.height > rows)
        gegl_operation_progress (operation,
                                 (gdouble) (y + band.height - roi.y) / roi.height,
                                 (gchar *) _("Blurring"));
    }
  cblur_choice_region_done (&work);
  return TRUE;
}

static void (*chant_get_property) (GObject    *object,
                                   guint       property_id,
                                   GValue     *value,
                                   GParamSpec *pspec);

/* an axis reads as the radius it blurs at */
static void
get_property_axes (GObject    *object,
                   guint       property_id,
                   GValue     *value,
                   GParamSpec *pspec)
{
  GeglProperties *o = GEGL_PROPERTIES (object);

  if (property_id == PROP_radius_x)
    g_value_set_double (value, axis_radius (o, o->radius_x));
  else if (property_id == PROP_radius_y)
    g_value_set_double (value, axis_radius (o, o->radius_y));
  else
    chant_get_property (object, property_id, value, pspec);
}

static void
gegl_op_class_init (GeglOpClass *klass)
{
  GObjectClass                 *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass           *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass     *filter_class = GEGL_OPERATION_FILTER_CLASS (klass);
  GeglOperationAreaFilterClass *area_class = GEGL_OPERATION_AREA_FILTER_CLASS (klass);
  /* the title and the menu say where the blur runs, as far as is known
   * without opening GL, which every GEGL process would pay for at start */
  gboolean                      gpu = cblur_backend_likely () == CBLUR_BACKEND_GL;

  chant_get_property = object_class->get_property;
  object_class->get_property = get_property_axes;
  object_class->finalize = finalize;
  operation_class->prepare = prepare;
  operation_class->process = operation_process;
  operation_class->get_bounding_box = get_bounding_box;
  operation_class->get_cached_region = get_cached_region;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  /* the backends thread (CPU) or serialize (GL) the work themselves */
  operation_class->threaded = FALSE;
  operation_class->cache_policy = GEGL_CACHE_POLICY_NEVER;
  filter_class->process = process;
  area_class->get_abyss_policy = get_abyss_policy;

  gegl_operation_class_set_keys (operation_class,
    "name",        "cblur:gaussian-blur",
    "title",       gpu ? _("Gaussian Blur (GPU)") : _("Gaussian Blur (CPU)"),
    "categories",  "blur",
    "gimp:menu-path",  "<Image>/Filters/Blur",
    "gimp:menu-label", gpu ? _("Gaussian Blur (GPU)...") : _("Gaussian Blur (CPU)..."),
    "reference-hash", "512fbc0d9cddf7ea7ec857cc5851b303",
    "reference-composition",
      "<?xml version='1.0' encoding='UTF-8'?>"
      "<gegl>"
      "<node operation='gegl:crop' width='200' height='200'/>"
      "<node operation='cblur:gaussian-blur'>"
      "  <params><param name='radius'>15</param><param name='mode'>box</param></params>"
      "</node>"
      "<node operation='gegl:checkerboard'>"
      "  <params><param name='x'>23</param><param name='y'>23</param>"
      "  <param name='color1'>rgb(0.05, 0.2, 0.6)</param>"
      "  <param name='color2'>rgb(1.0, 0.85, 0.3)</param></params>"
      "</node>"
      "</gegl>",
    /* the menu's tooltip: one line */
    "description", _("Gaussian blur: radius 30 blurs as Size 10 in GIMP's own"),
    NULL);
}

#endif
