/* Sources in the formats GEGL stores, which the op reads and writes as they
 * are (cblur-format; its curves: test-curves.c): each covered format's
 * blur against babl's conversion of the double-precision reference, in
 * other babl spaces, with transparent areas, split into bands and chunks,
 * on the GPU against the CPU, and a format it does not cover. */
#include <math.h>
#include <string.h>

#include "cblur-format.h"
#include "cblur-kernel.h"
#include "cblur-pixel.h"
#include "cblur-settings.h"
#include "cblur-host-view.h"
#include "cblur-test.h"
#include "reference.h"

typedef struct
{
  const gchar *encoding;
  const gchar *space;
} Case;

/* every layout and sample type, and the curves of other spaces: ProPhoto
 * and Apple have pure power curves (1.8), without sRGB's linear toe; half
 * and float on sRGB's curve, in sRGB or perceptual ("~") in any space */
static const Case covered[] = {
  { "R'G'B'A u8",  "sRGB" },
  { "R'G'B'A u8",  "ProPhoto" },
  { "R'G'B' u8",   "Apple" },
  { "Y'A u8",      "sRGB" },
  { "Y' u8",       "Adobish" },
  { "RGBA u8",     "sRGB" },
  { "R~G~B~A u8",  "ProPhoto" },
  { "R'G'B'A u16", "sRGB" },
  { "R'G'B'A u16", "ProPhoto" },
  { "Y u16",       "sRGB" },
  { "RGBA half",   "sRGB" },
  { "YA half",     "Rec2020" },
  { "RGBA float",  "sRGB" },
  { "RGB float",   "ProPhoto" },
  { "Y float",     "sRGB" },
  { "R'G'B'A float", "sRGB" },
  { "R'G'B'A half", "sRGB" },
  { "Y'A half",    "sRGB" },
  { "R'G'B' float", "sRGB" },
  { "Y~ float",    "ProPhoto" },
  { "R~G~B~A half", "Apple" },
};

static const Babl *
case_format (const Case *c)
{
  return babl_format_with_space (c->encoding, babl_space (c->space));
}

/* Straight colours over a transparent block whose hidden colour is green,
 * an opaque block, a block of alpha at and below babl's floor, and noise;
 * the bands of the region (CBLUR_BAND_PIXELS) split these. */
static GeglBuffer *
source_in (const Babl *format,
           gint        width,
           gint        height,
           guint32     seed)
{
  GeglRectangle rect = { 0, 0, width, height };
  GeglBuffer   *buffer = gegl_buffer_new (&rect, format);
  const Babl   *straight = babl_format_with_space ("RGBA float", babl_format_get_space (format));
  gfloat       *pixels = g_new (gfloat, (gsize) width * height * 4);
  GRand        *rand = g_rand_new_with_seed (seed);
  gint          x, y, c;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      {
        gfloat *p = pixels + ((gsize) y * width + x) * 4;

        for (c = 0; c < 3; c++)
          p[c] = g_rand_double (rand);
        p[3] = g_rand_double (rand);
        if (x < width / 3 && y < height / 2)
          {
            p[0] = p[2] = 0.0f;
            p[1] = 1.0f;
            p[3] = 0.0f;
          }
        else if (x >= 2 * width / 3 && y < height / 2)
          p[3] = 1.0f;
        else if (x < width / 3 && (x + y) % 3 == 0)
          p[3] = (x % 2) * (1.0f / 65536.0f);
      }
  gegl_buffer_set (buffer, &rect, 0, straight, pixels, GEGL_AUTO_ROWSTRIDE);
  g_rand_free (rand);
  g_free (pixels);
  return buffer;
}

/* The blur as a host gets it: gegl:write-buffer into an image of format,
 * through GEGL's chunks of chunk_size pixels, read back as stored. */
