/* The kernel math both backends share, and the CPU backend's impulse
 * responses against the analytic Gaussian. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "cblur-cpu.h"
#include "cblur-kernel.h"
#include "cblur-band-io.h"
#include "cblur-test.h"

static const gdouble radii[] = { 0.3, 1.0, 2.5, 10.0, 33.3, 300.0 };

static void
test_direct_weights_normalized (void)
{
  gsize r;

  for (r = 0; r < G_N_ELEMENTS (radii); r++)
    {
      g_autoptr (CblurKernel) k = cblur_kernel_new (radii[r], CBLUR_MODE_DIRECT, 4);
      const CblurKernelAxis *x = &k->axes[CBLUR_AXIS_X];
      gdouble sum = x->weights[0];
      gint    i;

      g_assert_cmpint (x->half_width, ==, (gint) ceil (radii[r]));
      g_assert_cmpint (k->reach, ==, x->half_width);
      for (i = 1; i <= x->half_width; i++)
        {
          sum += 2.0 * x->weights[i];
          g_assert_cmpfloat (x->weights[i], <=, x->weights[i - 1]);
          g_assert_cmpfloat (x->weights[i], >=, 0.0f);
        }
      g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-6);
    }
}

/* weights as a function of radius, zero-padded to a common length */
static gdouble
weight_at (gdouble radius,
           gint    i)
{
  g_autoptr (CblurKernel) k = cblur_kernel_new (radius, CBLUR_MODE_DIRECT, 4);

  return i <= k->axes[CBLUR_AXIS_X].half_width ? k->axes[CBLUR_AXIS_X].weights[i] : 0.0;
}

static gdouble
largest_step (gdouble from,
              gdouble to,
              gdouble step)
{
  gdouble worst = 0.0;
  gdouble r;
  gint    i;

  for (r = from; r < to; r += step)
    for (i = 0; i <= (gint) ceil (to) + 1; i++)
      worst = MAX (worst, fabs (weight_at (r + step, i) - weight_at (r, i)));
  return worst;
}

/* A slider moved by a little changes the kernel by a little: a jump at
 * whole radii would not shrink with the step. */
static void
test_direct_weights_continuous (void)
{
  gdouble coarse = largest_step (1.5, 4.5, 0.01);
  gdouble fine = largest_step (1.5, 4.5, 0.001);

  g_assert_cmpfloat (coarse, <, 0.01);
  g_assert_cmpfloat (fine, <, coarse / 5.0);
}

/* Box mode blurs radii below CBLUR_BOX_FROM directly, and says so; from
 * there on it is box, on each axis on its own. */
static void
test_box_below_is_direct (void)
{
  g_autoptr (CblurKernel) small = cblur_kernel_new_xy (0.9, 30.0, CBLUR_MODE_BOX, 4);
  g_autoptr (CblurKernel) from = cblur_kernel_new (CBLUR_BOX_FROM, CBLUR_MODE_BOX, 4);
  g_autoptr (CblurKernel) automatic = cblur_kernel_new (0.9, CBLUR_MODE_AUTO, 4);

  g_assert_cmpint (small->axes[CBLUR_AXIS_X].mode, ==, CBLUR_MODE_DIRECT);
  g_assert_cmpint (small->axes[CBLUR_AXIS_Y].mode, ==, CBLUR_MODE_BOX);
  g_assert_true (small->box_as_direct);
  g_assert_cmpint (from->axes[CBLUR_AXIS_X].mode, ==, CBLUR_MODE_BOX);
  g_assert_false (from->box_as_direct);
  g_assert_cmpint (automatic->axes[CBLUR_AXIS_X].mode, ==, CBLUR_MODE_DIRECT);
  g_assert_false (automatic->box_as_direct);
}

