/* How tall a region's bands are: the band budget of each blur's kind
 * (pixels with the halo that a band's memory holds), with one formula
 * for the rows.  Pure functions; any thread. */
#ifndef CBLUR_BANDS_H
#define CBLUR_BANDS_H

#include "cblur-blur.h"

G_BEGIN_DECLS

/* Whether a kernel blur on backend pays for taking whole images rather
 * than GEGL's chunks (cblur-bands.c says why). */
gboolean cblur_renders_whole_images (CblurBackendKind backend,
                                     CblurMode        mode,
                                     gint             reach,
                                     gint             level);

/* CblurBandRows for kernel blurs: a band budget by backend and
 * whether whole images pay, bands of one height, and a halo of at most
 * a third of a CPU band. */
gint     cblur_band_rows_kernel     (const CblurBlur       *blur,
                                     CblurBackendKind       backend,
                                     const CblurPrediction *prediction,
                                     gint                   level,
                                     gint                   width,
                                     gint                   height);

/* CblurBandRows for the variable blur, whose band holds its boxes too:
 * a smaller budget while the CPU hands over to the GPU. */
gint     cblur_band_rows_variable   (const CblurBlur       *blur,
                                     CblurBackendKind       backend,
                                     const CblurPrediction *prediction,
                                     gint                   level,
                                     gint                   width,
                                     gint                   height);

G_END_DECLS

#endif
