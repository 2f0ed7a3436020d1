/* The CPU backend's one-dimensional blur: a line of pixels, directly
 * convolved or through box passes, as both of its passes run it. */
#ifndef CBLUR_CPU_LINE_H
#define CBLUR_CPU_LINE_H

#include <glib.h>

#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-pixel.h"

G_BEGIN_DECLS

/* Columns handled together in the vertical pass, and rows in the
 * horizontal one: wide enough for the vector units, small enough that a
 * thread's line buffers stay in its L2 cache. */
#define CBLUR_STRIP_PIXELS 16
#define CBLUR_GROUP_ROWS   (CBLUR_STRIP_PIXELS / 2)

/* A line is a run of elements, each `pixels` contiguous pixels wide, with
 * `step` pixels from one element to the next: a row segment for the
 * horizontal pass (pixels 1, step 1), a column strip for the vertical one. */
typedef struct
{
  const CblurPixel *data;
  gsize             step;
} CblurLine;

typedef struct
{
  CblurPixel *data;
  gsize       step;
} CblurLineOut;

/* what box passes need beyond their line */
typedef struct
{
  CblurPixel *suffix;
  /* the line between passes, `pixels` apart: its own, or in's elements
   * from the first the pass reads (cblur_kernel_skip) where in's step
   * is `pixels`, which the passes then write over */
  CblurPixel *between;
  /* memory the caller reads next (its next line), which the box passes
   * after the first bring into the core's L2 cache as they go: they run
   * from that cache and leave memory idle, where the first pass waits on
   * it; [ahead, ahead_end), NULL for none, moved on as it comes in */
  const gchar *ahead;
  const gchar *ahead_end;
} CblurLineScratch;

/* what lines of n_in elements, `pixels` wide, along the axis need in
 * scratch, which init takes from memory */
gsize cblur_line_scratch_bytes (const CblurKernel *kernel,
                                CblurAxis          axis,
                                gint               n_in,
                                gint               pixels);
void  cblur_line_scratch_init  (CblurLineScratch  *scratch,
                                const CblurKernel *kernel,
                                gint               n_in,
                                gint               pixels,
                                gpointer           memory);
/* the memory the next line reads first, `bytes` of it from next (NULL:
 * none), for the next cblur_line_blur to bring in */
void  cblur_line_scratch_ahead (CblurLineScratch  *scratch,
                                gconstpointer      next,
                                gsize              bytes);

/* n_in elements of in become n_in - 2 * kernel->reach elements of out,
 * blurred along the axis; origin is the absolute coordinate of in's first
 * element */
void  cblur_line_blur          (const CblurKernel *kernel,
                                CblurAxis          axis,
                                CblurLine          in,
                                gint               n_in,
                                gint64             origin,
                                CblurLineOut       out,
                                gint               pixels,
                                CblurLineScratch  *scratch);

G_END_DECLS

#endif
