/* cblur:unsharp-mask, cblur:high-pass and cblur:difference-of-gaussians
 * against the double-precision reference of GEGL's graphs
 * (reference-combine.c), in float and in 8 bits, and a region rendered
 * on its own against the whole image's. */

#include "cblur-test.h"

#include <math.h>
#include <stdarg.h>

#define WIDTH  93
#define HEIGHT 71

/* roi of op over input, with properties, read in format */
static gpointer
render (const gchar         *op,
        GeglBuffer          *input,
        const GeglRectangle *roi,
        const Babl          *format,
        const gchar         *first_property,
        ...)
{
  g_autoptr (GeglNode) graph = gegl_node_new ();
  GeglNode            *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                     "buffer", input, NULL);
  GeglNode            *node = gegl_node_new_child (graph, "operation", op, NULL);
  gsize                bytes = babl_format_get_bytes_per_pixel (format);
  gpointer             pixels = g_malloc ((gsize) roi->width * roi->height * bytes);
  va_list              args;

  va_start (args, first_property);
  gegl_node_set_valist (node, first_property, args);
  va_end (args);
  gegl_node_link (source, node);
  gegl_node_blit (node, 1.0, roi, format, pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  test_assert_ran_on_backend ();
  return pixels;
}

static const GeglRectangle whole = { 0, 0, WIDTH, HEIGHT };

static void
assert_float (RefImage     *expected,
              const gchar  *op,
              const gchar  *what,
              const gchar  *property1,
              gdouble       value1,
              const gchar  *property2,
              gdouble       value2,
              GeglBuffer   *input)
{
  g_autofree gfloat *actual = render (op, input, &whole, babl_format (TEST_FORMAT),
                                      property1, value1, property2, value2, NULL);

  test_assert_near (expected, actual, 1e-5, 1e-6, what);
  ref_image_free (expected);
}

static void
test_unsharp (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (WIDTH, HEIGHT, 47);
  g_autoptr (RefImage)   src = test_reference_input (input);
  g_autofree gfloat     *actual = NULL;
  g_autoptr (RefImage)   expected = NULL;
  gdouble                margin = 0.0;

  assert_float (ref_unsharp_mask (src, 6.0, 1.5, 0.0, NULL), "cblur:unsharp-mask",
                "unsharp std-dev 2", "std-dev", 2.0, "scale", 1.5, input);
  expected = ref_unsharp_mask (src, 4.5, 0.8, 0.3, &margin);
  /* no pixel's difference so near the threshold that float rounding
   * could put it on the other side */
  g_assert_cmpfloat (margin, >, 1e-5);
  actual = render ("cblur:unsharp-mask", input, &whole, babl_format (TEST_FORMAT),
                   "std-dev", 1.5, "scale", 0.8, "threshold", 0.3, NULL);
  test_assert_near (expected, actual, 1e-5, 1e-6, "unsharp threshold 0.3");
}

static void
test_high_pass (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (WIDTH, HEIGHT, 48);
  g_autoptr (RefImage)   src = test_reference_input (input);

  assert_float (ref_high_pass (src, 7.5, 1.7), "cblur:high-pass", "high pass std-dev 2.5",
                "std-dev", 2.5, "contrast", 1.7, input);
  /* at contrast 1 the op takes its gammas in one power */
  assert_float (ref_high_pass (src, 4.5, 1.0), "cblur:high-pass", "high pass contrast 1",
                "std-dev", 1.5, "contrast", 1.0, input);
}

static void
test_difference (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (WIDTH, HEIGHT, 49);
  g_autoptr (RefImage)   src = test_reference_input (input);

  assert_float (ref_difference_of_gaussians (src, 3.0, 7.5), "cblur:difference-of-gaussians",
                "difference 1, 2.5", "radius1", 1.0, "radius2", 2.5, input);
}

