/* GEGL's pixels of an op's source image as the CPU's horizontal pass
 * takes them (decoded, premultiplied, rows interleaved in groups), kept
 * from one blur of that image to the next: a slider's frames at a zoomed
 * out view blur the same image at the level again and again, and reading
 * and decoding it is a good part of each frame.
 *
 * The op owns it and says when its source changes; a CPU blur takes it
 * for the pass that reads GEGL's pixels and gives it back.  Any thread:
 * one blur at a time holds it, another at once goes without. */
#ifndef CBLUR_KEPT_H
#define CBLUR_KEPT_H

#include <gegl.h>

#include "cblur-format.h"
#include "cblur-pixel.h"

G_BEGIN_DECLS

typedef struct _CblurKept CblurKept;

CblurKept  *cblur_kept_new      (void);
void        cblur_kept_free     (CblurKept *kept);

/* The source's pixels changed: what is kept is theirs no more. */
void        cblur_kept_forget   (CblurKept     *kept);

/* The source of the blurs that follow, at a mipmap level: what is kept
 * is let go unless it is the last one's. */
void        cblur_kept_source   (CblurKept     *kept,
                                 gconstpointer  source,
                                 gint           level);

/* Room for a blur's GEGL pixels `rect`, stored in `format` (NULL: RGBA
 * float) and straight or not, in groups of `group_rows` rows from its
 * top, with *margin columns (at least as many as asked) either side of
 * each group's for the blur's own use: group g at g times
 * `(rect->width + 2 * *margin) * group_rows` pixels, its pixels from
 * column *margin on.  *held says whether they hold those pixels already,
 * else the blur fills every group before it gives the room back.  NULL where another blur holds the
 * room, or where keeping does not pay: the image is too large, or the
 * source was not blurred before (a single render would only pay for the
 * copy). */
CblurPixel *cblur_kept_take     (CblurKept           *kept,
                                 const GeglRectangle *rect,
                                 const CblurFormat   *format,
                                 gboolean             straight,
                                 gint                 group_rows,
                                 gint                *margin,
                                 gboolean            *held);

/* After cblur_kept_take, its blur done: the groups hold the source's
 * pixels unless they did before or the source changed meanwhile. */
void        cblur_kept_give_back (CblurKept *kept);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurKept, cblur_kept_free)

G_END_DECLS

#endif
