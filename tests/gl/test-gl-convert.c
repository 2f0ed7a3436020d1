/* The GPU's conversions of GEGL's formats (decode.comp, encode.comp)
 * against the CPU's (cblur-format), bit for bit: a blur from a source in
 * a format is the blur from the CPU's decoding of it, premultiplied by
 * the CPU, and a result in a format is the CPU's encoding of the float
 * result.  In one tile, in more rows than a dispatch converts, in tiles
 * whose columns split words, and streamed; whole or only the part inside
 * the image held, the rest made as the abyss. */
#include "gl-test.h"

#include <string.h>

#include "cblur-format.h"
#include "cblur-pixel.h"

/* every layout of every sample type, in spaces with other curves; half
 * and float on sRGB's curve, in sRGB and perceptual ("~") in any space */
static const struct
{
  const gchar *encoding;
  const gchar *space;
} cases[] = {
  { "R'G'B'A u8",  "sRGB" },
  { "R'G'B' u8",   "Apple" },
  { "Y'A u8",      "sRGB" },
  { "Y' u8",       "ProPhoto" },
  { "RGBA u8",     "sRGB" },
  { "R'G'B'A u16", "ProPhoto" },
  { "RGB u16",     "sRGB" },
  { "Y'A u16",     "sRGB" },
  { "RGBA half",   "sRGB" },
  { "RGB half",    "Rec2020" },
  { "YA half",     "sRGB" },
  { "RGBA float",  "sRGB" },
  { "RGB float",   "ProPhoto" },
  { "Y float",     "sRGB" },
  { "R'G'B'A float", "sRGB" },
  { "R'G'B'A half", "sRGB" },
  { "Y'A float",   "sRGB" },
  { "R~G~B~ half", "ProPhoto" },
  { "Y~ float",    "Apple" },
};

static const CblurFormat *
format_of (gsize i)
{
  return cblur_format_get (babl_format_with_space (cases[i].encoding,
                                                   babl_space (cases[i].space)));
}

typedef enum
{
  WHOLE,            /* one tile */
  TILES,            /* columns of TILE_CAP pixels or fewer */
  STREAMED,
  STREAMED_INSIDE,  /* reading only INSIDE, the rest made as clamp's abyss */
  TILES_INSIDE      /* the same, in tiles, each holding its part of it */
} Path;

static const gchar *const path_names[] = {
  "whole", "tiles", "streamed", "streamed inside", "tiles inside",
};

/* tiles of 13 columns: 13 pixels of 1, 2, 3 or 6 bytes end inside a word */
#define TILE_CAP "13"

/* the output rectangle of each path: WHOLE's rows are more than one
 * dispatch converts */
static const GeglRectangle outputs[] = {
  { -3, 7, 29, 300 }, { 5, -2, 61, 37 }, { 7, -33, 40, 150 }, { 7, -33, 40, 150 },
  { 7, -33, 40, 150 },
};
static const GeglRectangle inside = { 15, -30, 25, 140 };

/* alphas that straight colours hide under, babl's floor among them */
static const gfloat alphas[] = { 0.0f, 1.0f / 65536.0f, 1e-7f, 1.0f, 1.25f };

/* random straight colours, some out of [0, 1], under random alphas and
 * those above, as babl stores them in format */
static CblurImage *
source_in (const CblurFormat *format,
           const CblurKernel *kernel,
           const GeglRectangle *out,
           guint32            seed)
{
  gint               reach = kernel->reach;
  CblurImage        *image = gl_test_image_new (format, out->x - reach, out->y - reach,
                                                out->width + 2 * reach, out->height + 2 * reach);
  const Babl        *straight = babl_format_with_space ("RGBA float",
                                                        babl_format_get_space (format->babl));
  g_autofree gfloat *row = g_new (gfloat, image->width * 4);
  GRand             *rand = g_rand_new_with_seed (seed);
  gint               x, y, c;

  for (y = 0; y < image->height; y++)
    {
      for (x = 0; x < image->width; x++)
        {
          for (c = 0; c < 3; c++)
            row[x * 4 + c] = g_rand_double_range (rand, -0.1, 1.2);
          row[x * 4 + 3] = x % 3 == 0 ? alphas[g_rand_int_range (rand, 0, G_N_ELEMENTS (alphas))]
                                      : g_rand_double (rand);
        }
      babl_process (babl_fish (straight, format->babl), row, cblur_image_bytes (image, 0, y),
                    image->width);
    }
  g_rand_free (rand);
  return image;
}

