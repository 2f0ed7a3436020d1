/* Tiny images at huge radii: beyond the image, the GPU makes the halo
 * from the edge (or the abyss's colour, or under loop the far side)
 * without ever holding it as pixels, and gives what the CPU backend and
 * the double-precision reference give; memory and time stay proportional
 * to the image and its reach, not to the square of its halo. */
#include "gl-test.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "reference.h"

/* gl-accuracy's, box against the CPU; direct gives the same bits.  Both
 * backends' box sums windows of thousands of pixels in floats: 1.5e-5
 * from the reference at radius 3000. */
#define BOX_TOLERANCE    1e-4
#define DIRECT_REFERENCE 1e-5
#define BOX_REFERENCE    1e-4

/* A 1×1 image at radius 3000, box and direct: its own work is a few lines
 * of 7000 pixels.  Its halo's square is 6000² pixels, 576 MB a texture:
 * staging and blurring that takes gigabytes, and seconds to tens of
 * seconds of the CPU's on two cores: counted in the process's CPU time,
 * which a machine busy with other work leaves as it is. */
#define MAX_GROWTH_KIB  (160 * 1024)
#define MAX_CPU_SECONDS 5.0

static const GeglAbyssPolicy policies[] = {
  GEGL_ABYSS_NONE, GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, GEGL_ABYSS_BLACK, GEGL_ABYSS_WHITE
};

static const gchar *const policy_names[] = { "none", "clamp", "loop", "black", "white" };

/* the image's rectangle, its pixels GEGL's and the rest its abyss */
static CblurBandIo
stream_over (GlTestGegl       *gegl,
             GeglAbyssPolicy   policy)
{
  CblurBandIo band_io = gl_test_stream (gegl);

  band_io.inside = (GeglRectangle) { gegl->from->x, gegl->from->y,
                                    gegl->from->width, gegl->from->height };
  band_io.abyss = policy;
  return band_io;
}

/* dst grown by kernel's reach, for the geometry only */
static CblurImage
halo_of (const CblurKernel *kernel,
         const CblurImage  *dst)
{
  CblurImage halo = { NULL, dst->x - kernel->reach, dst->y - kernel->reach,
                      dst->width + 2 * kernel->reach, dst->height + 2 * kernel->reach, 0 };

  return halo;
}

/* kernel's blur of the image, of its own rectangle, where GEGL reads only
 * the image: streamed on GL as the op does it, and on the CPU */
static void
blur_streamed_and_on_cpu (const CblurKernel *kernel,
                          const CblurImage  *image,
                          GeglAbyssPolicy    policy,
                          CblurImage        *on_gl,
                          CblurImage        *on_cpu)
{
  GlTestGegl     gegl = { image, on_gl, 0 };
  CblurBandIo    band_io = stream_over (&gegl, policy);
  CblurImage     halo = halo_of (kernel, on_cpu);
  CblurRunReport report;

  gl_test_blur_streamed (CBLUR_BACKEND_GL, kernel, &band_io, &report);
  g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
  cblur_run_report_clear (&report);
  cblur_cpu_blur (kernel, &halo, image, policy, FALSE, on_cpu);
}

/* the reference's blur of the image under the policy */
static RefImage *
reference_blur (const CblurKernel *kernel,
                const CblurImage  *image,
                GeglAbyssPolicy    policy)
{
  const CblurKernelAxis *x = &kernel->axes[CBLUR_AXIS_X];
  const CblurKernelAxis *y = &kernel->axes[CBLUR_AXIS_Y];
  g_autofree gfloat     *pixels = g_new (gfloat, (gsize) image->width * image->height * 4);
  g_autoptr (RefImage)   src = NULL;
  gint                   row;

  for (row = 0; row < image->height; row++)
    memcpy (pixels + (gsize) row * image->width * 4, cblur_image_row (image, row),
            image->width * 4 * sizeof (gfloat));
  src = ref_image_from_floats (pixels, image->width, image->height);
  src->abyss = policy;
  return kernel->mode == CBLUR_MODE_DIRECT
         ? ref_blur_direct_xy (src, x->radius, y->radius)
         : ref_blur_box_xy (src, x->radius, y->radius, x->iterations);
}