static guint8 *
blur_into (GeglBuffer *input,
           const Babl *format,
           CblurMode   mode,
           gdouble     radius,
           gint        chunk_size)
{
  const GeglRectangle   *extent = gegl_buffer_get_extent (input);
  g_autoptr (GeglBuffer) out = gegl_buffer_new (extent, format);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur, *write;
  GeglProcessor         *processor;
  guint8                *pixels = g_malloc ((gsize) extent->width * extent->height *
                                            babl_format_get_bytes_per_pixel (format));

  test_blur_graph (graph, input, &blur);
  gegl_node_set (blur, "radius", radius, "mode", mode, NULL);
  write = gegl_node_new_child (graph, "operation", "gegl:write-buffer", "buffer", out, NULL);
  gegl_node_link (blur, write);
  g_object_set (gegl_config (), "chunk-size", chunk_size, NULL);
  processor = gegl_node_new_processor (write, extent);
  while (gegl_processor_work (processor, NULL))
    ;
  g_object_unref (processor);
  g_object_set (gegl_config (), "chunk-size", 1024 * 1024, NULL);
  g_object_unref (graph);

  gegl_buffer_get (out, extent, 1.0, format, pixels, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return pixels;
}

/* babl's conversion into format of the reference blur of babl's
 * premultiplied doubles of the source */
static guint8 *
reference_into (GeglBuffer *input,
                const Babl *format,
                CblurMode   mode,
                gdouble     radius)
{
  const GeglRectangle  *extent = gegl_buffer_get_extent (input);
  const Babl           *doubles = babl_format_with_space ("RaGaBaA double",
                                                          babl_format_get_space (format));
  g_autoptr (RefImage)  src = ref_image_new (extent->width, extent->height);
  g_autoptr (RefImage)  blurred = NULL;
  gsize                 n = (gsize) extent->width * extent->height;
  guint8               *pixels = g_malloc (n * babl_format_get_bytes_per_pixel (format));

  gegl_buffer_get (input, extent, 1.0, doubles, src->data, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  blurred = mode == CBLUR_MODE_DIRECT ? ref_blur_direct (src, radius)
                                      : ref_blur_box (src, radius, 4);
  babl_process (babl_fish (doubles, format), blurred->data, pixels, n);
  return pixels;
}

static gint64
ordered_half (const guint8 *sample)
{
  guint16 bits;

  memcpy (&bits, sample, sizeof bits);
  return bits & 0x8000 ? -(gint64) (bits & 0x7fff) : bits;
}

/* How far apart two pixels of format are: integer and half samples in
 * steps of their own, float ones premultiplied (alpha as it is), so that
 * colours under alpha near zero count as much as they show. */
static gdouble
pixel_distance (const CblurFormat *format,
                const guint8      *a,
                const guint8      *b)
{
  gint    n = format->n_components;
  gdouble worst = 0.0;
  gint    c;

  for (c = 0; c < n; c++)
    {
      gdouble d;

      if (format->type == CBLUR_SAMPLE_U8)
        d = ABS (a[c] - b[c]);
      else if (format->type == CBLUR_SAMPLE_U16)
        d = ABS (((const guint16 *) a)[c] - ((const guint16 *) b)[c]);
      else if (format->type == CBLUR_SAMPLE_HALF)
        d = ABS (ordered_half (a + 2 * c) - ordered_half (b + 2 * c));
      else
        {
          const gfloat *fa = (const gfloat *) a, *fb = (const gfloat *) b;
          gboolean      colour = !format->has_alpha || c < n - 1;
          gdouble       alpha_a = format->has_alpha ? fa[n - 1] : 1.0;
          gdouble       alpha_b = format->has_alpha ? fb[n - 1] : 1.0;

          d = colour ? fabs (fa[c] * alpha_a - fb[c] * alpha_b) : fabs (fa[c] - fb[c]);
        }
      if (!(d <= worst))
        worst = isnan (d) ? INFINITY : d;
    }
  return worst;
}

/* The largest distance between two images' pixels; *n_off counts the
 * pixels that differ at all. */
static gdouble
image_distance (const CblurFormat *format,
                const guint8      *a,
                const guint8      *b,
                gsize              n,
                gsize             *n_off)
{
  gint    bytes = format->bytes_per_pixel;
  gdouble worst = 0.0;
  gsize   i;

  *n_off = 0;
  for (i = 0; i < n; i++)
    {
      gdouble d = pixel_distance (format, a + i * bytes, b + i * bytes);

      worst = MAX (worst, d);
      *n_off += d > 0.0;
    }
  return worst;
}

/* the accuracy of the float blur itself */
static gdouble
float_tolerance (CblurMode mode)
{
  return test_backend_is_gl () && mode == CBLUR_MODE_BOX ? 1.5e-4 : 1e-5;
}

/* the sRGB curve's steepest slope, its toe's: how far a linear error
 * moves an encoded sample at most */
#define SRGB_SLOPE 12.92

/* Within a step of babl's conversion for integers and half, rounding as it
 * does but for a few pixels (a rule that rounded otherwise would be off in
 * half of them), and as close as the float blur itself (the reference
 * tests' 1e-5, GL's box 1.5e-4), through the sRGB curve's slope where the
 * samples carry it. */
static void
assert_close (const CblurFormat *format,
              CblurMode          mode,
              gdouble            distance,
              gsize              n_off,
              gsize              n)
{
  if (format->type == CBLUR_SAMPLE_FLOAT)
    g_assert_cmpfloat (distance, <=,
                       float_tolerance (mode) * (format->srgb ? SRGB_SLOPE : 1.0));
  else
    {
      g_assert_cmpfloat (distance, <=, 1.0);
      g_assert_cmpuint (n_off, <=, n / 20);
    }
}

/* every covered case, and formats the op leaves to babl: premultiplied
 * ones, curves other than sRGB's on half and float, other types and
 * models */
static void
test_coverage (void)
{
  static const Case uncovered[] = {
    { "RaGaBaA float", "sRGB" }, { "R'G'B'A float", "Apple" }, { "R'G'B'A half", "ProPhoto" },
    { "Y'A float", "Adobish" }, { "Y u32", "sRGB" }, { "CMYKA u8", "sRGB" },
    { "R'aG'aB'aA u8", "sRGB" },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (covered); i++)
    {
      const CblurFormat *format = cblur_format_get (case_format (&covered[i]));

      g_assert_nonnull (format);
      g_assert_true (format->babl == case_format (&covered[i]));
    }
  for (i = 0; i < G_N_ELEMENTS (uncovered); i++)
    g_assert_null (cblur_format_get (case_format (&uncovered[i])));
}

static void
check_case (const Case *c,
            CblurMode   mode,
            gdouble     radius,
            gint        height)
{
  const Babl           *babl = case_format (c);
  const CblurFormat    *format = cblur_format_get (babl);
  g_autoptr (GeglBuffer) input = source_in (babl, 53, height, 7);
  g_autofree guint8    *ours = blur_into (input, babl, mode, radius, 1024 * 1024);
  g_autofree guint8    *expected = reference_into (input, babl, mode, radius);
  gsize                 n_off;
  gdouble               distance = image_distance (format, ours, expected, 53 * height, &n_off);

  g_test_message ("%s in %s, %s %g, %d rows: %g from babl's reference, %zu of %d pixels off",
                  c->encoding, c->space, cblur_mode_name (mode), radius, height, distance,
                  n_off, 53 * height);
  assert_close (format, mode, distance, n_off, 53 * height);
}

/* Each covered format, blurred into an image of its own format, within a
 * step of babl's conversion of the exact blur (integers and half) or as
 * accurate as the blur itself is (float); then in bands (of 64 and 96 rows
 * on the CPU, its least at these reaches) that cut through the
 * transparent block. */
static void
test_against_reference (void)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (covered); i++)
    {
      check_case (&covered[i], CBLUR_MODE_DIRECT, 5.5, 41);
      check_case (&covered[i], CBLUR_MODE_BOX, 13.0, 41);
    }
  g_setenv ("CBLUR_BAND_PIXELS", "600", TRUE);
  cblur_settings_reload ();
  for (i = 0; i < G_N_ELEMENTS (covered); i++)
    {
      check_case (&covered[i], CBLUR_MODE_DIRECT, 5.5, 200);
      check_case (&covered[i], CBLUR_MODE_BOX, 13.0, 200);
    }
  g_unsetenv ("CBLUR_BAND_PIXELS");
  cblur_settings_reload ();
  test_assert_ran_on_backend ();
}