/* the CPU's decoding of src, premultiplied */
static CblurImage *
decoded (const CblurImage *src)
{
  CblurImage *image = gl_test_image_new (NULL, src->x, src->y, src->width, src->height);
  gint        y;

  for (y = 0; y < src->height; y++)
    {
      cblur_format_decode (src->format, cblur_image_bytes (src, 0, y), cblur_image_row (image, y),
                           src->width);
      cblur_premultiply_pixels (cblur_image_row (image, y), src->width);
    }
  return image;
}

/* the CPU's encoding of premultiplied float pixels into format */
static CblurImage *
encoded (const CblurFormat *format,
         const CblurImage  *pixels)
{
  CblurImage *image = gl_test_image_new (format, pixels->x, pixels->y, pixels->width,
                                         pixels->height);
  gint        y;

  for (y = 0; y < pixels->height; y++)
    cblur_format_encode (format, cblur_image_row (pixels, y), cblur_image_bytes (image, 0, y),
                         pixels->width);
  return image;
}

/* src blurred into dst as the op blurs a band, streamed where it is one
 * tile: the backend it ran on */
static CblurBackendKind
blur_streamed (Path               path,
               const CblurKernel *kernel,
               const CblurImage  *src,
               CblurImage        *dst)
{
  GlTestGegl       gegl = { src, dst, 300 };
  CblurBandIo      band_io = gl_test_stream (&gegl);
  CblurRunReport   report;
  CblurBackendKind ran_on;

  /* a source in a format is straight, as the op reads it */
  band_io.straight_alpha = src->format != NULL;
  if (path == STREAMED_INSIDE || path == TILES_INSIDE)
    {
      band_io.inside = inside;
      band_io.abyss = GEGL_ABYSS_CLAMP;
    }
  if (path == TILES_INSIDE)
    gl_test_set ("CBLUR_GL_MAX_TILE", TILE_CAP);
  gl_test_blur_streamed (CBLUR_BACKEND_GL, kernel, &band_io, &report);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
  ran_on = report.ran_on;
  if (path == TILES_INSIDE)
    g_assert_cmpint (report.tiles, >, 1);
  cblur_run_report_clear (&report);
  return ran_on;
}

/* src blurred on the GPU along path into a new image in format */
static CblurImage *
blur (Path               path,
      const CblurKernel *kernel,
      const CblurImage  *src,
      const CblurFormat *format)
{
  const GeglRectangle *out = &outputs[path];
  CblurImage          *dst = gl_test_image_new (format, out->x, out->y, out->width, out->height);
  g_autoptr (GError)   error = NULL;
  CblurGlReport        report;
  gboolean             ok;

  if (path >= STREAMED)
    {
      g_assert_cmpint (blur_streamed (path, kernel, src, dst), ==, CBLUR_BACKEND_GL);
      return dst;
    }
  if (path == TILES)
    gl_test_set ("CBLUR_GL_MAX_TILE", TILE_CAP);
  ok = cblur_gl_blur (NULL, kernel, src, dst, NULL, &report, &error);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpint (report.tiles > 1, ==, path == TILES);
  return dst;
}

static void
assert_same_pixels (const CblurImage *a,
                    const CblurImage *b)
{
  gsize row_bytes = a->width * cblur_image_pixel_bytes (a);
  gint  y;

  for (y = 0; y < a->height; y++)
    g_assert_cmpmem (cblur_image_bytes (a, 0, y), row_bytes, cblur_image_bytes (b, 0, y),
                     row_bytes);
}

/* decode.comp decodes as the CPU does, and encode.comp encodes as the
 * CPU does, the float result of a stored source or of a float one */