static void
test_box_variance_exact (void)
{
  static const gdouble sigmas[] = { 1.5, 2.0, 7.3, 50.0, 1000.0 };
  gsize s;
  gint  n;

  for (s = 0; s < G_N_ELEMENTS (sigmas); s++)
    for (n = CBLUR_ITERATIONS_MIN; n <= CBLUR_ITERATIONS_MAX; n++)
      {
        g_autoptr (CblurKernel) k = cblur_kernel_new (3.0 * sigmas[s], CBLUR_MODE_BOX, n);
        const CblurKernelAxis *x = &k->axes[CBLUR_AXIS_X];
        gdouble kk = x->box_half;
        gdouble a = x->box_fraction;
        gdouble mass = 2.0 * kk + 1.0 + 2.0 * a;
        gdouble second = kk * (kk + 1.0) * (2.0 * kk + 1.0) / 3.0 + 2.0 * a * (kk + 1.0) * (kk + 1.0);

        g_assert_cmpfloat (a, >=, 0.0);
        g_assert_cmpfloat (a, <, 1.0);
        g_assert_cmpfloat_with_epsilon (x->box_scale * mass, 1.0, 1e-6);
        g_assert_cmpfloat_with_epsilon (second / mass * n / (sigmas[s] * sigmas[s]), 1.0, 1e-6);
        g_assert_cmpint (k->reach, ==, n * (x->box_half + 1));
        g_assert_cmpint (x->box_block, ==, 2 * x->box_half + 1);
      }
}

static void
test_auto_mode_and_identity (void)
{
  g_autoptr (CblurKernel) small = cblur_kernel_new (3.0, CBLUR_MODE_AUTO, 4);
  g_autoptr (CblurKernel) large = cblur_kernel_new (300.0, CBLUR_MODE_AUTO, 4);
  g_autoptr (CblurKernel) zero = cblur_kernel_new (0.0, CBLUR_MODE_BOX, 4);
  g_autoptr (CblurKernel) nan = cblur_kernel_new (NAN, CBLUR_MODE_DIRECT, 4);
  g_autoptr (CblurKernel) huge = cblur_kernel_new (1e30, CBLUR_MODE_BOX, 99);

  g_assert_cmpint (small->mode, ==, CBLUR_MODE_DIRECT);
  g_assert_cmpint (large->mode, ==, CBLUR_MODE_BOX);
  g_assert_true (cblur_kernel_is_identity (zero));
  g_assert_true (cblur_kernel_is_identity (nan));
  g_assert_cmpfloat (huge->axes[CBLUR_AXIS_X].radius, ==, CBLUR_RADIUS_MAX);
  g_assert_cmpint (huge->axes[CBLUR_AXIS_X].iterations, ==, CBLUR_ITERATIONS_MAX);
}

/* Each axis its own kernel, as one radius makes it; the halo is the
 * larger reach and its axis's mode the kernel's; an axis at 0 is one tap
 * of 1, in any mode. */
static void
test_axes (void)
{
  g_autoptr (CblurKernel) k = cblur_kernel_new_xy (10.0, 90.0, CBLUR_MODE_AUTO, 5);
  g_autoptr (CblurKernel) x_alone = cblur_kernel_new (10.0, CBLUR_MODE_AUTO, 5);
  g_autoptr (CblurKernel) y_alone = cblur_kernel_new (90.0, CBLUR_MODE_AUTO, 5);
  g_autoptr (CblurKernel) rows = cblur_kernel_new_xy (7.5, 0.0, CBLUR_MODE_BOX, 4);
  const CblurKernelAxis  *x = &k->axes[CBLUR_AXIS_X];
  const CblurKernelAxis  *y = &k->axes[CBLUR_AXIS_Y];
  const CblurKernelAxis  *none = &rows->axes[CBLUR_AXIS_Y];

  g_assert_cmpint (x->mode, ==, CBLUR_MODE_DIRECT);
  g_assert_cmpint (x->reach, ==, x_alone->reach);
  g_assert_cmpmem (x->weights, (x->half_width + 1) * sizeof (gfloat),
                   x_alone->axes[CBLUR_AXIS_X].weights, (x->half_width + 1) * sizeof (gfloat));
  g_assert_cmpint (y->mode, ==, CBLUR_MODE_BOX);
  g_assert_cmpint (y->box_half, ==, y_alone->axes[CBLUR_AXIS_Y].box_half);
  g_assert_cmpfloat (y->box_fraction, ==, y_alone->axes[CBLUR_AXIS_Y].box_fraction);
  g_assert_cmpint (k->reach, ==, y_alone->reach);
  g_assert_cmpint (k->mode, ==, CBLUR_MODE_BOX);
  g_assert_cmpint (cblur_kernel_skip (k, CBLUR_AXIS_X), ==, y->reach - x->reach);
  g_assert_cmpint (cblur_kernel_skip (k, CBLUR_AXIS_Y), ==, 0);

  g_assert_cmpint (none->mode, ==, CBLUR_MODE_DIRECT);
  g_assert_cmpint (none->reach, ==, 0);
  g_assert_cmpfloat (none->weights[0], ==, 1.0f);
  g_assert_cmpint (rows->reach, ==, rows->axes[CBLUR_AXIS_X].reach);
  g_assert_false (cblur_kernel_is_identity (rows));
}

