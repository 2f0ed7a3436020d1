/* cblur:variable-blur on the CPU: against the double-precision reference
 * (each pixel's own Gaussian) on smooth masks, a constant mask against the
 * Gaussian blur's box mode, a mask of zeros against the input, masks in
 * other formats against the same values in float, and one tiling against
 * another. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cblur-settings.h"
#include "cblur-variable.h"
#include "cblur-test.h"
#include "reference-variable.h"

/* renders all of input through operation with mask on its aux pad (none
 * where NULL), in format (NULL: the tests' own) */
static gpointer
variable_blur_as (const Babl  *format,
                  const gchar *operation,
               GeglBuffer  *input,
               GeglBuffer  *mask,
               const gchar *first_property,
               ...)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (input);
  GeglNode            *graph = gegl_node_new ();
  GeglNode            *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                     "buffer", input, NULL);
  GeglNode            *blur = gegl_node_new_child (graph, "operation", operation, NULL);
  gpointer             pixels;
  va_list              args;

  format = format != NULL ? format : babl_format (TEST_FORMAT);
  pixels = g_malloc ((gsize) extent->width * extent->height * babl_format_get_bytes_per_pixel (format));

  g_assert_true (gegl_has_operation (operation));
  gegl_node_link (source, blur);
  if (mask != NULL)
    gegl_node_connect_from (blur, "aux",
                            gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                 "buffer", mask, NULL), "output");
  va_start (args, first_property);
  gegl_node_set_valist (blur, first_property, args);
  va_end (args);
  gegl_node_blit (blur, 1.0, extent, format, pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return pixels;
}

#define variable_blur(...) ((gfloat *) variable_blur_as (NULL, __VA_ARGS__))

/* A smooth mask in [0, 1]: a slanted ramp with a bump, as a depth map or
 * a painted gradient would be. */
static gdouble
smooth_mask_value (gint x,
                   gint y,
                   gint width,
                   gint height)
{
  gdouble u = (gdouble) x / width, v = (gdouble) y / height;
  gdouble bump = exp (-((u - 0.6) * (u - 0.6) + (v - 0.4) * (v - 0.4)) / 0.05);

  return CLAMP (0.15 + 0.5 * u + 0.2 * v + 0.3 * bump - 0.25, 0.0, 1.0);
}

/* a mask of width x height in format, from values made by value() */
static GeglBuffer *
mask_buffer (gint          width,
             gint          height,
             const gchar  *format,
             gdouble     (*value) (gint, gint, gint, gint),
             gdouble       constant)
{
  GeglRectangle rect = { 0, 0, width, height };
  GeglBuffer   *mask = gegl_buffer_new (&rect, babl_format (format));
  gfloat       *grey = g_new (gfloat, (gsize) width * height);
  gint          x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      grey[(gsize) y * width + x] = value != NULL ? value (x, y, width, height) : constant;
  gegl_buffer_set (mask, &rect, 0, babl_format ("Y float"), grey, GEGL_AUTO_ROWSTRIDE);
  g_free (grey);
  return mask;
}

/* each pixel's sigma, from the mask as the op reads it with linear-mask */
static gdouble *
sigmas_of (GeglBuffer *mask,
           gdouble     radius)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (mask);
  gsize                n = (gsize) extent->width * extent->height;
  g_autofree gfloat   *grey = g_new (gfloat, n);
  gdouble             *sigmas = g_new (gdouble, n);
  gsize                i;

  gegl_buffer_get (mask, extent, 1.0, babl_format ("Y float"), grey, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (i = 0; i < n; i++)
    sigmas[i] = CLAMP (grey[i], 0.0, 1.0) * radius;
  return sigmas;
}

static RefImage *
reference_input (GeglBuffer *buffer)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (buffer);
  g_autofree gfloat   *pixels = test_read (buffer, extent);

  return ref_image_from_floats (pixels, extent->width, extent->height);
}

/* An image whose top and bottom, left and right differ, as loop's halo
 * shows: ramps across, and waves. */
