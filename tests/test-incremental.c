/* A view kept up to date as GIMP keeps its canvas during a live preview:
 * rendered in chunks through one graph whose radius moves, whose source
 * is painted on, and which is shown at other mipmap levels, each time
 * only the area GEGL invalidates rendered again.  After every step the
 * whole view is what a fresh graph renders of the same source, on the
 * backend CBLUR_BACKEND names, with and without whole images. */
#include <string.h>

#include "cblur-kernel.h"
#include "cblur-backend.h"
#include "cblur-host-view.h"
#include "cblur-settings.h"
#include "cblur-test.h"

#define WIDTH        321
#define HEIGHT       201
#define CHUNK_WIDTH  64
#define CHUNK_HEIGHT 32
#define FORMAT       "R'G'B'A u8"

typedef struct
{
  GeglNode     *graph;
  GeglNode     *blur;
  CblurHostView host;
} View;

static gdouble
level_scale (gint level)
{
  return 1.0 / (1 << level);
}

/* the view of `level`: all of the image at level 1, a part off its
 * corner at level 0 */
static GeglRectangle
view_rect (gint level)
{
  return level == 0 ? *GEGL_RECTANGLE (70, 40, 200, 130)
                    : *GEGL_RECTANGLE (0, 0, WIDTH >> level, HEIGHT >> level);
}

static void
view_init (View       *view,
           GeglBuffer *source,
           gdouble     radius)
{
  GeglNode *input;

  view->graph = gegl_node_new ();
  input = gegl_node_new_child (view->graph, "operation", "gegl:buffer-source",
                               "buffer", source, NULL);
  view->blur = gegl_node_new_child (view->graph, "operation", "cblur:gaussian-blur",
                                    "radius", radius, NULL);
  gegl_node_link (input, view->blur);
  cblur_host_view_init (&view->host, view->blur, babl_format (FORMAT), CHUNK_WIDTH,
                        CHUNK_HEIGHT);
}

/* shows the view at level, all of it rendered */
static void
view_show (View *view,
           gint  level)
{
  GeglRectangle rect = view_rect (level);

  cblur_host_view_show (&view->host, level, &rect);
}

/* renders what GEGL invalidated since */
static void
view_update (View *view)
{
  GeglRectangle area = cblur_host_view_take_invalidated (&view->host, 1);

  cblur_host_view_render (&view->host, &area);
}

static void
view_clear (View *view)
{
  cblur_host_view_clear (&view->host);
  g_clear_object (&view->graph);
}

/* The view against a fresh graph's render of it in one piece.  GL's box
 * tiles meet within float rounding, a code of 8 bits at most. */
static void
assert_fresh (const View *view,
              GeglBuffer *source,
              gdouble     radius)
{
  const GeglRectangle *rect = &view->host.rect;
  gsize              n = (gsize) rect->width * rect->height * 4;
  g_autofree guchar *fresh = g_new (guchar, n);
  GeglNode          *graph = gegl_node_new ();
  GeglNode          *input = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                  "buffer", source, NULL);
  GeglNode          *blur = gegl_node_new_child (graph, "operation", "cblur:gaussian-blur",
                                                 "radius", radius, NULL);
  gsize              i;
  gint               worst = 0;

  gegl_node_link (input, blur);
  gegl_node_blit (blur, level_scale (view->host.level), rect, babl_format (FORMAT), fresh,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  for (i = 0; i < n; i++)
    worst = MAX (worst, ABS ((gint) fresh[i] - (gint) view->host.pixels[i]));
  g_assert_cmpint (worst, <=, test_backend_is_gl () ? 1 : 0);
}

static GeglBuffer *
test_image_sized (gint    width,
                  gint    height,
                  guint32 seed)
{
  g_autoptr (GeglBuffer) noise = test_random_buffer (width, height, seed);
  GeglBuffer            *image = gegl_buffer_new (gegl_buffer_get_extent (noise),
                                                  babl_format (FORMAT));

  gegl_buffer_copy (noise, NULL, GEGL_ABYSS_NONE, image, NULL);
  return image;
}

