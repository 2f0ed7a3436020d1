/* What the op blurs for a region of a larger image, on the backend
 * CBLUR_BACKEND names: for a small part of the image, that part and its
 * halo, however large the image; where GEGL goes on to ask for the rest,
 * the whole image once.  Each result against the same pixels blurred
 * otherwise and against the reference. */
#include <math.h>
#include <string.h>

#include "cblur-kernel.h"
#include "cblur-backend-offer.h"
#include "cblur-settings.h"
#include "cblur-test.h"
#include "reference.h"

#define REGION 512

/* GEGL's tiles meet on GL within this; the CPU's are the same bits */
#define GL_TILING_TOLERANCE 1e-6

static void
assert_same_blur (const gfloat *expected,
                  const gfloat *actual,
                  gsize          n_floats)
{
  if (test_backend_is_gl ())
    g_assert_cmpfloat (test_max_abs_diff (expected, actual, n_floats), <=, GL_TILING_TOLERANCE);
  else
    g_assert_cmpmem (expected, n_floats * sizeof (gfloat), actual, n_floats * sizeof (gfloat));
}

/* an otherwise empty buffer of `extent` holding `pixels` in `patch` */
static GeglBuffer *
buffer_with_patch (const GeglRectangle *extent,
                   const GeglRectangle *patch,
                   const gfloat        *pixels)
{
  GeglBuffer *buffer = gegl_buffer_new (extent, babl_format (TEST_FORMAT));

  gegl_buffer_set (buffer, patch, 0, babl_format (TEST_FORMAT), pixels, GEGL_AUTO_ROWSTRIDE);
  return buffer;
}

/* The reference blur of `patch`'s pixels, cut to `region` inside it. */
static RefImage *
reference_region (const gfloat        *pixels,
                  const GeglRectangle *patch,
                  const GeglRectangle *region,
                  CblurMode            mode,
                  gdouble              radius)
{
  g_autoptr (RefImage) src = ref_image_from_floats (pixels, patch->width, patch->height);
  g_autoptr (RefImage) blurred = mode == CBLUR_MODE_BOX ? ref_blur_box (src, radius, 4)
                                                        : ref_blur_direct (src, radius);
  RefImage            *cut = ref_image_new (region->width, region->height);
  gint                 row;

  for (row = 0; row < region->height; row++)
    memcpy (cut->data + (gsize) row * region->width * 4,
            blurred->data + (((gsize) (region->y - patch->y + row) * patch->width) +
                             (region->x - patch->x)) * 4,
            (gsize) region->width * 4 * sizeof (gdouble));
  return cut;
}

static CblurBackendKind
tested_backend (void)
{
  return test_backend_is_gl () ? CBLUR_BACKEND_GL : CBLUR_BACKEND_CPU;
}

/* whether the backend blurs an image of `extent` whole for any region:
 * on the CPU and a GPU, not on llvmpipe, nor under
 * CBLUR_WHOLE_IMAGE_PIXELS=1 (test_run_without_whole_images) */
static gboolean
takes_whole (const GeglRectangle *extent,
             gint                 reach)
{
  return ((gdouble) extent->width + 2 * reach) * ((gdouble) extent->height + 2 * reach) <=
         (gdouble) cblur_backend_whole_image_pixels (tested_backend ());
}

static const struct
{
  CblurMode mode;
  gdouble   radius;
  gint      size;
} huge_cases[] = {
  { CBLUR_MODE_BOX,    60.0,   2000 },
  { CBLUR_MODE_BOX,    60.0,  16000 },
  { CBLUR_MODE_BOX,    60.0, 100000 },
  { CBLUR_MODE_DIRECT, 20.0, 100000 },
};

/* A viewer at high zoom asks for a small part of a large image.  The
 * image is empty but for the pixels the region's blur reads, so that
 * blurring all of it would take minutes and gigabytes.  The CPU and a
 * GPU blur an image small enough whole (the first case), whose cache
 * serves such views. */
