/* The variable blur in double precision (reference-variable.h): each
 * pixel's own Gaussian gathered around it, and the box passes the op
 * defines. */
#include "reference-variable.h"

#include <math.h>
#include <string.h>

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
  /* what is neither row nor column of src has the abyss's colour (clamp
   * and loop leave no weight there) */
  ref_image_pixel (src, -1, 0, colour);
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

        ref_image_pixel (src, x + u, y + v, pixel);
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
 * passes' variances adding up to sigma's (as reference.c's box_axis). */
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

        ref_image_pixel (src, x - reach, y - reach, grown + i * 4);
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

/* The hybrid's constants (reference-variable.h) */
#define HYBRID_BASE  2.25   /* the per-pixel boxes' largest sigma */
#define HYBRID_RATIO 1.5    /* between one level's sigma and the next's */
#define HYBRID_LEAST 1.5    /* a level's blur's sigma on its grid, at least */

/* level k's sigma: the base's at 0, then HYBRID_RATIO apart, the last
 * radius */
static gdouble
hybrid_sigma (gint    k,
              gdouble radius)
{
  return MIN (HYBRID_BASE * pow (HYBRID_RATIO, k), radius);
}

/* the variance a cell's average and bilinear upsampling add: a box of f
 * pixels, and a tent of f at its mean between two centres */
static gdouble
hybrid_spread (gint f)
{
  return (f * f - 1.0) / 12.0 + (f > 1 ? f * f / 6.0 : 0.0);
}

/* the sigma of a level's blur on a grid of factor f */
static gdouble
hybrid_grid_sigma (gdouble sigma,
                   gint    f)
{
  return sqrt (MAX (sigma * sigma - hybrid_spread (f), 0.0)) / f;
}

/* the reduced grid's factor for a level: the largest power of two whose
 * grid's sigma is at least HYBRID_LEAST */
static gint
hybrid_factor (gdouble sigma)
{
  gint f = 1;

  while (hybrid_grid_sigma (sigma, 2 * f) >= HYBRID_LEAST)
    f *= 2;
  return f;
}

/* floor (a / b) for b > 0 */
static gint
floor_div (gint a,
           gint b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* A uniform level: src's abyss-grown pixels averaged over f x f cells at
 * multiples of f, those blurred by box passes of the sigma that, with
 * the averaging and a bilinear upsampling's mean spread, makes sigma,
 * and upsampled bilinearly from the cells' centres. */
static RefImage *
hybrid_level (const RefImage *src,
              gdouble         sigma,
              gint            iterations)
{
  gint                f = hybrid_factor (sigma);
  gdouble             grid_sigma = hybrid_grid_sigma (sigma, f);
  gdouble             fraction;
  gint                half, reach, x0, y0, gw, gh, x, y, i, j, c;
  gsize               n;
  g_autofree gdouble *grid = NULL;
  g_autofree gint    *halves = NULL;
  g_autofree gdouble *fractions = NULL;
  RefImage           *out = ref_image_new (src->width, src->height);

  variable_box (grid_sigma, iterations, &half, &fraction);
  reach = iterations * (half + 1);
  /* the cells whose centres (i f + (f - 1) / 2) bracket every pixel,
   * grown by the passes' reach */
  x0 = floor_div (-(f - 1), 2 * f) - 1 - reach;
  y0 = floor_div (-(f - 1), 2 * f) - 1 - reach;
  gw = floor_div (2 * (src->width - 1) - (f - 1), 2 * f) + 2 + reach - x0 + 1;
  gh = floor_div (2 * (src->height - 1) - (f - 1), 2 * f) + 2 + reach - y0 + 1;
  n = (gsize) gw * gh;
  grid = g_new0 (gdouble, n * 4);
  halves = g_new (gint, n);
  fractions = g_new (gdouble, n);
  for (j = 0; j < gh; j++)
    for (i = 0; i < gw; i++)
      {
        gdouble *cell = grid + ((gsize) j * gw + i) * 4;
        gint     u, v;

        for (v = 0; v < f; v++)
          for (u = 0; u < f; u++)
            {
              gdouble pixel[4];

              ref_image_pixel (src, (x0 + i) * f + u, (y0 + j) * f + v, pixel);
              for (c = 0; c < 4; c++)
                cell[c] += pixel[c] / (f * f);
            }
        halves[(gsize) j * gw + i] = half;
        fractions[(gsize) j * gw + i] = fraction;
      }
  variable_axis (grid, halves, fractions, gw, gh, 1, gw, iterations);
  variable_axis (grid, halves, fractions, gh, gw, gw, 1, iterations);
  out->abyss = src->abyss;
  for (y = 0; y < src->height; y++)
    for (x = 0; x < src->width; x++)
      {
        gdouble u = (x - (f - 1) / 2.0) / f, v = (y - (f - 1) / 2.0) / f;
        gint    cx = (gint) floor (u), cy = (gint) floor (v);
        gdouble tx = u - cx, ty = v - cy;
        gdouble *to = out->data + ((gsize) y * src->width + x) * 4;
        const gdouble *p00 = grid + ((gsize) (cy - y0) * gw + cx - x0) * 4;
        const gdouble *p10 = p00 + 4, *p01 = p00 + (gsize) gw * 4, *p11 = p01 + 4;

        for (c = 0; c < 4; c++)
          to[c] = (1 - ty) * ((1 - tx) * p00[c] + tx * p10[c])
                  + ty * ((1 - tx) * p01[c] + tx * p11[c]);
      }
  return out;
}

RefImage *
ref_blur_variable_hybrid (const RefImage *src,
                          const gdouble  *sigmas,
                          gdouble         radius,
                          gint            iterations)
{
  gsize               n = (gsize) src->width * src->height, i;
  g_autofree gdouble *base_sigmas = g_new (gdouble, n);
  RefImage           *out;
  gdouble             widest = 0.0;
  gint                k, c;

  for (i = 0; i < n; i++)
    {
      base_sigmas[i] = MIN (sigmas[i], HYBRID_BASE);
      widest = MAX (widest, sigmas[i]);
    }
  out = ref_blur_variable_boxes (src, base_sigmas, iterations);
  /* each pair of levels around a pixel's sigma, blended by variance */
  for (k = 0; hybrid_sigma (k, radius) < widest; k++)
    {
      gdouble             low = hybrid_sigma (k, radius), high = hybrid_sigma (k + 1, radius);
      g_autoptr (RefImage) lower = k == 0 ? NULL : hybrid_level (src, low, iterations);
      g_autoptr (RefImage) upper = hybrid_level (src, high, iterations);

      for (i = 0; i < n; i++)
        if (sigmas[i] > low && sigmas[i] <= high)
          {
            gdouble  t = (sigmas[i] * sigmas[i] - low * low) / (high * high - low * low);
            gdouble *to = out->data + i * 4;
            const gdouble *from = lower != NULL ? lower->data + i * 4 : to;

            for (c = 0; c < 4; c++)
              to[c] = (1 - t) * from[c] + t * upper->data[i * 4 + c];
          }
    }
  return out;
}