static GeglBuffer *
synthetic_image (gint width,
                 gint height)
{
  GeglRectangle      rect = { 0, 0, width, height };
  GeglBuffer        *image = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  g_autofree gfloat *pixels = g_new (gfloat, (gsize) width * height * 4);
  gint               x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      {
        gfloat *p = pixels + ((gsize) y * width + x) * 4;

        p[0] = (gfloat) x / width;
        p[1] = (gfloat) y / height;
        p[2] = 0.5f + 0.4f * sinf (x / 5.0f) * cosf (y / 7.0f);
        p[3] = 1.0f;
      }
  gegl_buffer_set (image, &rect, 0, babl_format (TEST_FORMAT), pixels, GEGL_AUTO_ROWSTRIDE);
  return image;
}

/* a part of a photograph (the synthetic image where name is NULL), as a
 * buffer of its own at the origin */
static GeglBuffer *
photo_part (const gchar *name,
            gint         width,
            gint         height)
{
  g_autoptr (GeglBuffer) photo = NULL;
  GeglRectangle          rect = { 0, 0, width, height };
  GeglBuffer            *part;

  if (name == NULL)
    return synthetic_image (width, height);
  photo = test_load_photo (name);
  part = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  gegl_buffer_copy (photo, GEGL_RECTANGLE (100, 60, width, height), GEGL_ABYSS_NONE, part,
                    &rect);
  return part;
}

/* The largest difference over every channel of the pixels whose sigma is
 * at least `least`, and the root-mean-square one over all pixels. */
typedef struct
{
  gdouble max_abs;        /* where sigma >= 1 */
  gdouble max_abs_small;  /* where sigma < 1 */
  gdouble rms;
} Error;

static Error
measure (const RefImage *expected,
         const gfloat   *actual,
         const gdouble  *sigmas,
         const gchar    *what)
{
  gsize   n = (gsize) expected->width * expected->height * 4;
  Error   error = { 0 };
  gdouble sum = 0.0;
  gsize   i;

  for (i = 0; i < n; i++)
    {
      gdouble  d = fabs (expected->data[i] - actual[i]);
      gdouble *worst = sigmas[i / 4] >= 1.0 ? &error.max_abs : &error.max_abs_small;

      if (!(d <= *worst))   /* NaN counts as the worst error */
        *worst = isnan (d) ? INFINITY : d;
      sum += d * d;
    }
  error.rms = sqrt (sum / n);
  g_test_message ("%s: max %.4f (sigma >= 1), %.4f (sigma < 1), rms %.5f", what,
                  error.max_abs, error.max_abs_small, error.rms);
  return error;
}

/* in and its straight copy with alpha: opaque, but 0 in a disc and a
 * band, where the hidden colour is pure red, which must not bleed */
static GeglBuffer *
with_holes (GeglBuffer *in)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (in);
  gsize                n = (gsize) extent->width * extent->height;
  g_autofree gfloat   *pixels = g_new (gfloat, n * 4);
  GeglBuffer          *out = gegl_buffer_new (extent, babl_format ("RGBA float"));
  gint                 x, y;

  gegl_buffer_get (in, extent, 1.0, babl_format ("RGBA float"), pixels, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (y = 0; y < extent->height; y++)
    for (x = 0; x < extent->width; x++)
      {
        gfloat *p = pixels + ((gsize) y * extent->width + x) * 4;
        gint    dx = x - extent->width / 3, dy = y - extent->height / 2;

        if (dx * dx + dy * dy < 15 * 15 || (x > extent->width * 3 / 4 && x < extent->width - 8))
          p[0] = 1.0f, p[1] = p[2] = 0.0f, p[3] = 0.0f;
      }
  gegl_buffer_set (out, extent, 0, babl_format ("RGBA float"), pixels, GEGL_AUTO_ROWSTRIDE);
  return out;
}

typedef struct
{
  const gchar    *photo;
  gdouble         radius;
  GeglAbyssPolicy abyss;
  gboolean        holes;
} Case;

/* The op against each pixel's own Gaussian on a width x height part of a
 * photograph with a smooth mask, within the Gaussian blur's box promise,
 * and where asked closer than gegl:variable-blur. */
