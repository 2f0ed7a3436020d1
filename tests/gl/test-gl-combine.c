/* The joined blurs (cblur:unsharp-mask, cblur:high-pass,
 * cblur:difference-of-gaussians) on the GPU: a band joined there against
 * the same band joined on the CPU, cut into many tiles against joined in
 * one, and streamed as GEGL reads and writes it against joined once
 * read. */
#include <string.h>

#include "gl-test.h"

#include "cblur-combine-band.h"

#define DIRECT_TOLERANCE 1e-5
#define BOX_TOLERANCE    1e-4
#define SEAM_TOLERANCE   1e-6

typedef struct
{
  CblurCombine combine;
  CblurMode    mode;
  gdouble      tolerance;
  /* the image is the output grown by this: the threshold mask beyond it
   * is its edge's */
  gint         image_margin;
} Case;

static const GeglRectangle out = { -13, 29, 151, 97 };

/* a band of several stripes of the streamed tile's */
static const GeglRectangle tall = { -5, 17, 67, 1500 };

/* the luminance of sRGB, and a threshold that masks about half of the
 * random images' pixels, straight colours of which reach far beyond 1 */
static const CblurThreshold srgb_threshold = { { 0.2126f, 0.7152f, 0.0722f }, 1.0f };

/* combine's band of src into a new image on backend, which must be where
 * it ran; report->tiles: the GPU's tiles */
static CblurImage *
join (const Case          *c,
      CblurBackendKind     backend,
      const CblurImage    *src,
      const GeglRectangle *rect,
      CblurRunReport      *report)
{
  CblurImage    *dst = gl_test_blank_image (rect->x, rect->y, rect->width, rect->height);
  gint           margin = c->image_margin;
  GeglRectangle  image = { rect->x - margin, rect->y - margin, rect->width + 2 * margin,
                           rect->height + 2 * margin };

  g_assert_true (cblur_combine_band (&c->combine, c->mode, backend, src, dst, &image, report));
  g_assert_cmpint (report->ran_on, ==, backend);
  g_assert_null (report->gl_failure);
  return dst;
}

static void
check (const Case *c)
{
  gint            reach = cblur_combine_reach (&c->combine, c->mode);
  CblurImage     *src = gl_test_random_image (out.x - reach, out.y - reach,
                                              out.width + 2 * reach, out.height + 2 * reach,
                                              47 + c->combine.kind);
  CblurRunReport  report = { 0 };
  CblurImage     *cpu = join (c, CBLUR_BACKEND_CPU, src, &out, &report);
  CblurImage     *gl = join (c, CBLUR_BACKEND_GL, src, &out, &report);
  CblurImage     *tiled;
  gdouble         diff = gl_test_max_diff (cpu, gl);

  g_test_message ("kind %d, %s, radius %g%s: max |GL - CPU| %g", c->combine.kind,
                  cblur_mode_name (c->mode), c->combine.radii[0],
                  c->combine.thresholded ? ", thresholded" : "", diff);
  g_assert_cmpfloat (diff, <=, c->tolerance);
  g_assert_cmpint (report.tiles, ==, 1);

  gl_test_set ("CBLUR_GL_MAX_TILE", "96");
  tiled = join (c, CBLUR_BACKEND_GL, src, &out, &report);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
  g_assert_cmpint (report.tiles, >, 1);
  diff = gl_test_max_diff (gl, tiled);
  g_test_message ("%d tiles: max |tiled - whole| %g", report.tiles, diff);
  g_assert_cmpfloat (diff, <=, SEAM_TOLERANCE);

  gl_test_image_free (src);
  gl_test_image_free (cpu);
  gl_test_image_free (gl);
  gl_test_image_free (tiled);
}

static void
check_all (const Case *cases,
           gsize       n)
{
  gsize i;

  for (i = 0; i < n; i++)
    check (&cases[i]);
}

static void
test_unsharp (void)
{
  const Case cases[] = {
    { { CBLUR_COMBINE_UNSHARP, { 6.0, 0.0 }, 1.5 }, CBLUR_MODE_DIRECT, DIRECT_TOLERANCE, 500 },
    { { CBLUR_COMBINE_UNSHARP, { 30.0, 0.0 }, 0.7 }, CBLUR_MODE_BOX, BOX_TOLERANCE, 500 },
  };

  check_all (cases, G_N_ELEMENTS (cases));
}

/* GEGL's threshold mask, made and blurred with the blur on the GPU: the
 * image's edge inside the mask blur's reach, and beyond the tiles' */
