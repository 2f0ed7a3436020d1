/* What the CPU blur's driver (cblur-cpu.c) hands its two passes: the
 * horizontal pass over row groups (cblur-cpu-rows.c), which writes the
 * pass between in strips, and the vertical pass over spans of strips
 * (cblur-cpu-strips.c), which writes dst.  Private to cpu/; a job is
 * read by every thread of a pass and written only by the driver. */
#ifndef CBLUR_CPU_JOB_H
#define CBLUR_CPU_JOB_H

#include <gegl.h>

#include "cblur-cpu-line.h"
#include "cblur-image.h"
#include "cblur-kernel.h"
#include "cblur-pixel.h"
#include "cblur-band-io.h"

G_BEGIN_DECLS

typedef struct
{
  const CblurKernel *kernel;
  const CblurImage  *src;
  const CblurImage  *dst;
  GeglAbyssPolicy    policy;
  gboolean           straight;   /* GEGL's pixels' alpha, premultiplied as gathered */
  gint               left;       /* src's columns [left, right) and rows */
  gint               right;      /* [top, bottom) are GEGL's pixels, */
  gint               top;        /* `pixels`; the rest is made as */
  gint               bottom;     /* `policy` says */
  const CblurImage  *pixels;     /* read through io where they have none */
  CblurPixel         colour;     /* the policy's, where it has one */
  CblurPixel        *between;    /* horizontal result of src's rows, in strips */
  CblurPixel        *made_row;   /* ... of a row of the colour */
  CblurBandIo       *io;         /* GEGL's reads and writes, for GEGL's pixels
                                  * and a dst without pixels */
  /* spans and strips lie on a grid of absolute columns, GEGL's tiles'
   * where io has them: dst starts `lead` columns into its span */
  gint               lead;
  gint               span_columns; /* the columns of a span, */
  gint               write_rows;   /* and the rows it encodes and writes at once */
  gint               n_spans;
  gint               last_span_units; /* the threads' units of the last span */
  /* GEGL's pixels as gathered, by row groups, from an earlier blur
   * (kept_held) or for the next (cblur-kept.h), or NULL */
  CblurPixel        *kept;
  gint               kept_margin;
  gboolean           kept_held;
} CblurCpuJob;

/* Where, under the policy, element i of a line whose GEGL pixels are
 * [lo, hi) takes its value from; -1 where it is the policy's colour. */
static inline gint
cblur_cpu_abyss_source (gint            i,
                        gint            lo,
                        gint            hi,
                        GeglAbyssPolicy policy)
{
  gint own = cblur_abyss_index (policy, i - lo, hi - lo);

  return own < 0 ? -1 : lo + own;
}

/* row y of strip s of the pass between */
static inline CblurPixel *
cblur_cpu_strip_row (const CblurCpuJob *job,
                     gint               s,
                     gint               y)
{
  gint first = job->lead / CBLUR_STRIP_PIXELS;

  return job->between + ((gsize) (s - first) * job->src->height + y) * CBLUR_STRIP_PIXELS;
}

/* The horizontal pass over row groups [first, first + count) of GEGL's
 * pixels, into the pass between; a cblur_parallel range function. */
void        cblur_cpu_rows        (gsize              first,
                                   gsize              count,
                                   gpointer           job);

/* A row of the colour, blurred as GEGL's own pixels would be: made rows
 * come out the same bits as read ones.  The caller frees it with
 * gegl_free(). */
CblurPixel *cblur_cpu_colour_row  (const CblurCpuJob *job);

/* The spans' width, grid and written rows, from dst and io's tiles. */
void        cblur_cpu_choose_spans (CblurCpuJob      *job);

/* The vertical pass over units [first, first + count) of the spans, into
 * dst; a cblur_parallel range function over n_spans - 1 +
 * last_span_units units. */
void        cblur_cpu_spans       (gsize              first,
                                   gsize              count,
                                   gpointer           job);

G_END_DECLS

#endif
