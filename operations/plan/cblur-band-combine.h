/* The blurs with arithmetic on the plan (cblur-blur.h): their blur at a
 * level described, and their band: the source read once, its blurs and
 * the arithmetic on the chosen backend with the fallback
 * (choice/cblur-combine-band.h), the result written.  From the op's
 * thread (GEGL's), as the plan calls them. */
#ifndef CBLUR_BAND_COMBINE_H
#define CBLUR_BAND_COMBINE_H

#include "cblur-blur.h"
#include "cblur-combine-band.h"

G_BEGIN_DECLS

/* combine (level 0's radii) at level as the plan sees it; blur->data
 * stays NULL */
void     cblur_blur_describe_combine (CblurBlur           *blur,
                                      const CblurCombine  *combine,
                                      gint                 level);

/* the CblurBlurBand of the joined blurs: blur->data is the CblurCombine
 * at the region's level */
gboolean cblur_blur_band_combine     (const CblurBlur     *blur,
                                      CblurBackendKind     backend,
                                      const GeglRectangle *band,
                                      CblurRegionIo       *io,
                                      CblurRunReport      *report);

/* combine's radii at level */
CblurCombine cblur_combine_at_level  (const CblurCombine  *combine,
                                      gint                 level);

/* GEGL's threshold (Y' in space, NULL for sRGB) as linear luminance, with
 * space's weights */
void     cblur_combine_threshold_in  (const Babl          *space,
                                      gdouble              threshold,
                                      CblurThreshold      *out);

G_END_DECLS

#endif