static void
test_unsharp_threshold (void)
{
  const Case cases[] = {
    { { CBLUR_COMBINE_UNSHARP, { 6.0, 0.0 }, 1.5, 0.0, TRUE, srgb_threshold },
      CBLUR_MODE_DIRECT, DIRECT_TOLERANCE, 2 },
    { { CBLUR_COMBINE_UNSHARP, { 30.0, 0.0 }, 0.7, 0.0, TRUE, srgb_threshold },
      CBLUR_MODE_BOX, BOX_TOLERANCE, 500 },
  };

  check_all (cases, G_N_ELEMENTS (cases));
}

static void
test_high_pass (void)
{
  const Case cases[] = {
    { { CBLUR_COMBINE_HIGH_PASS, { 7.5, 0.0 }, 0.0, 1.7 }, CBLUR_MODE_DIRECT, DIRECT_TOLERANCE, 500 },
    { { CBLUR_COMBINE_HIGH_PASS, { 4.5, 0.0 }, 0.0, 1.0 }, CBLUR_MODE_DIRECT, DIRECT_TOLERANCE, 500 },
    { { CBLUR_COMBINE_HIGH_PASS, { 30.0, 0.0 }, 0.0, 1.0 }, CBLUR_MODE_BOX, BOX_TOLERANCE, 500 },
  };

  check_all (cases, G_N_ELEMENTS (cases));
}

/* either blur the wider */
static void
test_difference (void)
{
  const Case cases[] = {
    { { CBLUR_COMBINE_DIFFERENCE, { 3.0, 7.5 } }, CBLUR_MODE_DIRECT, DIRECT_TOLERANCE, 500 },
    { { CBLUR_COMBINE_DIFFERENCE, { 9.0, 2.0 } }, CBLUR_MODE_DIRECT, DIRECT_TOLERANCE, 500 },
    { { CBLUR_COMBINE_DIFFERENCE, { 12.0, 30.0 } }, CBLUR_MODE_BOX, BOX_TOLERANCE, 500 },
  };

  check_all (cases, G_N_ELEMENTS (cases));
}

/* from's pixels into to, which holds its rectangle */
static void
paste (CblurImage       *to,
       const CblurImage *from)
{
  gint row;

  for (row = 0; row < from->height; row++)
    memcpy (cblur_image_pixel (to, from->x - to->x, from->y - to->y + row),
            cblur_image_row (from, row), from->width * CBLUR_CHANNELS * sizeof (gfloat));
}

/* grown's pixels beyond image made as GEGL's abyss makes them under the
 * policy, from those inside */
static void
make_abyss (CblurImage          *grown,
            const GeglRectangle *image,
            GeglAbyssPolicy      policy)
{
  gfloat colour[CBLUR_CHANNELS];
  gint   x, y;

  cblur_abyss_colour (policy, colour);
  for (y = 0; y < grown->height; y++)
    for (x = 0; x < grown->width; x++)
      {
        gint    from_x = cblur_abyss_index (policy, grown->x + x - image->x, image->width);
        gint    from_y = cblur_abyss_index (policy, grown->y + y - image->y, image->height);
        gfloat *pixel = cblur_image_pixel (grown, x, y);

        if (from_x < 0 || from_y < 0)
          memcpy (pixel, colour, sizeof colour);
        else
          memcpy (pixel, cblur_image_pixel (grown, image->x + from_x - grown->x,
                                            image->y + from_y - grown->y),
                  sizeof colour);
      }
}

/* combine's band of src for rect on the GPU as the op joins it, its rows
 * read over time and streamed, into a new image */
static CblurImage *
join_streamed (const Case          *c,
               const CblurImage    *src,
               const GeglRectangle *rect)
{
  CblurImage     *dst = gl_test_blank_image (rect->x, rect->y, rect->width, rect->height);
  GlTestGegl      gegl = { src, dst, 100 };
  CblurBandIo     band_io = gl_test_stream (&gegl);
  gint            margin = c->image_margin;
  CblurImage      held = { NULL, src->x, src->y, src->width, src->height, 0, NULL };
  CblurImage      band = { NULL, rect->x, rect->y, rect->width, rect->height, 0, NULL };
  CblurRunReport  report = { 0 };

  band_io.inside = (GeglRectangle) { rect->x - margin, rect->y - margin,
                                     rect->width + 2 * margin, rect->height + 2 * margin };
  g_assert_true (cblur_combine_band_io (&c->combine, c->mode, CBLUR_BACKEND_GL, &held, &band,
                                        &band_io, &report));
  g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
  g_assert_null (report.gl_failure);
  g_assert_cmpint (report.tiles, ==, 1);
  return dst;
}

/* a band of several stripes streamed against the same band read whole:
 * one blur without a mask in stripes, the others whole once read */
