/* The CPU's one-dimensional variable blur: a contiguous line of pixels
 * through the variable blur's box passes, each output pixel with its own
 * box from a table.  Both axes run it, the columns gathered into lines.
 * Reentrant: each thread brings its own scratch. */
#ifndef CBLUR_CPU_VARIABLE_LINE_H
#define CBLUR_CPU_VARIABLE_LINE_H

#include <glib.h>

#include "cblur-pixel.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* what a line of n_in pixels needs besides its input and output */
gsize cblur_variable_line_scratch_bytes (gint                 n_in);

/* n_in pixels of in, the first at absolute coordinate origin, become
 * n_in - 2 * variable->reach pixels of out; widths[i] is the box of the
 * pixel at in[i] (only those at least a box's reach from either end are
 * read).  scratch: cblur_variable_line_scratch_bytes, 32-byte aligned. */
void  cblur_variable_line               (const CblurVariable *variable,
                                         const CblurPixel    *in,
                                         gint                 n_in,
                                         gint64               origin,
                                         const CblurBoxWidth *widths,
                                         CblurPixel          *out,
                                         gpointer             scratch);

G_END_DECLS

#endif