static void
test_small_part_of_huge_image (void)
{
  gsize c;

  for (c = 0; c < G_N_ELEMENTS (huge_cases); c++)
    {
      CblurMode              mode = huge_cases[c].mode;
      gdouble                radius = huge_cases[c].radius;
      gint                   size = huge_cases[c].size;
      gint                   reach = cblur_kernel_reach (radius, mode, 4);
      GeglRectangle          extent = { 0, 0, size, size };
      GeglRectangle          region = { size / 2 - 203, size / 2 - 317, REGION, REGION };
      GeglRectangle          patch = { region.x - reach - 9, region.y - reach - 9,
                                       REGION + 2 * reach + 18, REGION + 2 * reach + 18 };
      g_autoptr (GeglBuffer) random = test_random_buffer (patch.width, patch.height, c);
      g_autofree gfloat     *pixels = test_read (random, gegl_buffer_get_extent (random));
      g_autoptr (GeglBuffer) huge = buffer_with_patch (&extent, &patch, pixels);
      g_autoptr (GeglBuffer) alone = buffer_with_patch (&patch, &patch, pixels);
      g_autoptr (RefImage)   expected = reference_region (pixels, &patch, &region, mode, radius);
      g_autofree gfloat     *from_huge = NULL;
      g_autofree gfloat     *from_alone = NULL;
      TestBlurred            blurred;
      gdouble                max_abs, rms;

      test_take_blurred ();
      from_huge = test_blur (huge, &region, "radius", radius, "mode", mode, NULL);
      blurred = test_take_blurred ();
      g_test_message ("%s radius %g, %dx%d image: blurred %" G_GINT64_FORMAT " pixels",
                      cblur_mode_name (mode), radius, size, size, blurred.pixels);
      g_assert_cmpint (blurred.pixels, ==,
                       takes_whole (&extent, reach) ? (gint64) size * size
                                                    : (gint64) REGION * REGION);

      from_alone = test_blur (alone, &region, "radius", radius, "mode", mode, NULL);
      assert_same_blur (from_alone, from_huge, (gsize) REGION * REGION * 4);

      ref_compare_floats (expected, from_huge, &max_abs, &rms);
      g_test_message ("against the reference: max %.3g", max_abs);
      g_assert_cmpfloat (max_abs, <=, !test_backend_is_gl () ? 1e-5
                                      : mode == CBLUR_MODE_BOX ? 1.5e-4 : 2e-5);
      test_assert_ran_on_backend ();
    }
}

/* A full render in GEGL's large chunks (the CLI, the benchmark) blurs the
 * whole image once, where the halo makes that pay. */
static void
test_full_render_blurs_whole_image_once (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (480, 360, 7);
  const GeglRectangle   *extent = gegl_buffer_get_extent (input);
  g_autofree gfloat     *whole = test_blur (input, extent, "radius", 30.0,
                                            "mode", CBLUR_MODE_BOX, NULL);
  g_autofree gfloat     *quarters = NULL;
  TestBlurred            blurred;

  test_take_blurred ();
  quarters = test_render_chunked (input, extent, extent->width * extent->height / 4,
                                  "radius", 30.0, "mode", CBLUR_MODE_BOX, NULL);
  blurred = test_take_blurred ();
  g_assert_cmpint (blurred.widest, ==, extent->width);
  g_assert_cmpint (blurred.pixels, ==, (gint64) extent->width * extent->height);
  assert_same_blur (whole, quarters, (gsize) extent->width * extent->height * 4);
  test_assert_ran_on_backend ();
}

/* A host that applies in small chunks, as GIMP does, at a long reach:
 * chunks are blurred on their own until their halos have cost what the
 * whole image would; then the whole image, whose cache serves the rest. */
