/* The applies method: a GIMP user's run of applies of one filter to one
 * image, a pause before each after the first.  An apply is a fresh graph,
 * gegl:buffer-source of the image → the method's blur (a variable blur
 * with the benchmark's smooth mask on its aux pad) → gegl:write-buffer
 * into a new buffer of the image's own format, processed whole, as GIMP
 * writes a filter's result into its drawable.  The pause lets the GPU's
 * clocks fall and the runtime's idle release come, as between a user's
 * applies.  With a preview, each apply follows its dialog's: the whole
 * image in a 1920×1080 window at its mipmap level, in GIMP's 256×128
 * chunks, a fresh graph, then the time a user takes before applying.
 * Each apply's time and the backend it ran on go to stderr as it is
 * taken; the table gives the first apply on its own and the median, p90
 * and worst of the applies after it. */
#ifndef BENCH_APPLIES_H
#define BENCH_APPLIES_H

#include <glib.h>

typedef struct
{
  gint     applies;   /* a run's applies; 0: no applies */
  gdouble  pause_s;   /* before each apply after the first */
  gchar   *image;     /* the image's size, WxH */
  gchar   *format;    /* the image's format */
  gdouble  radius;
  gdouble  preview_s; /* from each apply's preview to the apply; below 0: no preview */
} BenchApplies;

/* The applies method's options out of argv (--applies, --pause,
 * --apply-image, --apply-format, --apply-radius, --apply-preview), the
 * others left there;
 * FALSE after a message where they are bad. */
gboolean bench_applies_parse (gint          *argc,
                              gchar       ***argv,
                              BenchApplies  *choice);

/* A run of applies of each of methods (NULL: auto, gegl-iir,
 * auto-variable and gegl-variable), one method's after another in the
 * table's order in this process, and their tables on stdout; FALSE after
 * a message where the image's size or format is bad. */
gboolean bench_applies_time  (const BenchApplies *choice,
                              gchar             **methods);

void     bench_applies_clear (BenchApplies       *choice);

#endif