/* The op gives its result in the source's format where it covers it, or
 * where that holds a float result (float or half with alpha), so that a
 * host's write of it into an image of that format copies tiles; a half
 * source it covers in the same model in float, which a host reads
 * through babl's float conversions. */
static void
test_output_format (void)
{
  static const gchar *sources[][3] = {
    { "R'G'B'A u8", "R'G'B'A u8", "ProPhoto" }, { "RGBA float", "RGBA float", "ProPhoto" },
    { "Y'A u16", "Y'A u16", "ProPhoto" }, { "R'G'B'A float", "R'G'B'A float", "ProPhoto" },
    { "Y'A half", "Y'A half", "ProPhoto" }, { "RGBA half", "RGBA float", "ProPhoto" },
    { "R'G'B' float", "RaGaBaA float", "ProPhoto" },
    { "Y u32", "RaGaBaA float", "ProPhoto" }, { "CMYKA float", "RaGaBaA float", "ProPhoto" },
    { "R'G'B'A half", "R'G'B'A float", "sRGB" }, { "Y'A half", "Y'A float", "sRGB" },
    { "R'G'B' float", "R'G'B' float", "sRGB" },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      const Babl            *space = babl_space (sources[i][2]);
      g_autoptr (GeglBuffer) input = source_in (babl_format_with_space (sources[i][0], space),
                                                 20, 10, 3);
      GeglBuffer            *output = NULL;
      GeglNode              *graph = gegl_node_new ();
      GeglNode              *blur, *sink;

      test_blur_graph (graph, input, &blur);
      gegl_node_set (blur, "radius", 3.0, NULL);
      sink = gegl_node_new_child (graph, "operation", "gegl:buffer-sink", "buffer", &output, NULL);
      gegl_node_link (blur, sink);
      gegl_node_process (sink);
      g_assert_true (gegl_buffer_get_format (output) ==
                     babl_format_with_space (sources[i][1], space));
      g_object_unref (output);
      g_object_unref (graph);
    }
}

