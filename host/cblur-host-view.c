#include "cblur-host-view.h"

static void
on_invalidated (GeglNode            *node,
                const GeglRectangle *rect,
                gpointer             user_data)
{
  CblurHostView *view = user_data;

  gegl_rectangle_bounding_box (&view->invalidated, &view->invalidated, rect);
}

void
cblur_host_view_init (CblurHostView *view,
                      GeglNode      *node,
                      const Babl    *format,
                      gint           chunk_width,
                      gint           chunk_height)
{
  *view = (CblurHostView) { .node = g_object_ref (node), .format = format,
                            .chunk_width = chunk_width, .chunk_height = chunk_height };
  view->handler = g_signal_connect (node, "invalidated", G_CALLBACK (on_invalidated), view);
}

void
cblur_host_view_show (CblurHostView       *view,
                      gint                 level,
                      const GeglRectangle *rect)
{
  view->level = level;
  view->rect = *rect;
  view->stride = rect->width * babl_format_get_bytes_per_pixel (view->format);
  g_free (view->pixels);
  view->pixels = g_malloc ((gsize) view->stride * rect->height);
  cblur_host_view_render (view, rect);
  view->invalidated = *GEGL_RECTANGLE (0, 0, 0, 0);
}

void
cblur_host_view_render (CblurHostView       *view,
                        const GeglRectangle *area)
{
  gdouble scale = 1.0 / (1 << view->level);
  gint    bpp = babl_format_get_bytes_per_pixel (view->format);
  gint    x, y;

  for (y = area->y; y < area->y + area->height; y += view->chunk_height)
    for (x = area->x; x < area->x + area->width; x += view->chunk_width)
      {
        GeglRectangle chunk = { x, y, MIN (view->chunk_width, area->x + area->width - x),
                                MIN (view->chunk_height, area->y + area->height - y) };
        guchar       *at = view->pixels + (gsize) (y - view->rect.y) * view->stride +
                           (gsize) (x - view->rect.x) * bpp;

        gegl_node_blit (view->node, scale, &chunk, view->format, at, view->stride,
                        GEGL_BLIT_DEFAULT);
      }
}

/* floor and ceiling of a / b for b > 0, a of either sign */
static gint
floor_div (gint a,
           gint b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static gint
ceil_div (gint a,
          gint b)
{
  return -floor_div (-a, b);
}

GeglRectangle
cblur_host_view_take_invalidated (CblurHostView *view,
                                  gint           grid)
{
  const GeglRectangle *changed = &view->invalidated;
  gint                 cell = grid << view->level;
  gint                 x0 = floor_div (changed->x, cell) * grid;
  gint                 y0 = floor_div (changed->y, cell) * grid;
  gint                 x1 = ceil_div (changed->x + changed->width, cell) * grid;
  gint                 y1 = ceil_div (changed->y + changed->height, cell) * grid;
  GeglRectangle        area = { 0 };

  if (changed->width > 0 && changed->height > 0)
    gegl_rectangle_intersect (&area, GEGL_RECTANGLE (x0, y0, x1 - x0, y1 - y0), &view->rect);
  view->invalidated = *GEGL_RECTANGLE (0, 0, 0, 0);
  return area;
}

void
cblur_host_view_clear (CblurHostView *view)
{
  if (view->node != NULL)
    g_signal_handler_disconnect (view->node, view->handler);
  g_clear_object (&view->node);
  g_clear_pointer (&view->pixels, g_free);
}