/* an 8-bit photo's result in 8 bits within 2 steps of the reference's */
static void
test_eight_bits (void)
{
  g_autoptr (GeglBuffer) photo = test_load_image (g_test_get_filename (G_TEST_DIST, "data",
                                                                       "coffee.png", NULL));
  const Babl            *u8 = babl_format ("R'G'B'A u8");
  GeglRectangle          rect = *gegl_buffer_get_extent (photo);
  g_autoptr (GeglBuffer) input = gegl_buffer_new (&rect, u8);
  g_autoptr (RefImage)   src = NULL;
  g_autoptr (RefImage)   expected = NULL;
  g_autofree gfloat     *floats = NULL;
  g_autofree guint8     *want = NULL;
  g_autofree guint8     *got = NULL;
  gsize                  i, n = (gsize) rect.width * rect.height;
  gint                   worst = 0;

  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, input, NULL);
  src = test_reference_input (input);
  expected = ref_unsharp_mask (src, 9.0, 1.5, 0.0, NULL);
  floats = g_new (gfloat, n * 4);
  for (i = 0; i < n * 4; i++)
    floats[i] = expected->data[i];
  want = g_malloc (n * 4);
  babl_process (babl_fish (babl_format (TEST_FORMAT), u8), floats, want, n);
  got = render ("cblur:unsharp-mask", input, &rect, u8, "std-dev", 3.0, "scale", 1.5, NULL);
  for (i = 0; i < n * 4; i++)
    worst = MAX (worst, ABS ((gint) want[i] - (gint) got[i]));
  g_test_message ("unsharp in 8 bits: %d steps from the reference", worst);
  g_assert_cmpint (worst, <=, 2);
}

/* GEGL's graphs of its own ops, their blurs FIR rather than IIR */
static GeglNode *
child (GeglNode    *graph,
       const gchar *op,
       const gchar *first_property,
       ...)
{
  GeglNode *node = gegl_node_new_child (graph, "operation", op, NULL);
  va_list   args;

  va_start (args, first_property);
  if (first_property != NULL)
    gegl_node_set_valist (node, first_property, args);
  va_end (args);
  return node;
}

static GeglNode *
fir_blur (GeglNode *graph,
          GeglNode *input,
          gdouble   std_dev)
{
  GeglNode *blur = child (graph, "gegl:gaussian-blur", "std-dev-x", std_dev,
                          "std-dev-y", std_dev, NULL);
  GParamSpec           *spec = gegl_node_find_property (blur, "filter");
  g_autoptr (GEnumClass) enums = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE (spec));

  gegl_node_set (blur, "filter", g_enum_get_value_by_nick (enums, "fir")->value, NULL);
  gegl_node_link (input, blur);
  return blur;
}

/* gegl:high-pass's graph at std-dev 4, contrast 1.5 */
static GeglNode *
gegl_high_pass (GeglNode *graph,
                GeglNode *input)
{
  GeglNode *invert = child (graph, "gegl:invert-gamma", NULL);
  GeglNode *opacity = child (graph, "gegl:opacity", "value", 0.5, NULL);
  GeglNode *over = child (graph, "gegl:over", "srgb", TRUE, NULL);
  GeglNode *last = child (graph, "gegl:gamma", "value", 2.2, NULL);

  gegl_node_link_many (fir_blur (graph, input, 4.0), invert, opacity, NULL);
  gegl_node_connect_from (over, "aux", opacity, "output");
  gegl_node_link_many (input, over, child (graph, "gegl:gamma", "value", 0.4545, NULL),
                       child (graph, "gegl:add", "value", -0.5, NULL),
                       child (graph, "gegl:multiply", "value", 1.5, NULL),
                       child (graph, "gegl:add", "value", 0.5, NULL), last, NULL);
  return last;
}

/* gegl:difference-of-gaussians's at 1.5 and 4 */
static GeglNode *
gegl_difference (GeglNode *graph,
                 GeglNode *input)
{
  GeglNode *subtract = child (graph, "gegl:subtract", NULL);

  gegl_node_link (fir_blur (graph, input, 1.5), subtract);
  gegl_node_connect_from (subtract, "aux", fir_blur (graph, input, 4.0), "output");
  return subtract;
}

