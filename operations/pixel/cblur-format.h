/* The pixel formats the op reads and writes as GEGL stores them, and the
 * conversions between those and the blur's own pixels: straight linear
 * RGBA float on the way in (the backends premultiply it, babl's rule),
 * premultiplied linear RGBA float on the way out.
 *
 * The curves come from babl, in the format's own space, as tables: a
 * decode table (code -> linear value) and, for the way back, thresholds
 * (the least linear value that encodes to each code), which round as
 * exactly as babl's double-precision conversion does.  Both are plain
 * arrays of floats, for any backend that converts pixels itself.  Half
 * and float colours on the sRGB curve are computed (cblur-srgb.h). */
#ifndef CBLUR_FORMAT_H
#define CBLUR_FORMAT_H

#include <gegl.h>

#include "cblur-curve.h"
#include "cblur-format-lanes.h"

G_BEGIN_DECLS

typedef enum
{
  CBLUR_SAMPLE_U8,
  CBLUR_SAMPLE_U16,
  CBLUR_SAMPLE_HALF,    /* linear, or on the sRGB curve */
  CBLUR_SAMPLE_FLOAT    /* linear, or on the sRGB curve */
} CblurSampleType;

typedef struct
{
  const Babl       *babl;
  CblurSampleType   type;
  gint              n_components;      /* stored; alpha is the last */
  gboolean          has_alpha;
  gboolean          grey;              /* one colour component: R = G = B */
  gint              bytes_per_pixel;
  const CblurCurve *curves[4];         /* per stored component, integer types */
  gboolean          srgb;              /* half or float colours on the sRGB curve */
  const CblurLanes *lanes;             /* 8-bit RGBA's vectors, where the CPU has them */
} CblurFormat;

/* The conversions for format, made once a process; NULL where the op does
 * not read and write it as it is (the caller falls back to RaGaBaA float). */
const CblurFormat *cblur_format_get    (const Babl        *format);

/* What an op reads a source of format `source` (NULL: unknown) in, and
 * gives its result in: the source's own where covered, so that GEGL
 * copies tiles in and out and babl converts nothing on one thread after
 * the op; the source's own too where it is a float or half format with
 * alpha, which babl converts on the op's writing threads; else
 * premultiplied linear float in space. */
const Babl        *cblur_format_for_source (const Babl *source,
                                            const Babl *space);

/* What an op gives its result in for a source read in format: the same
 * model in float for a half format cblur_format_get covers, else format
 * itself. */
const Babl        *cblur_format_for_result (const Babl *format);

/* whether format is the blur's own RGBA float, straight, which decodes as
 * it is */
gboolean           cblur_format_is_rgba_float (const CblurFormat *format);

/* n_pixels of format into straight linear RGBA float (alpha 1 where the
 * format has none); dst may start where src does. */
void               cblur_format_decode (const CblurFormat *format,
                                        const guint8      *src,
                                        gfloat            *dst,
                                        gsize              n_pixels);

/* The same, premultiplied where premultiply (cblur_premultiplied's rule),
 * pixel i at dst + i * step pixels: rows go into the CPU's line of
 * interleaved rows as they are decoded.  dst must not overlap src. */
void               cblur_format_decode_spread (const CblurFormat *format,
                                               const guint8      *src,
                                               gfloat            *dst,
                                               gsize              n_pixels,
                                               gsize              step,
                                               gboolean           premultiply);

/* n_pixels of premultiplied linear RGBA float into format: unpremultiplied
 * as babl does (its alpha floor), curve, rounding; dst may start where
 * src does. */
void               cblur_format_encode (const CblurFormat *format,
                                        const gfloat      *src,
                                        guint8            *dst,
                                        gsize              n_pixels);

G_END_DECLS

#endif
