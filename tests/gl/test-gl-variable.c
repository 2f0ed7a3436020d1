/* The variable blur's GL backend against its CPU backend, through the
 * band the op makes: every abyss policy on a source that holds only its
 * part inside the image, bands cut into tiles, a source and output in
 * 8 bits that the GPU converts, boxes looked up from a mask's bytes on
 * the GPU, and each GL failure falling back to the CPU's pixels with one
 * warning from the op.  (test-variable and test-variable-equal, run in
 * this suite with CBLUR_BACKEND=gl, hold GL to the reference, to box
 * mode, to the input for a mask of zeros, and read every mask format.) */
#include "gl-test.h"
#include "cblur-backend-variable.h"
#include "cblur-cpu-variable.h"
#include "cblur-pixel.h"
#include "cblur-settings.h"

#include <math.h>
#include <string.h>

/* a smooth mask over the source, from 0 to 1 with a bump */
static gfloat
mask_at (gint x,
         gint y)
{
  gdouble bump = exp (-((x - 30.0) * (x - 30.0) + (y - 20.0) * (y - 20.0)) / 300.0);

  return CLAMP (0.1 + 0.008 * x + 0.004 * y + 0.4 * bump - 0.2, 0.0, 1.0);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurImage, gl_test_image_free)

/* A band: the output rectangle out, its source the part of out grown by
 * the reach that lies inside `image` (all of the grown one under loop,
 * which needs the far side), random pixels stored in format, and its
 * boxes from mask_at(), or with `codes` from mask_at() in 8 bits, through
 * the table of the 256 codes as the op makes it for such a mask; with
 * `levels`, the output's mask values from mask_at() too (with `codes`,
 * the boxes' bytes and the value of each, as the op has them), else
 * zeros.
 * Blurred by the backend into a float copy of the output; report says
 * where it ran. */
typedef struct
{
  const GeglRectangle *out;
  const GeglRectangle *image;
  GeglAbyssPolicy      abyss;
  const CblurFormat   *format;
  gboolean             codes;
  gboolean             levels;   /* the mask's sigma above the base blends levels */
} Band;

/* a row of the band's boxes, as the band takes them */
static void
fill_boxes (const Band               *b,
            const CblurVariable      *variable,
            const CblurImage         *src,
            gint                      y,
            const CblurVariableBoxes *boxes)
{
  gsize              first = (gsize) y * src->width;
  g_autofree gfloat *masks = g_new (gfloat, src->width);
  gint               x;

  for (x = 0; x < src->width; x++)
    masks[x] = mask_at (src->x + x, src->y + y);
  if (!b->codes)
    {
      cblur_variable_widths (variable, masks, boxes->widths + first, src->width);
      return;
    }
  for (x = 0; x < src->width; x++)
    {
      guint8 code = (guint8) lround (masks[x] * 255.0);

      if (boxes->codes != NULL)
        boxes->codes[first + x] = code;
      else
        boxes->widths[first + x] = boxes->table[code];
    }
}

