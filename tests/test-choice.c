/* The backend choice as a function of what was measured: for each row of
 * figures, the backend a 4K blur goes to, whether and when the GPU
 * starts, how long the blur waits for it, and what the prediction says. */
#include "cblur-test.h"

#include <math.h>

#include "cblur-choice-internal.h"

/* a 3840×2160 image with a halo of 30 */
#define PIXELS (3900.0 * 2220.0)

/* the rate that blurs PIXELS in ms, 0 for not measured */
static gdouble
rate (gdouble ms)
{
  return ms > 0 ? PIXELS / ms : 0;
}

typedef struct
{
  const gchar     *what;
  CblurChoiceGpu   gpu;
  gdouble          cpu_ms;      /* as measured, 0: not yet */
  gdouble          gl_ms;       /* ... once started, 0: not yet */
  gdouble          start_ms;    /* what of the start is left */
  gint             cores;
  CblurBackendKind backend;
  CblurStart       start;
  gboolean         hands_over;
  gdouble          wait_ms;
  gdouble          spent_ms;    /* the CPU's blurs in this process so far */
  gboolean         start_known; /* the GPU's start measured before */
} Row;

static const Row rows[] = {
  { "no GPU",                       CBLUR_CHOICE_NO_GPU,       30, 10, 500, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0 },
  { "ready, the CPU not measured",  CBLUR_CHOICE_GPU_READY,     0, 10,   0, 16,
    CBLUR_BACKEND_GL, CBLUR_START_NONE, FALSE, 0 },
  { "ready and faster",             CBLUR_CHOICE_GPU_READY,    30, 10,   0, 16,
    CBLUR_BACKEND_GL, CBLUR_START_NONE, FALSE, 0 },
  { "ready and slower",             CBLUR_CHOICE_GPU_READY,     5, 10,   0, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0 },
  { "starting, faster once ready",  CBLUR_CHOICE_GPU_STARTING, 300, 18, 100, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 0 },
  { "starting, slower once ready",  CBLUR_CHOICE_GPU_STARTING,  5, 10, 100, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0 },
  { "cold, the CPU not measured",   CBLUR_CHOICE_GPU_COLD,      0, 10, 500, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0 },
  /* where the GPU has served this machine before, on many cores, it
   * starts while the CPU measures a process's later blur; a first blur,
   * perhaps the process's only one, leaves it */
  { "cold, the CPU not measured, a start known", CBLUR_CHOICE_GPU_COLD, 0, 10, 500, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NOW, TRUE, 0, 3, TRUE },
  { "cold, the CPU not measured, a start known, a first blur", CBLUR_CHOICE_GPU_COLD, 0, 10,
    500, 16, CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0, 0, TRUE },
  { "cold, few cores, the CPU not measured, a start known", CBLUR_CHOICE_GPU_COLD, 0, 10, 500,
    2, CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0, 3, TRUE },
  { "cold, wins with its start",    CBLUR_CHOICE_GPU_COLD,    1000, 10, 500, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NOW, TRUE, 0 },
  { "cold, a warm driver's start",  CBLUR_CHOICE_GPU_COLD,    300, 18, 150, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NOW, TRUE, 0 },
  { "cold, pays back later",        CBLUR_CHOICE_GPU_COLD,     40, 10, 500, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_AFTER, FALSE, 0 },
  { "cold, never pays back",        CBLUR_CHOICE_GPU_COLD,      3, 2.5, 500, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0 },
  { "cold, slower even once ready", CBLUR_CHOICE_GPU_COLD,      5, 10, 500, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0 },
  /* a start figure too high to pay back is measured again once the CPU
   * has spent as much in this process, where the GPU wins once ready */
  { "cold, a start figure too high", CBLUR_CHOICE_GPU_COLD,    27, 10, 2000, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0, 1999 },
  { "cold, the CPU has spent the start", CBLUR_CHOICE_GPU_COLD, 27, 10, 2000, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_AFTER, FALSE, 0, 2000 },
  { "cold, slower once ready, the CPU has spent the start", CBLUR_CHOICE_GPU_COLD, 5, 10, 500,
    16, CBLUR_BACKEND_CPU, CBLUR_START_NONE, FALSE, 0, 1.0e6 },
  /* on few cores the CPU's blur would slow the start: a start under way
   * that wins even counting its rest is waited for, at most until half
   * the GPU's gain has passed beyond its predicted end, or twice the rest
   * of the start */
  { "starting, few cores, wins",    CBLUR_CHOICE_GPU_STARTING, 400, 24, 160, 2,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 160 + (400 - 184) / 2.0 },
  { "starting, few cores, wins big", CBLUR_CHOICE_GPU_STARTING, 4000, 24, 160, 2,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 2 * 160 },
  { "starting, few cores, loses",   CBLUR_CHOICE_GPU_STARTING, 130, 17, 160, 2,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 0 },
  { "starting, many cores, wins",   CBLUR_CHOICE_GPU_STARTING, 400, 24, 160, 16,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 0 },
  { "starting, few cores, overdue", CBLUR_CHOICE_GPU_STARTING, 400, 24,   0, 2,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 0 },
  { "starting, few cores, CPU not measured", CBLUR_CHOICE_GPU_STARTING, 0, 24, 160, 2,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 0 },
  { "starting, few cores, GPU not measured", CBLUR_CHOICE_GPU_STARTING, 400, 0, 160, 2,
    CBLUR_BACKEND_CPU, CBLUR_START_NONE, TRUE, 0 },
  { "cold, few cores, wins",        CBLUR_CHOICE_GPU_COLD,    1000, 10, 500, 2,
    CBLUR_BACKEND_CPU, CBLUR_START_NOW, TRUE, 0 },
  { "ready, few cores",             CBLUR_CHOICE_GPU_READY,    400, 24,   0, 2,
    CBLUR_BACKEND_GL, CBLUR_START_NONE, FALSE, 0 },
};