static void
check_sized (const Case *c,
             gint        width,
             gint        height,
             gdouble   (*mask_value) (gint, gint, gint, gint),
             gboolean    against_gegl)
{
  g_autoptr (GeglBuffer) photo = photo_part (c->photo, width, height);
  g_autoptr (GeglBuffer) input = c->holes ? with_holes (photo) : g_object_ref (photo);
  g_autoptr (GeglBuffer) mask = mask_buffer (width, height, "Y float", mask_value, 0.0);
  g_autofree gdouble    *sigmas = sigmas_of (mask, c->radius);
  g_autoptr (RefImage)   src = reference_input (input);
  g_autoptr (RefImage)   expected = NULL;
  g_autofree gfloat     *ours = variable_blur ("cblur:variable-blur", input, mask,
                                               "radius", c->radius, "linear-mask", TRUE,
                                               "abyss-policy", c->abyss, NULL);
  g_autofree gchar      *what = g_strdup_printf ("%s %dx%d radius %g abyss %d%s",
                                                 c->photo != NULL ? c->photo : "synthetic",
                                                 width, height, c->radius, c->abyss,
                                                 c->holes ? " with holes" : "");
  Error                  error;

  src->abyss = c->abyss;
  expected = ref_blur_variable (src, sigmas);
  error = measure (expected, ours, sigmas, what);
  g_assert_cmpfloat (error.max_abs, <=, 0.02);
  g_assert_cmpfloat (error.max_abs_small, <=, 0.05);
  g_assert_cmpfloat (error.rms, <=, 0.003);

  /* GEGL's own blurs clamp at the edges */
  if (against_gegl && c->abyss == GEGL_ABYSS_CLAMP && !c->holes)
    {
      g_autofree gfloat *gegls = variable_blur ("gegl:variable-blur", input, mask,
                                                "radius", c->radius, "linear-mask", TRUE,
                                                NULL);
      Error              gegl_error = measure (expected, gegls, sigmas, "  gegl:variable-blur");

      g_assert_cmpfloat (error.rms, <, gegl_error.rms);
    }
}

/* the op and gegl:variable-blur on a 120 x 90 part */
static void
check_case (const Case *c)
{
  check_sized (c, 120, 90, smooth_mask_value, TRUE);
}