static CblurImage *
blur_band (const Band          *b,
           const CblurVariable *variable,
           CblurBackendKind     backend,
           CblurRunReport      *report)
{
  GeglRectangle      grown = { b->out->x - variable->reach, b->out->y - variable->reach,
                               b->out->width + 2 * variable->reach,
                               b->out->height + 2 * variable->reach };
  GeglRectangle      part = grown;
  CblurImage         src, dst;
  CblurBoxWidth      table[256];
  gfloat             grey[256];
  CblurVariableBoxes boxes = { NULL, NULL, b->codes ? table : NULL };
  CblurImage        *result = gl_test_image_new (b->format, b->out->x, b->out->y,
                                                 b->out->width, b->out->height);
  g_autoptr (CblurVariableBandMemory) band = NULL;
  GRand             *rand = g_rand_new_with_seed (36);
  g_autofree gfloat *masks = NULL;
  CblurVariableMasks of_pixels = { NULL, grey };
  gfloat             low, high;
  gint               x, y;

  if (b->abyss != GEGL_ABYSS_LOOP)
    gegl_rectangle_intersect (&part, &grown, b->image);
  src = (CblurImage) { NULL, part.x, part.y, part.width, part.height, 0, b->format };
  dst = (CblurImage) { NULL, b->out->x, b->out->y, b->out->width, b->out->height, 0,
                       b->format };
  for (x = 0; x < 256; x++)
    grey[x] = x / 255.0f;
  cblur_variable_widths (variable, grey, table, 256);
  band = cblur_variable_band_memory_new (backend, &src, &dst, &boxes);
  /* a GL band that staged its memory takes the bytes */
  if (b->codes && backend == CBLUR_BACKEND_GL && g_getenv ("CBLUR_GL_FAULT") == NULL)
    g_assert_nonnull (boxes.codes);
  for (y = 0; y < src.height; y++)
    {
      gfloat *row = cblur_image_row (&src, y);

      /* stored pixels, decoded in place where the band holds float, as
       * the op does */
      for (x = 0; b->format != NULL && x < src.width * b->format->bytes_per_pixel; x++)
        ((guint8 *) row)[x] = g_rand_int_range (rand, 0, 256);
      for (x = 0; b->format == NULL && x < src.width * CBLUR_CHANNELS; x++)
        row[x] = g_rand_double (rand);
      if (b->format != NULL && src.format == NULL)
        {
          cblur_format_decode (b->format, (const guint8 *) row, row, src.width);
          cblur_premultiply_pixels (row, src.width);
        }
      fill_boxes (b, variable, &src, y, &boxes);
    }
  g_rand_free (rand);

  masks = g_new0 (gfloat, (gsize) dst.width * dst.height);
  for (y = 0; b->levels && y < dst.height; y++)
    for (x = 0; x < dst.width; x++)
      masks[(gsize) y * dst.width + x] = b->codes ? grey[lround (mask_at (dst.x + x, dst.y + y) *
                                                                 255.0)]
                                                  : mask_at (dst.x + x, dst.y + y);
  cblur_variable_mask_range (masks, (gsize) dst.width * dst.height, &low, &high);
  cblur_variable_levels_of (variable, low, high, &of_pixels.least, &of_pixels.most);
  of_pixels.values = b->codes && b->levels ? NULL : masks;
  cblur_backend_variable_blur (band, variable, &src, &of_pixels, b->abyss, NULL, &dst, report);
  for (y = 0; y < dst.height; y++)
    if (b->format != NULL && dst.format == NULL)
      cblur_format_encode (b->format, cblur_image_row (&dst, y),
                           (guint8 *) cblur_image_row (result, y), dst.width);
    else
      memcpy (cblur_image_row (result, y), cblur_image_row (&dst, y),
              dst.width * cblur_image_pixel_bytes (&dst));
  return result;
}

/* the largest difference between two outputs, in steps where stored */
static gdouble
max_diff (const CblurImage *a,
          const CblurImage *b)
{
  gdouble worst = 0.0;
  gint    x, y;

  if (a->format == NULL)
    return gl_test_max_diff (a, b);
  for (y = 0; y < a->height; y++)
    for (x = 0; x < a->width * a->format->bytes_per_pixel; x++)
      worst = MAX (worst, ABS ((gint) ((guint8 *) cblur_image_row (a, y))[x] -
                                      ((guint8 *) cblur_image_row (b, y))[x]));
  return worst;
}

/* GL against the CPU on the same band; GL must run */
static gdouble
against_cpu (const Band *b,
             gdouble     radius,
             gint        iterations)
{
  CblurVariable          variable;
  CblurRunReport         gl = { 0 }, cpu = { 0 };
  g_autoptr (CblurImage) on_gl = NULL;
  g_autoptr (CblurImage) on_cpu = NULL;
  gdouble                diff;

  cblur_variable_init (&variable, radius, iterations, !b->levels);
  on_gl = blur_band (b, &variable, CBLUR_BACKEND_GL, &gl);
  on_cpu = blur_band (b, &variable, CBLUR_BACKEND_CPU, &cpu);
  g_assert_cmpstr (gl.gl_failure, ==, NULL);
  g_assert_cmpint (gl.ran_on, ==, CBLUR_BACKEND_GL);
  diff = max_diff (on_gl, on_cpu);
  g_test_message ("radius %g abyss %d in %s%s, %d tiles: GL %.3g from the CPU", radius,
                  b->abyss, b->format != NULL ? "u8" : "float", b->levels ? " with levels" : "",
                  gl.tiles, diff);
  cblur_run_report_clear (&gl);
  return diff;
}

static const GeglRectangle image = { 0, 0, 61, 43 };

