/* The band io against a stand-in for GEGL: plain arrays that count how
 * often each pixel is read and written. */
#include "cblur-test.h"
#include "cblur-pixel.h"
#include "cblur-band-io.h"

/* a "GEGL image" of width × height at x, y: values, and counts per pixel */
typedef struct
{
  GeglRectangle rect;
  gfloat       *pixels;
  gint         *reads;
  gint         *writes;
  GMutex        lock;
} Side;

static void
side_init (Side                *side,
           const GeglRectangle *rect)
{
  gsize n = (gsize) rect->width * rect->height;
  gsize i;

  side->rect = *rect;
  side->pixels = g_new (gfloat, n);
  side->reads = g_new0 (gint, n);
  side->writes = g_new0 (gint, n);
  for (i = 0; i < n; i++)
    side->pixels[i] = g_test_rand_double ();
  g_mutex_init (&side->lock);
}

static void
side_clear (Side *side)
{
  g_free (side->pixels);
  g_free (side->reads);
  g_free (side->writes);
  g_mutex_clear (&side->lock);
}

/* the backends' layout; these tests use the first channel */
static CblurImage *
band_image (const GeglRectangle *rect)
{
  CblurImage *image = g_new0 (CblurImage, 1);

  image->x = rect->x;
  image->y = rect->y;
  image->width = rect->width;
  image->height = rect->height;
  image->stride = (rect->width + 3) * CBLUR_CHANNELS;
  image->data = g_new0 (gfloat, image->stride * rect->height);
  return image;
}

static void
band_image_free (CblurImage *image)
{
  g_free (image->data);
  g_free (image);
}

static gsize
side_index (const Side       *side,
            const CblurImage *image,
            gint              x,
            gint              y)
{
  return (gsize) (image->y + y - side->rect.y) * side->rect.width + image->x + x - side->rect.x;
}

/* Both directions through one band io: reads come from `in`, writes go
 * to `out` */
typedef struct
{
  Side *in;
  Side *out;
} Sides;

static void
sides_read (const CblurImage *image, gint x, gint y, gint width, gint height, gpointer data)
{
  Side *in = ((Sides *) data)->in;
  gint  i, j;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x + width, <=, image->width);
  g_assert_cmpint (y + height, <=, image->height);
  for (j = y; j < y + height; j++)
    for (i = x; i < x + width; i++)
      {
        gsize k = side_index (in, image, i, j);

        *cblur_image_pixel (image, i, j) = in->pixels[k];
        g_atomic_int_inc (&in->reads[k]);
      }
}

static void
sides_write (const CblurImage *image, gint x, gint y, gint width, gint height, gpointer data)
{
  Side *out = ((Sides *) data)->out;
  gint  i, j;

  for (j = y; j < y + height; j++)
    for (i = x; i < x + width; i++)
      {
        gsize k = side_index (out, image, i, j);

        out->pixels[k] = *cblur_image_pixel (image, i, j);
        g_atomic_int_inc (&out->writes[k]);
      }
}

static void
assert_read_once (const Side       *in,
                  const CblurImage *src)
{
  gint x, y;

  for (y = 0; y < src->height; y++)
    for (x = 0; x < src->width; x++)
      {
        gsize k = side_index (in, src, x, y);

        g_assert_cmpint (in->reads[k], ==, 1);
        g_assert_cmpfloat (*cblur_image_pixel (src, x, y), ==, in->pixels[k]);
      }
}

/* rows of dst above written_rows written once, with dst's values; the
 * rest never */
static void
assert_written (const Side       *out,
                const CblurImage *dst,
                gint              written_rows)
{
  gint x, y;

  for (y = 0; y < dst->height; y++)
    for (x = 0; x < dst->width; x++)
      {
        gsize k = side_index (out, dst, x, y);

        g_assert_cmpint (out->writes[k], ==, y < written_rows ? 1 : 0);
        if (y < written_rows)
          g_assert_cmpfloat (out->pixels[k], ==, *cblur_image_pixel (dst, x, y));
      }
}

typedef struct
{
  GeglRectangle dst;
  gint          reach;
  gint          tile_width;
  gint          tile_height;
  gint          threads;
} Shape;

static const Shape shapes[] = {
  { { 0, 0, 300, 260 }, 9, 32, 16, 4 },
  { { -37, 11, 129, 77 }, 13, 16, 8, 3 },
  { { 5, -3, 1, 100 }, 2, 128, 128, 4 },
  { { 0, 0, 700, 1 }, 0, 64, 64, 2 },
  /* one thread: GEGL's pool busy elsewhere does it all on one */
  { { 3, 3, 90, 90 }, 4, 16, 16, 1 },
};