static GeglBuffer *
test_image (guint32 seed)
{
  return test_image_sized (WIDTH, HEIGHT, seed);
}

/* a brush's dab: a square of one colour at x, y */
static void
paint_dab (GeglBuffer *image,
           gint        x,
           gint        y,
           gint        i)
{
  guchar pixels[24 * 24 * 4];
  gint   p;

  for (p = 0; p < 24 * 24; p++)
    {
      pixels[p * 4] = (guchar) (i * 71);
      pixels[p * 4 + 1] = (guchar) (200 - i * 13);
      pixels[p * 4 + 2] = (guchar) (i * 37);
      pixels[p * 4 + 3] = (guchar) (128 + i * 19);
    }
  gegl_buffer_set (image, GEGL_RECTANGLE (x, y, 24, 24), 0, babl_format (FORMAT), pixels,
                   GEGL_AUTO_ROWSTRIDE);
}

/* Slider moves: each a property change, across direct and box (auto at
 * 25), to radius 0 (the input handed on) and back. */
static void
test_slider (void)
{
  static const gdouble   radii[] = { 2.0, 6.5, 7.0, 30.0, 12.5, 0.0, 45.0, 3.0 };
  g_autoptr (GeglBuffer) image = test_image (3);
  View                   view;
  gsize                  i;

  view_init (&view, image, radii[0]);
  view_show (&view, 0);
  assert_fresh (&view, image, radii[0]);
  for (i = 1; i < G_N_ELEMENTS (radii); i++)
    {
      gegl_node_set (view.blur, "radius", radii[i], NULL);
      view_update (&view);
      assert_fresh (&view, image, radii[i]);
    }
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* Dabs into the source under a live blur, in view, at its edges and at
 * the image's, and out of view but within the blur's reach of it. */
static void
test_dabs (void)
{
  static const gdouble   radii[] = { 9.0, 40.0 };
  static const gint      dabs[][2] = { { 150, 90 }, { 60, 30 }, { 0, 0 }, { 296, 176 },
                                       { 280, 100 }, { 100, 170 }, { 160, 95 } };
  gsize                  r, d;

  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    {
      g_autoptr (GeglBuffer) image = test_image (5 + r);
      View                   view;

      view_init (&view, image, radii[r]);
      view_show (&view, 0);
      for (d = 0; d < G_N_ELEMENTS (dabs); d++)
        {
          paint_dab (image, dabs[d][0], dabs[d][1], (gint) d);
          view_update (&view);
          assert_fresh (&view, image, radii[r]);
        }
      view_clear (&view);
    }
  test_assert_ran_on_backend ();
}

/* A dab under a blur of a larger image, which the CPU blurs whole for
 * the first view: what the dab invalidated is blurred again, not the
 * whole image, and the view is still a fresh render. */
static void
test_dab_blurs_its_area (void)
{
  const gint             width = 1024, height = 640;
  const gdouble          radius = 40.0;
  g_autoptr (GeglBuffer) image = test_image_sized (width, height, 17);
  View                   view;
  gint                   d;

  view_init (&view, image, radius);
  view_show (&view, 0);
  for (d = 0; d < 3; d++)
    {
      TestBlurred blurred;

      test_take_blurred ();
      paint_dab (image, 90 + 50 * d, 60 + 30 * d, d);
      view_update (&view);
      blurred = test_take_blurred ();
      g_test_message ("dab %d: blurred %" G_GINT64_FORMAT " pixels", d, blurred.pixels);
      g_assert_cmpint (blurred.pixels, >, 0);
      if (!test_backend_is_gl ())
        g_assert_cmpint (blurred.pixels, <, (gint64) width * height / 8);
      assert_fresh (&view, image, radius);
    }
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* The view zoomed between mipmap levels 1 and 0, with slider moves and
 * dabs at each. */
static void
test_levels (void)
{
  g_autoptr (GeglBuffer) image = test_image (9);
  View                   view;

  view_init (&view, image, 20.0);
  view_show (&view, 1);
  assert_fresh (&view, image, 20.0);
  view_show (&view, 0);
  assert_fresh (&view, image, 20.0);

  gegl_node_set (view.blur, "radius", 33.0, NULL);
  view_show (&view, 1);
  assert_fresh (&view, image, 33.0);
  paint_dab (image, 120, 80, 1);
  view_update (&view);
  assert_fresh (&view, image, 33.0);
  view_show (&view, 0);
  assert_fresh (&view, image, 33.0);

  gegl_node_set (view.blur, "radius", 5.5, NULL);
  view_update (&view);
  assert_fresh (&view, image, 5.5);
  view_show (&view, 1);
  assert_fresh (&view, image, 5.5);
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* The slider moved through radii after the first under view: where
 * `check`, each frame blurs `pixels` in one band; each leaves the view a
 * fresh render. */
static void
drag_blurs_once (View          *view,
                 GeglBuffer    *image,
                 const gdouble *radii,
                 gsize          n,
                 gint64         pixels,
                 gboolean       check)
{
  gsize i;

  for (i = 1; i < n; i++)
    {
      TestBlurred blurred;

      test_take_blurred ();
      gegl_node_set (view->blur, "radius", radii[i], NULL);
      view_update (view);
      blurred = test_take_blurred ();
      g_test_message ("radius %g: %d bands, %" G_GINT64_FORMAT " pixels", radii[i],
                      blurred.bands, blurred.pixels);
      if (check)
        {
          g_assert_cmpint (blurred.bands, ==, 1);
          g_assert_cmpint (blurred.pixels, ==, pixels);
        }
      assert_fresh (view, image, radii[i]);
    }
}

/* Slider moves under a view of part of the image at level 0: after the
 * first frame, which the chunks blur on their own, the CPU blurs the
 * view once a frame, neither chunk by chunk nor the whole image (box
 * mode's rule); GL keeps to whole images. */
static void
test_slider_blurs_view (void)
{
  static const gdouble   radii[] = { 9.0, 12.0, 27.0, 5.0, 20.0 };
  g_autoptr (GeglBuffer) image = test_image_sized (480, 320, 19);
  View                   view;

  view_init (&view, image, radii[0]);
  view_show (&view, 0);
  drag_blurs_once (&view, image, radii, G_N_ELEMENTS (radii),
                   (gint64) view.host.rect.width * view.host.rect.height, !test_backend_is_gl ());
  /* a dab after them blurs its own area, not the view again */
  test_take_blurred ();
  paint_dab (image, 150, 90, 3);
  view_update (&view);
  if (!test_backend_is_gl ())
    g_assert_cmpint (test_take_blurred ().pixels, <,
                     (gint64) view.host.rect.width * view.host.rect.height / 4);
  assert_fresh (&view, image, radii[G_N_ELEMENTS (radii) - 1]);
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* Slider moves under a view of part of the image at level 0 after a
 * frame that GL took whole, as under auto where the CPU takes the next
 * frames: GEGL's cache served the view's other chunks, so the view is
 * not known, and the CPU takes the whole image, once a frame, rather
 * than each chunk on its own. */
static void
test_cpu_after_gl_whole_frame (void)
{
  static const gdouble   radii[] = { 5.0, 6.0, 9.0, 7.0 };
  g_autoptr (GeglBuffer) image = test_image (23);
  View                   view;

  if (!test_backend_is_gl ())
    {
      g_test_skip ("the frame before is GL's");
      return;
    }
  view_init (&view, image, radii[0]);
  test_take_blurred ();
  view_show (&view, 0);
  g_assert_cmpint (test_take_blurred ().pixels, ==, WIDTH * HEIGHT);
  g_setenv ("CBLUR_BACKEND", "cpu", TRUE);
  cblur_settings_reload ();
  drag_blurs_once (&view, image, radii, G_N_ELEMENTS (radii), WIDTH * HEIGHT, TRUE);
  g_setenv ("CBLUR_BACKEND", "gl", TRUE);
  cblur_settings_reload ();
  test_forget_backends ();
  gegl_node_set (view.blur, "radius", 8.0, NULL);
  view_update (&view);
  assert_fresh (&view, image, 8.0);
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* Slider moves at level 1 with radii that blur directly: each frame
 * blurs the image at the level once, not chunk by chunk, and GEGL's
 * cache serves the view's other chunks. */
static void
test_level_whole_image (void)
{
  static const gdouble   radii[] = { 4.0, 6.5, 9.0, 3.0 };
  g_autoptr (GeglBuffer) image = test_image (21);
  View                   view;

  view_init (&view, image, radii[0]);
  /* the view at level 1 is all of the image there */
  view_show (&view, 1);
  drag_blurs_once (&view, image, radii, G_N_ELEMENTS (radii),
                   (gint64) view.host.rect.width * view.host.rect.height, TRUE);
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* what GEGL invalidated rendered and checked against a fresh render of
 * image at radius; returns how many of its bands took the source as an
 * earlier blur kept it */
static gint
render_kept (View       *view,
             GeglBuffer *image,
             gdouble     radius)
{
  test_take_blurred ();
  view_update (view);
  assert_fresh (view, image, radius);
  return test_take_blurred ().kept;
}

/* Slider frames at level 1 take the source's pixels as a frame before
 * kept them (on the CPU), from the third render of a view on, and only
 * while the source stays as it was: after a dab under the view, new
 * pixels in its buffer or another buffer, the next render reads the
 * source again (and keeps it); every render is a fresh one's pixels. */
static void
test_level_keeps_source (void)
{
  g_autoptr (GeglBuffer) image = test_image (23);
  g_autoptr (GeglBuffer) other = test_image (24);
  gint                   keeps = test_backend_is_gl () ? 0 : 1;
  View                   view;
  GeglNode              *input;
  gdouble                radius;

  view_init (&view, image, 30.0);
  input = gegl_node_get_producer (view.blur, "input", NULL);
  view_show (&view, 1);
  for (radius = 31.0; radius <= 33.0; radius++)
    {
      gegl_node_set (view.blur, "radius", radius, NULL);
      g_assert_cmpint (render_kept (&view, image, radius), ==, radius >= 32.0 ? keeps : 0);
    }

  paint_dab (image, 100, 60, 3);
  g_assert_cmpint (render_kept (&view, image, radius - 1), ==, 0);
  gegl_node_set (view.blur, "radius", radius, NULL);
  g_assert_cmpint (render_kept (&view, image, radius), ==, keeps);

  gegl_buffer_copy (other, NULL, GEGL_ABYSS_NONE, image, NULL);
  g_assert_cmpint (render_kept (&view, image, radius), ==, 0);
  gegl_node_set (view.blur, "radius", ++radius, NULL);
  g_assert_cmpint (render_kept (&view, image, radius), ==, keeps);

  gegl_node_set (input, "buffer", other, NULL);
  g_assert_cmpint (render_kept (&view, other, radius), ==, 0);
  gegl_node_set (view.blur, "radius", ++radius, NULL);
  g_assert_cmpint (render_kept (&view, other, radius), ==, keeps);
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* After a drag at level 1, a change that leaves the properties as they
 * were (a host's apply) renders at level 0 chunk by chunk, as direct
 * radii there do, not the whole image judged at the drag's level. */
static void
test_level_after_drag (void)
{
  static const gdouble   radii[] = { 6.0, 7.0 };
  g_autoptr (GeglBuffer) image = test_image (25);
  View                   view;
  TestBlurred            blurred;

  view_init (&view, image, radii[0]);
  view_show (&view, 1);
  drag_blurs_once (&view, image, radii, G_N_ELEMENTS (radii),
                   (gint64) view.host.rect.width * view.host.rect.height, TRUE);
  test_take_blurred ();
  gegl_node_set (view.blur, "radius", radii[1], NULL);
  view_show (&view, 0);
  blurred = test_take_blurred ();
  g_test_message ("%d bands, the widest %d", blurred.bands, blurred.widest);
  if (!test_backend_is_gl ())
    g_assert_cmpint (blurred.widest, <=, CHUNK_WIDTH);
  assert_fresh (&view, image, radii[1]);
  view_clear (&view);
  test_assert_ran_on_backend ();
}

/* The view at level 1 is the blur at half the radius of the source's
 * level-1 pixels as GEGL reads them at scale 0.5, blurred at level 0:
 * the op reads and converts a mipmap's pixels as it does the image's. */
static void
test_level_is_half_image (void)
{
  static const gdouble   radii[] = { 3.0, 14.0, 80.0 };
  g_autoptr (GeglBuffer) image = test_image (23);
  GeglRectangle          rect = view_rect (1);
  gsize                  n = (gsize) rect.width * rect.height * 4;
  g_autofree guchar     *pixels = g_new (guchar, n);
  g_autoptr (GeglBuffer) half = gegl_buffer_new (&rect, babl_format (FORMAT));
  gsize                  r, i;

  gegl_buffer_get (image, &rect, 0.5, babl_format (FORMAT), pixels, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  gegl_buffer_set (half, &rect, 0, babl_format (FORMAT), pixels, GEGL_AUTO_ROWSTRIDE);
  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    {
      g_autofree guchar *expected = g_new (guchar, n);
      GeglNode          *graph = gegl_node_new ();
      GeglNode          *input = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                                      "buffer", half, NULL);
      GeglNode          *blur = gegl_node_new_child (graph, "operation", "cblur:gaussian-blur",
                                                     "radius", radii[r] / 2, NULL);
      View               view;
      gint               worst = 0;

      gegl_node_link (input, blur);
      gegl_node_blit (blur, 1.0, &rect, babl_format (FORMAT), expected, GEGL_AUTO_ROWSTRIDE,
                      GEGL_BLIT_DEFAULT);
      g_object_unref (graph);
      view_init (&view, image, radii[r]);
      view_show (&view, 1);
      for (i = 0; i < n; i++)
        worst = MAX (worst, ABS ((gint) expected[i] - (gint) view.host.pixels[i]));
      g_test_message ("radius %g: worst %d", radii[r], worst);
      g_assert_cmpint (worst, <=, test_backend_is_gl () ? 1 : 0);
      view_clear (&view);
    }
  test_assert_ran_on_backend ();
}

gint
main (gint    argc,
      gchar **argv)
{
  static const struct
  {
    const gchar *name;
    GTestFunc    func;
    gboolean     without_whole_images;
  } tests[] = {
    { "slider", test_slider, TRUE },
    { "slider-blurs-view", test_slider_blurs_view, TRUE },
    { "cpu-after-gl-whole-frame", test_cpu_after_gl_whole_frame, FALSE },
    { "dabs", test_dabs, TRUE },
    { "levels", test_levels, TRUE },
    { "level-whole-image", test_level_whole_image, FALSE },
    { "level-is-half-image", test_level_is_half_image, TRUE },
    { "level-after-drag", test_level_after_drag, FALSE },
    { "level-keeps-source", test_level_keeps_source, FALSE },
    /* a dab's area is blurred on its own either way */
    { "dab-blurs-its-area", test_dab_blurs_its_area, FALSE },
  };
  gsize t;

  /* gegl_node_blit() at scale 0.5 renders at mipmap level 1, as a host's
   * zoomed-out view does, only with this */
  g_setenv ("GEGL_MIPMAP_RENDERING", "1", TRUE);
  test_init (&argc, &argv);
  for (t = 0; t < G_N_ELEMENTS (tests); t++)
    {
      g_autofree gchar *path = g_strconcat ("/incremental/", tests[t].name, NULL);
      g_autofree gchar *without = g_strconcat ("/incremental/without-whole-images/",
                                               tests[t].name, NULL);

      g_test_add_func (path, tests[t].func);
      if (tests[t].without_whole_images)
        g_test_add_data_func (without, (gconstpointer) tests[t].func,
                              test_run_without_whole_images);
    }
  return g_test_run ();
}
