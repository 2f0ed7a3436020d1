#include "cblur-kernel.h"

#include <float.h>
#include <math.h>
#include <string.h>

static gdouble
sanitize_radius (gdouble radius)
{
  if (!isfinite (radius) || radius <= 0.0)
    return 0.0;
  return MIN (radius, CBLUR_RADIUS_MAX);
}

gdouble
cblur_sigma_for_radius (gdouble radius)
{
  return sanitize_radius (radius) / 3.0;
}

CblurMode
cblur_kernel_resolve_mode (gdouble   radius,
                           CblurMode mode)
{
  radius = sanitize_radius (radius);
  if (radius == 0.0)
    return CBLUR_MODE_DIRECT;
  if (mode == CBLUR_MODE_BOX)
    return radius < CBLUR_BOX_FROM ? CBLUR_MODE_DIRECT : CBLUR_MODE_BOX;
  if (mode != CBLUR_MODE_AUTO)
    return mode;
  return radius > CBLUR_AUTO_BOX_ABOVE ? CBLUR_MODE_BOX : CBLUR_MODE_DIRECT;
}

/* The box of half-width k has variance k(k+1)/3; one more pixel at each end
 * weighted by the fraction a brings it to exactly sigma^2 / iterations. */
void
cblur_box_geometry (gdouble  sigma,
                    gint     iterations,
                    gint    *half,
                    gdouble *fraction)
{
  gdouble variance = sigma * sigma / iterations;
  gdouble k = floor ((sqrt (1.0 + 12.0 * variance) - 1.0) / 2.0);

  /* guard the floor against rounding at exact integers */
  while (k > 0 && k * (k + 1.0) / 3.0 > variance)
    k -= 1.0;
  while ((k + 1.0) * (k + 2.0) / 3.0 <= variance)
    k += 1.0;

  *half = (gint) k;
  *fraction = (variance * (2.0 * k + 1.0) - k * (k + 1.0) * (2.0 * k + 1.0) / 3.0)
              / (2.0 * (k + 1.0) * (k + 1.0) - 2.0 * variance);
  *fraction = CLAMP (*fraction, 0.0, 1.0);
}

static gint
clamp_iterations (gint iterations)
{
  return CLAMP (iterations, CBLUR_ITERATIONS_MIN, CBLUR_ITERATIONS_MAX);
}

/* the weight of direct's tap i before normalizing, the outermost one
 * faded by the radius' fraction */
static gdouble
direct_tap (gdouble radius,
            gdouble sigma,
            gint    i)
{
  gdouble x = i > 0 ? i / sigma : 0.0;

  return exp (-0.5 * x * x) * MIN (1.0, radius + 1.0 - i);
}

/* The radius as it blurs: 0 where it is too small to blur, every weight
 * but the centre's below float's smallest normal number (which a GPU
 * may flush to 0).  A tiny radius' σ can itself round to 0, and its
 * weights to 0/0.  Below a radius of 1 direct weighs one pixel each
 * side and box's passes a fraction of one. */
static gdouble
blurring_radius (gdouble   radius,
                 CblurMode mode,
                 gint      iterations)
{
  gdouble sigma, nearest;
  gint    half;

  radius = sanitize_radius (radius);
  if (radius == 0.0 || radius >= 1.0)
    return radius;
  sigma = cblur_sigma_for_radius (radius);
  if (cblur_kernel_resolve_mode (radius, mode) == CBLUR_MODE_DIRECT)
    nearest = direct_tap (radius, sigma, 1) / (1.0 + 2.0 * direct_tap (radius, sigma, 1));
  else
    cblur_box_geometry (sigma, clamp_iterations (iterations), &half, &nearest);
  return (gfloat) nearest >= FLT_MIN ? radius : 0.0;
}

gint
cblur_kernel_reach (gdouble   radius,
                    CblurMode mode,
                    gint      iterations)
{
  gint    half;
  gdouble fraction;

  radius = blurring_radius (radius, mode, iterations);
  if (radius == 0.0)
    return 0;

  if (cblur_kernel_resolve_mode (radius, mode) == CBLUR_MODE_DIRECT)
    return (gint) ceil (radius);

  iterations = clamp_iterations (iterations);
  cblur_box_geometry (cblur_sigma_for_radius (radius), iterations, &half, &fraction);
  return iterations * (half + 1);
}