static void
run_shape (const Shape *shape,
           gboolean     streamed,
           gint         release_step,
           gint         release_until)
{
  GeglRectangle src_rect = { shape->dst.x - shape->reach, shape->dst.y - shape->reach,
                             shape->dst.width + 2 * shape->reach,
                             shape->dst.height + 2 * shape->reach };
  CblurImage   *src = band_image (&src_rect);
  CblurImage   *dst = band_image (&shape->dst);
  Side          in, out;
  Sides         sides = { &in, &out };
  CblurBandIo   band_io = { sides_read, sides_write, &sides, shape->tile_width, shape->tile_height };
  gint          x, y;

  g_object_set (gegl_config (), "threads", shape->threads, NULL);
  side_init (&in, &src_rect);
  side_init (&out, &shape->dst);
  for (y = 0; y < (gint) (dst->stride * dst->height); y++)
    dst->data[y] = g_test_rand_double ();

  if (!streamed)
    {
      cblur_band_io_read_all (&band_io, src);
      cblur_band_io_write_all (&band_io, dst);
      release_until = dst->height;
    }
  else
    {
      CblurStreamRun *run = cblur_stream_start (&band_io, src, dst);
      gint            rows = 0;
      gint            released = 0;

      /* a wait with no time to wait returns at once */
      g_assert_cmpint (cblur_stream_wait_read (run, src->height, 0), <=, src->height);

      /* rows arrive from the top, in order, until all have; as the GPU
       * would, output rows go back while the rest are still read */
      while (rows < src->height)
        {
          gint more = cblur_stream_wait_read (run, rows, -1);

          g_assert_cmpint (more, >, rows);
          g_assert_cmpint (more, <=, src->height);
          /* rows reported are all there */
          for (; rows < more; rows++)
            for (x = 0; x < src->width; x++)
              g_assert_cmpint (g_atomic_int_get (&in.reads[side_index (&in, src, x, rows)]), ==, 1);
          released = MIN (MAX (released, rows - 2 * shape->reach), release_until);
          cblur_stream_release (run, released);
        }
      while (released < release_until)
        {
          released = MIN (released + release_step, release_until);
          cblur_stream_release (run, released);
        }
      cblur_stream_finish (run);
    }

  assert_read_once (&in, src);
  if (release_until < dst->height)
    {
      /* written: whole bands of tiles inside the released rows */
      gint band_end = ((dst->y + release_until) / shape->tile_height) * shape->tile_height - dst->y;

      if (dst->y + release_until < 0)
        band_end = 0;
      assert_written (&out, dst, MAX (band_end, 0));
    }
  else
    assert_written (&out, dst, dst->height);

  side_clear (&in);
  side_clear (&out);
  band_image_free (src);
  band_image_free (dst);
}

static void
test_whole (void)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (shapes); i++)
    run_shape (&shapes[i], FALSE, 0, 0);
}

static void
test_streamed (void)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      run_shape (&shapes[i], TRUE, shapes[i].dst.height, shapes[i].dst.height);
      run_shape (&shapes[i], TRUE, 7, shapes[i].dst.height);
    }
}

/* A GPU failure stops the releases part-way: only the released rows may
 * reach GEGL, and finishing must not hang on the rest. */
static void
test_partly_released (void)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      run_shape (&shapes[i], TRUE, 5, shapes[i].dst.height / 2);
      run_shape (&shapes[i], TRUE, 5, 0);
    }
}

/* A backend reads what lies inside the input, each pixel once, and
 * makes the abyss: nothing outside is read. */