static void
test_smooth_mask_matches_reference (void)
{
  static const Case cases[] = {
    { "coffee.png", 4.0, GEGL_ABYSS_CLAMP, FALSE },
    { "coffee.png", 10.0, GEGL_ABYSS_CLAMP, FALSE },
    { "chelsea.png", 7.0, GEGL_ABYSS_CLAMP, FALSE },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    check_case (&cases[i]);
}

/* The op against the box passes it defines, in double precision (every
 * pixel beyond the edge reads the abyss and carries the sigma of the
 * image's nearest pixel): the sums' rounding apart, under every policy. */
static void
check_boxes (const Case *c,
             gint        width,
             gint        height)
{
  g_autoptr (GeglBuffer) input = photo_part (c->photo, width, height);
  g_autoptr (GeglBuffer) mask = mask_buffer (width, height, "Y float", smooth_mask_value, 0.0);
  g_autofree gdouble    *sigmas = sigmas_of (mask, c->radius);
  g_autoptr (RefImage)   src = reference_input (input);
  g_autoptr (RefImage)   expected = NULL;
  g_autofree gfloat     *ours = variable_blur ("cblur:variable-blur", input, mask,
                                               "radius", c->radius, "linear-mask", TRUE,
                                               "abyss-policy", c->abyss, NULL);
  gdouble                max_abs, rms;

  src->abyss = c->abyss;
  expected = ref_blur_variable_boxes (src, sigmas, 4);
  ref_compare_floats (expected, ours, &max_abs, &rms);
  g_test_message ("%s radius %g abyss %d: %.3g from its box passes",
                  c->photo != NULL ? c->photo : "synthetic", c->radius, c->abyss, max_abs);
  g_assert_cmpfloat (max_abs, <=, 1e-5);
}

/* Under every policy the halo is GEGL's abyss, each of its pixels with
 * the sigma of the image's nearest pixel: the op follows that definition
 * and, so defined, stays within the box promise of each pixel's own
 * Gaussian over GEGL's abyss, on an image whose sides differ (which
 * loop's halo brings together) and on a photograph. */
static void
test_abyss_policies (void)
{
  static const GeglAbyssPolicy policies[] = {
    GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE,
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      Case synthetic = { NULL, 10.0, policies[i], FALSE };
      Case photo = { "coffee.png", 10.0, policies[i], FALSE };

      check_sized (&synthetic, 96, 72, smooth_mask_value, FALSE);
      check_boxes (&synthetic, 96, 72);
      check_sized (&photo, 120, 90, smooth_mask_value, FALSE);
      check_boxes (&photo, 120, 90);
    }
}

/* the peak of resident memory (VmHWM) starts again from what is resident
 * now, where the kernel allows; elsewhere it goes on from the process's */
static void
reset_peak (void)
{
  FILE    *file = fopen ("/proc/self/clear_refs", "w");
  gboolean reset = file != NULL && fputs ("5", file) >= 0;

  if (file != NULL && fclose (file) != 0)
    reset = FALSE;
  if (!reset)
    g_test_message ("the peak of resident memory cannot be reset here");
}

/* the smooth mask between 0.8 and 1: on a tiny image the smooth mask
 * changes sigma by hundreds a pixel, where box passes of a width per pixel
 * are no Gaussian of each pixel's own; this one by a few per cent */
static gdouble
gentle_mask_value (gint x,
                   gint y,
                   gint width,
                   gint height)
{
  return 0.8 + 0.2 * smooth_mask_value (x, y, width, height);
}

/* A tiny image at the largest radius under every abyss policy against the
 * reference, its memory going with its own pixels and one line a thread
 * (on GL, three textures of its rows at the line's length), not with the
 * halo's area: that would be gigabytes. */
static void
test_tiny_image_largest_radius (void)
{
  static const GeglAbyssPolicy policies[] = {
    GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE,
  };
  static const gint      sizes[][2] = { { 7, 5 }, { 1, 300 } };
  g_autoptr (GeglBuffer) small = photo_part ("coffee.png", 7, 5);
  g_autoptr (GeglBuffer) constant = mask_buffer (7, 5, "Y float", NULL, 1.0);
  /* 300 rows of 10401 texels, three times, take 143 MiB */
  gsize                  allowed = g_strcmp0 (g_getenv ("CBLUR_BACKEND"), "gl") == 0
                                   ? 192 * 1024 : 64 * 1024;
  gsize                  i, s;

  /* the process's first blur chooses the backend, loading a GL driver
   * where it probes one: that is no cost of the radius */
  g_free (variable_blur ("cblur:variable-blur", small, constant, "radius", 1.0, NULL));

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (i = 0; i < G_N_ELEMENTS (policies); i++)
      {
        gint                   width = sizes[s][0], height = sizes[s][1];
        Case                   c = { "coffee.png", CBLUR_VARIABLE_RADIUS_MAX, policies[i],
                                     FALSE };
        g_autoptr (GeglBuffer) input = photo_part (c.photo, width, height);
        g_autoptr (GeglBuffer) mask = mask_buffer (width, height, "Y float", gentle_mask_value,
                                                   0.0);
        gsize                  before, grown;

        reset_peak ();
        before = test_status_kib ("VmHWM");
        g_free (variable_blur ("cblur:variable-blur", input, mask, "radius", c.radius,
                               "abyss-policy", c.abyss, NULL));
        /* where the peak cannot be reset, it may read below before */
        grown = test_status_kib ("VmHWM");
        grown = grown > before ? grown - before : 0;
        g_test_message ("%dx%d abyss %d: peak resident memory grew by %zu KiB", width, height,
                        c.abyss, grown);
        g_assert_cmpuint (grown, <, allowed);
        check_sized (&c, width, height, gentle_mask_value, FALSE);
      }
}

/* transparent pixels' hidden colour stays hidden */
static void
test_alpha (void)
{
  check_case (&(Case) { "coffee.png", 6.0, GEGL_ABYSS_CLAMP, TRUE });
}

/* A constant mask m is the Gaussian blur's box mode at the same sigma,
 * radius 3 * m * radius there: the same boxes, summed in double precision
 * rather than float. */
static void
test_constant_mask_is_box_mode (void)
{
  static const struct { gdouble m; gdouble radius; gint iterations; GeglAbyssPolicy abyss; }
    cases[] = {
      { 0.25, 24.0, 4, GEGL_ABYSS_CLAMP }, { 0.5, 24.0, 3, GEGL_ABYSS_CLAMP },
      { 1.0, 24.0, 6, GEGL_ABYSS_LOOP }, { 0.75, 40.0, 4, GEGL_ABYSS_BLACK },
      { 0.25, 8.0, 5, GEGL_ABYSS_NONE },
    };
  g_autoptr (GeglBuffer) input = test_random_buffer (71, 53, 3);
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GeglBuffer) mask = mask_buffer (71, 53, "Y float", NULL, cases[i].m);
      g_autofree gfloat     *ours = variable_blur ("cblur:variable-blur", input, mask,
                                                   "radius", cases[i].radius,
                                                   "linear-mask", TRUE,
                                                   "iterations", cases[i].iterations,
                                                   "abyss-policy", cases[i].abyss, NULL);
      g_autofree gfloat     *box = test_blur (input, gegl_buffer_get_extent (input),
                                              "radius", 3.0 * cases[i].m * cases[i].radius,
                                              "mode", 2 /* box */,
                                              "iterations", cases[i].iterations,
                                              "abyss-policy", cases[i].abyss, NULL);
      gdouble                diff = test_max_abs_diff (ours, box, 71 * 53 * 4);

      g_test_message ("mask %g radius %g iterations %d: %.3g from box mode", cases[i].m,
                      cases[i].radius, cases[i].iterations, diff);
      g_assert_cmpfloat (diff, <=, 2e-6);
    }
}

