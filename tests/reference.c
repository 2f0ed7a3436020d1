#include "reference.h"

#include <math.h>
#include <string.h>

/* A symmetric 1-D kernel: taps[0] is the centre, taps[i] both +i and -i. */
typedef struct
{
  gint     half;
  gdouble *taps;
} Taps;

RefImage *
ref_image_new (gint width,
               gint height)
{
  RefImage *image = g_new0 (RefImage, 1);

  image->width = width;
  image->height = height;
  image->abyss = GEGL_ABYSS_CLAMP;
  image->data = g_new0 (gdouble, (gsize) width * height * 4);
  return image;
}

RefImage *
ref_image_from_floats (const gfloat *rgba,
                       gint          width,
                       gint          height)
{
  RefImage *image = ref_image_new (width, height);
  gsize     i;

  for (i = 0; i < (gsize) width * height * 4; i++)
    image->data[i] = rgba[i];
  return image;
}

void
ref_image_free (RefImage *image)
{
  if (image == NULL)
    return;
  g_free (image->data);
  g_free (image);
}

/* What lies at index i of a line of the given length, beyond its ends. */
static void
abyss_pixel (const gdouble   *line,
             gsize            pixel_step,
             gint             length,
             gint             i,
             GeglAbyssPolicy  abyss,
             gdouble         *out)
{
  static const gdouble transparent[4] = { 0, 0, 0, 0 };
  static const gdouble black[4] = { 0, 0, 0, 1 };
  static const gdouble white[4] = { 1, 1, 1, 1 };
  const gdouble       *from;
  gint                 c;

  if (i >= 0 && i < length)
    from = line + i * pixel_step;
  else if (abyss == GEGL_ABYSS_CLAMP)
    from = line + CLAMP (i, 0, length - 1) * pixel_step;
  else if (abyss == GEGL_ABYSS_LOOP)
    from = line + (((i % length) + length) % length) * pixel_step;
  else if (abyss == GEGL_ABYSS_BLACK)
    from = black;
  else if (abyss == GEGL_ABYSS_WHITE)
    from = white;
  else
    from = transparent;

  for (c = 0; c < 4; c++)
    out[c] = from[c];
}

/* One axis: every line is extended by `reach` pixels of the abyss, then the
 * kernels run one after another, each eating its half-width at both ends. */
static void
blur_lines (gdouble    *data,
            gint        n_lines,
            gint        length,
            gsize       line_step,
            gsize       pixel_step,
            GeglAbyssPolicy abyss,
            const Taps *kernels,
            gint        n_kernels)
{
  gint     reach = 0;
  gint     line, k, i, j, c;

  for (k = 0; k < n_kernels; k++)
    reach += kernels[k].half;

  for (line = 0; line < n_lines; line++)
    {
      gint     n = length + 2 * reach;
      gdouble *a = g_new (gdouble, (gsize) n * 4);
      gdouble *b = g_new (gdouble, (gsize) n * 4);
      gdouble *pixel = data + line * line_step;

      for (i = 0; i < n; i++)
        abyss_pixel (pixel, pixel_step, length, i - reach, abyss, a + i * 4);

      for (k = 0; k < n_kernels; k++)
        {
          const Taps *t = &kernels[k];
          gdouble    *swap;

          n -= 2 * t->half;
          for (i = 0; i < n; i++)
            for (c = 0; c < 4; c++)
              {
                gdouble sum = 0.0;

                for (j = -t->half; j <= t->half; j++)
                  sum += t->taps[ABS (j)] * a[(i + t->half + j) * 4 + c];
                b[i * 4 + c] = sum;
              }
          swap = a; a = b; b = swap;
        }

      for (i = 0; i < length; i++)
        for (c = 0; c < 4; c++)
          pixel[i * pixel_step + c] = a[i * 4 + c];

      g_free (a);
      g_free (b);
    }
}

/* the kernels of each axis, x's along the rows first */
typedef struct
{
  Taps *kernels;
  gint  n_kernels;
} Axis;

static RefImage *
blur_separable (const RefImage *src,
                const Axis     *x,
                const Axis     *y)
{
  RefImage *out = ref_image_new (src->width, src->height);

  memcpy (out->data, src->data, (gsize) src->width * src->height * 4 * sizeof (gdouble));
  out->abyss = src->abyss;
  blur_lines (out->data, out->height, out->width, (gsize) out->width * 4, 4,
              src->abyss, x->kernels, x->n_kernels);
  blur_lines (out->data, out->width, out->height, 4, (gsize) out->width * 4,
              src->abyss, y->kernels, y->n_kernels);
  return out;
}

static void
axis_clear (Axis *axis)
{
  gint k;

  for (k = 0; k < axis->n_kernels; k++)
    g_free (axis->kernels[k].taps);
  g_free (axis->kernels);
}

/* blur_separable, the axes' kernels freed */
static RefImage *
blur_axes (const RefImage *src,
           Axis            x,
           Axis            y)
{
  RefImage *out = blur_separable (src, &x, &y);

  axis_clear (&x);
  axis_clear (&y);
  return out;
}

static void
normalize (Taps *t)
{
  gdouble sum = t->taps[0];
  gint    i;

  for (i = 1; i <= t->half; i++)
    sum += 2.0 * t->taps[i];
  for (i = 0; i <= t->half; i++)
    t->taps[i] /= sum;
}