/* A source the op does not cover (perceptual float without alpha on
 * Apple's curve) goes through premultiplied float, as accurate as ever. */
static void
test_uncovered_falls_back (void)
{
  const Babl            *babl = babl_format_with_space ("R'G'B' float", babl_space ("Apple"));
  const Babl            *premultiplied = babl_format_with_space ("RaGaBaA float",
                                                                  babl_space ("Apple"));
  g_autoptr (GeglBuffer) input = source_in (babl, 45, 37, 5);
  const GeglRectangle   *extent = gegl_buffer_get_extent (input);
  gsize                  m;

  g_assert_null (cblur_format_get (babl));
  g_assert_true (cblur_format_for_source (babl, babl_space ("Apple")) == premultiplied);
  for (m = 0; m < 2; m++)
    {
      CblurMode            mode = m == 0 ? CBLUR_MODE_DIRECT : CBLUR_MODE_BOX;
      g_autoptr (RefImage) src = ref_image_new (extent->width, extent->height);
      g_autoptr (RefImage) expected = NULL;
      g_autofree gfloat   *ours = test_blur_as (premultiplied, input, extent, "radius", 9.0,
                                                "mode", mode, NULL);
      gdouble              max_abs, rms;

      gegl_buffer_get (input, extent, 1.0,
                       babl_format_with_space ("RaGaBaA double", babl_space ("Apple")),
                       src->data, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      expected = mode == CBLUR_MODE_DIRECT ? ref_blur_direct (src, 9.0)
                                           : ref_blur_box (src, 9.0, 4);
      ref_compare_floats (expected, ours, &max_abs, &rms);
      g_test_message ("%s: max %.3g", cblur_mode_name (mode), max_abs);
      g_assert_cmpfloat (max_abs, <=, float_tolerance (mode));
    }
  test_assert_ran_on_backend ();
}

/* A source the op does not convert itself but gives its result in
 * (perceptual float and half on Apple's curve) has the bits of babl's conversion of the blur of the
 * same pixels in premultiplied float: babl converts on the op's threads
 * what a host converted after it. */
static void
test_uncovered_converted_by_babl (void)
{
  static const gchar *encodings[] = { "R'G'B'A float", "R'G'B'A half", "Y'A float" };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (encodings); i++)
    {
      const Babl            *space = babl_space ("Apple");
      const Babl            *babl = babl_format_with_space (encodings[i], space);
      const Babl            *premultiplied = babl_format_with_space ("RaGaBaA float", space);
      g_autoptr (GeglBuffer) input = source_in (babl, 41, 33, 7);
      g_autoptr (GeglBuffer) as_float = gegl_buffer_new (gegl_buffer_get_extent (input),
                                                          premultiplied);
      gsize                  n = 41 * 33;
      gsize                  bytes = n * babl_format_get_bytes_per_pixel (babl);
      g_autofree guint8     *ours = blur_into (input, babl, CBLUR_MODE_DIRECT, 6.0, 1024 * 1024);
      g_autofree guint8     *floats = NULL;
      g_autofree guint8     *expected = g_malloc (bytes);

      g_assert_true (cblur_format_for_source (babl, space) == babl);
      gegl_buffer_copy (input, NULL, GEGL_ABYSS_NONE, as_float, NULL);
      floats = blur_into (as_float, premultiplied, CBLUR_MODE_DIRECT, 6.0, 1024 * 1024);
      babl_process (babl_fish (premultiplied, babl), floats, expected, n);
      g_assert_cmpmem (ours, bytes, expected, bytes);
    }
  test_assert_ran_on_backend ();
}