/* Every power of two from the smallest subnormal double to 1/2, with the
 * smallest doubles themselves and their neighbours, in every mode: a
 * radius either blurs, with finite weights of which the centre's
 * neighbours' are normal floats, or is too small to and is the identity,
 * as every subnormal radius and the smallest normal ones are. */
static void
test_tiny_radii (void)
{
  static const CblurMode modes[] = { CBLUR_MODE_AUTO, CBLUR_MODE_DIRECT, CBLUR_MODE_BOX };
  gint                   e, m, n, identities = 0;

  for (m = 0; m < (gint) G_N_ELEMENTS (modes); m++)
    for (e = -1074; e <= 0; e++)
      for (n = 1; n <= 3; n++)
        {
          gdouble                 radius = e < 0 ? n * ldexp (1.0, e) : 0.0;
          g_autoptr (CblurKernel) k = cblur_kernel_new (radius, modes[m], 4);
          gint                    reach = cblur_kernel_reach (radius, modes[m], 4);
          const CblurKernelAxis  *x = &k->axes[CBLUR_AXIS_X];

          g_assert_cmpint (reach, ==, k->reach);
          if (radius < 1e-20)
            g_assert_true (cblur_kernel_is_identity (k));
          if (cblur_kernel_is_identity (k))
            {
              identities++;
              continue;
            }
          if (x->mode == CBLUR_MODE_DIRECT)
            {
              g_assert_true (isfinite (x->weights[0]));
              g_assert_cmpfloat (x->weights[1], >=, FLT_MIN);
            }
          else
            {
              g_assert_cmpfloat (x->box_fraction, >=, FLT_MIN);
              g_assert_true (isfinite (x->box_scale));
            }
        }
  g_test_message ("%d of %d tiny radii are the identity", identities, 3 * 1075 * 3);
}

/* The 2-D response of the CPU backend to a unit impulse. */
static gfloat *
impulse_response (const CblurKernel *k,
                  gint               size)
{
  gint        side = size + 2 * k->reach;
  CblurImage  src = { g_new0 (gfloat, (gsize) side * side * 4), -k->reach - size / 2,
                      -k->reach - size / 2, side, side, (gsize) side * 4 };
  CblurImage  dst = { g_new0 (gfloat, (gsize) size * size * 4), -size / 2, -size / 2,
                      size, size, (gsize) size * 4 };
  gint        c;

  for (c = 0; c < 4; c++)
    src.data[((gsize) (side / 2) * side + side / 2) * 4 + c] = 1.0f;
  cblur_cpu_blur (k, &src, NULL, GEGL_ABYSS_NONE, FALSE, &dst);
  g_free (src.data);
  return dst.data;
}

static void
check_impulse (CblurMode mode,
               gdouble   sigma,
               gdouble   tolerance)
{
  g_autoptr (CblurKernel) k = cblur_kernel_new (3.0 * sigma, mode, 4);
  gint    size = 2 * (gint) ceil (4.0 * sigma) + 1;
  gfloat *response = impulse_response (k, size);
  gdouble peak = 1.0 / (2.0 * G_PI * sigma * sigma);
  gdouble mass = 0.0, variance = 0.0, worst = 0.0;
  gint    x, y;

  for (y = 0; y < size; y++)
    for (x = 0; x < size; x++)
      {
        gdouble dx = x - size / 2, dy = y - size / 2;
        gdouble v = response[((gsize) y * size + x) * 4];
        gdouble g = peak * exp (-(dx * dx + dy * dy) / (2.0 * sigma * sigma));

        mass += v;
        variance += v * dx * dx;
        worst = MAX (worst, fabs (v - g));
      }

  g_assert_cmpfloat_with_epsilon (mass, 1.0, 1e-4);
  /* truncation at 3 sigma narrows the direct kernel a little */
  g_assert_cmpfloat_with_epsilon (variance / (sigma * sigma), 1.0,
                                  mode == CBLUR_MODE_BOX ? 1e-3 : 0.03);
  g_assert_cmpfloat (worst / peak, <, tolerance);
  g_free (response);
}

static void
test_impulse_direct (void)
{
  check_impulse (CBLUR_MODE_DIRECT, 2.0, 0.01);
  check_impulse (CBLUR_MODE_DIRECT, 5.0, 0.01);
}

