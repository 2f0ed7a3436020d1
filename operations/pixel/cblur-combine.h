/* The arithmetic that joins a band's blur with its source: GEGL's
 * Sharpen (Unsharp Mask), High Pass and Difference of Gaussians, as their
 * graphs of point operations compute them (docs/design.md, "Blurs with
 * arithmetic").  Every image is premultiplied linear RGBA float, as the
 * backends blur it; n pixels a call, any thread, no state. */
#ifndef CBLUR_COMBINE_H
#define CBLUR_COMBINE_H

#include <glib.h>

G_BEGIN_DECLS

/* the luminance of the image's space and the threshold as linear
 * luminance: what GEGL's threshold compares with, as Y' */
typedef struct
{
  gfloat luminance[3];
  gfloat threshold;
} CblurThreshold;

/* The pixels that GEGL's σ = 1 blur makes its threshold mask of: where
 * the luminance of twice the difference between source and blurred
 * reaches the threshold, the source's alpha as white, else black.  A
 * mask's pixel is two floats, its white premultiplied and its alpha, as
 * GEGL blurs Y'A. */
void cblur_combine_threshold (const gfloat         *source,
                              const gfloat         *blurred,
                              const CblurThreshold *threshold,
                              gsize                 n,
                              gfloat               *out);

/* The mask's blur (GEGL's σ = 1 Gaussian, direct: weights[0 .. reach]
 * from the centre out) of n pixels: out's from the same pixel of
 * lines[0 .. 2 reach], the centre lines[reach].  Across lines, those are
 * the lines around out's; along a line, lines[k] is the line from its
 * k-th pixel on.  On the GPU combine.comp sums in the same order. */
void cblur_combine_mask_blur (const gfloat *const  *lines,
                              const gfloat         *weights,
                              gint                  reach,
                              gsize                 n,
                              gfloat               *out);

/* Unsharp mask: source + amount × (source − blurred), in straight alpha,
 * the source's alpha as it is; mask, if not NULL, the blurred threshold
 * mask (two floats a pixel), weighs the difference. */
void cblur_combine_unsharp   (const gfloat         *source,
                              const gfloat         *blurred,
                              const gfloat         *mask,
                              gfloat                amount,
                              gsize                 n,
                              gfloat               *out);

/* High pass: the inverted blur at half opacity over the source, in the
 * sRGB curve, then the contrast about 0.5 in a 2.2 gamma. */
void cblur_combine_high_pass (const gfloat         *source,
                              const gfloat         *blurred,
                              gfloat                contrast,
                              gsize                 n,
                              gfloat               *out);

/* Difference of Gaussians: first − second in straight alpha, with the
 * first's alpha. */
void cblur_combine_difference (const gfloat        *first,
                               const gfloat        *second,
                               gsize                n,
                               gfloat              *out);

G_END_DECLS

#endif
