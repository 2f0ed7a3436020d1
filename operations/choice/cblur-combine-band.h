/* A band of a blur joined with its source (cblur-combine.h): the blurs
 * on the backend the choice gave the band, the second blur (Difference
 * of Gaussians' other radius) of the same source in the same band, then
 * the arithmetic, with the unsharp mask's threshold mask made and
 * blurred in it.  Any thread, each with bands of its own. */
#ifndef CBLUR_COMBINE_BAND_H
#define CBLUR_COMBINE_BAND_H

#include <gegl.h>

#include "cblur-backend.h"
#include "cblur-combine.h"

G_BEGIN_DECLS

typedef enum
{
  CBLUR_COMBINE_UNSHARP,
  CBLUR_COMBINE_HIGH_PASS,
  CBLUR_COMBINE_DIFFERENCE
} CblurCombineKind;

typedef struct
{
  CblurCombineKind kind;
  /* the blurs' radii (3σ); radii[1] only the difference's second blur */
  gdouble          radii[2];
  gdouble          amount;       /* unsharp: the difference's factor */
  gdouble          contrast;     /* high pass */
  gboolean         thresholded;  /* unsharp: threshold weighs the difference */
  CblurThreshold   threshold;
} CblurCombine;

/* the blur's radius (3σ) for GEGL's standard deviation, at most the
 * blur's largest */
static inline gdouble
cblur_combine_radius (gdouble std_dev)
{
  return MIN (3.0 * std_dev, CBLUR_RADIUS_MAX);
}

/* GEGL's σ = 1 blur of the threshold mask, as a radius */
#define CBLUR_COMBINE_MASK_RADIUS 3.0

/* the source pixels beyond an output pixel that its result reads, at the
 * blurs' mode */
gint     cblur_combine_reach (const CblurCombine *combine,
                              CblurMode           mode);

/* Joins src, premultiplied RGBA float holding dst's rectangle grown by
 * cblur_combine_reach() on every side, with its blurs into dst (the
 * same pixels, held), blurring on backend with the CPU as its fallback;
 * report, as cblur_backend_blur()'s, sums the blurs.  image: the image's
 * rectangle, which holds dst; the threshold mask's blur reads the mask's
 * edge beyond it, as GEGL's blur of the mask reads the mask's abyss
 * under clamp.  FALSE where there is no room for the band's blurs. */
gboolean cblur_combine_band  (const CblurCombine  *combine,
                              CblurMode            mode,
                              CblurBackendKind     backend,
                              const CblurImage    *src,
                              const CblurImage    *dst,
                              const GeglRectangle *image,
                              CblurRunReport      *report);

/* The same of a band read through band_io: src (dst's rectangle grown
 * by cblur_combine_reach()) and dst without pixels, src in the format
 * GEGL reads it in (a cblur-format, or NULL: premultiplied RGBA float),
 * dst in RGBA float, premultiplied (NULL) or straight (its cblur-format).
 * On the GPU the band lives in its pinned memory, decoded and encoded
 * there, streamed where it is one tile; elsewhere on the heap, converted on GEGL's threads.  GEGL reads
 * src and takes dst back, whatever backend ran; the threshold mask's
 * image is band_io's inside.  FALSE where there is no room for the
 * band. */
gboolean cblur_combine_band_io (const CblurCombine *combine,
                                CblurMode           mode,
                                CblurBackendKind    backend,
                                const CblurImage   *src,
                                const CblurImage   *dst,
                                CblurBandIo        *band_io,
                                CblurRunReport     *report);

G_END_DECLS

#endif