static void
test_small_chunks_take_whole_image (void)
{
  const gint             side = 1200, chunk = 40, chunks = 3 * (1200 / 40);
  const gdouble          radius = 60.0;
  gint                   reach = cblur_kernel_reach (radius, CBLUR_MODE_BOX, 4);
  gdouble                whole_cost = (gdouble) (side + 2 * reach) * (side + 2 * reach);
  gdouble                halo_cost = (gdouble) (chunk + 2 * reach) * (chunk + 2 * reach) -
                                     chunk * chunk +
                                     cblur_backend_region_overhead (tested_backend ());
  g_autoptr (GeglBuffer) input = test_random_buffer (side, side, 11);
  gint                   whole_at = takes_whole (gegl_buffer_get_extent (input), reach)
                                      ? 1 : (gint) ceil (whole_cost / halo_cost);
  g_autofree gfloat     *whole = test_blur (input, gegl_buffer_get_extent (input),
                                            "radius", radius, "mode", CBLUR_MODE_BOX, NULL);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur;
  gfloat                 pixels[40 * 40 * 4];
  gint                   i;

  g_assert_cmpint (whole_at, <, chunks);
  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", radius, "mode", CBLUR_MODE_BOX, NULL);
  test_take_blurred ();

  for (i = 1; i <= chunks; i++)
    {
      GeglRectangle roi = { (i - 1) % (side / chunk) * chunk, (i - 1) / (side / chunk) * chunk,
                            chunk, chunk };
      TestBlurred   blurred;
      gint          row;

      gegl_node_blit (blur, 1.0, &roi, babl_format (TEST_FORMAT), pixels,
                      GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
      blurred = test_take_blurred ();
      if (i < whole_at)
        g_assert_cmpint (blurred.pixels, ==, chunk * chunk);
      else if (i == whole_at)
        g_assert_cmpint (blurred.pixels, ==, side * side);
      else
        g_assert_cmpint (blurred.pixels, ==, 0);

      for (row = 0; row < chunk; row++)
        assert_same_blur (whole + ((gsize) (roi.y + row) * side + roi.x) * 4,
                          pixels + (gsize) row * chunk * 4, chunk * 4);
    }
  g_object_unref (graph);
  test_assert_ran_on_backend ();
}

/* GIMP's last chunk is the rest of the image, after rows blurred on
 * their own: on the CPU blurred alone, not as the whole image, which
 * would blur those rows again.  GL takes the whole image for it.  Where
 * the backend blurs the image whole, it does so for the first rows, and
 * its cache serves the rest. */
static void
test_rest_of_image_blurs_only_itself (void)
{
  const gint             side = 1200, strip = 32;
  const gdouble          radius = 30.0;
  g_autoptr (GeglBuffer) input = test_random_buffer (side, side, 13);
  g_autofree gfloat     *whole = test_blur (input, gegl_buffer_get_extent (input),
                                            "radius", radius, "mode", CBLUR_MODE_BOX, NULL);
  gboolean               whole_first = takes_whole (gegl_buffer_get_extent (input),
                                                    cblur_kernel_reach (radius, CBLUR_MODE_BOX, 4));
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur;
  g_autofree gfloat     *pixels = g_new (gfloat, (gsize) side * side * 4);
  GeglRectangle          top = { 0, 0, side, strip };
  GeglRectangle          rest = { 0, strip, side, side - strip };
  TestBlurred            blurred;

  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", radius, "mode", CBLUR_MODE_BOX, NULL);
  test_take_blurred ();

  gegl_node_blit (blur, 1.0, &top, babl_format (TEST_FORMAT), pixels,
                  side * 4 * sizeof (gfloat), GEGL_BLIT_DEFAULT);
  blurred = test_take_blurred ();
  g_assert_cmpint (blurred.pixels, ==, whole_first ? side * side : side * strip);

  gegl_node_blit (blur, 1.0, &rest, babl_format (TEST_FORMAT), pixels + (gsize) strip * side * 4,
                  side * 4 * sizeof (gfloat), GEGL_BLIT_DEFAULT);
  blurred = test_take_blurred ();
  g_assert_cmpint (blurred.pixels, ==, whole_first ? 0
                                       : test_backend_is_gl () ? side * side
                                       : side * (side - strip));

  assert_same_blur (whole, pixels, (gsize) side * side * 4);
  g_object_unref (graph);
  test_assert_ran_on_backend ();
}

typedef struct
{
  const gchar *name;
  GTestFunc    func;
} RegionTest;

static const RegionTest region_tests[] = {
  { "small-part-of-huge-image", test_small_part_of_huge_image },
  { "full-render-blurs-whole-image-once", test_full_render_blurs_whole_image_once },
  { "small-chunks-take-whole-image", test_small_chunks_take_whole_image },
  { "rest-of-image-blurs-only-itself", test_rest_of_image_blurs_only_itself },
};

gint
main (gint    argc,
      gchar **argv)
{
  gsize t;

  test_init (&argc, &argv);

  for (t = 0; t < G_N_ELEMENTS (region_tests); t++)
    {
      g_autofree gchar *path = g_strconcat ("/region/", region_tests[t].name, NULL);
      g_autofree gchar *without = g_strconcat ("/region/without-whole-images/",
                                               region_tests[t].name, NULL);

      g_test_add_func (path, region_tests[t].func);
      if (cblur_backend_whole_image_pixels (tested_backend ()) > 0)
        g_test_add_data_func (without, (gconstpointer) region_tests[t].func,
                              test_run_without_whole_images);
    }

  return g_test_run ();
}