/* the levels' cells are sums of up to f^2 pixels, added in another order
 * on the GPU than on the CPU */
#define LEVELS_BOUND 1e-5

/* The source only inside the image, the rest made under each policy, at
 * radii whose blocks are shorter and longer than the image. */
static void
test_abyss_policies (void)
{
  static const GeglAbyssPolicy policies[] = {
    GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE,
  };
  static const GeglRectangle   out = { 5, 3, 50, 37 };
  gsize                        i;

  for (i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      Band b = { &out, &image, policies[i], NULL, FALSE };

      g_assert_cmpfloat (against_cpu (&b, 6.0, 4), <=, 2e-6);
      g_assert_cmpfloat (against_cpu (&b, 40.0, 3), <=, 2e-6);
    }
}

/* Tiles of at most 16 × 16 outputs, each with its halo, meet as the whole. */
static void
test_tiles (void)
{
  Band b = { &image, &image, GEGL_ABYSS_CLAMP, NULL, FALSE };

  gl_test_set ("CBLUR_GL_MAX_TILE", "16");
  g_assert_cmpfloat (against_cpu (&b, 9.0, 4), <=, 2e-6);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
}

/* The levels above the base, made and blended on the GPU, give the
 * CPU's under each policy at sigma up to 9 and 54; in tiles of at most
 * 16 x 16 outputs they meet as the CPU's whole band; and on a tiny image
 * at the largest radius, whose cells of 512 pixels a side the GPU
 * averages in parts. */
static void
test_levels (void)
{
  static const GeglAbyssPolicy policies[] = {
    GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE,
  };
  static const GeglRectangle   out = { 5, 3, 50, 37 };
  /* where mask_at() is about 0.6 */
  static const GeglRectangle   tiny = { 26, 16, 7, 5 };
  Band                         whole = { &image, &image, GEGL_ABYSS_CLAMP, NULL, FALSE, TRUE };
  Band                         small = { &tiny, &tiny, GEGL_ABYSS_CLAMP, NULL, FALSE, TRUE };
  gsize                        i;

  for (i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      Band b = { &out, &image, policies[i], NULL, FALSE, TRUE };

      g_assert_cmpfloat (against_cpu (&b, 10.0, 3), <=, LEVELS_BOUND);
      g_assert_cmpfloat (against_cpu (&b, 60.0, 3), <=, LEVELS_BOUND);
    }
  gl_test_set ("CBLUR_GL_MAX_TILE", "16");
  g_assert_cmpfloat (against_cpu (&whole, 10.0, 3), <=, LEVELS_BOUND);
  whole.codes = TRUE;
  g_assert_cmpfloat (against_cpu (&whole, 60.0, 4), <=, LEVELS_BOUND);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
  g_assert_cmpfloat (against_cpu (&small, CBLUR_VARIABLE_RADIUS_MAX, 4), <=, LEVELS_BOUND);
}

/* A mask's bytes, each looked up in the table of the 256 codes on the
 * GPU, give the CPU's boxes: a band whose lines take the table's four
 * bytes a word at every phase, with its abyss, at both radii, and in
 * tiles. */
static void
test_mask_bytes (void)
{
  static const GeglRectangle out = { 5, 3, 50, 37 };
  Band                       b = { &out, &image, GEGL_ABYSS_NONE, NULL, TRUE };
  Band                       whole = { &image, &image, GEGL_ABYSS_CLAMP, NULL, TRUE };

  g_assert_cmpfloat (against_cpu (&b, 6.0, 4), <=, 2e-6);
  g_assert_cmpfloat (against_cpu (&b, 40.0, 3), <=, 2e-6);
  gl_test_set ("CBLUR_GL_MAX_TILE", "16");
  g_assert_cmpfloat (against_cpu (&whole, 9.0, 4), <=, 2e-6);
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
}

/* An 8-bit source and output, decoded and encoded on the GPU: within one
 * step of the CPU, which converts in its threads. */
static void
test_stored_pixels (void)
{
  Band b = { &image, &image, GEGL_ABYSS_NONE, cblur_format_get (babl_format ("R'G'B'A u8")),
             FALSE };

  g_assert_cmpfloat (against_cpu (&b, 12.0, 4), <=, 1.0);
}

/* Each failure on the GPU falls back to the CPU, whose pixels come out
 * as the CPU backend's, bit for bit, float or stored, with a box a pixel
 * or a mask's bytes. */