static void
test_impulse_box (void)
{
  /* four box passes stay within a few percent of the Gaussian's peak */
  check_impulse (CBLUR_MODE_BOX, 3.0, 0.08);
  check_impulse (CBLUR_MODE_BOX, 12.0, 0.08);
}

/* Any sub-rectangle computed on its own is bit-identical to the same
 * pixels of a larger computation, wherever it starts. */
static void
test_regions_bit_identical (void)
{
  static const CblurMode modes[] = { CBLUR_MODE_DIRECT, CBLUR_MODE_BOX };
  gint     width = 150, height = 90;
  GRand   *rand = g_rand_new_with_seed (7);
  gsize    m;

  for (m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr (CblurKernel) k = cblur_kernel_new (14.2, modes[m], 5);
      gint       R = k->reach;
      gint       sw = width + 2 * R, sh = height + 2 * R;
      gfloat    *plane = g_new (gfloat, (gsize) sw * sh * 4);
      CblurImage src = { plane, -R - 37, -R + 11, sw, sh, (gsize) sw * 4 };
      CblurImage whole = { g_new (gfloat, (gsize) width * height * 4), -37, 11,
                           width, height, (gsize) width * 4 };
      gsize      i;
      gint       trial;

      for (i = 0; i < (gsize) sw * sh * 4; i++)
        plane[i] = g_rand_double (rand);
      cblur_cpu_blur (k, &src, NULL, GEGL_ABYSS_NONE, FALSE, &whole);

      for (trial = 0; trial < 6; trial++)
        {
          gint       x = g_rand_int_range (rand, 0, width - 10);
          gint       y = g_rand_int_range (rand, 0, height - 10);
          gint       w = g_rand_int_range (rand, 1, width - x);
          gint       h = g_rand_int_range (rand, 1, height - y);
          CblurImage sub_src = { plane + ((gsize) y * sw + x) * 4, src.x + x, src.y + y,
                                 w + 2 * R, h + 2 * R, src.stride };
          CblurImage part = { g_new (gfloat, (gsize) w * h * 4), whole.x + x, whole.y + y,
                              w, h, (gsize) w * 4 };
          gint       row;

          cblur_cpu_blur (k, &sub_src, NULL, GEGL_ABYSS_NONE, FALSE, &part);
          for (row = 0; row < h; row++)
            g_assert_cmpmem (cblur_image_row (&part, row), w * 4 * sizeof (gfloat),
                             cblur_image_row (&whole, y + row) + x * 4,
                             w * 4 * sizeof (gfloat));
          g_free (part.data);
        }

      g_free (plane);
      g_free (whole.data);
    }
  g_rand_free (rand);
}

/* The abyss the CPU makes around GEGL's pixels is GEGL's own, to the bit
 * of the blur: the same blur of src read whole through gegl_buffer_get
 * under each policy.  Outside `inside` the made src holds NaN, which any
 * read of it would spread into the output. */
