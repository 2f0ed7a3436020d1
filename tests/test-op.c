/* The operation inside GEGL graphs: tiling and chunking invariance, radius 0,
 * transparency, abyss policies and the output extent. */
#include <math.h>
#include <string.h>

#include "cblur-kernel.h"
#include "cblur-settings.h"
#include "cblur-test.h"
#include "reference.h"

static const CblurMode both_modes[] = { CBLUR_MODE_DIRECT, CBLUR_MODE_BOX };

/* the last reaches far enough that the op renders whole images (its
 * cached region) rather than GEGL's chunks, on the CPU too */
static const struct
{
  CblurMode mode;
  gdouble   radius;
} tiling_cases[] = {
  { CBLUR_MODE_DIRECT, 9.3 },
  { CBLUR_MODE_BOX,    37.5 },
  { CBLUR_MODE_BOX,    150.0 },
};

static void
test_tiling_invariance (void)
{
  GeglRectangle roi = { -5, 3, 230, 170 };
  gsize         c;

  for (c = 0; c < G_N_ELEMENTS (tiling_cases); c++)
    {
      CblurMode              mode = tiling_cases[c].mode;
      gdouble                radius = tiling_cases[c].radius;
      g_autoptr (GeglBuffer) input = test_random_buffer (240, 180, 3);
      g_autofree gfloat     *whole = test_blur (input, &roi, "radius", radius,
                                                "mode", mode, NULL);
      gint               i;

      /* four quadrants rendered on their own */
      for (i = 0; i < 4; i++)
        {
          GeglRectangle part = { roi.x + (i % 2) * 101, roi.y + (i / 2) * 77,
                                 i % 2 ? roi.width - 101 : 101,
                                 i / 2 ? roi.height - 77 : 77 };
          g_autofree gfloat *pixels = test_blur (input, &part, "radius", radius,
                                                 "mode", mode, NULL);
          gint               row;

          for (row = 0; row < part.height; row++)
            g_assert_cmpmem (pixels + (gsize) row * part.width * 4,
                             part.width * 4 * sizeof (gfloat),
                             whole + ((gsize) (part.y - roi.y + row) * roi.width
                                      + part.x - roi.x) * 4,
                             part.width * 4 * sizeof (gfloat));
        }

      /* small tiles and chunks through GEGL's processor */
      g_object_set (gegl_config (), "tile-width", 32, "tile-height", 16,
                    "chunk-size", 3000, NULL);
      {
        g_autoptr (GeglBuffer) small_tiles = test_random_buffer (240, 180, 3);
        g_autofree gfloat     *chunked = test_render_chunked (small_tiles, &roi, 0,
                                                              "radius", radius,
                                                              "mode", mode, NULL);

        g_assert_cmpmem (chunked, (gsize) roi.width * roi.height * 4 * sizeof (gfloat),
                         whole, (gsize) roi.width * roi.height * 4 * sizeof (gfloat));
      }
      g_object_set (gegl_config (), "tile-width", 128, "tile-height", 64,
                    "chunk-size", 1024 * 1024, NULL);
    }
}

static void
test_radius_zero_is_identity (void)
{
  GeglRectangle          rect = { 0, 0, 40, 30 };
  const Babl            *u8 = babl_format ("R'G'B'A u8");
  g_autoptr (GeglBuffer) input = gegl_buffer_new (&rect, u8);
  guint8                 in[40 * 30 * 4], out[40 * 30 * 4];
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur;
  gsize                  i;

  for (i = 0; i < sizeof in; i++)
    in[i] = (i * 7919) % 251;
  gegl_buffer_set (input, &rect, 0, u8, in, GEGL_AUTO_ROWSTRIDE);

  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", 0.0, NULL);
  gegl_node_blit (blur, 1.0, &rect, u8, out, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);

  g_assert_cmpmem (in, sizeof in, out, sizeof out);
}

/* Opaque red beside transparent pixels whose hidden colour is green: the
 * blur must never show that green. */
