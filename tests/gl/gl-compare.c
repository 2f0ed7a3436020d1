/* cblur-gl-compare [WIDTH HEIGHT [RADIUS...]]: GL against the CPU on one
 * random image at a few radii (3, 15, 150 unless given) in both modes, with timings; for running by hand on a GPU.
 * It exits with the context alive, as a host may. */
#include "gl-test.h"

#include <stdio.h>
#include <stdlib.h>

static gdouble
elapsed_ms (gint64 since)
{
  return (g_get_monotonic_time () - since) / 1000.0;
}

/* GL times are medians of RUNS calls after the first */
#define RUNS 7

/* the value with as many others at or below it as at or above it */
static gdouble
median (const gdouble *values)
{
  gint i, j;

  for (i = 0; i < RUNS; i++)
    {
      gint below = 0, level = 0;

      for (j = 0; j < RUNS; j++)
        {
          below += values[j] < values[i];
          level += values[j] == values[i];
        }
      if (below <= RUNS / 2 && RUNS / 2 < below + level)
        return values[i];
    }
  return values[0];
}

static void
compare (CblurMode mode,
         gdouble   radius,
         gint      width,
         gint      height)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (radius, mode, 4);
  g_autoptr (GError)      error = NULL;
  gint                    reach = kernel->reach;
  CblurImage             *src = gl_test_random_input (kernel, 0, 0, width, height, 1);
  CblurImage             *on_gl = gl_test_blank_image (0, 0, width, height);
  CblurImage             *on_cpu = gl_test_blank_image (0, 0, width, height);
  CblurGlReport           report;
  gdouble                 gl_ms[RUNS], upload_ms[RUNS], compute_ms[RUNS], download_ms[RUNS];
  gdouble                 cpu_ms;
  gint64                  start;
  gint                    run;

  /* the first call compiles the shaders for this kernel */
  if (!cblur_gl_blur (NULL, kernel, src, on_gl, NULL, &report, &error))
    g_error ("GL: %s", error->message);
  for (run = 0; run < RUNS; run++)
    {
      start = g_get_monotonic_time ();
      if (!cblur_gl_blur (NULL, kernel, src, on_gl, NULL, &report, &error))
        g_error ("GL: %s", error->message);
      gl_ms[run] = elapsed_ms (start);
      upload_ms[run] = report.upload_ms;
      compute_ms[run] = report.compute_ms;
      download_ms[run] = report.download_ms;
    }

  start = g_get_monotonic_time ();
  cblur_cpu_blur (kernel, src, NULL, GEGL_ABYSS_NONE, FALSE, on_cpu);
  cpu_ms = elapsed_ms (start);

  printf ("%-6s %6.1f %5d %5d %10.3g %9.2f %8.2f %8.2f %8.2f %9.1f\n",
          cblur_mode_name (mode), radius, reach, report.tiles,
          gl_test_max_diff (on_gl, on_cpu), median (gl_ms), median (upload_ms),
          median (compute_ms), median (download_ms), cpu_ms);

  gl_test_image_free (src);
  gl_test_image_free (on_gl);
  gl_test_image_free (on_cpu);
}

int
main (int    argc,
      char **argv)
{
  static const gdouble default_radii[] = { 3.0, 15.0, 150.0 };
  g_autoptr (GArray)   radii = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_autoptr (GError)   error = NULL;
  gint                 width = argc > 2 ? atoi (argv[1]) : 3840;
  gint                 height = argc > 2 ? atoi (argv[2]) : 2160;
  gboolean             is_software;
  CblurMode            mode;
  CblurGlReport        report;
  gint                 i;

  for (i = 3; i < argc; i++)
    {
      gdouble radius = g_ascii_strtod (argv[i], NULL);

      g_array_append_val (radii, radius);
    }
  if (radii->len == 0)
    g_array_append_vals (radii, default_radii, G_N_ELEMENTS (default_radii));

  /* a run cut short by a timeout still shows the lines it finished */
  setvbuf (stdout, NULL, _IOLBF, 0);
  gegl_init (&argc, &argv);
  g_object_set (gegl_config (), "threads", MIN (g_get_num_processors (), 64), NULL);
  if (!cblur_gl_available (&is_software, &error))
    g_error ("no GL: %s", error->message);

  {
    g_autoptr (CblurKernel) probe = cblur_kernel_new (1.0, CBLUR_MODE_DIRECT, 3);

    gl_test_against_cpu (probe, 0, 0, 1, 1, 1, &report);
  }
  printf ("GL_RENDERER: %s (software: %s), GL_MAX_TEXTURE_SIZE %d\n"
          "%d×%d RGBA float, box with 4 passes, CPU on %d threads; times in ms\n"
          "mode   radius reach tiles max|GL-CPU|   GL wall   upload  compute download       CPU\n",
          report.renderer, is_software ? "yes" : "no", report.max_texture_size,
          width, height, MIN (g_get_num_processors (), 64));

  for (mode = CBLUR_MODE_DIRECT; mode <= CBLUR_MODE_BOX; mode++)
    for (i = 0; i < (gint) radii->len; i++)
      compare (mode, g_array_index (radii, gdouble, i), width, height);

  gegl_exit ();
  return 0;
}
