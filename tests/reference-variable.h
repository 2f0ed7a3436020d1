/* The variable blur in double precision, written from its definition in
 * docs/design.md and sharing no code with operations/: the yardstick for
 * cblur:variable-blur.  Beyond the edges lies what the image's abyss
 * policy says (reference.h). */
#ifndef CBLUR_TEST_REFERENCE_VARIABLE_H
#define CBLUR_TEST_REFERENCE_VARIABLE_H

#include "reference.h"

/* The variable blur: each pixel gathers the normalized two-dimensional
 * Gaussian of its own sigma (sigmas: one a pixel, row after row) around
 * it, sampled out to 6 sigma; sigma 0 keeps the pixel. */
RefImage *ref_blur_variable      (const RefImage *src,
                                  const gdouble  *sigmas);

/* The op's boxes, which its base takes with every sigma clamped to 2.25
 * and a uniform mask with its whole sigma: along rows, then columns,
 * `iterations` passes in which every pixel takes the box of its own sigma
 * (half-width k and end fraction a, their variances adding up to sigma^2,
 * or below sigma 1 to the sampled Gaussian's), over the image grown by
 * its abyss, where every pixel beyond the edge carries the sigma of the
 * image's nearest pixel. */
RefImage *ref_blur_variable_boxes (const RefImage *src,
                                   const gdouble  *sigmas,
                                   gint            iterations);

/* The variable blur as the hybrid computes it: the box passes above with
 * every sigma clamped to 2.25, and uniform box-mode blurs at levels
 * sigma_k = 2.25 * 1.5^k (the last at radius), each on a grid reduced by a
 * power of two f (cells at multiples of f, the image grown by its abyss;
 * the grid's blur makes sigma_k with the cells' and the bilinear
 * upsampling's spread, and its sigma is at least 1.5) and upsampled
 * bilinearly; a pixel whose sigma lies between two levels blends them by
 * its variance. */
RefImage *ref_blur_variable_hybrid (const RefImage *src,
                                    const gdouble  *sigmas,
                                    gdouble         radius,
                                    gint            iterations);

#endif