static void
test_streamed (void)
{
  const Case cases[] = {
    { { CBLUR_COMBINE_UNSHARP, { 6.0, 0.0 }, 1.5 }, CBLUR_MODE_DIRECT, 0, 500 },
    { { CBLUR_COMBINE_HIGH_PASS, { 30.0, 0.0 }, 0.0, 1.0 }, CBLUR_MODE_BOX, 0, 500 },
    { { CBLUR_COMBINE_UNSHARP, { 6.0, 0.0 }, 1.5, 0.0, TRUE, srgb_threshold },
      CBLUR_MODE_DIRECT, 0, 2 },
    { { CBLUR_COMBINE_DIFFERENCE, { 9.0, 2.0 } }, CBLUR_MODE_DIRECT, 0, 500 },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case     *c = &cases[i];
      gint            reach = cblur_combine_reach (&c->combine, c->mode);
      CblurImage     *src = gl_test_random_image (tall.x - reach, tall.y - reach,
                                                  tall.width + 2 * reach,
                                                  tall.height + 2 * reach, 7 + i);
      GeglRectangle   image = { tall.x - c->image_margin, tall.y - c->image_margin,
                                tall.width + 2 * c->image_margin,
                                tall.height + 2 * c->image_margin };
      CblurRunReport  report = { 0 };
      CblurImage     *streamed, *whole;
      gdouble         diff;

      /* beyond the image GEGL reads its abyss, which the streamed join
       * makes on the GPU */
      make_abyss (src, &image, GEGL_ABYSS_NONE);
      /* streamed first: the join's texture holds no earlier result */
      streamed = join_streamed (c, src, &tall);
      whole = join (c, CBLUR_BACKEND_GL, src, &tall, &report);
      diff = gl_test_max_diff (whole, streamed);

      g_test_message ("kind %d, %s: max |streamed - read whole| %g", c->combine.kind,
                      cblur_mode_name (c->mode), diff);
      g_assert_cmpfloat (diff, <=, SEAM_TOLERANCE);
      gl_test_image_free (src);
      gl_test_image_free (whole);
      gl_test_image_free (streamed);
    }
}

/* A band at the image's corner where GEGL reads only the image: the GPU
 * makes the abyss of each policy beyond it (loop's, which a tile may not
 * hold, read as GEGL makes it), against the CPU's join of the band with
 * the abyss read. */
static void
test_abyss (void)
{
  static const GeglAbyssPolicy policies[] = {
    GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE
  };
  const Case cases[] = {
    { { CBLUR_COMBINE_UNSHARP, { 6.0, 0.0 }, 1.5 }, CBLUR_MODE_DIRECT, DIRECT_TOLERANCE },
    { { CBLUR_COMBINE_UNSHARP, { 6.0, 0.0 }, 1.5, 0.0, TRUE, srgb_threshold },
      CBLUR_MODE_DIRECT, DIRECT_TOLERANCE },
    { { CBLUR_COMBINE_HIGH_PASS, { 30.0, 0.0 }, 0.0, 1.0 }, CBLUR_MODE_BOX, BOX_TOLERANCE },
    { { CBLUR_COMBINE_DIFFERENCE, { 9.0, 2.0 } }, CBLUR_MODE_DIRECT, DIRECT_TOLERANCE },
  };
  gsize i, p;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    for (p = 0; p < G_N_ELEMENTS (policies); p++)
      {
        const Case     *c = &cases[i];
        gint            reach = cblur_combine_reach (&c->combine, c->mode);
        CblurImage     *image = gl_test_random_image (out.x, out.y, out.width, out.height,
                                                      11 * i + p);
        CblurImage     *grown = gl_test_blank_image (out.x - reach, out.y - reach,
                                                     out.width + 2 * reach,
                                                     out.height + 2 * reach);
        CblurImage     *on_gl = gl_test_blank_image (out.x, out.y, out.width, out.height);
        GlTestGegl      gegl = { policies[p] == GEGL_ABYSS_LOOP ? grown : image, on_gl, 0 };
        CblurBandIo     band_io = gl_test_stream (&gegl);
        CblurImage      held = { NULL, grown->x, grown->y, grown->width, grown->height, 0 };
        CblurImage      band = { NULL, out.x, out.y, out.width, out.height, 0 };
        CblurRunReport  report = { 0 };
        CblurImage     *on_cpu;
        gdouble         diff;

        paste (grown, image);
        make_abyss (grown, &out, policies[p]);
        band_io.inside = out;
        band_io.abyss = policies[p];
        g_assert_true (cblur_combine_band_io (&c->combine, c->mode, CBLUR_BACKEND_GL, &held,
                                              &band, &band_io, &report));
        g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
        g_assert_null (report.gl_failure);
        on_cpu = join (c, CBLUR_BACKEND_CPU, grown, &out, &report);
        diff = gl_test_max_diff (on_cpu, on_gl);
        g_test_message ("kind %d, %s, abyss %d: max |GL - CPU| %g", c->combine.kind,
                        cblur_mode_name (c->mode), policies[p], diff);
        g_assert_cmpfloat (diff, <=, c->tolerance);
        gl_test_image_free (image);
        gl_test_image_free (grown);
        gl_test_image_free (on_gl);
        gl_test_image_free (on_cpu);
      }
}

