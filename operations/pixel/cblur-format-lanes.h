/* 8-bit RGBA formats (R'G'B'A u8, RGBA u8, R~G~B~A u8) converted eight
 * samples at a time with AVX2: the same tables and float operations as
 * cblur-format's loops, so the same bits, with one gather for eight
 * samples' lookups where the loops look up one at a time.  A preview's
 * frame converts every pixel it blurs twice, at small radii as much work
 * as the blur.  Made once a format; read from any thread. */
#ifndef CBLUR_FORMAT_LANES_H
#define CBLUR_FORMAT_LANES_H

#include <glib.h>

#include "cblur-curve.h"

G_BEGIN_DECLS

typedef struct _CblurLanes CblurLanes;

/* The tables for a format of four 8-bit components with these curves;
 * NULL where the processor has no AVX2 or a curve's buckets may hold
 * more than one code's threshold (the caller's loops convert). */
CblurLanes *cblur_lanes_new    (const CblurCurve *const curves[4]);

/* What cblur_format_decode and cblur_format_encode do, bit for bit;
 * dst may start where src does. */
void        cblur_lanes_decode (const CblurLanes *lanes,
                                const guint8     *src,
                                gfloat           *dst,
                                gsize             n_pixels);
/* cblur_format_decode_spread */
void        cblur_lanes_decode_spread (const CblurLanes *lanes,
                                       const guint8     *src,
                                       gfloat           *dst,
                                       gsize             n_pixels,
                                       gsize             step,
                                       gboolean          premultiply);
void        cblur_lanes_encode (const CblurLanes *lanes,
                                const gfloat     *src,
                                guint8           *dst,
                                gsize             n_pixels);

G_END_DECLS

#endif