/* n pixels of a and b, stored in format, as floats in compare (the same
 * components): the largest difference */
static gdouble
largest_difference (const Babl   *format,
                    const Babl   *compare,
                    const guint8 *a,
                    const guint8 *b,
                    gsize         n)
{
  gint               components = babl_format_get_n_components (compare);
  g_autofree gfloat *fa = g_new (gfloat, n * components);
  g_autofree gfloat *fb = g_new (gfloat, n * components);
  gdouble            largest = 0.0;
  gsize              i;

  babl_process (babl_fish (format, compare), a, fa, n);
  babl_process (babl_fish (format, compare), b, fb, n);
  for (i = 0; i < n * components; i++)
    largest = MAX (largest, fabs ((gdouble) fa[i] - fb[i]));
  return largest;
}

/* A live view of a source of each precision, as a host keeps one while
 * the slider moves, at level 1 and at 100%, against a fresh graph's
 * render: what a slider's frames keep (GEGL's cache, the CPU's kept
 * source) is that image's, in its own format.  The CPU's bits are the
 * fresh render's; GL's box tiles meet within float rounding, an 8-bit
 * step at most. */
static void
test_live_view (void)
{
  static const gchar *formats[][2] = {
    { "RGBA half", "RGBA float" }, { "RGBA u16", "RGBA float" },
    { "RGBA float", "RGBA float" }, { "R'G'B'A float", "R'G'B'A float" },
    { "Y'A u16", "Y'A float" }, { "YA half", "YA float" }, { "Y' u8", "Y' float" },
  };
  static const gdouble radii[] = { 3.0, 9.5, 30.0 };
  gsize                i, r;
  gint                 level;

  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    for (level = 0; level < 2; level++)
      {
        const Babl            *babl = babl_format_with_space (formats[i][0], babl_space ("sRGB"));
        g_autoptr (GeglBuffer) input = source_in (babl, 90, 70, 11);
        GeglRectangle          rect = { 5 >> level, 3 >> level, 80 >> level, 64 >> level };
        gsize                  n = (gsize) rect.width * rect.height;
        gsize                  bytes = n * babl_format_get_bytes_per_pixel (babl);
        g_autofree guint8     *fresh = g_malloc (bytes);
        GeglNode              *graph = gegl_node_new ();
        GeglNode              *blur;
        CblurHostView          view;

        test_blur_graph (graph, input, &blur);
        cblur_host_view_init (&view, blur, babl, 32, 16);
        for (r = 0; r < G_N_ELEMENTS (radii); r++)
          {
            GeglNode *again = gegl_node_new ();
            GeglNode *fresh_blur;
            gdouble   largest;

            gegl_node_set (blur, "radius", radii[r], NULL);
            if (r == 0)
              cblur_host_view_show (&view, level, &rect);
            else
              cblur_host_view_render (&view, &rect);
            test_blur_graph (again, input, &fresh_blur);
            gegl_node_set (fresh_blur, "radius", radii[r], NULL);
            gegl_node_blit (fresh_blur, 1.0 / (1 << level), &rect, babl, fresh,
                            GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
            g_object_unref (again);
            largest = largest_difference (babl, babl_format (formats[i][1]), view.pixels, fresh,
                                          n);
            g_test_message ("%s, level %d, radius %g: %g", formats[i][0], level, radii[r],
                            largest);
            if (test_backend_is_gl ())
              g_assert_cmpfloat (largest, <=, 1.0 / 255.0);
            else
              g_assert_cmpmem (view.pixels, bytes, fresh, bytes);
          }
        cblur_host_view_clear (&view);
        g_object_unref (graph);
      }
  test_assert_ran_on_backend ();
}

/* GEGL's chunks of a few hundred pixels and the op's bands give the bits
 * of one whole render: the conversions are per pixel, wherever a piece
 * starts. */
static void
test_chunks_and_bands (void)
{
  static const Case cases[] = { { "R'G'B'A u8", "sRGB" }, { "YA half", "sRGB" } };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Babl            *babl = case_format (&cases[i]);
      g_autoptr (GeglBuffer) input = source_in (babl, 70, 150, 9);
      gsize                  bytes = (gsize) 70 * 150 * babl_format_get_bytes_per_pixel (babl);
      g_autofree guint8     *whole = blur_into (input, babl, CBLUR_MODE_DIRECT, 4.0, 1024 * 1024);
      g_autofree guint8     *chunked = blur_into (input, babl, CBLUR_MODE_DIRECT, 4.0, 300);
      g_autofree guint8     *banded = NULL;

      g_setenv ("CBLUR_BAND_PIXELS", "500", TRUE);
      cblur_settings_reload ();
      banded = blur_into (input, babl, CBLUR_MODE_DIRECT, 4.0, 1024 * 1024);
      g_unsetenv ("CBLUR_BAND_PIXELS");
      cblur_settings_reload ();
      g_assert_cmpmem (chunked, bytes, whole, bytes);
      g_assert_cmpmem (banded, bytes, whole, bytes);
    }
}