static void
test_transparent_stays_colorless (void)
{
  GeglRectangle          rect = { 0, 0, 64, 16 };
  const Babl            *straight = babl_format ("RGBA float");
  g_autoptr (GeglBuffer) input = gegl_buffer_new (&rect, straight);
  gfloat                *in = g_new (gfloat, 64 * 16 * 4);
  gsize                  m;
  gint                   i;

  for (i = 0; i < 64 * 16; i++)
    {
      gboolean opaque = i % 64 < 32;

      in[i * 4 + 0] = opaque ? 1.0f : 0.0f;
      in[i * 4 + 1] = opaque ? 0.0f : 1.0f;
      in[i * 4 + 2] = 0.0f;
      in[i * 4 + 3] = opaque ? 1.0f : 0.0f;
    }
  gegl_buffer_set (input, &rect, 0, straight, in, GEGL_AUTO_ROWSTRIDE);
  g_free (in);

  for (m = 0; m < G_N_ELEMENTS (both_modes); m++)
    {
      g_autofree gfloat *out = test_blur (input, &rect, "radius", 12.0,
                                          "mode", both_modes[m], NULL);

      for (i = 0; i < 64 * 16; i++)
        {
          /* babl keeps a trace of the colour under alpha 0 (its alpha
           * floor); far below anything visible */
          g_assert_cmpfloat (out[i * 4 + 1], <=, 1.0001f / 65536.0f);
          if (i % 64 >= 50)
            g_assert_cmpfloat (out[i * 4 + 3], ==, 0.0f);
          if (out[i * 4 + 3] > 0.01f)
            {
              g_assert_cmpfloat (out[i * 4 + 1] / out[i * 4 + 3], <, 0.002f);
              g_assert_cmpfloat_with_epsilon (out[i * 4 + 0] / out[i * 4 + 3], 1.0, 1e-4);
            }
        }
    }
}

static void
test_abyss_policies (void)
{
  GeglRectangle          rect = { 0, 0, 50, 40 };
  g_autoptr (GeglBuffer) input = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  const gfloat           grey[4] = { 0.2f, 0.4f, 0.6f, 1.0f };
  gsize                  m;

  gegl_buffer_set_color_from_pixel (input, &rect, grey, babl_format (TEST_FORMAT));

  for (m = 0; m < G_N_ELEMENTS (both_modes); m++)
    {
      g_autofree gfloat *clamp = test_blur (input, &rect, "radius", 15.0, "mode", both_modes[m],
                                            "abyss-policy", GEGL_ABYSS_CLAMP, NULL);
      g_autofree gfloat *none = test_blur (input, &rect, "radius", 15.0, "mode", both_modes[m],
                                           "abyss-policy", GEGL_ABYSS_NONE, NULL);
      g_autofree gfloat *black = test_blur (input, &rect, "radius", 15.0, "mode", both_modes[m],
                                            "abyss-policy", GEGL_ABYSS_BLACK, NULL);
      g_autofree gfloat *white = test_blur (input, &rect, "radius", 15.0, "mode", both_modes[m],
                                            "abyss-policy", GEGL_ABYSS_WHITE, NULL);
      gsize              i;
      gint               c;

      for (i = 0; i < 50 * 40; i++)
        for (c = 0; c < 4; c++)
          g_assert_cmpfloat_with_epsilon (clamp[i * 4 + c], grey[c], 1e-5);

      /* the corner sees a quarter of the image; the centre row's middle
       * sees it whole horizontally */
      g_assert_cmpfloat (none[3], <, 0.45f);
      g_assert_cmpfloat (none[3], >, 0.15f);
      g_assert_cmpfloat_with_epsilon (black[3], 1.0, 1e-5);
      g_assert_cmpfloat (black[0], <, 0.2f * 0.6f);
      g_assert_cmpfloat_with_epsilon (white[3], 1.0, 1e-5);
      g_assert_cmpfloat (white[0], >, 0.2f + 0.8f * 0.3f);
    }
}

/* Every policy against the reference, on a random image: the GPU makes
 * the abyss itself, from the edge it read, where GEGL's CPU path reads it. */
static void
test_abyss_against_reference (void)
{
  /* tall enough for bands of the floor's 64 rows: loop's abyss above the
   * first band is the last band's rows */
  g_autoptr (GeglBuffer) input = test_random_buffer (45, 170, 11);
  const GeglRectangle   *extent = gegl_buffer_get_extent (input);
  g_autofree gfloat     *pixels = test_read (input, extent);
  const gchar           *band_pixels[] = { NULL, "1" };
  /* one radius, and each axis its own, either the longer or alone */
  static const gdouble   radii[][2] = { { 20.0, 20.0 }, { 6.0, 24.0 }, { 24.0, 6.0 },
                                        { 0.0, 30.0 } };
  GeglAbyssPolicy        policy;
  gsize                  m, b, r;

  /* GEGL's policies are the values from none to white */
  for (b = 0; b < G_N_ELEMENTS (band_pixels); b++)
    for (policy = GEGL_ABYSS_NONE; policy <= GEGL_ABYSS_WHITE; policy++)
      for (m = 0; m < G_N_ELEMENTS (both_modes); m++)
        for (r = 0; r < G_N_ELEMENTS (radii); r++)
          {
            g_autoptr (RefImage) src = ref_image_from_floats (pixels, extent->width,
                                                              extent->height);
            g_autoptr (RefImage) expected = NULL;
            g_autofree gfloat   *actual = NULL;
            gdouble              max_abs, rms;

            if (band_pixels[b] != NULL)
              g_setenv ("CBLUR_BAND_PIXELS", band_pixels[b], TRUE);
            else
              g_unsetenv ("CBLUR_BAND_PIXELS");
            cblur_settings_reload ();
            src->abyss = policy;
            expected = both_modes[m] == CBLUR_MODE_DIRECT
                       ? ref_blur_direct_xy (src, radii[r][0], radii[r][1])
                       : ref_blur_box_xy (src, radii[r][0], radii[r][1], 4);
            actual = test_blur (input, extent, "radius-x", radii[r][0], "radius-y", radii[r][1],
                                "mode", both_modes[m], "abyss-policy", policy, NULL);
            ref_compare_floats (expected, actual, &max_abs, &rms);
            g_test_message ("bands of %s pixels, policy %d, %s radius %g × %g: max %.3g",
                            band_pixels[b] != NULL ? band_pixels[b] : "the default", policy,
                            cblur_mode_name (both_modes[m]), radii[r][0], radii[r][1], max_abs);
            g_assert_cmpfloat (max_abs, <=, 1e-5);
          }
  g_unsetenv ("CBLUR_BAND_PIXELS");
  cblur_settings_reload ();
}

