/* What the tests of auto's start and of the GPU's first blurs after the
 * CPU's share: a blur through the op's streamed band, a choice that
 * starts the GPU, the variable blur's op, and a count of bands by where
 * they ran.  Each case runs in a process of its own, the runtime's state
 * being the process's. */
#ifndef AUTO_TEST_H
#define AUTO_TEST_H

#include "gl-test.h"

#include "cblur-choice-internal.h"
#include "cblur-log.h"

/* a child that has not finished by then has hung: llvmpipe compiles a
 * start's programs slowly on a loaded machine of few cores */
#define AUTO_TEST_CHILD_US (120 * G_USEC_PER_SEC)

/* box against the CPU's, as gl-accuracy's */
#define AUTO_TEST_BOX_TOLERANCE 1e-4

/* a blur the CPU was measured to take longer over than any GPU's start,
 * in this many milliseconds */
extern const CblurWork auto_test_slow_on_cpu;
#define AUTO_TEST_SLOW_ON_CPU_MS 1.0e6

/* kernel's blur of a random width × height image through backend,
 * streamed as the op runs it; where it ran, and its largest difference
 * from the CPU's blur */
CblurBackendKind auto_test_blur_as_op      (CblurBackendKind   backend,
                                            const CblurKernel *kernel,
                                            gint               width,
                                            gint               height,
                                            gdouble           *diff);

/* the backend auto chooses for auto_test_slow_on_cpu, and why */
CblurBackendKind auto_test_choose          (CblurPrediction   *prediction);

/* Under auto, with llvmpipe taken for a GPU that finishes every blur
 * first (CBLUR_GL_NO_WAIT), a blur that the CPU takes longer over than the
 * GPU's start starts the context in the background, which
 * CBLUR_GL_FAULT=slow makes slow, and the CPU blurs it meanwhile. */
void             auto_test_start           (void);

/* a CblurLogWatch: user_data, two gints, counts the bands that ran on the
 * CPU and on GL */
void             auto_test_count_bands     (const CblurRunReport *report,
                                            const GeglRectangle  *band,
                                            gpointer              user_data);

/* a ramp of blur across a random width × height image through the
 * variable blur's op, the mask stored in mask_format: its pixels; and the
 * same at 96 × 64, for its bands alone */
gfloat          *auto_test_blur_variable    (const gchar *mask_format,
                                             gint         width,
                                             gint         height);
void             auto_test_blur_variable_op (const gchar *mask_format);

#endif