/* gegl:unsharp-mask's at std-dev 3, scale 1.5, threshold 0 */
static GeglNode *
gegl_unsharp (GeglNode *graph,
              GeglNode *input)
{
  GeglNode *subtract = child (graph, "gegl:subtract", NULL);
  GeglNode *add = child (graph, "gegl:add", NULL);

  gegl_node_connect_from (subtract, "aux", fir_blur (graph, input, 3.0), "output");
  gegl_node_link_many (input, subtract, child (graph, "gegl:multiply", "value", 1.5, NULL),
                       add, NULL);
  gegl_node_connect_from (add, "aux", input, "output");
  return add;
}

/* the photo in 8 bits through graph and through op, at most `steps`
 * apart */
static void
assert_near_gegl (GeglNode *(*gegl_graph) (GeglNode *, GeglNode *),
                  const gchar *op,
                  gint         steps,
                  const gchar *first_property,
                  ...)
{
  g_autoptr (GeglBuffer) photo = test_load_image (g_test_get_filename (G_TEST_DIST, "data",
                                                                       "chelsea.png", NULL));
  const Babl            *u8 = babl_format ("R'G'B'A u8");
  GeglRectangle          rect = *gegl_buffer_get_extent (photo);
  g_autoptr (GeglBuffer) input = gegl_buffer_new (&rect, u8);
  g_autoptr (GeglNode)   graph = gegl_node_new ();
  GeglNode              *source = NULL;
  GeglNode              *ours = child (graph, op, NULL);
  gsize                  i, n = (gsize) rect.width * rect.height * 4;
  g_autofree guint8     *want = g_malloc (n);
  g_autofree guint8     *got = g_malloc (n);
  gint                   worst = 0;
  va_list                args;

  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, input, NULL);
  source = child (graph, "gegl:buffer-source", "buffer", input, NULL);
  va_start (args, first_property);
  gegl_node_set_valist (ours, first_property, args);
  va_end (args);
  gegl_node_link (source, ours);
  gegl_node_blit (gegl_graph (graph, source), 1.0, &rect, u8, want, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  gegl_node_blit (ours, 1.0, &rect, u8, got, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  for (i = 0; i < n; i++)
    worst = MAX (worst, ABS ((gint) want[i] - (gint) got[i]));
  g_test_message ("%s: %d steps from GEGL's graph with a FIR blur", op, worst);
  g_assert_cmpint (worst, <=, steps);
}

static void
test_gegl_graphs (void)
{
  assert_near_gegl (gegl_unsharp, "cblur:unsharp-mask", 3, "std-dev", 3.0, "scale", 1.5,
                    NULL);
  assert_near_gegl (gegl_high_pass, "cblur:high-pass", 3, "std-dev", 4.0, "contrast", 1.5,
                    NULL);
  assert_near_gegl (gegl_difference, "cblur:difference-of-gaussians", 3, "radius1", 1.5,
                    "radius2", 4.0, NULL);
}

/* a float image's difference keeps its values below 0, as GEGL's op
 * gives them; an 8-bit image's is written in its own 8 bits, clipped
 * there as a host storing GEGL's result clips it */
static void
test_float_result (void)
{
  g_autoptr (GeglBuffer) photo = test_load_image (g_test_get_filename (G_TEST_DIST, "data",
                                                                       "coffee.png", NULL));
  const Babl            *u8 = babl_format ("R'G'B'A u8");
  GeglRectangle          rect = *gegl_buffer_get_extent (photo);
  g_autoptr (GeglBuffer) eight = gegl_buffer_new (&rect, u8);
  g_autoptr (GeglBuffer) floats = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  g_autofree gfloat     *kept = NULL;
  g_autofree gfloat     *clipped = NULL;
  gfloat                 least = 0.0f, worst = 0.0f;
  gsize                  i;

  gegl_buffer_copy (photo, NULL, GEGL_ABYSS_NONE, eight, NULL);
  gegl_buffer_copy (eight, NULL, GEGL_ABYSS_NONE, floats, NULL);
  kept = render ("cblur:difference-of-gaussians", floats, &rect, babl_format (TEST_FORMAT),
                 "radius1", 1.0, "radius2", 3.0, NULL);
  clipped = render ("cblur:difference-of-gaussians", eight, &rect, babl_format (TEST_FORMAT),
                    "radius1", 1.0, "radius2", 3.0, NULL);
  for (i = 0; i < (gsize) rect.width * rect.height * 4; i++)
    {
      least = MIN (least, kept[i]);
      g_assert_cmpfloat (clipped[i], >=, 0.0f);
      worst = MAX (worst, fabsf (CLAMP (kept[i], 0.0f, 1.0f) - clipped[i]));
    }
  g_assert_cmpfloat (least, <, -0.01f);
  g_assert_cmpfloat (worst, <=, 2.0f / 255.0f);
}

/* a region of its own, with its halo, as the whole image has it */
static void
test_region (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (WIDTH, HEIGHT, 50);
  GeglRectangle          part = { 17, 23, 41, 29 };
  g_autofree gfloat     *all = render ("cblur:unsharp-mask", input, &whole,
                                       babl_format (TEST_FORMAT), "std-dev", 2.0,
                                       "threshold", 0.2, NULL);
  g_autofree gfloat     *alone = render ("cblur:unsharp-mask", input, &part,
                                         babl_format (TEST_FORMAT), "std-dev", 2.0,
                                         "threshold", 0.2, NULL);
  gint                   y;

  for (y = 0; y < part.height; y++)
    g_assert_cmpfloat (test_max_abs_diff (all + 4 * ((gsize) (part.y + y) * WIDTH + part.x),
                                          alone + 4 * (gsize) y * part.width,
                                          4 * (gsize) part.width), <=, 1e-6);
}

/* the result keeps the input's extent, as GEGL's ops do (GIMP's layer
 * would grow by the halo) */
static void
test_extent (void)
{
  g_autoptr (GeglBuffer) input = test_random_buffer (WIDTH, HEIGHT, 51);
  g_autoptr (GeglNode)   graph = gegl_node_new ();
  GeglNode              *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                       "buffer", input, NULL);
  GeglNode              *node = gegl_node_new_child (graph, "operation", "cblur:unsharp-mask",
                                                     "std-dev", 5.0, NULL);
  GeglRectangle          box;

  gegl_node_link (source, node);
  box = gegl_node_get_bounding_box (node);
  g_assert_true (gegl_rectangle_equal (&box, &whole));
}

