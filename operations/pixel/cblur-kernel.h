/* The one definition of the blur that the CPU and the GL backends both follow:
 * which algorithm runs for a radius along each axis, its weights or box
 * widths, and how far it reaches into the input.
 */
#ifndef CBLUR_KERNEL_H
#define CBLUR_KERNEL_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CBLUR_MODE_AUTO,
  CBLUR_MODE_DIRECT,
  CBLUR_MODE_BOX
} CblurMode;

#define CBLUR_ITERATIONS_MIN 3
#define CBLUR_ITERATIONS_MAX 6
#define CBLUR_RADIUS_MAX     3000.0

/* auto takes the box filter above this radius, direct up to it, on every
 * backend.  Where it lies is the CPU's choice: there the two modes' costs
 * part most, where on GL either costs little beside GEGL's reads and
 * writes (docs/design.md, "mode=auto"). */
#define CBLUR_AUTO_BOX_ABOVE 25.0

/* Box mode blurs radii below this directly: there a few boxes of a
 * pixel and a fraction differ from the sampled Gaussian by more than box
 * mode's promise (docs/design.md, "Box mode at small radii"), and
 * direct's few taps cost no more. */
#define CBLUR_BOX_FROM 4.5

/* the axes, in the order the passes run */
typedef enum
{
  CBLUR_AXIS_X,
  CBLUR_AXIS_Y
} CblurAxis;

/* the blur along one axis */
typedef struct
{
  CblurMode mode;        /* DIRECT or BOX, never AUTO; DIRECT at radius 0 */
  gdouble   radius;
  gdouble   sigma;
  gint      reach;       /* input pixels needed on each side of an output */

  /* direct: taps -half_width..half_width, weights[|i|] already normalized;
   * at radius 0 one tap of weight 1, which hands pixels on as they are */
  gint      half_width;
  gfloat   *weights;

  /* box: iterations passes of the window [-box_half, box_half] plus
   * box_fraction of the next pixel at each end, scaled by box_scale;
   * running sums restart at absolute multiples of box_block so every
   * output is bit-for-bit independent of how the image is tiled */
  gint      iterations;
  gint      box_half;
  gfloat    box_fraction;
  gfloat    box_scale;
  gint      box_block;
} CblurKernelAxis;

/* Horizontally then vertically.  Both passes' lines carry the larger
 * axis's reach on each side, so an image's halo is one rectangle; the
 * shorter axis's pass skips what it does not read (cblur_kernel_skip). */
typedef struct
{
  CblurKernelAxis axes[2];   /* by CblurAxis */
  gint            reach;     /* the larger axis's */
  CblurMode       mode;      /* the mode of the axis that reaches further */
  /* box mode asked for, and an axis blurs directly below
   * CBLUR_BOX_FROM */
  gboolean        box_as_direct;
} CblurKernel;

gdouble      cblur_sigma_for_radius    (gdouble            radius);
/* The box of each of `iterations` passes for sigma: half-width *half plus
 * *fraction of one more pixel at each end, their variances adding up to
 * exactly sigma^2.  sigma 0 gives the box of one pixel, fraction 0. */
void         cblur_box_geometry        (gdouble            sigma,
                                        gint               iterations,
                                        gint              *half,
                                        gdouble           *fraction);
/* AUTO resolves by the radius alone, so that a result never depends on
 * the machine that made it; radius 0 is DIRECT, and so is BOX below
 * CBLUR_BOX_FROM */
CblurMode    cblur_kernel_resolve_mode (gdouble            radius,
                                        CblurMode          mode);
/* along one axis */
gint         cblur_kernel_reach        (gdouble            radius,
                                        CblurMode          mode,
                                        gint               iterations);
/* the same radius along both axes */
CblurKernel *cblur_kernel_new          (gdouble            radius,
                                        CblurMode          mode,
                                        gint               iterations);
CblurKernel *cblur_kernel_new_xy       (gdouble            radius_x,
                                        gdouble            radius_y,
                                        CblurMode          mode,
                                        gint               iterations);
/* a kernel of its own, the same as kernel */
CblurKernel *cblur_kernel_copy         (const CblurKernel *kernel);
void         cblur_kernel_free         (CblurKernel       *kernel);
/* a radius of 0, or one too small to blur: the input untouched */
gboolean     cblur_kernel_is_identity  (const CblurKernel *kernel);
const gchar *cblur_mode_name           (CblurMode          mode);

/* the pixels at each end of a line that the axis's pass does not read */
static inline gint
cblur_kernel_skip (const CblurKernel *kernel,
                   CblurAxis          axis)
{
  return kernel->reach - kernel->axes[axis].reach;
}

/* floor division for block alignment at negative coordinates */
static inline gint64
cblur_floor_mod (gint64 a, gint64 b)
{
  gint64 r = a % b;
  return r < 0 ? r + b : r;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurKernel, cblur_kernel_free)

G_END_DECLS

#endif
