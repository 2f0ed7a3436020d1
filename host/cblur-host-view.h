/* A window onto a node as GIMP's display keeps one during a live preview:
 * rendered at a mipmap level's scale in the display's chunks, into pixels
 * of the image's own format, and told by GEGL which image area a change
 * invalidated.  The bench times it and the tests compare it with fresh
 * renders.  One thread uses a view at a time. */
#pragma once

#include <gegl.h>

typedef struct
{
  GeglNode     *node;
  gint          level;
  GeglRectangle rect;          /* display pixels: image pixels at the level's scale */
  const Babl   *format;
  gint          chunk_width;
  gint          chunk_height;
  gint          stride;
  guchar       *pixels;
  GeglRectangle invalidated;   /* image pixels GEGL said changed */
  gulong        handler;
} CblurHostView;

/* a view of node in format, rendered in chunks of chunk_width × chunk_height;
 * nothing is rendered until cblur_host_view_show */
void          cblur_host_view_init        (CblurHostView       *view,
                                           GeglNode            *node,
                                           const Babl          *format,
                                           gint                 chunk_width,
                                           gint                 chunk_height);

/* shows rect (display pixels) at level, all of it rendered */
void          cblur_host_view_show        (CblurHostView       *view,
                                           gint                 level,
                                           const GeglRectangle *rect);

/* renders area (display pixels, inside the view) chunk by chunk */
void          cblur_host_view_render      (CblurHostView       *view,
                                           const GeglRectangle *area);

/* what a host renders again: the area invalidated since the last call, in
 * display pixels, widened to a grid of `grid` display pixels and cut to
 * the view; it is forgotten */
GeglRectangle cblur_host_view_take_invalidated (CblurHostView *view,
                                                gint           grid);

void          cblur_host_view_clear       (CblurHostView       *view);