static gdouble
diff_from_reference (const RefImage   *expected,
                     const CblurImage *actual)
{
  g_autofree gfloat *pixels = g_new (gfloat, (gsize) actual->width * actual->height * 4);
  gdouble            max_abs, rms;
  gint               row;

  for (row = 0; row < actual->height; row++)
    memcpy (pixels + (gsize) row * actual->width * 4, cblur_image_row (actual, row),
            actual->width * 4 * sizeof (gfloat));
  ref_compare_floats (expected, pixels, &max_abs, &rms);
  return max_abs;
}

/* The box reference costs a line's halo times a window per line: only for
 * a few lines. */
static void
check_tiny (CblurMode mode,
            gdouble   radius,
            gint      width,
            gint      height)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (radius, mode, 4);
  gboolean                cheap = mode == CBLUR_MODE_DIRECT || width + height <= 5;
  gsize                   i;

  for (i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      CblurImage *image = gl_test_random_image (5, -3, width, height, 7 * i + width);
      CblurImage *on_gl = gl_test_blank_image (5, -3, width, height);
      CblurImage *on_cpu = gl_test_blank_image (5, -3, width, height);
      gdouble     diff, reference_diff = 0.0;

      blur_streamed_and_on_cpu (kernel, image, policies[i], on_gl, on_cpu);
      diff = gl_test_max_diff (on_gl, on_cpu);
      if (cheap)
        {
          g_autoptr (RefImage) expected = reference_blur (kernel, image, policies[i]);

          reference_diff = diff_from_reference (expected, on_gl);
        }
      g_test_message ("%s radius %g, %d×%d, %s: max |GL - CPU| %g, |GL - reference| %g",
                      cblur_mode_name (mode), radius, width, height, policy_names[i], diff,
                      reference_diff);
      g_assert_cmpfloat (diff, <=, mode == CBLUR_MODE_BOX ? BOX_TOLERANCE : 0.0);
      g_assert_cmpfloat (reference_diff, <=,
                         mode == CBLUR_MODE_BOX ? BOX_REFERENCE : DIRECT_REFERENCE);

      gl_test_image_free (image);
      gl_test_image_free (on_gl);
      gl_test_image_free (on_cpu);
    }
}

static const struct
{
  gint width, height;
} tiny_sizes[] = { { 1, 1 }, { 3, 2 }, { 1, 40 }, { 40, 1 } };

/* 40 runs the box fused, in bands; 700 the direct window a part at a time; 3000
 * the box in two dispatches a pass, whole */
static const gdouble large_radii[] = { 40.0, 700.0, 3000.0 };

static void
test_tiny (gconstpointer data)
{
  CblurMode mode = GPOINTER_TO_INT (data);
  gsize     s, r;

  for (s = 0; s < G_N_ELEMENTS (tiny_sizes); s++)
    for (r = 0; r < G_N_ELEMENTS (large_radii); r++)
      check_tiny (mode, large_radii[r], tiny_sizes[s].width, tiny_sizes[s].height);
}

/* Under loop, pixel j of a line maps to j mod the line's length, in the
 * shaders by float division, which a GPU may round below a whole quotient:
 * check_tiny's checks at every length from 1 on, with halos that wrap at
 * least twice. */
static void
test_loop_lengths (void)
{
  gint n;

  for (n = 1; n <= 40; n++)
    check_tiny (CBLUR_MODE_DIRECT, 2.0 * n + 3.0, n, n);
}

/* A band that GL could not stage holds only the image too, and goes
 * through staging of the call's own, not streamed. */
