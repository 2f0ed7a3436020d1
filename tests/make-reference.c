/* Writes the double-precision reference blur of a photograph as a 16-bit
 * PNG, for comparing the gegl command line's output with gegl-imgcmp.
 *   make-reference INPUT OUTPUT direct|box RADIUS [ITERATIONS] */
#include <stdlib.h>

#include "cblur-test.h"
#include "reference.h"

gint
main (gint    argc,
      gchar **argv)
{
  GeglBuffer          *input, *output;
  g_autoptr (RefImage) src = NULL, blurred = NULL;
  g_autofree gfloat   *pixels = NULL;
  GeglNode            *graph, *source, *save;
  const GeglRectangle *extent;
  gdouble              radius;
  gsize                i;

  if (argc < 5)
    {
      g_printerr ("usage: %s INPUT OUTPUT direct|box RADIUS [ITERATIONS]\n", argv[0]);
      return 2;
    }
  gegl_init (&argc, &argv);

  input = test_load_image (argv[1]);
  extent = gegl_buffer_get_extent (input);
  pixels = test_read (input, extent);
  src = ref_image_from_floats (pixels, extent->width, extent->height);
  radius = g_ascii_strtod (argv[4], NULL);
  blurred = g_str_equal (argv[3], "box")
              ? ref_blur_box (src, radius, argc > 5 ? atoi (argv[5]) : 4)
              : ref_blur_direct (src, radius);

  for (i = 0; i < (gsize) extent->width * extent->height * 4; i++)
    pixels[i] = blurred->data[i];
  output = gegl_buffer_new (extent, babl_format (TEST_FORMAT));
  gegl_buffer_set (output, extent, 0, babl_format (TEST_FORMAT), pixels, GEGL_AUTO_ROWSTRIDE);

  graph = gegl_node_new ();
  source = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer", output, NULL);
  save = gegl_node_new_child (graph, "operation", "gegl:png-save", "path", argv[2],
                              "bitdepth", 16, NULL);
  gegl_node_link (source, save);
  gegl_node_process (save);

  g_object_unref (graph);
  g_object_unref (output);
  g_object_unref (input);
  gegl_exit ();
  return 0;
}