/* A GPU failure on a band GEGL read without its abyss: the CPU joins the
 * band read again with its halo, bit for bit as it joins it alone. */
static void
test_abyss_fault (void)
{
  const Case      c = { { CBLUR_COMBINE_HIGH_PASS, { 30.0, 0.0 }, 0.0, 1.0 }, CBLUR_MODE_BOX };
  gint            reach = cblur_combine_reach (&c.combine, c.mode);
  CblurImage     *image = gl_test_random_image (out.x, out.y, out.width, out.height, 5);
  CblurImage     *grown = gl_test_blank_image (out.x - reach, out.y - reach,
                                               out.width + 2 * reach, out.height + 2 * reach);
  CblurImage     *handed_on = gl_test_blank_image (out.x, out.y, out.width, out.height);
  GlTestGegl      gegl = { grown, handed_on, 0 };
  CblurBandIo     band_io = gl_test_stream (&gegl);
  CblurImage      held = { NULL, grown->x, grown->y, grown->width, grown->height, 0 };
  CblurImage      band = { NULL, out.x, out.y, out.width, out.height, 0 };
  CblurRunReport  report = { 0 };
  CblurImage     *on_cpu;

  paste (grown, image);
  make_abyss (grown, &out, GEGL_ABYSS_CLAMP);
  band_io.inside = out;
  band_io.abyss = GEGL_ABYSS_CLAMP;
  gl_test_set ("CBLUR_GL_FAULT", "dispatch");
  g_assert_true (cblur_combine_band_io (&c.combine, c.mode, CBLUR_BACKEND_GL, &held, &band,
                                        &band_io, &report));
  gl_test_set ("CBLUR_GL_FAULT", NULL);
  g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_CPU);
  g_assert_nonnull (report.gl_failure);
  cblur_run_report_clear (&report);
  on_cpu = join (&c, CBLUR_BACKEND_CPU, grown, &out, &report);
  g_assert_cmpfloat (gl_test_max_diff (on_cpu, handed_on), ==, 0.0);
  gl_test_image_free (image);
  gl_test_image_free (grown);
  gl_test_image_free (handed_on);
  gl_test_image_free (on_cpu);
}

/* A live preview's drag: each frame's radius a little wider, its band's
 * source a few rows and columns larger, which the pinned memory of the
 * first frame holds. */
static void
test_growing_halo (void)
{
  static const GeglRectangle rect = { 3, -8, 600, 400 };
  gdouble                    radius;
  guint                      reserved = 0;

  for (radius = 6.0; radius <= 9.0; radius += 1.0)
    {
      const Case  c = { { CBLUR_COMBINE_UNSHARP, { radius, 0.0 }, 1.5 }, CBLUR_MODE_DIRECT, 0,
                        500 };
      gint        reach = cblur_combine_reach (&c.combine, c.mode);
      CblurImage *src = gl_test_random_image (rect.x - reach, rect.y - reach,
                                              rect.width + 2 * reach, rect.height + 2 * reach,
                                              11);

      gl_test_image_free (join_streamed (&c, src, &rect));
      gl_test_image_free (src);
      if (radius > 6.0)
        g_assert_cmpuint (cblur_gpu_pinned_reserved (), ==, reserved);
      reserved = cblur_gpu_pinned_reserved ();
    }
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl-combine/unsharp", test_unsharp);
  g_test_add_func ("/gl-combine/unsharp-threshold", test_unsharp_threshold);
  g_test_add_func ("/gl-combine/high-pass", test_high_pass);
  g_test_add_func ("/gl-combine/difference", test_difference);
  g_test_add_func ("/gl-combine/streamed", test_streamed);
  g_test_add_func ("/gl-combine/abyss", test_abyss);
  g_test_add_func ("/gl-combine/abyss-fault", test_abyss_fault);
  g_test_add_func ("/gl-combine/growing-halo", test_growing_halo);
  return g_test_run ();
}
