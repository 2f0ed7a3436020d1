/* An independent double-precision blur, written from the definition in
 * docs/design.md and sharing no code with operations/: the yardstick for the
 * operation's output. Beyond the edges lies what the image's abyss policy
 * says (GEGL_ABYSS_CLAMP unless set).  The variable blur's is in
 * reference-variable.h. */
#ifndef CBLUR_TEST_REFERENCE_H
#define CBLUR_TEST_REFERENCE_H

#include <gegl.h>

typedef struct
{
  gdouble        *data;   /* premultiplied RGBA, 4 doubles a pixel */
  gint            width;
  gint            height;
  GeglAbyssPolicy abyss;
} RefImage;

RefImage *ref_image_new          (gint            width,
                                  gint            height);
RefImage *ref_image_from_floats  (const gfloat   *rgba,
                                  gint            width,
                                  gint            height);
void      ref_image_free         (RefImage       *image);
/* pixel (x, y) of src into out (4 doubles), or what its abyss puts there */
void      ref_image_pixel        (const RefImage *src,
                                  gint            x,
                                  gint            y,
                                  gdouble        *out);

/* sampled Gaussian over the radius, last tap faded by the radius' fraction */
RefImage *ref_blur_direct        (const RefImage *src,
                                  gdouble         radius);
/* ... with a radius of its own along each axis; 0 leaves that axis be */
RefImage *ref_blur_direct_xy     (const RefImage *src,
                                  gdouble         radius_x,
                                  gdouble         radius_y);
/* iterations box passes whose variances add up to (radius / 3)^2; below
 * radius 4.5, where box mode blurs directly, ref_blur_direct */
RefImage *ref_blur_box           (const RefImage *src,
                                  gdouble         radius,
                                  gint            iterations);
RefImage *ref_blur_box_xy        (const RefImage *src,
                                  gdouble         radius_x,
                                  gdouble         radius_y,
                                  gint            iterations);
/* the Gaussian of sigma sampled out to 6 sigma: the blur box approximates */
RefImage *ref_blur_gaussian      (const RefImage *src,
                                  gdouble         sigma);
RefImage *ref_blur_gaussian_xy   (const RefImage *src,
                                  gdouble         sigma_x,
                                  gdouble         sigma_y);

/* GEGL's blurs with arithmetic (docs/design.md, "Blurs with arithmetic"),
 * each blur the direct one of its radius (3σ), beyond the edges src's
 * abyss (tests/reference-combine.c).  Sharpen (Unsharp Mask): amount
 * and GEGL's threshold, whose smallest distance from a pixel's doubled
 * difference (as Y') goes into *margin where not NULL. */
RefImage *ref_unsharp_mask       (const RefImage *src,
                                  gdouble         radius,
                                  gdouble         amount,
                                  gdouble         threshold,
                                  gdouble        *margin);
RefImage *ref_high_pass          (const RefImage *src,
                                  gdouble         radius,
                                  gdouble         contrast);
RefImage *ref_difference_of_gaussians (const RefImage *src,
                                       gdouble         radius1,
                                       gdouble         radius2);

/* largest and root-mean-square difference over every channel */
void      ref_compare_floats     (const RefImage *expected,
                                  const gfloat   *actual,
                                  gdouble        *max_abs,
                                  gdouble        *rms);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RefImage, ref_image_free)

#endif