static void
test_rows (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const Row      *row = &rows[i];
      CblurFigures    figures = { .gpu = row->gpu, .why_no_gpu = "no GPU here",
                                  .cpu_rate = rate (row->cpu_ms),
                                  .gl_rate = rate (row->gl_ms),
                                  .start_left_ms = row->start_ms, .cores = row->cores,
                                  .cpu_spent_ms = row->spent_ms,
                                  .start_known = row->start_known };
      CblurPrediction prediction;

      g_test_message ("%s", row->what);
      cblur_choice_decide (&figures, PIXELS, &prediction);
      g_assert_cmpint (prediction.backend, ==, row->backend);
      g_assert_cmpint (prediction.start, ==, row->start);
      g_assert_cmpint (prediction.hands_over, ==, row->hands_over);
      g_assert_cmpfloat_with_epsilon (prediction.cpu_ms, row->cpu_ms, 1e-6);
      g_assert_cmpfloat_with_epsilon (prediction.wait_ms, row->wait_ms, 1e-6);
      if (row->gpu == CBLUR_CHOICE_NO_GPU)
        g_assert_cmpfloat (prediction.gl_ms, ==, 0);
      else if (row->gl_ms > 0)
        g_assert_cmpfloat_with_epsilon (prediction.gl_ms, row->gl_ms +
                                        (row->gpu == CBLUR_CHOICE_GPU_READY ? 0 : row->start_ms),
                                        1e-6);
      /* the CPU always says why */
      g_assert_true ((prediction.backend == CBLUR_BACKEND_CPU) == (prediction.why_cpu != NULL));
    }
}

/* A GPU taken to finish every blur first (infinite rate, no call cost)
 * takes every blur once ready, and starts at once wherever the CPU takes
 * longer than its start. */
