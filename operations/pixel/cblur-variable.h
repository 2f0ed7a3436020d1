/* The one definition of the variable blur, for every backend to follow:
 * what standard deviation a pixel gets from its mask value, the boxes that
 * make it, and how far the blur reaches into the input.
 *
 * A pixel whose mask value is m (clamped to [0, 1], NaN as 0) gets sigma =
 * m * radius.  Each axis runs `iterations` passes of a box per output
 * pixel, of that pixel's own half-width and end fraction
 * (cblur_box_geometry), so that a constant mask gives the Gaussian blur's
 * box mode at radius 3 * m * radius.  Below sigma 1 the boxes take the
 * variance of the sampled Gaussian of sigma instead of sigma^2.  Pure;
 * any thread.
 */
#ifndef CBLUR_VARIABLE_H
#define CBLUR_VARIABLE_H

#include <glib.h>

G_BEGIN_DECLS

/* the largest sigma, as gegl:variable-blur's radius allows */
#define CBLUR_VARIABLE_RADIUS_MAX 1500.0

typedef struct
{
  gdouble radius;      /* sigma where the mask is 1 */
  gint    iterations;  /* box passes per axis */
  gint    max_half;    /* the widest box's half-width, at sigma = radius */
  gint    reach;       /* input pixels needed on each side of an output */
  /* running sums restart at absolute multiples of 1 << block_shift, a
   * block at least as long as the widest window */
  gint    block_shift;
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

void    cblur_variable_init       (CblurVariable       *variable,
                                   gdouble              radius,
                                   gint                 iterations);
gint    cblur_variable_reach      (gdouble              radius,
                                   gint                 iterations);
gboolean cblur_variable_is_identity (const CblurVariable *variable);

/* sigma for a mask value */
gdouble cblur_variable_sigma      (const CblurVariable *variable,
                                   gfloat               mask);

/* The boxes of n pixels from their mask values: the table that every
 * pass of both axes reads. */
void    cblur_variable_widths     (const CblurVariable *variable,
                                   const gfloat        *mask,
                                   CblurBoxWidth       *widths,
                                   gsize                n);

G_END_DECLS

#endif