static void
test_unstaged (gconstpointer data)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (700.0, GPOINTER_TO_INT (data), 4);
  gsize                   i;

  for (i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      CblurImage     *image = gl_test_random_image (-2, 9, 3, 2, 3 * i);
      CblurImage     *handed_on = gl_test_blank_image (-2, 9, 3, 2);
      CblurImage     *on_cpu = gl_test_blank_image (-2, 9, 3, 2);
      CblurImage     *dst = gl_test_blank_image (-2, 9, 3, 2);
      CblurImage     *src = gl_test_blank_image (-2, 9, 3, 2);
      GlTestGegl      gegl = { image, handed_on, 0 };
      CblurBandIo     band_io = stream_over (&gegl, policies[i]);
      CblurImage      halo = halo_of (kernel, dst);
      CblurRunReport  report;

      cblur_backend_blur (NULL, CBLUR_BACKEND_GL, kernel, src, dst, &band_io, &report);
      g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
      cblur_run_report_clear (&report);
      cblur_cpu_blur (kernel, &halo, image, policies[i], FALSE, on_cpu);
      g_assert_cmpfloat (gl_test_max_diff (handed_on, on_cpu), <=,
                         kernel->mode == CBLUR_MODE_BOX ? BOX_TOLERANCE : 0.0);

      gl_test_image_free (image);
      gl_test_image_free (handed_on);
      gl_test_image_free (on_cpu);
      gl_test_image_free (dst);
      gl_test_image_free (src);
    }
}

/* the image and its abyss under loop over all of rect, as GEGL reads it */
static CblurImage *
looped (const CblurImage *image,
        const CblurImage *rect)
{
  CblurImage *all = gl_test_blank_image (rect->x, rect->y, rect->width, rect->height);
  gint        x, y;

  for (y = 0; y < all->height; y++)
    for (x = 0; x < all->width; x++)
      memcpy (cblur_image_pixel (all, x, y),
              cblur_image_pixel (image, cblur_floor_mod (all->x + x - image->x, image->width),
                                 cblur_floor_mod (all->y + y - image->y, image->height)),
              CBLUR_CHANNELS * sizeof (gfloat));
  return all;
}

/* A band cut into tiles holds only the image too where every tile can make
 * its halo from its part of it: clamp's edge or the colour from any part,
 * loop's far side where the tile holds the image's whole width and height
 * or needs none.  Where one cannot, under loop, GEGL reads all the band. */
static void
check_tiles (CblurMode mode,
             gdouble   radius,
             gint      width,
             gint      height,
             gint      max_tile,
             gboolean  loop_held)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (radius, mode, 4);
  g_autofree gchar       *cap = g_strdup_printf ("%d", max_tile);
  gsize                   i;

  gl_test_set ("CBLUR_GL_MAX_TILE", cap);
  for (i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      gboolean           held = policies[i] != GEGL_ABYSS_LOOP || loop_held;
      CblurImage        *image = gl_test_random_image (4, 1, width, height, i);
      CblurImage        *handed_on = gl_test_blank_image (4, 1, width, height);
      CblurImage        *on_cpu = gl_test_blank_image (4, 1, width, height);
      CblurImage         dst = *on_cpu;
      CblurImage         halo = halo_of (kernel, &dst);
      CblurImage         src = halo;
      CblurImage        *read = held ? image : looped (image, &halo);
      GlTestGegl         gegl = { read, handed_on, 0 };
      CblurBandIo        band_io = stream_over (&gegl, policies[i]);
      CblurBandMemory   *band;
      CblurRunReport     report;

      band_io.inside = (GeglRectangle) { image->x, image->y, image->width, image->height };
      band = cblur_band_memory_new (CBLUR_BACKEND_GL, kernel, &band_io, &src, &dst);
      g_assert_cmpint (src.width < halo.width, ==, held);
      cblur_backend_blur (band, CBLUR_BACKEND_GL, kernel, &src, &dst, &band_io, &report);
      g_assert_cmpint (report.ran_on, ==, CBLUR_BACKEND_GL);
      g_assert_null (report.gl_failure);
      g_assert_cmpint (report.tiles, >, 1);
      cblur_run_report_clear (&report);
      cblur_band_memory_free (band);
      cblur_cpu_blur (kernel, &halo, image, policies[i], FALSE, on_cpu);
      g_assert_cmpfloat (gl_test_max_diff (handed_on, on_cpu), <=,
                         mode == CBLUR_MODE_BOX ? BOX_TOLERANCE : 0.0);

      if (read != image)
        gl_test_image_free (read);
      gl_test_image_free (image);
      gl_test_image_free (handed_on);
      gl_test_image_free (on_cpu);
    }
  gl_test_set ("CBLUR_GL_MAX_TILE", NULL);
}

