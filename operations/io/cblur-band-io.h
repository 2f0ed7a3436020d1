/* How a band's pixels come from GEGL and go back to it, on GEGL's threads:
 * all at once, or streamed, piece by piece from the top, while the caller
 * works on the rows that have arrived (the GPU's copies overlap GEGL's). */
#ifndef CBLUR_BAND_IO_H
#define CBLUR_BAND_IO_H

#include <gegl.h>

#include "cblur-image.h"
#include "cblur-kept.h"

G_BEGIN_DECLS

/* `read` fills a rectangle of the source, `write` hands on one of the
 * output (x, y relative to the image); both are called from several
 * threads at once, for disjoint rectangles. */
typedef void (*CblurBandIoFunc) (const CblurImage *image,
                                 gint              x,
                                 gint              y,
                                 gint              width,
                                 gint              height,
                                 gpointer          user_data);

/* What a backend writes into a part of the output in place: the part's
 * rectangle (x, y relative to the image) and its rows in GEGL's own
 * memory, in the image's format. */
typedef void (*CblurBandIoFill)  (gint     x,
                                  gint     y,
                                  gint     width,
                                  gint     height,
                                  guint8  *rows,
                                  gsize    stride,
                                  gpointer fill_data);

/* `write` without a copy: hands a rectangle of the output, as GEGL
 * holds it, to fill, part by part; the same threads' rules. */
typedef void (*CblurBandIoPlace) (const CblurImage *image,
                                  gint              x,
                                  gint              y,
                                  gint              width,
                                  gint              height,
                                  CblurBandIoFill   fill,
                                  gpointer          fill_data,
                                  gpointer          user_data);

typedef struct
{
  CblurBandIoFunc read;
  CblurBandIoFunc write;
  gpointer        user_data;
  gint            tile_width;    /* GEGL's tiles, which pieces keep whole */
  gint            tile_height;
  /* pixels outside `inside` (absolute) are GEGL's abyss under `abyss`,
   * which a backend may make itself rather than read */
  GeglRectangle   inside;
  GeglAbyssPolicy abyss;
  /* the mipmap level the rectangles are at: above 0, a host's view of
   * the image zoomed out, as a filter dialog's preview shows it */
  gint            level;
  /* `read` gives straight alpha (RGBA float), which the backend
   * premultiplies itself (cblur_premultiply's rule), not RaGaBaA */
  gboolean        straight_alpha;
  gdouble         read_ms;       /* wall time from the first read to the last */
  gdouble         write_ms;      /* from the first write to the last */
  /* where the source's pixels may be kept between blurs, or NULL; and
   * whether the last blur took them from there rather than reading */
  CblurKept      *kept;
  gboolean        read_kept;
  /* where set, a backend that converts its output to the image's format
   * (not RGBA float) may write it through this instead of `write` */
  CblurBandIoPlace write_in_place;
} CblurBandIo;

void cblur_band_io_read_all  (CblurBandIo      *band_io,
                             const CblurImage *src);
void cblur_band_io_write_all (CblurBandIo      *band_io,
                             const CblurImage *dst);

/* The part of src inside band_io->inside, sharing src's pixels, around
 * which a backend makes the abyss; FALSE where that is none of src, or
 * all of it, or under loop's abyss not all of the input.  The same of a
 * rectangle (absolute). */
gboolean cblur_band_io_inside      (const CblurBandIo   *band_io,
                                   const CblurImage    *src,
                                   CblurImage          *inside);
gboolean cblur_band_io_inside_rect (const CblurBandIo   *band_io,
                                   const GeglRectangle *all,
                                   GeglRectangle       *part);

/* src, its pixels yet to come, shrunk to `inside`: for a band that holds
 * only what GEGL reads */
void     cblur_band_io_shrink      (CblurImage          *src,
                                   const GeglRectangle *inside);

/* src as cblur_band_memory_new() leaves it: dst grown by reach, or only
 * its part inside the input.  halo gets the former, without pixels in the second
 * case; TRUE where the backend makes the abyss, with `inside` the part of
 * src that GEGL reads, sharing src's pixels. */
gboolean cblur_band_io_band        (const CblurBandIo   *band_io,
                                   gint                 reach,
                                   const CblurImage    *src,
                                   const CblurImage    *dst,
                                   CblurImage          *halo,
                                   CblurImage          *inside);

/* band_io->inside at level 0: the whole input that a band at its level
 * stands for, which a host applies at full size after a preview */
GeglRectangle cblur_band_io_inside_at_full_size (const CblurBandIo *band_io);

/* whether band_io, if any, reads straight alpha */
gboolean cblur_band_io_is_straight (const CblurBandIo *band_io);

typedef struct _CblurStreamRun CblurStreamRun;

/* Starts reading all of src, top pieces first. */
CblurStreamRun *cblur_stream_start     (CblurBandIo      *band_io,
                                        const CblurImage *src,
                                        const CblurImage *dst);

/* Waits until more than `rows` rows of src from the top are read, or all
 * are, or timeout_us have passed (if not negative); returns how many are. */
gint            cblur_stream_wait_read (CblurStreamRun   *run,
                                        gint              rows,
                                        gint64            timeout_us);

/* dst's rows above `rows` are final: their writing may start. */
void            cblur_stream_release   (CblurStreamRun   *run,
                                        gint              rows);

/* Both, the release first: for a caller that hands rows on as it waits
 * for more. */
gint            cblur_stream_release_and_wait (CblurStreamRun *run,
                                               gint            released,
                                               gint            rows,
                                               gint64          timeout_us);

/* Returns once all of src is read and the released rows are written;
 * rows never released are not written. */
void            cblur_stream_finish    (CblurStreamRun   *run);

G_END_DECLS

#endif