static void
test_inside (void)
{
  static const GeglRectangle insides[] = {
    { 0, 0, 300, 260 }, { 10, -50, 30, 400 }, { -100, 20, 1000, 7 }, { 299, 259, 5, 5 },
  };
  const Shape  *shape = &shapes[0];
  GeglRectangle src_rect = { shape->dst.x - shape->reach, shape->dst.y - shape->reach,
                             shape->dst.width + 2 * shape->reach,
                             shape->dst.height + 2 * shape->reach };
  gsize         i;

  for (i = 0; i < G_N_ELEMENTS (insides); i++)
    {
      CblurImage   *src = band_image (&src_rect);
      CblurImage    inside;
      GeglRectangle part;
      Side          in;
      Sides         sides = { &in, NULL };
      CblurBandIo   band_io = { sides_read, sides_write, &sides, 16, 16, insides[i] };
      gsize         k;
      gint          reads;

      side_init (&in, &src_rect);
      g_assert_true (cblur_band_io_inside (&band_io, src, &inside));
      gegl_rectangle_intersect (&part, &src_rect, &insides[i]);
      g_assert_true (gegl_rectangle_equal (&part, GEGL_RECTANGLE (inside.x, inside.y,
                                                                  inside.width, inside.height)));
      g_assert_true (cblur_image_pixel (&inside, 0, 0) ==
                     cblur_image_pixel (src, inside.x - src->x, inside.y - src->y));
      cblur_band_io_read_all (&band_io, &inside);
      assert_read_once (&in, &inside);
      /* and nothing beside it */
      for (k = 0, reads = 0; k < (gsize) src_rect.width * src_rect.height; k++)
        reads += in.reads[k];
      g_assert_cmpint (reads, ==, inside.width * inside.height);
      side_clear (&in);
      band_image_free (src);
    }

  /* all of src inside, or none of it: nothing to make; under loop's abyss
   * only where src holds all of the input */
  {
    CblurImage *src = band_image (&src_rect);
    CblurImage  inside;
    CblurBandIo all = { sides_read, sides_write, NULL, 16, 16, src_rect };
    CblurBandIo none = { sides_read, sides_write, NULL, 16, 16, { 1000, 1000, 5, 5 } };
    CblurBandIo loop = { sides_read, sides_write, NULL, 16, 16, insides[0], GEGL_ABYSS_LOOP };
    CblurBandIo loop_part = { sides_read, sides_write, NULL, 16, 16, insides[1],
                              GEGL_ABYSS_LOOP };

    g_assert_false (cblur_band_io_inside (&all, src, &inside));
    g_assert_false (cblur_band_io_inside (&none, src, &inside));
    g_assert_cmpint (gegl_rectangle_contains (&src_rect, &insides[0]), ==, TRUE);
    g_assert_true (cblur_band_io_inside (&loop, src, &inside));
    g_assert_false (cblur_band_io_inside (&loop_part, src, &inside));
    band_image_free (src);
  }
}

/* The GPU's premultiplication follows cblur_premultiply(), which must be
 * babl's RGBA float to RaGaBaA float bit for bit: GEGL's own conversion
 * is what a straight source goes through where the GPU does not take it
 * over.
 * Alphas around babl's floor, negative, above one and odd; a row stride
 * wider than the row, whose padding stays. */
static void
test_premultiply_is_babls (void)
{
  static const gfloat alphas[] = {
    0.0f, -0.0f, 1e-40f, 1e-7f, -1e-7f, 1.0f / 65536.0f, -1.0f / 65536.0f,
    1.0001f / 65536.0f, -1.0001f / 65536.0f, 0.5f, 1.0f, 2.5f, -0.3f, 0.999f,
  };
  static const gfloat colours[] = { 0.3f, -2.5f, 100.0f, 1e-3f, 0.0f, 7.0f / 3.0f };
  const gint          width = G_N_ELEMENTS (alphas) * 3;
  const gint          height = G_N_ELEMENTS (colours) + 20;
  const gsize         stride = (gsize) (width + 3) * CBLUR_CHANNELS;
  g_autofree gfloat  *ours = g_new (gfloat, stride * height);
  g_autofree gfloat  *babls = g_new (gfloat, (gsize) width * height * CBLUR_CHANNELS);
  CblurImage          image = { ours, 0, 0, width, height, stride };
  gint                x, y, c;

  for (y = 0; y < height; y++)
    for (x = 0; x < (gint) (stride / CBLUR_CHANNELS); x++)
      for (c = 0; c < CBLUR_CHANNELS; c++)
        {
          gfloat *value = ours + y * stride + (gsize) x * CBLUR_CHANNELS + c;

          if (x >= width)
            *value = -1.0f;
          else if (c == 3)
            *value = x < (gint) G_N_ELEMENTS (alphas) ? alphas[x] : g_test_rand_double_range (-0.5, 1.5);
          else if (y < (gint) G_N_ELEMENTS (colours))
            *value = colours[y] * (c + 1);
          else
            *value = g_test_rand_double_range (-4.0, 4.0);
        }
  for (y = 0; y < height; y++)
    babl_process (babl_fish (babl_format ("RGBA float"), babl_format ("RaGaBaA float")),
                  ours + y * stride, babls + (gsize) y * width * CBLUR_CHANNELS, width);

  cblur_premultiply (&image);

  for (y = 0; y < height; y++)
    {
      g_assert_cmpmem (ours + y * stride, width * CBLUR_CHANNELS * sizeof (gfloat),
                       babls + (gsize) y * width * CBLUR_CHANNELS,
                       width * CBLUR_CHANNELS * sizeof (gfloat));
      for (x = width * CBLUR_CHANNELS; x < (gint) stride; x++)
        g_assert_cmpfloat (ours[y * stride + x], ==, -1.0f);
    }
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_func ("/band-io/whole", test_whole);
  g_test_add_func ("/band-io/streamed", test_streamed);
  g_test_add_func ("/band-io/partly-released", test_partly_released);
  g_test_add_func ("/band-io/inside", test_inside);
  g_test_add_func ("/band-io/premultiply-is-babls", test_premultiply_is_babls);
  return g_test_run ();
}
