/* The interactive methods: what GIMP's canvas asks of a blur while its
 * dialog is open or while it is a layer effect.
 *
 * GIMP shows the image at the display's zoom: a 3840×2160 image whole in
 * a 1920×1080 window at scale 0.5, rendered at mipmap level 1, and at
 * 100% a 1920×1080 part of it at level 0.  gegl_node_blit() renders at a
 * scale's mipmap level where GEGL_MIPMAP_RENDERING is set, which the
 * benchmark sets.  Its projection renders the area in view in chunks of
 * about 256×128, each a gegl_node_blit() of the graph at the display's
 * scale in the image's own format (GEGL_BLIT_DEFAULT: GEGL's cache of
 * each node's output serves what was rendered before).
 *
 * drag: the radius slider moves; each step is one property change of the
 * node, as the dialog makes, and one frame of the whole view.
 *
 * paint: the blur lives over an image being painted on; each 64×64 dab is
 * written into the source buffer, GEGL invalidates what the dab changes
 * through the graph, and that area, on GIMP's 32-pixel update grid and
 * inside the view, is rendered again in chunks at level 0.
 *
 * pause: a live dialog left alone: after a few seconds of slider moves,
 * each of a list of pauses (the GPU's clocks go down, the runtime's idle
 * release may come) followed by one move and its frame. */
#ifndef BENCH_INTERACTIVE_H
#define BENCH_INTERACTIVE_H

#include <gegl.h>

#include "bench-frames.h"
#include "bench-method.h"

/* the slider's positions, from the first */
typedef struct
{
  gdouble from;
  gdouble to;
  gdouble step;
} BenchSweep;

/* Whether each frame's time goes to stderr as it is taken ("frame ..."
 * lines, between the op's own CBLUR_LOG=stderr lines); off by default. */
void bench_interactive_log_frames (gboolean log);

/* The format the views render into, as a display converts the image for
 * the screen; NULL (the default) for the image's own. */
void bench_interactive_view_format (const Babl *format);

/* One frame per radius of sweep at level, the first one a fresh graph's,
 * of each of n_methods methods, a graph each; their frames taken in turn,
 * a frame of each at a time, where there are several (--in-turn, for a
 * shared machine whose speed drifts: each method's frames then meet the
 * same machine); a row "drag level N" in table for each. */
void bench_drag  (BenchFrameTable    *table,
                  GeglBuffer         *image,
                  const BenchMethod **methods,
                  gint                n_methods,
                  gint                level,
                  const BenchSweep   *sweep);

/* A first frame of the view at 100%, then `dabs` dabs under the blur at
 * radius, each with its re-render; a row "paint r R" in table.  The dabs
 * go into a copy of image. */
void bench_paint (BenchFrameTable   *table,
                  GeglBuffer        *image,
                  const BenchMethod *method,
                  gdouble            radius,
                  gint               dabs);

/* A first frame of the view at level and radius, WARM_MS of slider
 * moves, then a frame after each of the n pauses; a row "pause S s level
 * N" in table for each length of pause, with its frames. */
void bench_pause (BenchFrameTable   *table,
                  GeglBuffer        *image,
                  const BenchMethod *method,
                  gint               level,
                  gdouble            radius,
                  const gint        *pauses_ms,
                  gint               n);

#endif