/* Taps beyond the radius fade in linearly over one pixel, so the kernel
 * changes continuously as the radius slides through whole numbers.  At
 * radius 0 the one tap is 1. */
static void
direct_weights (CblurKernelAxis *kernel)
{
  gdouble *taps = g_new (gdouble, kernel->half_width + 1);
  gdouble  sum = 0.0;
  gint     i;

  for (i = 0; i <= kernel->half_width; i++)
    {
      taps[i] = direct_tap (kernel->radius, kernel->sigma, i);
      sum += i == 0 ? taps[i] : 2.0 * taps[i];
    }

  kernel->weights = g_new (gfloat, kernel->half_width + 1);
  for (i = 0; i <= kernel->half_width; i++)
    kernel->weights[i] = taps[i] / sum;

  g_free (taps);
}

static void
axis_init (CblurKernelAxis *kernel,
           gdouble          radius,
           CblurMode        mode,
           gint             iterations)
{
  kernel->radius = blurring_radius (radius, mode, iterations);
  kernel->sigma = cblur_sigma_for_radius (kernel->radius);
  kernel->mode = cblur_kernel_resolve_mode (kernel->radius, mode);
  kernel->iterations = clamp_iterations (iterations);
  kernel->reach = cblur_kernel_reach (kernel->radius, kernel->mode, kernel->iterations);

  if (kernel->mode == CBLUR_MODE_DIRECT)
    {
      kernel->half_width = kernel->reach;
      direct_weights (kernel);
    }
  else
    {
      gdouble fraction;

      cblur_box_geometry (kernel->sigma, kernel->iterations,
                          &kernel->box_half, &fraction);
      kernel->box_fraction = fraction;
      kernel->box_scale = 1.0 / (2.0 * kernel->box_half + 1.0 + 2.0 * fraction);
      kernel->box_block = 2 * kernel->box_half + 1;
    }
}

CblurKernel *
cblur_kernel_new (gdouble   radius,
                  CblurMode mode,
                  gint      iterations)
{
  return cblur_kernel_new_xy (radius, radius, mode, iterations);
}

CblurKernel *
cblur_kernel_new_xy (gdouble   radius_x,
                     gdouble   radius_y,
                     CblurMode mode,
                     gint      iterations)
{
  CblurKernel *kernel = g_new0 (CblurKernel, 1);
  CblurAxis    further;
  gint         axis;

  axis_init (&kernel->axes[CBLUR_AXIS_X], radius_x, mode, iterations);
  axis_init (&kernel->axes[CBLUR_AXIS_Y], radius_y, mode, iterations);
  further = kernel->axes[CBLUR_AXIS_Y].reach > kernel->axes[CBLUR_AXIS_X].reach
            ? CBLUR_AXIS_Y : CBLUR_AXIS_X;
  kernel->reach = kernel->axes[further].reach;
  kernel->mode = kernel->axes[further].mode;
  for (axis = 0; axis < 2; axis++)
    kernel->box_as_direct |= mode == CBLUR_MODE_BOX && kernel->axes[axis].radius > 0.0 &&
                             kernel->axes[axis].mode == CBLUR_MODE_DIRECT;
  return kernel;
}

CblurKernel *
cblur_kernel_copy (const CblurKernel *kernel)
{
  CblurKernel *copy = g_new (CblurKernel, 1);
  gint         axis;

  *copy = *kernel;
  for (axis = 0; axis < 2; axis++)
    if (kernel->axes[axis].weights != NULL)
      {
        gsize n = kernel->axes[axis].half_width + 1;

        copy->axes[axis].weights = g_new (gfloat, n);
        memcpy (copy->axes[axis].weights, kernel->axes[axis].weights, n * sizeof (gfloat));
      }
  return copy;
}

void
cblur_kernel_free (CblurKernel *kernel)
{
  if (kernel == NULL)
    return;
  g_free (kernel->axes[CBLUR_AXIS_X].weights);
  g_free (kernel->axes[CBLUR_AXIS_Y].weights);
  g_free (kernel);
}

gboolean
cblur_kernel_is_identity (const CblurKernel *kernel)
{
  return kernel->reach == 0;
}

const gchar *
cblur_mode_name (CblurMode mode)
{
  switch (mode)
    {
    case CBLUR_MODE_DIRECT: return "direct";
    case CBLUR_MODE_BOX:    return "box";
    default:                return "auto";
    }
}
