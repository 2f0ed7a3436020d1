#include "bench-input.h"

#include <math.h>
#include <stdio.h>

gboolean
bench_parse_size (const gchar *text,
                  gint        *width,
                  gint        *height)
{
  gchar rest;

  if (sscanf (text, "%dx%d%c", width, height, &rest) == 2 && *width > 0 && *height > 0)
    return TRUE;
  g_printerr ("bad size '%s'\n", text);
  return FALSE;
}

GeglBuffer *
bench_noise_image (gint width,
                   gint height)
{
  GeglRectangle rect = { 0, 0, width, height };
  GeglBuffer   *buffer = gegl_buffer_new (&rect, babl_format ("RGBA float"));
  GeglNode     *graph = gegl_node_new ();
  GeglNode     *noise = gegl_node_new_child (graph, "operation", "gegl:simplex-noise",
                                             "scale", 0.02, NULL);
  gfloat        corners[2][4];

  gegl_node_blit_buffer (noise, buffer, &rect, 0, GEGL_ABYSS_NONE);
  g_object_unref (graph);

  gegl_buffer_get (buffer, GEGL_RECTANGLE (0, 0, 1, 1), 1.0, babl_format ("RGBA float"),
                   corners[0], GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (buffer, GEGL_RECTANGLE (width / 2, height / 2, 1, 1), 1.0,
                   babl_format ("RGBA float"), corners[1], GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  if (corners[0][3] == 0.0f || corners[0][0] == corners[1][0])
    g_error ("the benchmark's input came out flat");
  return buffer;
}

GeglBuffer *
bench_smooth_mask (gint width,
                   gint height)
{
  GeglRectangle rect = { 0, 0, width, height };
  GeglBuffer   *mask = gegl_buffer_new (&rect, babl_format ("Y' u8"));
  gfloat       *grey = g_new (gfloat, (gsize) width * height);
  gint          x, y;

  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++)
      {
        gdouble u = (gdouble) x / width, v = (gdouble) y / height;
        gdouble bump = exp (-((u - 0.6) * (u - 0.6) + (v - 0.4) * (v - 0.4)) / 0.05);

        grey[(gsize) y * width + x] = CLAMP (0.6 * u + 0.4 * v + 0.3 * bump - 0.1, 0.0, 1.0);
      }
  gegl_buffer_set (mask, &rect, 0, babl_format ("Y' float"), grey, GEGL_AUTO_ROWSTRIDE);
  g_free (grey);
  return mask;
}

GeglBuffer *
bench_converted (GeglBuffer  *input,
                 const gchar *format)
{
  GeglBuffer *buffer = gegl_buffer_new (gegl_buffer_get_extent (input), babl_format (format));

  gegl_buffer_copy (input, NULL, GEGL_ABYSS_NONE, buffer, NULL);
  return buffer;
}