/* On the GL suite: the GPU's result, converted by its shaders, within a
 * step of the CPU's, converted in its own loops (tests/gl/test-gl-convert.c
 * holds the conversions themselves to the CPU's, bit for bit). */
static void
test_gl_against_cpu (void)
{
  gsize i, m;

  if (!test_backend_is_gl ())
    {
      g_test_skip ("the GL suite compares GL with the CPU");
      return;
    }
  for (i = 0; i < G_N_ELEMENTS (covered); i++)
    for (m = 0; m < 2; m++)
      {
        const Babl            *babl = case_format (&covered[i]);
        const CblurFormat     *format = cblur_format_get (babl);
        CblurMode              mode = m == 0 ? CBLUR_MODE_DIRECT : CBLUR_MODE_BOX;
        g_autoptr (GeglBuffer) input = source_in (babl, 47, 39, 13);
        g_autofree guint8     *gl = blur_into (input, babl, mode, 8.0, 1024 * 1024);
        g_autofree guint8     *cpu = NULL;
        gsize                  n_off;
        gdouble                distance;

        test_assert_ran_on_backend ();
        g_setenv ("CBLUR_BACKEND", "cpu", TRUE);
        cblur_settings_reload ();
        cpu = blur_into (input, babl, mode, 8.0, 1024 * 1024);
        g_setenv ("CBLUR_BACKEND", "gl", TRUE);
        cblur_settings_reload ();
        test_forget_backends ();
        distance = image_distance (format, gl, cpu, 47 * 39, &n_off);
        g_test_message ("%s in %s, %s: GL %g from the CPU", covered[i].encoding,
                        covered[i].space, cblur_mode_name (mode), distance);
        assert_close (format, mode, distance, n_off, 47 * 39);
      }
}

gint
main (gint    argc,
      gchar **argv)
{
  /* gegl_node_blit() at scale 0.5 renders at mipmap level 1, as a host's
   * zoomed-out view does, only with this */
  g_setenv ("GEGL_MIPMAP_RENDERING", "1", TRUE);
  test_init (&argc, &argv);

  g_test_add_func ("/format/coverage", test_coverage);
  g_test_add_func ("/format/against-reference", test_against_reference);
  g_test_add_func ("/format/output-format", test_output_format);
  g_test_add_func ("/format/uncovered-falls-back", test_uncovered_falls_back);
  g_test_add_func ("/format/uncovered-converted-by-babl", test_uncovered_converted_by_babl);
  g_test_add_func ("/format/chunks-and-bands", test_chunks_and_bands);
  g_test_add_func ("/format/live-view", test_live_view);
  g_test_add_func ("/format/gl-against-cpu", test_gl_against_cpu);

  return g_test_run ();
}