/* The op's blur of the straight input in roi, bit for bit its blur of the
 * premultiplied copy.  Each comes in its source's format (cblur-format),
 * so both are read as straight RGBA float: the op's own unpremultiplying
 * of the one and babl's of the other must agree too. */
static void
check_straight_case (GeglBuffer          *input,
                     GeglBuffer          *premultiplied,
                     const GeglRectangle *roi,
                     CblurMode            mode,
                     gdouble              radius,
                     GeglAbyssPolicy      policy,
                     const gchar         *tiles,
                     gsize                part)
{
  const Babl        *straight = babl_format ("RGBA float");
  gsize              bytes = (gsize) roi->width * roi->height * 4 * sizeof (gfloat);
  g_autofree gfloat *ours = test_blur_as (straight, input, roi, "radius", radius, "mode", mode,
                                          "abyss-policy", policy, NULL);
  g_autofree gfloat *gegls = test_blur_as (straight, premultiplied, roi, "radius", radius,
                                           "mode", mode, "abyss-policy", policy, NULL);

  g_test_message ("tiles of %s, part %zu, policy %d, %s %g: max %.3g", tiles, part, policy,
                  cblur_mode_name (mode), radius,
                  test_max_abs_diff (ours, gegls, bytes / sizeof (gfloat)));
  g_assert_cmpmem (ours, bytes, gegls, bytes);
}

/* A straight RGBA float source, which the op reads as it is and
 * premultiplies itself (on the GPU, or as the CPU gathers rows), blurs bit
 * for bit as GEGL's premultiplied copy of it does: alphas of zero, at
 * babl's floor and above one; every abyss policy, made beyond the whole
 * image or read around a part of it; in GEGL's chunks and whole on the
 * CPU, in one streamed tile and in several on the GPU; and at radius 0. */
static void
test_straight_source (void)
{
  static const gfloat    alphas[] = { 0.0f, 1.0f / 65536.0f, 1e-7f, 0.25f, 1.0f, 1.5f };
  static const gchar    *tile_caps[] = { NULL, "32" };
  /* the last reaches far enough for the CPU to blur the whole image,
   * which is all it is run on, in tiles of any size (GL takes long) */
  static const struct
  {
    CblurMode mode;
    gdouble   radius;
    gboolean  whole_only;
  } cases[] = {
    { CBLUR_MODE_DIRECT, 7.0, FALSE }, { CBLUR_MODE_BOX, 7.0, FALSE }, { CBLUR_MODE_BOX, 40.0, TRUE },
  };
  const GeglRectangle    rois[] = { { 0, 0, 83, 71 }, { 20, 15, 40, 30 } };
  const Babl            *straight = babl_format ("RGBA float");
  g_autoptr (GeglBuffer) input = gegl_buffer_new (&rois[0], straight);
  g_autoptr (GeglBuffer) premultiplied = gegl_buffer_new (&rois[0], babl_format (TEST_FORMAT));
  g_autofree gfloat     *pixels = g_new (gfloat, 83 * 71 * 4);
  GRand                 *rand = g_rand_new_with_seed (31);
  GeglAbyssPolicy        policy;
  gsize                  i, t, r, k;

  for (i = 0; i < 83 * 71; i++)
    {
      gint c;

      for (c = 0; c < 3; c++)
        pixels[i * 4 + c] = g_rand_double_range (rand, -0.2, 1.2);
      pixels[i * 4 + 3] = i % 3 == 0 ? alphas[i / 3 % G_N_ELEMENTS (alphas)]
                                     : g_rand_double (rand);
    }
  g_rand_free (rand);
  gegl_buffer_set (input, &rois[0], 0, straight, pixels, GEGL_AUTO_ROWSTRIDE);
  gegl_buffer_copy (input, NULL, GEGL_ABYSS_NONE, premultiplied, NULL);

  for (t = 0; t < G_N_ELEMENTS (tile_caps); t++)
    {
      if (tile_caps[t] != NULL)
        g_setenv ("CBLUR_GL_MAX_TILE", tile_caps[t], TRUE);
      cblur_settings_reload ();
      for (r = 0; r < G_N_ELEMENTS (rois); r++)
        for (policy = GEGL_ABYSS_NONE; policy <= GEGL_ABYSS_WHITE; policy++)
          for (k = 0; k < G_N_ELEMENTS (cases); k++)
            if (!cases[k].whole_only || (tile_caps[t] == NULL && r == 0))
              check_straight_case (input, premultiplied, &rois[r], cases[k].mode,
                                   cases[k].radius, policy,
                                   tile_caps[t] != NULL ? tile_caps[t] : "any size", r);
      g_unsetenv ("CBLUR_GL_MAX_TILE");
      cblur_settings_reload ();
    }

  {
    g_autofree gfloat *ours = test_blur (input, &rois[0], "radius", 0.0, NULL);
    g_autofree gfloat *gegls = test_read (premultiplied, &rois[0]);

    g_assert_cmpmem (ours, sizeof (gfloat) * 83 * 71 * 4, gegls, sizeof (gfloat) * 83 * 71 * 4);
  }
}

