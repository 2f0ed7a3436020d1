/* The one definition of the variable blur, for every backend to follow:
 * what standard deviation a pixel gets from its mask value, the boxes that
 * make it, and how far the blur reaches into the input.
 *
 * A pixel whose mask value is m (clamped to [0, 1], NaN as 0) gets sigma =
 * m * radius.  Each axis runs `iterations` passes of a box per output
 * pixel, of that pixel's own half-width and end fraction
 * (cblur_box_geometry) for its sigma clamped to CBLUR_VARIABLE_BASE_SIGMA:
 * the base.  Below sigma 1 the boxes take the variance of the sampled
 * Gaussian of sigma instead of sigma^2.  Above the base, the levels are
 * uniform box-mode blurs at sigma_k = BASE * 1.5^k (the last at radius),
 * each on a grid of cells of f x f pixels (f a power of two, the grid's
 * sigma at least 1.5, cells at absolute multiples of f, over the input
 * grown by its abyss), upsampled bilinearly from the cells' centres; a
 * pixel whose sigma lies between two levels (the base the first) blends
 * them by its variance: weight t = (sigma^2 - lower^2) / (upper^2 -
 * lower^2) on the upper.  Where the mask is uniform (constant over what a
 * region reads) every pixel takes the boxes of its whole sigma instead,
 * which is the Gaussian blur's box mode at radius 3 * m * radius.  Pure;
 * any thread.
 */
#ifndef CBLUR_VARIABLE_H
#define CBLUR_VARIABLE_H

#include <glib.h>

G_BEGIN_DECLS

/* the largest sigma, as gegl:variable-blur's radius allows */
#define CBLUR_VARIABLE_RADIUS_MAX 1500.0

/* the base's largest sigma, the ratio of a level's sigma to the one below,
 * and the least sigma of a level's grid */
#define CBLUR_VARIABLE_BASE_SIGMA  2.25
#define CBLUR_VARIABLE_LEVEL_RATIO 1.5
#define CBLUR_VARIABLE_GRID_SIGMA  1.5
/* levels above the base, at most: BASE * 1.5^17 exceeds RADIUS_MAX */
#define CBLUR_VARIABLE_LEVELS_MAX  17

/* A uniform level above the base. */
typedef struct
{
  gdouble sigma;        /* in the image's pixels */
  gint    factor;       /* f: a cell is f x f pixels, from multiples of f */
  gdouble grid_radius;  /* the box-mode blur's radius (3 sigma) on the grid */
  gint    grid_reach;   /* its reach, in cells */
  gint    reach;        /* in the image's pixels, bilinear upsampling's included */
} CblurVariableLevel;

typedef struct
{
  gdouble radius;      /* sigma where the mask is 1 */
  gint    iterations;  /* box passes per axis */
  gint    max_half;    /* the passes shift their lines by max_half + 1: the widest
                        * box's half-width, or more where the levels reach further */
  gint    reach;       /* input pixels needed on each side of an output */
  /* running sums restart at absolute multiples of 1 << block_shift, a
   * block at least as long as the widest window */
  gint    block_shift;
  gboolean           uniform;   /* boxes of the whole sigma, no levels */
  gdouble            base;      /* sigma's clamp for the boxes */
  gint               n_levels;  /* above the base */
  CblurVariableLevel levels[CBLUR_VARIABLE_LEVELS_MAX];
} CblurVariable;

/* One pixel's box: the window [-half, half] plus `fraction` of the next
 * pixel at each end, divided by 2 * half + 1 + 2 * fraction. */
typedef struct
{
  gint32 half;
  gfloat fraction;
} CblurBoxWidth;

/* A band's boxes, row after row: a box per pixel, or, where the mask is
 * stored a byte a pixel, each pixel's byte and the box of each byte (the
 * same boxes, an eighth of the memory to fill and carry). */
typedef struct
{
  CblurBoxWidth       *widths;   /* a box per pixel, or NULL */
  guint8              *codes;    /* a byte per pixel where widths is NULL */
  const CblurBoxWidth *table;    /* the box of each byte, 256, or NULL */
} CblurVariableBoxes;

/* The mask values of a band's output pixels, whose sigmas choose the
 * levels they blend: a float a pixel (values, row after row), or, where
 * values is NULL, the value of each of the boxes' bytes (grey, 256), the
 * pixels' bytes those of the boxes.  least and most: levels that hold
 * every pixel's upper (cblur_variable_levels_of()), most -1 where no
 * pixel takes a level. */
typedef struct
{
  const gfloat *values;
  const gfloat *grey;
  gint          least;
  gint          most;
} CblurVariableMasks;

/* uniform: the mask is constant over what the region reads */
void    cblur_variable_init       (CblurVariable       *variable,
                                   gdouble              radius,
                                   gint                 iterations,
                                   gboolean             uniform);
/* the reach of either, the larger */
gint    cblur_variable_reach      (gdouble              radius,
                                   gint                 iterations);
gboolean cblur_variable_is_identity (const CblurVariable *variable);

/* sigma for a mask value */
gdouble cblur_variable_sigma      (const CblurVariable *variable,
                                   gfloat               mask);

/* The two levels a pixel of sigma blends, *lower -1 for the base, and
 * the weight of *upper; FALSE where it takes the base alone. */
gboolean cblur_variable_blend     (const CblurVariable *variable,
                                   gdouble              sigma,
                                   gint                *lower,
                                   gint                *upper,
                                   gdouble             *weight);

/* The cell of a level's grid of factor cells whose centre is the last at
 * or before pixel x (absolute, along either axis), and x's distance from
 * it in cells, in [0, 1): where upsampling reads a pixel from. */
gint64  cblur_variable_cell_before (gint64               x,
                                    gint                 factor,
                                    gdouble             *t);

/* The least and the largest of n mask values, clamped as
 * cblur_variable_sigma() clamps them (NaN as 0); 1 and 0 where n is 0. */
void    cblur_variable_mask_range (const gfloat        *values,
                                   gsize                n,
                                   gfloat              *low,
                                   gfloat              *high);

/* Levels [*least, *most] that hold the upper level (cblur_variable_blend())
 * of every pixel whose mask value lies in [low, high] and takes one;
 * FALSE, *most -1, where none does. */
gboolean cblur_variable_levels_of (const CblurVariable *variable,
                                   gfloat               low,
                                   gfloat               high,
                                   gint                *least,
                                   gint                *most);

/* The boxes of n pixels from their mask values: the table that every
 * pass of both axes reads. */
void    cblur_variable_widths     (const CblurVariable *variable,
                                   const gfloat        *mask,
                                   CblurBoxWidth       *widths,
                                   gsize                n);

G_END_DECLS

#endif
