#include "gl-test.h"
#include "cblur-settings.h"

#include <math.h>
#include <string.h>

/* words of padding at the end of each row */
#define ROW_PADDING 12

CblurImage *
gl_test_image_new (const CblurFormat *format,
                   gint               x,
                   gint               y,
                   gint               width,
                   gint               height)
{
  CblurImage *image = g_new0 (CblurImage, 1);

  image->x = x;
  image->y = y;
  image->width = width;
  image->height = height;
  image->format = format;
  image->stride = cblur_image_packed_stride (image) + ROW_PADDING;
  image->data = g_new0 (gfloat, image->stride * MAX (height, 1));
  return image;
}

CblurImage *
gl_test_random_image (gint    x,
                      gint    y,
                      gint    width,
                      gint    height,
                      guint32 seed)
{
  CblurImage *image = gl_test_image_new (NULL, x, y, width, height);
  GRand      *rand = g_rand_new_with_seed (seed);
  gsize       i;

  for (i = 0; i < image->stride * image->height; i++)
    image->data[i] = g_rand_double (rand);
  g_rand_free (rand);
  return image;
}

CblurImage *
gl_test_random_input (const CblurKernel *kernel,
                      gint               x,
                      gint               y,
                      gint               width,
                      gint               height,
                      guint32            seed)
{
  gint reach = kernel->reach;

  return gl_test_random_image (x - reach, y - reach, width + 2 * reach, height + 2 * reach,
                               seed);
}

CblurImage *
gl_test_blank_image (gint x,
                     gint y,
                     gint width,
                     gint height)
{
  CblurImage *image = gl_test_image_new (NULL, x, y, width, height);
  gsize       i;

  for (i = 0; i < image->stride * height; i++)
    image->data[i] = NAN;
  return image;
}

void
gl_test_image_free (CblurImage *image)
{
  g_free (image->data);
  g_free (image);
}

gdouble
gl_test_max_diff (const CblurImage *a,
                  const CblurImage *b)
{
  gdouble worst = 0.0;
  gint    row;

  g_assert_cmpint (a->width, ==, b->width);
  g_assert_cmpint (a->height, ==, b->height);
  for (row = 0; row < a->height; row++)
    worst = MAX (worst, test_max_abs_diff (cblur_image_row (a, row),
                                           cblur_image_row (b, row),
                                           (gsize) a->width * CBLUR_CHANNELS));
  return worst;
}

gdouble
gl_test_against_cpu (const CblurKernel *kernel,
                     gint               x,
                     gint               y,
                     gint               width,
                     gint               height,
                     guint32            seed,
                     CblurGlReport     *report)
{
  CblurImage *src = gl_test_random_input (kernel, x, y, width, height, seed);
  CblurImage *on_gl = gl_test_blank_image (x, y, width, height);
  CblurImage *on_cpu = gl_test_blank_image (x, y, width, height);
  GError     *error = NULL;
  gboolean    ok;
  gdouble     diff;

  ok = cblur_gl_blur (NULL, kernel, src, on_gl, NULL, report, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);
  diff = gl_test_max_diff (on_gl, on_cpu);

  gl_test_image_free (src);
  gl_test_image_free (on_gl);
  gl_test_image_free (on_cpu);
  return diff;
}

/* width × height pixels at x, y (absolute) from one image to the other,
 * both in one format */
static void
copy_rect (const CblurImage *to,
           const CblurImage *from,
           gint              x,
           gint              y,
           gint              width,
           gint              height)
{
  gint row;

  for (row = y; row < y + height; row++)
    memcpy (cblur_image_bytes (to, x - to->x, row - to->y),
            cblur_image_bytes (from, x - from->x, row - from->y),
            width * cblur_image_pixel_bytes (to));
}

static void
gegl_read (const CblurImage *src, gint x, gint y, gint width, gint height, gpointer data)
{
  GlTestGegl   *gegl = data;
  GeglRectangle asked = { src->x + x, src->y + y, width, height };
  GeglRectangle held = { gegl->from->x, gegl->from->y, gegl->from->width, gegl->from->height };

  g_assert_true (gegl_rectangle_contains (&held, &asked));
  g_usleep (gegl->read_delay_us);
  copy_rect (src, gegl->from, src->x + x, src->y + y, width, height);
}

static void
gegl_write (const CblurImage *dst, gint x, gint y, gint width, gint height, gpointer data)
{
  copy_rect (((GlTestGegl *) data)->to, dst, dst->x + x, dst->y + y, width, height);
}

CblurBandIo
gl_test_stream (GlTestGegl *gegl)
{
  CblurBandIo band_io = { gegl_read, gegl_write, gegl, 32, 16 };

  return band_io;
}

void
gl_test_blur_streamed (CblurBackendKind   backend,
                       const CblurKernel *kernel,
                       CblurBandIo       *band_io,
                       CblurRunReport    *report)
{
  const GlTestGegl *gegl = band_io->user_data;
  CblurImage        dst = *gegl->to;
  CblurImage        src = { NULL, dst.x - kernel->reach, dst.y - kernel->reach,
                            dst.width + 2 * kernel->reach, dst.height + 2 * kernel->reach, 0,
                            gegl->from->format };
  CblurBandMemory  *band = cblur_band_memory_new (backend, kernel, band_io, &src, &dst);

  g_assert_nonnull (band);
  cblur_backend_blur (band, backend, kernel, &src, &dst, band_io, report);
  cblur_band_memory_free (band);
}

void
gl_test_set (const gchar *name,
             const gchar *value)
{
  if (value != NULL)
    g_setenv (name, value, TRUE);
  else
    g_unsetenv (name);
  cblur_settings_reload ();
}

gboolean
gl_test_comes_to (gboolean    (*check) (gconstpointer data),
                  gconstpointer data,
                  gboolean      wanted,
                  gint64        within_us)
{
  gint64 until = g_get_monotonic_time () + within_us;

  while (!check (data) != !wanted)
    {
      if (g_get_monotonic_time () > until)
        return FALSE;
      g_usleep (1000);
    }
  return TRUE;
}

int
gl_test_run (void)
{
  int result = g_test_run ();

  /* which lets our context and its thread go */
  gegl_exit ();
  return result;
}