static void
test_made_abyss (void)
{
  static const CblurMode modes[] = { CBLUR_MODE_DIRECT, CBLUR_MODE_BOX };
  static const gdouble   radii[] = { 4.0, 50.0 };
  static const GeglRectangle outputs[] = {
    { 0, 0, 61, 37 }, { 0, 0, 61, 12 }, { 20, 25, 41, 12 }, { -9, 5, 30, 40 },
  };
  GeglBuffer    *image = test_random_buffer (61, 37, 5);
  const Babl    *format = babl_format (TEST_FORMAT);
  GeglAbyssPolicy policy;
  gsize          m, r, o;

  for (policy = GEGL_ABYSS_NONE; policy <= GEGL_ABYSS_WHITE; policy++)
    for (m = 0; m < G_N_ELEMENTS (modes); m++)
      for (r = 0; r < G_N_ELEMENTS (radii); r++)
        for (o = 0; o < G_N_ELEMENTS (outputs); o++)
          {
            g_autoptr (CblurKernel) k = cblur_kernel_new (radii[r], modes[m], 4);
            gint          R = k->reach;
            const GeglRectangle *out = &outputs[o];
            GeglRectangle src_rect = { out->x - R, out->y - R,
                                       out->width + 2 * R, out->height + 2 * R };
            gsize         floats = (gsize) src_rect.width * src_rect.height * 4;
            gsize         stride = (gsize) src_rect.width * 4;
            gsize         out_floats = (gsize) out->width * out->height * 4;
            CblurBandIo   band_io = { .inside = *gegl_buffer_get_extent (image),
                                     .abyss = policy };
            g_autofree gfloat *read_pixels = g_new (gfloat, floats);
            g_autofree gfloat *made_pixels = g_new (gfloat, floats);
            g_autofree gfloat *from_read = g_new (gfloat, out_floats);
            g_autofree gfloat *from_made = g_new (gfloat, out_floats);
            CblurImage    read = { read_pixels, src_rect.x, src_rect.y,
                                   src_rect.width, src_rect.height, stride };
            CblurImage    made = { made_pixels, src_rect.x, src_rect.y,
                                   src_rect.width, src_rect.height, stride };
            CblurImage    blurred_read = { from_read, out->x, out->y, out->width, out->height,
                                           (gsize) out->width * 4 };
            CblurImage    blurred_made = { from_made, out->x, out->y, out->width, out->height,
                                           (gsize) out->width * 4 };
            CblurImage    inside;
            gsize         i;

            /* as the op decides: loop's far side must be in src */
            if (!cblur_band_io_inside (&band_io, &made, &inside))
              {
                g_assert_cmpint (policy, ==, GEGL_ABYSS_LOOP);
                continue;
              }

            gegl_buffer_get (image, &src_rect, 1.0, format, read.data,
                             stride * sizeof (gfloat), policy);
            for (i = 0; i < floats; i++)
              made.data[i] = NAN;
            gegl_buffer_get (image, GEGL_RECTANGLE (inside.x, inside.y, inside.width,
                                                    inside.height),
                             1.0, format, inside.data, stride * sizeof (gfloat),
                             GEGL_ABYSS_NONE);

            cblur_cpu_blur (k, &read, NULL, GEGL_ABYSS_NONE, FALSE, &blurred_read);
            cblur_cpu_blur (k, &made, &inside, policy, FALSE, &blurred_made);
            g_assert_cmpmem (from_read, out_floats * sizeof (gfloat),
                             from_made, out_floats * sizeof (gfloat));
          }

  g_object_unref (image);
}

/* pixels read from `from` and written into `to`, counting writes */
typedef struct
{
  const CblurImage *from;
  const CblurImage *to;
  guint8           *writes;
} Plane;

static void
plane_read (const CblurImage *image,
            gint              x,
            gint              y,
            gint              width,
            gint              height,
            gpointer          user_data)
{
  const Plane *plane = user_data;
  gint         row;

  for (row = y; row < y + height; row++)
    memcpy (cblur_image_pixel (image, x, row),
            cblur_image_pixel (plane->from, image->x + x - plane->from->x,
                               image->y + row - plane->from->y),
            (gsize) width * 4 * sizeof (gfloat));
}

static void
plane_write (const CblurImage *image,
             gint              x,
             gint              y,
             gint              width,
             gint              height,
             gpointer          user_data)
{
  const Plane *plane = user_data;
  gint         row, i;

  for (row = y; row < y + height; row++)
    {
      gint to_x = image->x + x - plane->to->x;
      gint to_y = image->y + row - plane->to->y;

      memcpy (cblur_image_pixel (plane->to, to_x, to_y), cblur_image_pixel (image, x, row),
              (gsize) width * 4 * sizeof (gfloat));
      for (i = 0; i < width; i++)
        plane->writes[(gsize) to_y * plane->to->width + to_x + i]++;
    }
}

/* the streamed result the same bits as the one in memory, each of its
 * n pixels written once; the counts start again for the next run */
static void
assert_streamed_as_in_memory (const gfloat *expected,
                              const gfloat *streamed,
                              guint8       *writes,
                              gsize         n)
{
  gsize i;

  g_assert_cmpmem (expected, n * 4 * sizeof (gfloat), streamed, n * 4 * sizeof (gfloat));
  for (i = 0; i < n; i++)
    g_assert_cmpint (writes[i], ==, 1);
  memset (writes, 0, n);
}

/* Read through a band io and handed back in chunks of GEGL's tiles, a
 * blur is the same bits as on pixels in memory, each pixel written once,
 * whatever the tiles and wherever the output starts; with the abyss made
 * around an inside too. */
