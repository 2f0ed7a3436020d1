/* The operation's reference-composition and reference-hash keys, checked
 * the way GEGL's own operation tester does: render the composition, save
 * it as PNG, load it back as R'G'B'A u8 and compare the MD5. */
#include <glib/gstdio.h>

#include "cblur-test.h"

static gchar *
hash_of_png (const gchar *path)
{
  GeglNode      *graph = gegl_node_new ();
  GeglNode      *load = gegl_node_new_child (graph, "operation", "gegl:load",
                                             "path", path, NULL);
  GeglRectangle  bounds = gegl_node_get_bounding_box (load);
  gsize          size = (gsize) bounds.width * bounds.height * 4;
  g_autofree guchar *pixels = g_malloc0 (size);

  gegl_node_blit (load, 1.0, &bounds, babl_format ("R'G'B'A u8"), pixels,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return g_compute_checksum_for_data (G_CHECKSUM_MD5, pixels, size);
}

static void
test_reference_hash (void)
{
  const gchar        *xml, *expected;
  GeglNode           *composition, *save;
  g_autofree gchar   *dir = g_dir_make_tmp ("cblur-hash-XXXXXX", NULL);
  g_autofree gchar   *path = g_build_filename (dir, "cblur-gaussian-blur.png", NULL);
  g_autofree gchar   *got = NULL;

  g_assert_true (gegl_has_operation ("cblur:gaussian-blur"));
  xml = gegl_operation_get_key ("cblur:gaussian-blur", "reference-composition");
  expected = gegl_operation_get_key ("cblur:gaussian-blur", "reference-hash");
  g_assert_nonnull (xml);
  g_assert_nonnull (expected);

  composition = gegl_node_new_from_xml (xml, dir);
  g_assert_nonnull (composition);
  save = gegl_node_new_child (composition, "operation", "gegl:png-save",
                              "compression", 9, "path", path, NULL);
  gegl_node_link (composition, save);
  gegl_node_process (save);
  g_object_unref (composition);

  got = hash_of_png (path);
  g_test_message ("reference-hash %s, rendered %s", expected, got);
  g_assert_cmpstr (got, ==, expected);

  g_unlink (path);
  g_rmdir (dir);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/op/reference-hash", test_reference_hash);
  return g_test_run ();
}
