#include "cblur-variable.h"

#include <math.h>

#include "cblur-kernel.h"

static gdouble
sanitize_radius (gdouble radius)
{
  if (!isfinite (radius) || radius <= 0.0)
    return 0.0;
  return MIN (radius, CBLUR_VARIABLE_RADIUS_MAX);
}

static gint
clamp_iterations (gint iterations)
{
  return CLAMP (iterations, CBLUR_ITERATIONS_MIN, CBLUR_ITERATIONS_MAX);
}

void
cblur_variable_init (CblurVariable *variable,
                     gdouble        radius,
                     gint           iterations)
{
  gdouble fraction;
  gint    window;

  variable->radius = sanitize_radius (radius);
  variable->iterations = clamp_iterations (iterations);
  cblur_box_geometry (variable->radius, variable->iterations, &variable->max_half, &fraction);
  variable->reach = variable->radius > 0.0 ? variable->iterations * (variable->max_half + 1) : 0;

  /* a window and its two fractional ends fit in two blocks */
  window = 2 * variable->max_half + 1;
  for (variable->block_shift = 0; (1 << variable->block_shift) < window; variable->block_shift++)
    ;
}

gint
cblur_variable_reach (gdouble radius,
                      gint    iterations)
{
  CblurVariable variable;

  cblur_variable_init (&variable, radius, iterations);
  return variable.reach;
}

gboolean
cblur_variable_is_identity (const CblurVariable *variable)
{
  return variable->reach == 0;
}

gdouble
cblur_variable_sigma (const CblurVariable *variable,
                      gfloat               mask)
{
  /* NaN fails both comparisons and counts as 0 */
  gdouble m = mask > 0.0f ? (mask < 1.0f ? mask : 1.0) : 0.0;

  return m * variable->radius;
}

/* Below sigma 1 the sampled Gaussian, which the blur approximates,
 * spreads less than a continuous one: at sigma 0.3 its variance is a
 * twelfth of sigma^2.  There the boxes take its variance, and a pixel
 * that asks for a little blur gets as little as the Gaussian gives it;
 * from sigma 1 on the two variances differ by 2e-7 or less. */
#define SAMPLED_BELOW 1.0

static gdouble
box_sigma (gdouble sigma)
{
  gdouble sum = 1.0, moment = 0.0;
  gint    i;

  if (sigma >= SAMPLED_BELOW || sigma <= 0.0)
    return sigma;
  for (i = 1; i <= 6; i++)
    {
      gdouble weight = exp (-0.5 * i * i / (sigma * sigma));

      sum += 2.0 * weight;
      moment += 2.0 * i * i * weight;
    }
  return sqrt (moment / sum);
}

void
cblur_variable_widths (const CblurVariable *variable,
                       const gfloat        *mask,
                       CblurBoxWidth       *widths,
                       gsize                n)
{
  CblurBoxWidth last = { 0, 0.0f };
  gfloat        last_mask = 0.0f;
  gsize         i;

  /* neighbouring mask values repeat: smooth masks in 8 bits, and flat
   * areas in any format */
  for (i = 0; i < n; i++)
    {
      if (i == 0 || mask[i] != last_mask)
        {
          gdouble fraction;
          gint    half;

          cblur_box_geometry (box_sigma (cblur_variable_sigma (variable, mask[i])),
                              variable->iterations, &half, &fraction);
          last = (CblurBoxWidth) { half, fraction };
          last_mask = mask[i];
        }
      widths[i] = last;
    }
}