static void
test_clip_extent (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (60, 40, 4);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur;
  GeglRectangle          box;

  test_blur_graph (graph, input, &blur);

  gegl_node_set (blur, "radius", 10.0, "mode", CBLUR_MODE_DIRECT, "clip-extent", TRUE, NULL);
  box = gegl_node_get_bounding_box (blur);
  g_assert_true (gegl_rectangle_equal (&box, GEGL_RECTANGLE (0, 0, 60, 40)));

  gegl_node_set (blur, "clip-extent", FALSE, "abyss-policy", GEGL_ABYSS_NONE, NULL);
  box = gegl_node_get_bounding_box (blur);
  g_assert_true (gegl_rectangle_equal (&box, GEGL_RECTANGLE (-10, -10, 80, 60)));

  /* outside the input, with no clipping, the blur fades out */
  {
    gfloat corner[4];

    gegl_node_blit (blur, 1.0, GEGL_RECTANGLE (-10, -10, 1, 1), babl_format (TEST_FORMAT),
                    corner, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
    g_assert_cmpfloat (corner[3], >, 0.0f);
    g_assert_cmpfloat (corner[3], <, 0.05f);
  }
  g_object_unref (graph);
}

/* GIMP's previews render at mipmap levels: level 1 must be the blur of the
 * half-size image with half the radius. */
static void
test_mipmap_level (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (128, 96, 5);
  GeglRectangle          half = { 0, 0, 64, 48 };
  g_autoptr (GeglBuffer) halved = gegl_buffer_new (&half, babl_format (TEST_FORMAT));
  g_autofree gfloat     *small = g_new (gfloat, 64 * 48 * 4);
  g_autofree gfloat     *expected = NULL;
  g_autofree gfloat     *actual = g_new (gfloat, 64 * 48 * 4);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur;

  /* GEGL's level 1 is the 2×2 box average of level 0 */
  gegl_buffer_get (input, &half, 0.5, babl_format (TEST_FORMAT), small,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_set (halved, &half, 0, babl_format (TEST_FORMAT), small, GEGL_AUTO_ROWSTRIDE);
  expected = test_blur (halved, &half, "radius", 6.0, "mode", CBLUR_MODE_DIRECT, NULL);

  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", 12.0, "mode", CBLUR_MODE_DIRECT, NULL);
  gegl_node_blit (blur, 0.5, &half, babl_format (TEST_FORMAT), actual,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  g_object_set (gegl_config (), "mipmap-rendering", FALSE, NULL);

  g_test_message ("level 1 against half size: max %.3g",
                  test_max_abs_diff (expected, actual, 64 * 48 * 4));
  g_assert_cmpfloat (test_max_abs_diff (expected, actual, 64 * 48 * 4), <, 1e-5);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/op/tiling-invariance", test_tiling_invariance);
  g_test_add_func ("/op/radius-zero-is-identity", test_radius_zero_is_identity);
  g_test_add_func ("/op/transparent-stays-colorless", test_transparent_stays_colorless);
  g_test_add_func ("/op/abyss-policies", test_abyss_policies);
  g_test_add_func ("/op/abyss-against-reference", test_abyss_against_reference);
  g_test_add_func ("/op/straight-source", test_straight_source);
  g_test_add_func ("/op/clip-extent", test_clip_extent);
  g_test_add_func ("/op/mipmap-level", test_mipmap_level);

  return g_test_run ();
}
