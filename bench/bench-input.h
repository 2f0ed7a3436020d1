/* The benchmark's inputs: an image's size, an image of noise, a variable
 * blur's mask, and an image's pixels in another format. */
#ifndef BENCH_INPUT_H
#define BENCH_INPUT_H

#include <gegl.h>

/* WxH into *width and *height; FALSE after a message where that is no
 * size. */
gboolean    bench_parse_size  (const gchar *text,
                               gint        *width,
                               gint        *height);

/* Simplex noise in RGBA float, rendered into the buffer's rectangle (a
 * sink would render nothing of a source without bounds), and checked not
 * to be flat: a blank input reads from GEGL's one shared empty tile, far
 * faster than an image. */
GeglBuffer *bench_noise_image (gint         width,
                               gint         height);

/* A smooth Y' u8 mask: a diagonal ramp from none to full blur with a
 * round bump, as a painted channel would be. */
GeglBuffer *bench_smooth_mask (gint         width,
                               gint         height);

/* input's pixels in format */
GeglBuffer *bench_converted   (GeglBuffer  *input,
                               const gchar *format);

#endif
