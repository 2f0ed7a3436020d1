/* Compares what GIMP 3 made of a layer through cblur:variable-blur with
 * what the op makes of the same pixels and mask outside GIMP, in GEGL
 * here, on the backend CBLUR_BACKEND names.
 *   check-gimp-variable DIR WIDTH HEIGHT RADIUS NAME...
 * DIR holds what apply-variable-blur.py wrote, as RGBA float: input.raw,
 * and for each NAME NAME-mask.raw and NAME-output.raw.  The op runs on
 * input.raw in 8-bit R'G'B'A, GIMP's layer format, with NAME-mask.raw on
 * its aux pad, and is read in 8 bits.  GIMP may hand the op the layer in
 * another format than this graph does and convert its output back; the
 * op's float results then differ by float rounding, which moves a value
 * across a rounding boundary of 8 bits at most, and rarely: one step, in
 * at most one channel in a thousand. */
#include <stdlib.h>

#include <gegl.h>

#define U8_DIFFERING_ONE_IN 1000

static GeglBuffer *
read_buffer (const gchar *dir,
             const gchar *name,
             gint         width,
             gint         height,
             const Babl  *format)
{
  g_autoptr (GError) error = NULL;
  g_autofree gchar  *path = g_build_filename (dir, name, NULL);
  g_autofree gchar  *contents = NULL;
  GeglRectangle      rect = { 0, 0, width, height };
  GeglBuffer        *buffer;
  gsize              length = 0;

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("%s", error->message);
  if (length != (gsize) width * height * 4 * sizeof (gfloat))
    g_error ("%s holds %" G_GSIZE_FORMAT " bytes, not those of %dx%d RGBA float",
             path, length, width, height);
  buffer = gegl_buffer_new (&rect, format);
  gegl_buffer_set (buffer, &rect, 0, babl_format ("RGBA float"), contents, GEGL_AUTO_ROWSTRIDE);
  return buffer;
}

/* the op's result on input with mask on its aux pad, in format */
static guint8 *
blur_outside_gimp (GeglBuffer *input,
                   GeglBuffer *mask,
                   gdouble     radius,
                   const Babl *format)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (input);
  g_autoptr (GeglNode) graph = gegl_node_new ();
  GeglNode            *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                     "buffer", input, NULL);
  GeglNode            *aux = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                  "buffer", mask, NULL);
  GeglNode            *blur = gegl_node_new_child (graph, "operation", "cblur:variable-blur",
                                                   "radius", radius, NULL);
  guint8              *pixels = g_malloc ((gsize) extent->width * extent->height *
                                          babl_format_get_bytes_per_pixel (format));

  gegl_node_link (source, blur);
  gegl_node_connect (aux, "output", blur, "aux");
  gegl_node_blit (blur, 1.0, extent, format, pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  return pixels;
}

/* how many of n channels differ, and the largest difference in steps */
static gsize
count_differing (const guint8 *a,
                 const guint8 *b,
                 gsize         n,
                 gint         *worst)
{
  gsize differing = 0, i;

  *worst = 0;
  for (i = 0; i < n; i++)
    {
      gint step = ABS ((gint) a[i] - (gint) b[i]);

      *worst = MAX (*worst, step);
      differing += step != 0;
    }
  return differing;
}

/* GIMP's result for NAME against the op's, as the header says */
static gboolean
check_one (const gchar *dir,
           const gchar *name,
           GeglBuffer  *input,
           gdouble      radius)
{
  const Babl          *u8 = babl_format ("R'G'B'A u8");
  const GeglRectangle *extent = gegl_buffer_get_extent (input);
  gsize                n = (gsize) extent->width * extent->height * 4;
  g_autofree gchar    *mask_name = g_strconcat (name, "-mask.raw", NULL);
  g_autofree gchar    *output_name = g_strconcat (name, "-output.raw", NULL);
  g_autoptr (GeglBuffer) mask = read_buffer (dir, mask_name, extent->width, extent->height,
                                             babl_format ("RGBA float"));
  g_autoptr (GeglBuffer) gimp = read_buffer (dir, output_name, extent->width, extent->height,
                                             u8);
  g_autofree guint8   *expected = blur_outside_gimp (input, mask, radius, u8);
  g_autofree guint8   *before = g_malloc (n);
  g_autofree guint8   *actual = g_malloc (n);
  gsize                differing, changed;
  gint                 worst, unused;

  gegl_buffer_get (input, extent, 1.0, u8, before, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (gimp, extent, 1.0, u8, actual, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  differing = count_differing (expected, actual, n, &worst);
  changed = count_differing (before, actual, n, &unused);
  g_print ("%s as aux input: largest difference %d step(s), %" G_GSIZE_FORMAT " of %"
           G_GSIZE_FORMAT " channels differ; the filter changed %" G_GSIZE_FORMAT "\n",
           name, worst, differing, n, changed);
  /* a filter that left the layer as it was got no mask */
  return worst <= 1 && differing <= n / U8_DIFFERING_ONE_IN && changed > n / 2;
}

gint
main (gint    argc,
      gchar **argv)
{
  g_autoptr (GeglBuffer) input = NULL;
  gboolean               ok = TRUE;
  gint                   i;

  if (argc < 6)
    {
      g_printerr ("usage: %s DIR WIDTH HEIGHT RADIUS NAME...\n", argv[0]);
      return 2;
    }
  gegl_init (&argc, &argv);
  if (!gegl_has_operation ("cblur:variable-blur"))
    g_error ("cblur:variable-blur is not in GEGL_PATH");
  input = read_buffer (argv[1], "input.raw", atoi (argv[2]), atoi (argv[3]),
                       babl_format ("R'G'B'A u8"));
  for (i = 5; i < argc; i++)
    ok &= check_one (argv[1], argv[i], input, g_ascii_strtod (argv[4], NULL));
  g_clear_object (&input);
  gegl_exit ();
  return ok ? 0 : 1;
}