static void
test_faults_fall_back (void)
{
  static const gchar *const faults[] = { "compile", "dispatch", "alloc", "lost" };
  const CblurFormat        *formats[] = { NULL, cblur_format_get (babl_format ("R'G'B'A u8")) };
  CblurVariable             variable;
  gsize                     i, f;

  cblur_variable_init (&variable, 8.0, 4, TRUE);
  for (i = 0; i < G_N_ELEMENTS (faults); i++)
    for (f = 0; f < G_N_ELEMENTS (formats); f++)
      {
        Band                   b = { &image, &image, GEGL_ABYSS_CLAMP, formats[f], f == 1 };
        CblurRunReport         gl = { 0 }, cpu = { 0 };
        g_autoptr (CblurImage) on_cpu = blur_band (&b, &variable, CBLUR_BACKEND_CPU, &cpu);
        g_autoptr (CblurImage) fell_back = NULL;

        gl_test_set ("CBLUR_GL_FAULT", faults[i]);
        fell_back = blur_band (&b, &variable, CBLUR_BACKEND_GL, &gl);
        gl_test_set ("CBLUR_GL_FAULT", NULL);
        g_test_message ("%s: %s", faults[i], gl.gl_failure);
        g_assert_cmpint (gl.ran_on, ==, CBLUR_BACKEND_CPU);
        g_assert_nonnull (gl.gl_failure);
        g_assert_cmpstr (gl.why_cpu, ==, gl.gl_failure);
        g_assert_cmpfloat (max_diff (fell_back, on_cpu), ==, 0.0);
        cblur_run_report_clear (&gl);
      }
}

/* Through GEGL: the op warns once that the GPU failed, and its pixels are
 * the CPU backend's. */
static void
test_op_warns_once (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (40, 30, 4);
  g_autoptr (GeglBuffer) mask = test_random_buffer (40, 30, 5);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *blur = gegl_node_new_child (graph, "operation", "cblur:variable-blur",
                                                     "radius", 5.0, NULL);
  gsize                  n = 40 * 30 * 4;
  g_autofree gfloat     *cpu = g_new (gfloat, n);
  g_autofree gfloat     *fell_back = g_new (gfloat, n);
  gint                   i;

  gegl_node_link (gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                       "buffer", input, NULL), blur);
  gegl_node_connect_from (blur, "aux",
                          gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                               "buffer", mask, NULL), "output");
  gl_test_set ("CBLUR_BACKEND", "cpu");
  /* below sigma 2.25 the boxes alone, which the GPU runs */
  gegl_node_set (blur, "radius", 2.0, NULL);
  gegl_node_blit (blur, 1.0, gegl_buffer_get_extent (input), babl_format (TEST_FORMAT), cpu,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  gl_test_set ("CBLUR_BACKEND", "gl");
  g_test_expect_message ("cblur", G_LOG_LEVEL_WARNING,
                         "cblur:variable-blur: the GPU failed*dispatch*");
  gl_test_set ("CBLUR_GL_FAULT", "dispatch");
  /* a new radius each time, so that GEGL renders again; the last is the
   * CPU's */
  for (i = 0; i < 2; i++)
    {
      gegl_node_set (blur, "radius", 1.0 + i, NULL);
      gegl_node_blit (blur, 1.0, gegl_buffer_get_extent (input), babl_format (TEST_FORMAT),
                      fell_back, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
    }
  g_test_assert_expected_messages ();
  gl_test_set ("CBLUR_GL_FAULT", NULL);
  gl_test_set ("CBLUR_BACKEND", NULL);
  g_assert_cmpmem (cpu, n * sizeof (gfloat), fell_back, n * sizeof (gfloat));
  g_object_unref (graph);
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/gl/variable/abyss-policies", test_abyss_policies);
  g_test_add_func ("/gl/variable/tiles", test_tiles);
  g_test_add_func ("/gl/variable/levels", test_levels);
  g_test_add_func ("/gl/variable/mask-bytes", test_mask_bytes);
  g_test_add_func ("/gl/variable/stored-pixels", test_stored_pixels);
  g_test_add_func ("/gl/variable/faults-fall-back", test_faults_fall_back);
  g_test_add_func ("/gl/variable/op-warns-once", test_op_warns_once);
  return gl_test_run ();
}