/* radius 0 is one tap of 1 */
static Axis
direct_axis (gdouble radius)
{
  gdouble sigma = radius / 3.0;
  Axis    axis = { g_new (Taps, 1), 1 };
  Taps   *t = axis.kernels;
  gint    i;

  t->half = (gint) ceil (radius);
  t->taps = g_new (gdouble, t->half + 1);
  for (i = 0; i <= t->half; i++)
    t->taps[i] = (i == 0 ? 1.0 : exp (-(gdouble) i * i / (2.0 * sigma * sigma)))
                 * fmin (1.0, radius + 1.0 - i);
  normalize (t);
  return axis;
}

RefImage *
ref_blur_direct (const RefImage *src,
                 gdouble         radius)
{
  return ref_blur_direct_xy (src, radius, radius);
}

RefImage *
ref_blur_direct_xy (const RefImage *src,
                    gdouble         radius_x,
                    gdouble         radius_y)
{
  return blur_axes (src, direct_axis (radius_x), direct_axis (radius_y));
}

/* radius 0 is no passes at all; below radius 4.5 box mode is direct */
static Axis
box_axis (gdouble radius,
          gint    iterations)
{
  gdouble variance = (radius / 3.0) * (radius / 3.0) / iterations;
  Taps   *passes;
  gint    k = 0, i, p;
  gdouble fraction;

  if (radius == 0.0)
    return (Axis) { NULL, 0 };
  if (radius < 4.5)
    return direct_axis (radius);
  passes = g_new (Taps, iterations);

  /* the widest odd box whose variance k(k+1)/3 stays within the target */
  while ((k + 1.0) * (k + 2.0) / 3.0 <= variance)
    k++;
  /* weight a of the two extra end pixels: the variance becomes exact */
  fraction = (2 * k + 1) * (variance - k * (k + 1.0) / 3.0)
             / (2.0 * (k + 1.0) * (k + 1.0) - 2.0 * variance);

  for (p = 0; p < iterations; p++)
    {
      passes[p].half = k + 1;
      passes[p].taps = g_new (gdouble, k + 2);
      for (i = 0; i <= k; i++)
        passes[p].taps[i] = 1.0;
      passes[p].taps[k + 1] = fraction;
      normalize (&passes[p]);
    }
  return (Axis) { passes, iterations };
}

RefImage *
ref_blur_box (const RefImage *src,
              gdouble         radius,
              gint            iterations)
{
  return ref_blur_box_xy (src, radius, radius, iterations);
}

RefImage *
ref_blur_box_xy (const RefImage *src,
                 gdouble         radius_x,
                 gdouble         radius_y,
                 gint            iterations)
{
  return blur_axes (src, box_axis (radius_x, iterations), box_axis (radius_y, iterations));
}

/* sigma 0 is one tap of 1 */
static Axis
gaussian_axis (gdouble sigma)
{
  Axis  axis = { g_new (Taps, 1), 1 };
  Taps *t = axis.kernels;
  gint  i;

  t->half = (gint) ceil (6.0 * sigma);
  t->taps = g_new (gdouble, t->half + 1);
  for (i = 0; i <= t->half; i++)
    t->taps[i] = i == 0 ? 1.0 : exp (-(gdouble) i * i / (2.0 * sigma * sigma));
  normalize (t);
  return axis;
}

RefImage *
ref_blur_gaussian (const RefImage *src,
                   gdouble         sigma)
{
  return ref_blur_gaussian_xy (src, sigma, sigma);
}

RefImage *
ref_blur_gaussian_xy (const RefImage *src,
                      gdouble         sigma_x,
                      gdouble         sigma_y)
{
  return blur_axes (src, gaussian_axis (sigma_x), gaussian_axis (sigma_y));
}

void
ref_image_pixel (const RefImage *src,
                 gint            x,
                 gint            y,
                 gdouble        *out)
{
  if (y >= 0 && y < src->height && x >= 0 && x < src->width)
    {
      memcpy (out, src->data + ((gsize) y * src->width + x) * 4, 4 * sizeof (gdouble));
      return;
    }
  /* clamp and loop map each axis on its own; colours fill the rest */
  if (src->abyss == GEGL_ABYSS_CLAMP || src->abyss == GEGL_ABYSS_LOOP)
    {
      gint row = src->abyss == GEGL_ABYSS_CLAMP ? CLAMP (y, 0, src->height - 1)
                                                : ((y % src->height) + src->height) % src->height;

      abyss_pixel (src->data + (gsize) row * src->width * 4, 4, src->width, x, src->abyss, out);
      return;
    }
  abyss_pixel (src->data, 4, src->width, -1, src->abyss, out);
}

void
ref_compare_floats (const RefImage *expected,
                    const gfloat   *actual,
                    gdouble        *max_abs,
                    gdouble        *rms)
{
  gsize   n = (gsize) expected->width * expected->height * 4;
  gdouble sum = 0.0;
  gsize   i;

  *max_abs = 0.0;
  for (i = 0; i < n; i++)
    {
      gdouble d = fabs (expected->data[i] - actual[i]);

      if (!(d <= *max_abs))   /* NaN counts as the worst error */
        *max_abs = isnan (d) ? INFINITY : d;
      sum += d * d;
    }
  *rms = sqrt (sum / n);
}