static void
test_streamed_bit_identical (void)
{
  static const CblurMode     modes[] = { CBLUR_MODE_DIRECT, CBLUR_MODE_BOX };
  static const gint          tiles[][2] = { { 0, 0 }, { 16, 8 }, { 24, 7 }, { 100, 30 },
                                            { 128, 64 }, { 1000, 1000 } };
  static const GeglRectangle outputs[] = {
    { -37, 11, 150, 90 }, { 5, -3, 1, 40 }, { 130, 0, 37, 3 }, { 9, 17, 64, 64 },
  };
  GRand *rand = g_rand_new_with_seed (11);
  gsize  m, t, o;

  for (m = 0; m < G_N_ELEMENTS (modes); m++)
    for (o = 0; o < G_N_ELEMENTS (outputs); o++)
      for (t = 0; t < G_N_ELEMENTS (tiles); t++)
        {
          g_autoptr (CblurKernel) k = cblur_kernel_new (9.5, modes[m], 4);
          const GeglRectangle *out = &outputs[o];
          gint         R = k->reach;
          gint         sw = out->width + 2 * R, sh = out->height + 2 * R;
          gsize        n_out = (gsize) out->width * out->height;
          g_autofree gfloat *plane = g_new (gfloat, (gsize) sw * sh * 4);
          g_autofree gfloat *expected = g_new (gfloat, n_out * 4);
          g_autofree gfloat *streamed = g_new (gfloat, n_out * 4);
          g_autofree guint8 *writes = g_new0 (guint8, n_out);
          CblurImage   src = { plane, out->x - R, out->y - R, sw, sh, (gsize) sw * 4 };
          CblurImage   in_memory = { expected, out->x, out->y, out->width, out->height,
                                     (gsize) out->width * 4 };
          CblurImage   result = { streamed, out->x, out->y, out->width, out->height,
                                  (gsize) out->width * 4 };
          CblurImage   no_src = { NULL, src.x, src.y, sw, sh, 0 };
          CblurImage   no_dst = { NULL, out->x, out->y, out->width, out->height, 0 };
          /* the inside: all but R / 2 rows and columns at the top left */
          CblurImage   inside = { plane + ((gsize) (R / 2) * sw + R / 2) * 4, src.x + R / 2,
                                  src.y + R / 2, sw - R / 2, sh - R / 2, src.stride };
          CblurImage   no_inside = { NULL, inside.x, inside.y, inside.width, inside.height, 0 };
          Plane        io = { &src, &result, writes };
          CblurBandIo  band_io = { plane_read, plane_write, &io, tiles[t][0], tiles[t][1] };
          gsize        i;

          for (i = 0; i < (gsize) sw * sh * 4; i++)
            plane[i] = g_rand_double (rand);

          cblur_cpu_blur (k, &src, NULL, GEGL_ABYSS_NONE, FALSE, &in_memory);
          cblur_cpu_blur_stream (k, &no_src, NULL, GEGL_ABYSS_NONE, FALSE, &no_dst, &band_io);
          assert_streamed_as_in_memory (expected, streamed, writes, n_out);

          cblur_cpu_blur (k, &src, &inside, GEGL_ABYSS_CLAMP, FALSE, &in_memory);
          cblur_cpu_blur_stream (k, &no_src, &no_inside, GEGL_ABYSS_CLAMP, FALSE, &no_dst,
                                 &band_io);
          assert_streamed_as_in_memory (expected, streamed, writes, n_out);
        }
  g_rand_free (rand);
}

gint
main (gint    argc,
      gchar **argv)
{
  test_init (&argc, &argv);

  g_test_add_func ("/kernel/direct/normalized", test_direct_weights_normalized);
  g_test_add_func ("/kernel/direct/continuous-in-radius", test_direct_weights_continuous);
  g_test_add_func ("/kernel/box/variance-exact", test_box_variance_exact);
  g_test_add_func ("/kernel/box/below-is-direct", test_box_below_is_direct);
  g_test_add_func ("/kernel/auto-mode-and-identity", test_auto_mode_and_identity);
  g_test_add_func ("/kernel/axes", test_axes);
  g_test_add_func ("/kernel/tiny-radii", test_tiny_radii);
  g_test_add_func ("/cpu/impulse/direct", test_impulse_direct);
  g_test_add_func ("/cpu/impulse/box", test_impulse_box);
  g_test_add_func ("/cpu/regions-bit-identical", test_regions_bit_identical);
  g_test_add_func ("/cpu/made-abyss", test_made_abyss);
  g_test_add_func ("/cpu/streamed-bit-identical", test_streamed_bit_identical);

  return g_test_run ();
}
