/* The CPU's one-dimensional variable blur: lines of pixels through the
 * variable blur's box passes, each output pixel with its own box from a
 * table.  A line goes alone (a row), or with others side by side, element
 * i of each in one run of pixels (columns of a strip), so that their
 * running sums go on together.  Reentrant: each thread brings its own
 * scratch. */
#ifndef CBLUR_CPU_VARIABLE_LINE_H
#define CBLUR_CPU_VARIABLE_LINE_H

#include <glib.h>

#include "cblur-pixel.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* Columns the vertical pass takes side by side: a row of them is a cache
 * line. */
#define CBLUR_VARIABLE_COLUMNS 4

/* what `lines` lines of n_in pixels need besides their input and output */
gsize cblur_variable_line_scratch_bytes (gint                 n_in,
                                         gint                 lines);

/* `lines` lines of n_in pixels, interleaved in `in` (pixel i of line c at
 * in[i * lines + c]), the first pixel at absolute coordinate origin,
 * become n_in - 2 * variable->reach pixels each of out, pixel i of line c
 * at out[i * out_step + c]; widths[i * lines + c] is the box of in's
 * pixel there (only those at least a box's reach from either end are
 * read).  scratch: cblur_variable_line_scratch_bytes, 32-byte aligned. */
void  cblur_variable_lines              (const CblurVariable *variable,
                                         const CblurPixel    *in,
                                         gint                 n_in,
                                         gint                 lines,
                                         gint64               origin,
                                         const CblurBoxWidth *widths,
                                         CblurPixel          *out,
                                         gsize                out_step,
                                         gpointer             scratch);

G_END_DECLS

#endif
