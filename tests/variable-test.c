/* What the variable blur's tests share: its renders, masks and images
 * (variable-test.h). */
#include "variable-test.h"

#include <math.h>

gpointer
variable_test_blur_as (const Babl  *format,
                       const gchar *operation,
                       GeglBuffer  *input,
                       GeglBuffer  *mask,
                       const gchar *first_property,
                       ...)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (input);
  GeglNode            *graph = gegl_node_new ();
  GeglNode            *source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                     "buffer", input, NULL);
  GeglNode            *blur = gegl_node_new_child (graph, "operation", operation, NULL);
  gpointer             pixels;
  va_list              args;

  format = format != NULL ? format : babl_format (TEST_FORMAT);
  pixels = g_malloc ((gsize) extent->width * extent->height *
                    babl_format_get_bytes_per_pixel (format));

  g_assert_true (gegl_has_operation (operation));
  gegl_node_link (source, blur);
  if (mask != NULL)
    gegl_node_connect_from (blur, "aux",
                            gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                 "buffer", mask, NULL), "output");
  va_start (args, first_property);
  gegl_node_set_valist (blur, first_property, args);
  va_end (args);
  gegl_node_blit (blur, 1.0, extent, format, pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return pixels;
}

gdouble
variable_test_smooth_mask (gint x,
                           gint y,
                           gint width,
                           gint height)
{
  gdouble u = (gdouble) x / width, v = (gdouble) y / height;
  gdouble bump = exp (-((u - 0.6) * (u - 0.6) + (v - 0.4) * (v - 0.4)) / 0.05);

  return CLAMP (0.15 + 0.5 * u + 0.2 * v + 0.3 * bump - 0.25, 0.0, 1.0);
}

GeglBuffer *
variable_test_mask (gint          width,
                    gint          height,
                    const gchar  *format,
                    gdouble     (*value) (gint, gint, gint, gint),
                    gdouble       constant)
{
  GeglRectangle rect = { 0, 0, width, height };
  GeglBuffer   *mask = gegl_buffer_new (&rect, babl_format (format));
  gfloat       *grey = g_new (gfloat, (gsize) width * height);
  gint          x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      grey[(gsize) y * width + x] = value != NULL ? value (x, y, width, height) : constant;
  gegl_buffer_set (mask, &rect, 0, babl_format ("Y float"), grey, GEGL_AUTO_ROWSTRIDE);
  g_free (grey);
  return mask;
}

/* An image whose top and bottom, left and right differ, as loop's halo
 * shows: ramps across, and waves. */
static GeglBuffer *
synthetic_image (gint width,
                 gint height)
{
  GeglRectangle      rect = { 0, 0, width, height };
  GeglBuffer        *image = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  g_autofree gfloat *pixels = g_new (gfloat, (gsize) width * height * 4);
  gint               x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      {
        gfloat *p = pixels + ((gsize) y * width + x) * 4;

        p[0] = (gfloat) x / width;
        p[1] = (gfloat) y / height;
        p[2] = 0.5f + 0.4f * sinf (x / 5.0f) * cosf (y / 7.0f);
        p[3] = 1.0f;
      }
  gegl_buffer_set (image, &rect, 0, babl_format (TEST_FORMAT), pixels, GEGL_AUTO_ROWSTRIDE);
  return image;
}

GeglBuffer *
variable_test_photo (const gchar *name,
                     gint         width,
                     gint         height)
{
  g_autoptr (GeglBuffer) photo = NULL;
  GeglRectangle          rect = { 0, 0, width, height };
  GeglBuffer            *part;

  if (name == NULL)
    return synthetic_image (width, height);
  photo = test_load_photo (name);
  part = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  gegl_buffer_copy (photo, GEGL_RECTANGLE (100, 60, width, height), GEGL_ABYSS_NONE, part,
                    &rect);
  return part;
}

GeglBuffer *
variable_test_with_holes (GeglBuffer *in)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (in);
  gsize                n = (gsize) extent->width * extent->height;
  g_autofree gfloat   *pixels = g_new (gfloat, n * 4);
  GeglBuffer          *out = gegl_buffer_new (extent, babl_format ("RGBA float"));
  gint                 x, y;

  gegl_buffer_get (in, extent, 1.0, babl_format ("RGBA float"), pixels, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (y = 0; y < extent->height; y++)
    for (x = 0; x < extent->width; x++)
      {
        gfloat *p = pixels + ((gsize) y * extent->width + x) * 4;
        gint    dx = x - extent->width / 3, dy = y - extent->height / 2;

        if (dx * dx + dy * dy < 15 * 15 || (x > extent->width * 3 / 4 && x < extent->width - 8))
          p[0] = 1.0f, p[1] = p[2] = 0.0f, p[3] = 0.0f;
      }
  gegl_buffer_set (out, extent, 0, babl_format ("RGBA float"), pixels, GEGL_AUTO_ROWSTRIDE);
  return out;
}