static void
test_instant_gpu (void)
{
  CblurFigures    figures = { CBLUR_CHOICE_GPU_READY, NULL, rate (0.5), INFINITY, 0, 0 };
  CblurPrediction prediction;

  cblur_choice_decide (&figures, PIXELS, &prediction);
  g_assert_cmpint (prediction.backend, ==, CBLUR_BACKEND_GL);
  g_assert_cmpfloat (prediction.gl_ms, ==, 0);

  figures.gpu = CBLUR_CHOICE_GPU_COLD;
  figures.start_left_ms = 400;
  figures.cpu_rate = rate (401);
  cblur_choice_decide (&figures, PIXELS, &prediction);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_NOW);
  figures.cpu_rate = rate (399);
  cblur_choice_decide (&figures, PIXELS, &prediction);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_AFTER);
}

/* A small blur with the CPU not measured does not start a GPU that has
 * served this machine: the CPU measures it first. */
static void
test_small_unmeasured (void)
{
  CblurFigures    figures = { .gpu = CBLUR_CHOICE_GPU_COLD, .gl_rate = rate (10),
                              .start_left_ms = 500, .cores = 16, .cpu_spent_ms = 3,
                              .start_known = TRUE };
  CblurPrediction prediction;

  cblur_choice_decide (&figures, 1000.0 * 1000.0, &prediction);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_NONE);
  cblur_choice_decide (&figures, 1100.0 * 1000.0, &prediction);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_NOW);
}

/* A ready GPU predicted slower takes the blur where its figure is due to
 * be measured again, unless it loses by more than twice the CPU's time. */
static void
test_recheck (void)
{
  CblurFigures    figures = { CBLUR_CHOICE_GPU_READY, NULL, rate (10), rate (15), 0, 0 };
  CblurPrediction prediction;

  cblur_choice_decide (&figures, PIXELS, &prediction);
  g_assert_cmpint (prediction.backend, ==, CBLUR_BACKEND_CPU);
  figures.gl_due = TRUE;
  cblur_choice_decide (&figures, PIXELS, &prediction);
  g_assert_cmpint (prediction.backend, ==, CBLUR_BACKEND_GL);
  figures.gl_rate = rate (25);
  cblur_choice_decide (&figures, PIXELS, &prediction);
  g_assert_cmpint (prediction.backend, ==, CBLUR_BACKEND_CPU);
}

/* A first start, whose linking compiled what the driver's cache will
 * hold for a later process and whose context may have loaded the driver
 * from the disk, counts its first uses and at most a link from that cache
 * and a context's prior; a later start replaces a slower figure whole and
 * weighs in by half where slower. */
static void
test_start_figure (void)
{
  CblurStartTimes cold = { 84, 1.0e9, 23 };
  CblurStartTimes first = { 1.0e9, 1.0e9, 23 };
  CblurStartTimes warm = { 84, 10, 23 };
  CblurStartTimes slow = { 1000, 800, 200 };
  gdouble         linked = cblur_choice_updated_start (FALSE, 0, &cold);

  g_assert_cmpfloat (linked, >, 84 + 23);
  g_assert_cmpfloat (linked, <, 84 + 23 + 1000);
  g_assert_cmpfloat (cblur_choice_updated_start (FALSE, 0, &first), <, 23 + 2000);
  g_assert_cmpfloat (cblur_choice_updated_start (FALSE, 0, &warm), ==, 84 + 10 + 23);
  g_assert_cmpfloat_with_epsilon (cblur_choice_updated_start (TRUE, 300, &warm), 84 + 10 + 23,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (cblur_choice_updated_start (TRUE, 150, &slow),
                                  1.0 / ((1.0 / 150 + 1.0 / 2000) / 2), 1e-9);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/choice/rows", test_rows);
  g_test_add_func ("/choice/instant-gpu", test_instant_gpu);
  g_test_add_func ("/choice/small-unmeasured", test_small_unmeasured);
  g_test_add_func ("/choice/recheck", test_recheck);
  g_test_add_func ("/choice/start-figure", test_start_figure);
  return g_test_run ();
}