/* GEGL's properties, so that a script switches by the op's name */
static void
test_properties (void)
{
  const gchar *ops[][2] = { { "cblur:unsharp-mask", "gegl:unsharp-mask" },
                            { "cblur:high-pass", "gegl:high-pass" },
                            { "cblur:difference-of-gaussians",
                              "gegl:difference-of-gaussians" } };
  gsize        i;

  for (i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      guint                   n_ours, n_gegls, p;
      g_autofree GParamSpec **gegls = gegl_operation_list_properties (ops[i][1], &n_gegls);
      g_autofree GParamSpec **ours = gegl_operation_list_properties (ops[i][0], &n_ours);

      g_assert_cmpuint (n_ours, ==, n_gegls);
      for (p = 0; p < n_gegls; p++)
        {
          GParamSpecDouble *want = G_PARAM_SPEC_DOUBLE (gegls[p]);
          GParamSpecDouble *have = G_PARAM_SPEC_DOUBLE (ours[p]);

          g_assert_cmpstr (ours[p]->name, ==, gegls[p]->name);
          g_assert_cmpfloat (have->default_value, ==, want->default_value);
          g_assert_cmpfloat (have->minimum, ==, want->minimum);
          g_assert_cmpfloat (have->maximum, ==, want->maximum);
        }
    }
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/combine/unsharp", test_unsharp);
  g_test_add_func ("/combine/high-pass", test_high_pass);
  g_test_add_func ("/combine/difference", test_difference);
  g_test_add_func ("/combine/eight-bits", test_eight_bits);
  g_test_add_func ("/combine/gegl-graphs", test_gegl_graphs);
  g_test_add_func ("/combine/region", test_region);
  g_test_add_data_func ("/combine/region-alone", (gconstpointer) test_region,
                        test_run_without_whole_images);
  g_test_add_func ("/combine/properties", test_properties);
  g_test_add_func ("/combine/extent", test_extent);
  g_test_add_func ("/combine/float-result", test_float_result);
  return g_test_run ();
}