/* A mask of zeros, and no mask at all, give the input, bit for bit. */
static void
test_zero_mask_is_input (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (64, 48, 4);
  g_autoptr (GeglBuffer) zeros = mask_buffer (64, 48, "Y' u8", NULL, 0.0);
  g_autofree gfloat     *expected = test_read (input, gegl_buffer_get_extent (input));
  g_autofree gfloat     *masked = variable_blur ("cblur:variable-blur", input, zeros,
                                                 "radius", 30.0, NULL);
  g_autofree gfloat     *unmasked = variable_blur ("cblur:variable-blur", input, NULL,
                                                   "radius", 30.0, NULL);

  g_assert_cmpmem (masked, 64 * 48 * 4 * sizeof (gfloat), expected,
                   64 * 48 * 4 * sizeof (gfloat));
  g_assert_cmpmem (unmasked, 64 * 48 * 4 * sizeof (gfloat), expected,
                   64 * 48 * 4 * sizeof (gfloat));
}

/* The mask in 8 bits, 16 bits and colour reads as its grey in float:
 * Y' u8 and Y u8, read linear or not, exactly as the same codes in float
 * (their boxes come from a table of the codes), R'G'B'A u8 grey within
 * babl's rounding of its luminance. */
static void
test_mask_formats (void)
{
  static const struct { const gchar *format; gboolean linear; gdouble allowed; } cases[] = {
    { "Y' u8", FALSE, 0.0 }, { "Y' u8", TRUE, 0.0 }, { "Y u8", FALSE, 0.0 },
    { "Y u16", TRUE, 0.0 }, { "R'G'B'A u8", FALSE, 1e-5 }, { "RGB float", TRUE, 1e-5 },
  };
  g_autoptr (GeglBuffer) input = photo_part ("coffee.png", 96, 64);
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GeglBuffer) mask = mask_buffer (96, 64, cases[i].format, smooth_mask_value, 0);
      /* the same grey, stored as floats */
      g_autoptr (GeglBuffer) grey = gegl_buffer_new (gegl_buffer_get_extent (mask),
                                                     babl_format (cases[i].linear ? "Y float"
                                                                                  : "Y' float"));
      g_autofree gfloat     *stored = NULL;
      g_autofree gfloat     *floats = NULL;
      gdouble                diff;

      gegl_buffer_copy (mask, NULL, GEGL_ABYSS_NONE, grey, NULL);
      stored = variable_blur ("cblur:variable-blur", input, mask, "radius", 8.0,
                              "linear-mask", cases[i].linear, NULL);
      floats = variable_blur ("cblur:variable-blur", input, grey, "radius", 8.0,
                              "linear-mask", cases[i].linear, NULL);
      diff = test_max_abs_diff (stored, floats, 96 * 64 * 4);
      g_test_message ("mask in %s: %.3g from its grey in float", cases[i].format, diff);
      g_assert_cmpfloat (diff, <=, cases[i].allowed);
    }
}