static void
check_case (gsize              i,
            const CblurKernel *kernel,
            Path               path)
{
  const CblurFormat *format = format_of (i);
  CblurImage        *src = source_in (format, kernel, &outputs[path], 11 + i);
  CblurImage        *src_float = decoded (src);
  CblurImage        *from_stored = blur (path, kernel, src, NULL);
  CblurImage        *from_float = blur (path, kernel, src_float, NULL);
  CblurImage        *stored = blur (path, kernel, src, format);
  CblurImage        *stored_from_float = blur (path, kernel, src_float, format);
  CblurImage        *expected = encoded (format, from_float);

  g_test_message ("%s in %s, %s %g, %s", cases[i].encoding, cases[i].space,
                  cblur_mode_name (kernel->mode), kernel->axes[CBLUR_AXIS_X].radius, path_names[path]);
  assert_same_pixels (from_stored, from_float);
  assert_same_pixels (stored, expected);
  assert_same_pixels (stored_from_float, expected);

  {
    CblurImage *images[] = { src, src_float, from_stored, from_float, stored,
                             stored_from_float, expected };
    gsize       k;

    for (k = 0; k < G_N_ELEMENTS (images); k++)
      gl_test_image_free (images[k]);
  }
}

static void
test_formats (void)
{
  g_autoptr (CblurKernel) direct = cblur_kernel_new (4.0, CBLUR_MODE_DIRECT, 3);
  g_autoptr (CblurKernel) box = cblur_kernel_new (9.0, CBLUR_MODE_BOX, 4);
  Path                    path;
  gsize                   i;

  for (path = WHOLE; path <= TILES_INSIDE; path++)
    for (i = 0; i < G_N_ELEMENTS (cases); i++)
      check_case (i, i % 2 == 0 ? direct : box, path);
}

/* A GL failure hands GEGL the CPU's blur of a stored source in the
 * output's format, bit for bit; so does a blur of no reach, which the GL
 * backend converts as the CPU does. */
static void
test_falls_back (void)
{
  static const gchar *const faults[] = { "compile", "alloc", "dispatch", "lost", NULL };
  g_autoptr (CblurKernel)   blur_kernel = cblur_kernel_new (6.0, CBLUR_MODE_DIRECT, 3);
  g_autoptr (CblurKernel)   identity = cblur_kernel_new (0.0, CBLUR_MODE_DIRECT, 3);
  const GeglRectangle      *out = &outputs[STREAMED];
  gsize                     f, i;

  for (f = 0; f < G_N_ELEMENTS (faults); f++)
    for (i = 0; i < G_N_ELEMENTS (cases); i += 5)
      {
        const CblurFormat *format = format_of (i);
        const CblurKernel *kernel = faults[f] != NULL ? blur_kernel : identity;
        CblurImage        *src = source_in (format, kernel, out, 3);
        CblurImage        *on_cpu = gl_test_image_new (format, out->x, out->y, out->width,
                                                       out->height);
        CblurImage        *handed_on = gl_test_image_new (format, out->x, out->y, out->width,
                                                          out->height);
        CblurBackendKind   ran_on;

        g_test_message ("%s in %s: %s", cases[i].encoding, cases[i].space,
                        faults[f] != NULL ? faults[f] : "no reach");
        cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, TRUE, on_cpu);
        if (faults[f] != NULL)
          gl_test_set ("CBLUR_GL_FAULT", faults[f]);
        ran_on = blur_streamed (STREAMED, kernel, src, handed_on);
        gl_test_set ("CBLUR_GL_FAULT", NULL);
        g_assert_cmpint (ran_on, ==, faults[f] != NULL ? CBLUR_BACKEND_CPU : CBLUR_BACKEND_GL);
        assert_same_pixels (handed_on, on_cpu);

        gl_test_image_free (src);
        gl_test_image_free (on_cpu);
        gl_test_image_free (handed_on);
      }
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl/convert/formats", test_formats);
  g_test_add_func ("/gl/convert/falls-back", test_falls_back);
  return gl_test_run ();
}
