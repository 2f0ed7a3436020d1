#include "auto-test.h"

CblurBackendKind
auto_test_blur_as_op (CblurBackendKind   backend,
                      const CblurKernel *kernel,
                      gint               width,
                      gint               height,
                      gdouble           *diff)
{
  CblurImage    *image = gl_test_random_image (0, 0, width, height, 7);
  CblurImage    *on_gl = gl_test_blank_image (0, 0, width, height);
  CblurImage    *on_cpu = gl_test_blank_image (0, 0, width, height);
  CblurImage     halo = { NULL, -kernel->reach, -kernel->reach, width + 2 * kernel->reach,
                          height + 2 * kernel->reach, 0 };
  GlTestGegl     gegl = { image, on_gl, 0 };
  CblurBandIo    band_io = gl_test_stream (&gegl);
  CblurRunReport report;

  band_io.inside = (GeglRectangle) { 0, 0, width, height };
  band_io.abyss = GEGL_ABYSS_CLAMP;
  gl_test_blur_streamed (backend, kernel, &band_io, &report);
  g_assert_null (report.gl_failure);
  cblur_cpu_blur (kernel, &halo, image, GEGL_ABYSS_CLAMP, FALSE, on_cpu);
  *diff = gl_test_max_diff (on_gl, on_cpu);
  cblur_run_report_clear (&report);
  gl_test_image_free (image);
  gl_test_image_free (on_gl);
  gl_test_image_free (on_cpu);
  return report.ran_on;
}

const CblurWork auto_test_slow_on_cpu = { "test", "box", "RGBA float", 0, 4.0e6 };

CblurBackendKind
auto_test_choose (CblurPrediction *prediction)
{
  return cblur_choice_make (&auto_test_slow_on_cpu, prediction);
}

void
auto_test_start (void)
{
  CblurPrediction prediction;

  gl_test_set ("CBLUR_BACKEND", NULL);
  gl_test_set ("CBLUR_GL_NO_WAIT", "1");
  cblur_choice_learn (&auto_test_slow_on_cpu, CBLUR_BACKEND_CPU, AUTO_TEST_SLOW_ON_CPU_MS);
  g_assert_cmpint (auto_test_choose (&prediction), ==, CBLUR_BACKEND_CPU);
  g_assert_cmpint (prediction.start, ==, CBLUR_START_NOW);
  g_assert_nonnull (prediction.why_cpu);
}

void
auto_test_count_bands (const CblurRunReport *report,
                       const GeglRectangle  *band,
                       gpointer              user_data)
{
  gint *on = user_data;

  g_atomic_int_inc (&on[report->ran_on == CBLUR_BACKEND_GL]);
}

gfloat *
auto_test_blur_variable (const gchar *mask_format,
                         gint         width,
                         gint         height)
{
  g_autoptr (GeglBuffer) image = test_random_buffer (width, height, 11);
  g_autoptr (GeglBuffer) mask = gegl_buffer_new (GEGL_RECTANGLE (0, 0, width, height),
                                                 babl_format (mask_format));
  g_autofree gfloat     *ramp = g_new (gfloat, width * height);
  gfloat                *out = g_new (gfloat, width * height * 4);
  GeglNode              *graph = gegl_node_new ();
  GeglNode              *source, *masks, *blur;
  gint                   i;

  for (i = 0; i < width * height; i++)
    ramp[i] = (i % width) / (gfloat) (width - 1);
  gegl_buffer_set (mask, NULL, 0, babl_format ("Y float"), ramp, GEGL_AUTO_ROWSTRIDE);
  source = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer", image,
                                NULL);
  masks = gegl_node_new_child (graph, "operation", "gegl:buffer-source", "buffer", mask,
                               NULL);
  blur = gegl_node_new_child (graph, "operation", "cblur:variable-blur", "radius", 12.0,
                              NULL);
  gegl_node_link (source, blur);
  gegl_node_connect_to (masks, "output", blur, "aux");
  gegl_node_blit (blur, 1.0, GEGL_RECTANGLE (0, 0, width, height),
                  babl_format ("RaGaBaA float"), out, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return out;
}

void
auto_test_blur_variable_op (const gchar *mask_format)
{
  g_free (auto_test_blur_variable (mask_format, 96, 64));
}