/* An 8-bit source is read and written as GEGL stores it, converted (and
 * premultiplied) in the op's threads: within one step of babl's
 * conversion of the result from the same pixels in float. */
static void
test_stored_source (void)
{
  g_autoptr (GeglBuffer) opaque = photo_part ("coffee.png", 96, 64);
  g_autoptr (GeglBuffer) photo = with_holes (opaque);
  g_autoptr (GeglBuffer) stored = gegl_buffer_new (gegl_buffer_get_extent (photo),
                                                   babl_format ("R'G'B'A u8"));
  g_autoptr (GeglBuffer) floats = gegl_buffer_new (gegl_buffer_get_extent (photo),
                                                   babl_format (TEST_FORMAT));
  g_autoptr (GeglBuffer) mask = mask_buffer (96, 64, "Y' u8", smooth_mask_value, 0);
  const Babl            *u8 = babl_format ("R'G'B'A u8");
  g_autofree guint8     *from_stored = NULL;
  g_autofree guint8     *from_floats = NULL;
  gint                   worst = 0;
  gsize                  i;

  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, stored, NULL);
  gegl_buffer_copy (stored, NULL, GEGL_ABYSS_NONE, floats, NULL);
  from_stored = variable_blur_as (u8, "cblur:variable-blur", stored, mask, "radius", 9.0, NULL);
  from_floats = variable_blur_as (u8, "cblur:variable-blur", floats, mask, "radius", 9.0, NULL);
  for (i = 0; i < 96 * 64 * 4; i++)
    worst = MAX (worst, ABS ((gint) from_stored[i] - from_floats[i]));
  g_assert_cmpint (worst, <=, 1);
}

/* Regions blurred on their own, each with its halo, and a region in bands
 * of rows, against the whole image at once: the running sums restart at
 * absolute blocks, and the first block of a region's lines differs from
 * the whole's only by the rounding of double-precision sums. */