static void
test_tiles (gconstpointer data)
{
  CblurMode mode = GPOINTER_TO_INT (data);

  check_tiles (mode, 700.0, 40, 3, 16, TRUE);
  check_tiles (mode, 40.0, 30, 20, 8, TRUE);
  check_tiles (mode, 10.0, 100, 3, 16, FALSE);
}

static glong
peak_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/* the CPU time of all the process's threads so far, in seconds */
static gdouble
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* the peak down to what is resident now (Linux's clear_refs), so that the
 * start-up's does not hide the blur's */
static void
reset_peak (void)
{
  FILE *file = fopen ("/proc/self/clear_refs", "w");

  g_assert_nonnull (file);
  fputs ("5", file);
  fclose (file);
}

/* In a process of its own, with a context already made: a 1×1 image at
 * radius 3000, box and direct, under clamp, streamed as the op does it. */
static void
blur_within_bounds (void)
{
  glong   before;
  gdouble started;
  gint    mode;

  g_assert_true (cblur_gl_available (NULL, NULL));
  reset_peak ();
  before = peak_kib ();
  started = cpu_seconds ();
  for (mode = CBLUR_MODE_DIRECT; mode <= CBLUR_MODE_BOX; mode++)
    {
      g_autoptr (CblurKernel) kernel = cblur_kernel_new (3000.0, mode, 4);
      CblurImage             *image = gl_test_random_image (0, 0, 1, 1, 1);
      CblurImage             *on_gl = gl_test_blank_image (0, 0, 1, 1);
      CblurImage             *on_cpu = gl_test_blank_image (0, 0, 1, 1);

      blur_streamed_and_on_cpu (kernel, image, GEGL_ABYSS_CLAMP, on_gl, on_cpu);
      g_assert_cmpfloat (gl_test_max_diff (on_gl, on_cpu), <=, BOX_TOLERANCE);
      gl_test_image_free (image);
      gl_test_image_free (on_gl);
      gl_test_image_free (on_cpu);
    }
  g_assert_cmpint (peak_kib () - before, <=, MAX_GROWTH_KIB);
  g_assert_cmpfloat (cpu_seconds () - started, <=, MAX_CPU_SECONDS);
}

static void
test_proportional (void)
{
  if (test_in_own_process (0))
    blur_within_bounds ();
}

int
main (int    argc,
      char **argv)
{
  test_init (&argc, &argv);
  g_test_add_data_func ("/gl/halo/tiny-direct", GINT_TO_POINTER (CBLUR_MODE_DIRECT), test_tiny);
  g_test_add_data_func ("/gl/halo/tiny-box", GINT_TO_POINTER (CBLUR_MODE_BOX), test_tiny);
  g_test_add_func ("/gl/halo/loop-lengths", test_loop_lengths);
  g_test_add_data_func ("/gl/halo/unstaged-direct", GINT_TO_POINTER (CBLUR_MODE_DIRECT),
                        test_unstaged);
  g_test_add_data_func ("/gl/halo/unstaged-box", GINT_TO_POINTER (CBLUR_MODE_BOX),
                        test_unstaged);
  g_test_add_data_func ("/gl/halo/tiles-direct", GINT_TO_POINTER (CBLUR_MODE_DIRECT),
                        test_tiles);
  g_test_add_data_func ("/gl/halo/tiles-box", GINT_TO_POINTER (CBLUR_MODE_BOX), test_tiles);
  g_test_add_func ("/gl/halo/proportional", test_proportional);
  return gl_test_run ();
}
