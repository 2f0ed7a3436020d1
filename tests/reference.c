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

/* pixel (x, y) of src, or what its abyss puts there */
static void
pixel_or_abyss (const RefImage *src,
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

/* The weights g[u + half] of the offsets [-half, half] from c, summed
 * onto the index of [0, n) whose pixel each offset's is under the abyss,
 * or onto n where it is the abyss's colour. */
static void
fold_axis (const gdouble   *g,
           gint             half,
           gint             c,
           gint             n,
           GeglAbyssPolicy  abyss,
           gdouble         *folded)
{
  gint u;

  memset (folded, 0, (n + 1) * sizeof (gdouble));
  for (u = -half; u <= half; u++)
    {
      gint i = c + u;

      if (i < 0 || i >= n)
        i = abyss == GEGL_ABYSS_CLAMP ? CLAMP (i, 0, n - 1)
          : abyss == GEGL_ABYSS_LOOP  ? ((i % n) + n) % n
                                      : n;
      folded[i] += g[u + half];
    }
}

/* The same sum as over every offset, each pixel of src weighed once with
 * all the offsets that land on it: at a radius far past the image, its
 * pixels are far fewer than the offsets. */
static void
gather_folded (const RefImage *src,
               gint            x,
               gint            y,
               const gdouble  *g,
               gint            half,
               gdouble        *out)
{
  g_autofree gdouble *wx = g_new (gdouble, src->width + 1);
  g_autofree gdouble *wy = g_new (gdouble, src->height + 1);
  gdouble             total = 0.0, inside = 0.0, colour[4];
  gint                i, j, c;

  fold_axis (g, half, x, src->width, src->abyss, wx);
  fold_axis (g, half, y, src->height, src->abyss, wy);
  for (c = 0; c < 4; c++)
    out[c] = 0.0;
  for (j = 0; j < src->height; j++)
    for (i = 0; i < src->width; i++)
      {
        const gdouble *pixel = src->data + ((gsize) j * src->width + i) * 4;
        gdouble        weight = wx[i] * wy[j];

        for (c = 0; c < 4; c++)
          out[c] += weight * pixel[c];
        inside += weight;
      }
  for (i = 0; i < 2 * half + 1; i++)
    total += g[i];
  total *= total;
  /* what is neither row nor column of src has the abyss's colour */
  abyss_pixel (src->data, 4, src->width, -1, src->abyss, colour);
  for (c = 0; c < 4; c++)
    out[c] = (out[c] + (total - inside) * colour[c]) / total;
}

static void
gather_gaussian (const RefImage *src,
                 gint            x,
                 gint            y,
                 gdouble         sigma,
                 gdouble        *out)
{
  gint                half = (gint) ceil (6.0 * sigma);
  g_autofree gdouble *g = g_new (gdouble, 2 * half + 1);
  gdouble             total = 0.0;
  gint                u, v, c;

  /* the two-dimensional Gaussian is the product of one per axis */
  for (u = -half; u <= half; u++)
    g[u + half] = exp (-(gdouble) u * u / (2.0 * sigma * sigma));
  if ((gdouble) (2 * half + 1) * (2 * half + 1) > (gdouble) src->width * src->height)
    {
      gather_folded (src, x, y, g, half, out);
      return;
    }
  for (c = 0; c < 4; c++)
    out[c] = 0.0;
  for (v = -half; v <= half; v++)
    for (u = -half; u <= half; u++)
      {
        gdouble weight = g[u + half] * g[v + half];
        gdouble pixel[4];

        pixel_or_abyss (src, x + u, y + v, pixel);
        for (c = 0; c < 4; c++)
          out[c] += weight * pixel[c];
        total += weight;
      }
  for (c = 0; c < 4; c++)
    out[c] /= total;
}

RefImage *
ref_blur_variable (const RefImage *src,
                   const gdouble  *sigmas)
{
  RefImage *out = ref_image_new (src->width, src->height);
  gint      x, y;

  out->abyss = src->abyss;
  for (y = 0; y < src->height; y++)
    for (x = 0; x < src->width; x++)
      {
        gsize   i = (gsize) y * src->width + x;
        gdouble *to = out->data + i * 4;

        if (sigmas[i] > 0.0)
          gather_gaussian (src, x, y, sigmas[i], to);
        else
          memcpy (to, src->data + i * 4, 4 * sizeof (gdouble));
      }
  return out;
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

/* The variance of the Gaussian of sigma sampled at whole pixels, which
 * the boxes take below sigma 1, where it is smaller than sigma^2. */
static gdouble
sampled_variance (gdouble sigma)
{
  gdouble sum = 1.0, moment = 0.0;
  gint    i;

  if (sigma >= 1.0)
    return sigma * sigma;
  for (i = 1; i <= 6; i++)
    {
      gdouble weight = exp (-(gdouble) i * i / (2.0 * sigma * sigma));

      sum += 2.0 * weight;
      moment += 2.0 * i * i * weight;
    }
  return moment / sum;
}

/* One pass's box for sigma: half-width k and end fraction a, the
 * passes' variances adding up to sigma's (as box_axis). */
static void
variable_box (gdouble  sigma,
              gint     iterations,
              gint    *k,
              gdouble *fraction)
{
  gdouble variance = sigma > 0.0 ? sampled_variance (sigma) / iterations : 0.0;

  *k = 0;
  while ((*k + 1.0) * (*k + 2.0) / 3.0 <= variance)
    (*k)++;
  *fraction = (2 * *k + 1) * (variance - *k * (*k + 1.0) / 3.0)
              / (2.0 * (*k + 1.0) * (*k + 1.0) - 2.0 * variance);
  *fraction = CLAMP (*fraction, 0.0, 1.0);
}

/* One pass over n values of a line, each with its own box: out[i] is
 * the box of boxes[i] around in[i], values beyond the line's ends kept. */
static void
variable_line_pass (const gdouble *in,
                    const gint    *halves,
                    const gdouble *fractions,
                    gint           n,
                    gsize          step,
                    gdouble       *out)
{
  gint i, j, c;

  for (i = 0; i < n; i++)
    {
      gint    k = halves[i];
      gdouble a = fractions[i];

      for (c = 0; c < 4; c++)
        {
          gdouble sum = 0.0;

          if (i - k - 1 < 0 || i + k + 1 >= n)
            {
              out[i * step + c] = in[i * step + c];
              continue;
            }
          for (j = -k; j <= k; j++)
            sum += in[(i + j) * step + c];
          sum += a * (in[(i - k - 1) * step + c] + in[(i + k + 1) * step + c]);
          out[i * step + c] = sum / (2 * k + 1 + 2.0 * a);
        }
    }
}

/* `iterations` passes along every line of the grown image (lines of n,
 * `count` of them, pixel_step and line_step apart) */
static void
variable_axis (gdouble       *data,
               const gint    *halves,
               const gdouble *fractions,
               gint           n,
               gint           count,
               gsize          pixel_step,
               gsize          line_step,
               gint           iterations)
{
  g_autofree gdouble *a = g_new (gdouble, (gsize) n * 4);
  g_autofree gdouble *b = g_new (gdouble, (gsize) n * 4);
  g_autofree gint    *k = g_new (gint, n);
  g_autofree gdouble *f = g_new (gdouble, n);
  gint                line, i, c, p;

  for (line = 0; line < count; line++)
    {
      for (i = 0; i < n; i++)
        {
          gsize at = line * line_step + i * pixel_step;

          for (c = 0; c < 4; c++)
            a[i * 4 + c] = data[at * 4 + c];
          k[i] = halves[at];
          f[i] = fractions[at];
        }
      for (p = 0; p < iterations; p++)
        {
          gdouble *swap;

          variable_line_pass (a, k, f, n, 4, b);
          swap = a; a = b; b = swap;
        }
      for (i = 0; i < n; i++)
        for (c = 0; c < 4; c++)
          data[(line * line_step + i * pixel_step) * 4 + c] = a[i * 4 + c];
    }
}

/* the passes' reach: each pass eats the widest box's half-width and one
 * more pixel at both ends of a line */
static gint
variable_reach (const gdouble *sigmas,
                gsize          n,
                gint           iterations)
{
  gdouble widest = 0.0, fraction;
  gint    k;
  gsize   i;

  for (i = 0; i < n; i++)
    widest = MAX (widest, sigmas[i]);
  variable_box (widest, iterations, &k, &fraction);
  return iterations * (k + 1);
}

RefImage *
ref_blur_variable_boxes (const RefImage *src,
                         const gdouble  *sigmas,
                         gint            iterations)
{
  gint                reach = variable_reach (sigmas, (gsize) src->width * src->height,
                                              iterations);
  gint                gw = src->width + 2 * reach, gh = src->height + 2 * reach;
  gsize               n = (gsize) gw * gh;
  g_autofree gdouble *grown = g_new (gdouble, n * 4);
  g_autofree gint    *halves = g_new (gint, n);
  g_autofree gdouble *fractions = g_new (gdouble, n);
  RefImage           *out = ref_image_new (src->width, src->height);
  gint                x, y;

  /* the image and its halo: the abyss's pixels, each with the sigma of
   * the image's nearest pixel */
  for (y = 0; y < gh; y++)
    for (x = 0; x < gw; x++)
      {
        gsize i = (gsize) y * gw + x;
        gint  nx = CLAMP (x - reach, 0, src->width - 1), ny = CLAMP (y - reach, 0, src->height - 1);

        pixel_or_abyss (src, x - reach, y - reach, grown + i * 4);
        variable_box (sigmas[(gsize) ny * src->width + nx], iterations, &halves[i],
                      &fractions[i]);
      }
  variable_axis (grown, halves, fractions, gw, gh, 1, gw, iterations);
  variable_axis (grown, halves, fractions, gh, gw, gw, 1, iterations);
  out->abyss = src->abyss;
  for (y = 0; y < src->height; y++)
    memcpy (out->data + (gsize) y * src->width * 4,
            grown + ((gsize) (y + reach) * gw + reach) * 4, (gsize) src->width * 4 * sizeof (gdouble));
  return out;
}