static void
check_tiling (GeglAbyssPolicy abyss)
{
  g_autoptr (GeglBuffer) input = photo_part ("chelsea.png", 150, 110);
  g_autoptr (GeglBuffer) mask = mask_buffer (150, 110, "Y' u8", smooth_mask_value, 0);
  g_autofree gfloat     *whole = variable_blur ("cblur:variable-blur", input, mask,
                                                "radius", 12.0, "abyss-policy", abyss, NULL);
  g_autofree gfloat     *banded = NULL;
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur = gegl_node_new_child (graph, "operation", "cblur:variable-blur",
                                                     "radius", 12.0, "abyss-policy", abyss,
                                                     NULL);
  gfloat                *parts = g_new0 (gfloat, 150 * 110 * 4);
  static const GeglRectangle pieces[] = {
    { 0, 0, 37, 110 }, { 37, 0, 113, 51 }, { 37, 51, 64, 59 }, { 101, 51, 49, 59 },
  };
  gsize i;

  /* every region on its own, and in bands of 64 rows */
  g_setenv ("CBLUR_WHOLE_IMAGE_PIXELS", "1", TRUE);
  g_setenv ("CBLUR_BAND_PIXELS", "1", TRUE);
  cblur_settings_reload ();
  gegl_node_link (gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", input, NULL), blur);
  gegl_node_connect_from (blur, "aux",
                          gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                               "buffer", mask, NULL), "output");
  for (i = 0; i < G_N_ELEMENTS (pieces); i++)
    gegl_node_blit (blur, 1.0, &pieces[i], babl_format (TEST_FORMAT),
                    parts + ((gsize) pieces[i].y * 150 + pieces[i].x) * 4,
                    150 * 4 * sizeof (gfloat), GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  banded = variable_blur ("cblur:variable-blur", input, mask, "radius", 12.0,
                          "abyss-policy", abyss, NULL);
  g_unsetenv ("CBLUR_WHOLE_IMAGE_PIXELS");
  g_unsetenv ("CBLUR_BAND_PIXELS");
  cblur_settings_reload ();

  g_test_message ("abyss %d: regions differ from the whole by %.3g, bands by %.3g", abyss,
                  test_max_abs_diff (whole, parts, 150 * 110 * 4),
                  test_max_abs_diff (whole, banded, 150 * 110 * 4));
  g_assert_cmpfloat (test_max_abs_diff (whole, parts, 150 * 110 * 4), <=, 1e-6);
  g_assert_cmpfloat (test_max_abs_diff (whole, banded, 150 * 110 * 4), <=, 1e-6);
  g_free (parts);
}

/* Under loop a region on its own has GEGL make its halo, which the
 * whole image makes itself: the same pixels with the same boxes. */
static void
test_tiling_independent (void)
{
  check_tiling (GEGL_ABYSS_CLAMP);
  check_tiling (GEGL_ABYSS_LOOP);
}

/* a forked child that has not finished by then has hung */
#define CHILD_TIMEOUT_US (60 * G_USEC_PER_SEC)

/* A host that forks after blurring (Python's multiprocessing does) has a
 * child without GEGL's worker threads or the GL driver's: the child still
 * blurs a photograph through a mask, on the CPU, as the parent did (on
 * GL, within its rounding).  In a process of its own, which blurs first. */
static void
test_fork_then_blur (void)
{
  g_autoptr (GeglBuffer) input = NULL;
  g_autoptr (GeglBuffer) mask = NULL;
  g_autofree gfloat     *parents = NULL;
  GPid                   child;
  gint                   status;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  input = photo_part ("coffee.png", 600, 400);
  mask = mask_buffer (600, 400, "Y' u8", smooth_mask_value, 0);
  parents = variable_blur ("cblur:variable-blur", input, mask, "radius", 6.0, NULL);
  test_assert_ran_on_backend ();

  child = fork ();
  if (child == 0)
    {
      g_autofree gfloat *childs = NULL;

      /* GL's refusal in the child is the one warning of a fallback */
      g_log_set_always_fatal (G_LOG_FATAL_MASK);
      childs = variable_blur ("cblur:variable-blur", input, mask, "radius", 6.0, NULL);
      _exit (test_max_abs_diff (parents, childs, 600 * 400 * 4) <= 1e-5 ? 0 : 3);
    }
  status = test_wait_child (child, CHILD_TIMEOUT_US);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/cpu/variable/smooth-mask-matches-reference",
                   test_smooth_mask_matches_reference);
  g_test_add_func ("/cpu/variable/abyss-policies", test_abyss_policies);
  g_test_add_func ("/cpu/variable/tiny-image-largest-radius", test_tiny_image_largest_radius);
  g_test_add_func ("/cpu/variable/alpha", test_alpha);
  g_test_add_func ("/cpu/variable/constant-mask-is-box-mode", test_constant_mask_is_box_mode);
  g_test_add_func ("/cpu/variable/zero-mask-is-input", test_zero_mask_is_input);
  g_test_add_func ("/cpu/variable/mask-formats", test_mask_formats);
  g_test_add_func ("/cpu/variable/stored-source", test_stored_source);
  g_test_add_func ("/cpu/variable/tiling-independent", test_tiling_independent);
  g_test_add_func ("/cpu/variable/fork-then-blur", test_fork_then_blur);

  return g_test_run ();
}
