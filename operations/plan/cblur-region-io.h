/* GEGL's reads and writes of a region's bands, on GEGL's threads: the
 * functions behind a CblurBandIo (io/cblur-band-io.h) for the kernel
 * blurs, and the buffers and formats for a band function that reads
 * itself (a mask on the aux pad).  Pixels go in and out as GEGL stores
 * them where cblur-format covers the format, which the backends convert,
 * else as premultiplied float: GEGL's threads only copy.  The op's
 * thread makes and clears one a region; the band io's functions run on
 * several threads at once, for disjoint rectangles. */
#ifndef CBLUR_REGION_IO_H
#define CBLUR_REGION_IO_H

#include <gegl.h>

#include "cblur-format.h"
#include "cblur-kept.h"
#include "cblur-band-io.h"

G_BEGIN_DECLS

typedef struct
{
  CblurBandIo        band_io;         /* its user_data: this */
  /* with an aux pad, input and aux are bounded by the input's extent,
   * GEGL making the abyss beyond (the mask's by its edge pixels) */
  GeglBuffer        *input;
  GeglBuffer        *aux;            /* NULL without an aux pad */
  GeglBuffer        *output;
  const Babl        *premultiplied;  /* RaGaBaA float in the output's space */
  const CblurFormat *read_native;    /* the input as stored, where covered */
  const CblurFormat *write_native;   /* the output's, where covered */
  const Babl        *aux_format;     /* the aux pad's */
  gint               level;
  GeglAbyssPolicy    abyss;
} CblurRegionIo;

/* io for the bands of operation's region at level: band_io.inside is the
 * input's abyss at level, and the source's pixels may be kept in `kept`
 * (NULL: never). */
void cblur_region_io_init  (CblurRegionIo  *io,
                            GeglOperation  *operation,
                            GeglBuffer     *input,
                            GeglBuffer     *aux,
                            GeglBuffer     *output,
                            gint            level,
                            GeglAbyssPolicy abyss,
                            CblurKept      *kept);
void cblur_region_io_clear (CblurRegionIo  *io);

G_END_DECLS

#endif
