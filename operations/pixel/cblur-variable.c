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

/* the spread a cell's average and bilinear upsampling add, as a
 * variance: a box of f pixels, and a tent of f at its mean over the
 * positions between two centres */
static gdouble
grid_spread (gint factor)
{
  return (factor * factor - 1.0) / 12.0 + (factor > 1 ? factor * factor / 6.0 : 0.0);
}

static gdouble
grid_sigma (gdouble sigma,
            gint    factor)
{
  return sqrt (MAX (sigma * sigma - grid_spread (factor), 0.0)) / factor;
}

static void
level_init (CblurVariableLevel *level,
            gdouble             sigma,
            gint                iterations)
{
  level->sigma = sigma;
  for (level->factor = 1; grid_sigma (sigma, 2 * level->factor) >= CBLUR_VARIABLE_GRID_SIGMA;
       level->factor *= 2)
    ;
  level->grid_radius = 3.0 * grid_sigma (sigma, level->factor);
  level->grid_reach = cblur_kernel_reach (level->grid_radius, CBLUR_MODE_BOX, iterations);
  /* the cells around a pixel's position, each grown by the grid's reach */
  level->reach = level->factor * (level->grid_reach + 2);
}

/* the levels above the base up to radius, the last at radius */
static void
levels_init (CblurVariable *variable)
{
  gdouble sigma = variable->base;

  variable->n_levels = 0;
  while (sigma < variable->radius && variable->n_levels < CBLUR_VARIABLE_LEVELS_MAX)
    {
      sigma = MIN (sigma * CBLUR_VARIABLE_LEVEL_RATIO, variable->radius);
      level_init (&variable->levels[variable->n_levels++], sigma, variable->iterations);
    }
}

void
cblur_variable_init (CblurVariable *variable,
                     gdouble        radius,
                     gint           iterations,
                     gboolean       uniform)
{
  gdouble fraction;
  gint    window, reach, k;

  variable->radius = sanitize_radius (radius);
  variable->iterations = clamp_iterations (iterations);
  variable->uniform = uniform;
  variable->base = uniform ? variable->radius : MIN (variable->radius, CBLUR_VARIABLE_BASE_SIGMA);
  levels_init (variable);
  if (uniform)
    variable->n_levels = 0;
  cblur_box_geometry (variable->base, variable->iterations, &variable->max_half, &fraction);
  /* the passes of the base shift their lines by the whole reach, which
   * the levels' may widen */
  reach = variable->iterations * (variable->max_half + 1);
  for (k = 0; k < variable->n_levels; k++)
    reach = MAX (reach, variable->levels[k].reach);
  variable->max_half = (reach + variable->iterations - 1) / variable->iterations - 1;
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
  CblurVariable uniform, levels;

  cblur_variable_init (&uniform, radius, iterations, TRUE);
  cblur_variable_init (&levels, radius, iterations, FALSE);
  return MAX (uniform.reach, levels.reach);
}

gboolean
cblur_variable_blend (const CblurVariable *variable,
                      gdouble              sigma,
                      gint                *lower,
                      gint                *upper,
                      gdouble             *weight)
{
  gdouble low = variable->base, high;
  gint    k;

  for (k = 0; k < variable->n_levels && sigma > low; k++)
    {
      high = variable->levels[k].sigma;
      if (sigma <= high)
        {
          *lower = k - 1;
          *upper = k;
          *weight = (sigma * sigma - low * low) / (high * high - low * low);
          return TRUE;
        }
      low = high;
    }
  return FALSE;
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

gint64
cblur_variable_cell_before (gint64   x,
                            gint     factor,
                            gdouble *t)
{
  gint64 twice = 2 * x - (factor - 1);
  gint64 cell = twice >= 0 ? twice / (2 * factor) : -((-twice + 2 * factor - 1) / (2 * factor));

  *t = (gdouble) (twice - 2 * factor * cell) / (2 * factor);
  return cell;
}

void
cblur_variable_mask_range (const gfloat *values,
                           gsize         n,
                           gfloat       *low,
                           gfloat       *high)
{
  gsize i;

  *low = 1.0f;
  *high = 0.0f;
  /* NaN fails the comparison and counts as 0 */
  for (i = 0; i < n; i++)
    {
      gfloat m = values[i] > 0.0f ? values[i] : 0.0f;

      *low = MIN (*low, m);
      *high = MAX (*high, m);
    }
}

/* sigma and the upper level grow with the mask value */
gboolean
cblur_variable_levels_of (const CblurVariable *variable,
                          gfloat               low,
                          gfloat               high,
                          gint                *least,
                          gint                *most)
{
  gint    lower;
  gdouble weight;

  *least = 0;
  *most = -1;
  if (low > high ||
      !cblur_variable_blend (variable, cblur_variable_sigma (variable, high), &lower, most,
                             &weight))
    return FALSE;
  if (!cblur_variable_blend (variable, cblur_variable_sigma (variable, low), &lower, least,
                             &weight))
    *least = 0;
  return TRUE;
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

          cblur_box_geometry (box_sigma (MIN (cblur_variable_sigma (variable, mask[i]),
                                              variable->base)),
                              variable->iterations, &half, &fraction);
          last = (CblurBoxWidth) { half, fraction };
          last_mask = mask[i];
        }
      widths[i] = last;
    }
}
