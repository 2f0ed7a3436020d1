#include "cblur-test.h"
#include "cblur-log.h"

#include "cblur-settings.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

static struct
{
  GMutex        lock;
  gint          gl;
  gint          cpu;
  TestBlurred   blurred;
} ran;

/* Counts where each band was blurred, from the backend's reports as the
 * op logs them, so a GL test can fail when GL quietly did not run, and
 * what was blurred. */
static void
count_backends (const CblurRunReport *report,
                const GeglRectangle  *band,
                gpointer              user_data)
{
  g_mutex_lock (&ran.lock);
  if (report->ran_on == CBLUR_BACKEND_GL)
    ran.gl++;
  else
    ran.cpu++;
  ran.blurred.bands++;
  ran.blurred.pixels += (gint64) band->width * band->height;
  ran.blurred.widest = MAX (ran.blurred.widest, band->width);
  ran.blurred.kept += report->read_kept;
  g_mutex_unlock (&ran.lock);
}

TestBlurred
test_take_blurred (void)
{
  TestBlurred blurred;

  g_mutex_lock (&ran.lock);
  blurred = ran.blurred;
  memset (&ran.blurred, 0, sizeof ran.blurred);
  g_mutex_unlock (&ran.lock);
  return blurred;
}

void
test_init (gint    *argc,
           gchar ***argv)
{
  g_test_init (argc, argv, NULL);
  gegl_init (argc, argv);
  cblur_log_watch (count_backends, NULL);
}

void
test_run_without_whole_images (gconstpointer data)
{
  GTestFunc test = (GTestFunc) data;

  g_setenv ("CBLUR_WHOLE_IMAGE_PIXELS", "1", TRUE);
  cblur_settings_reload ();
  test ();
  g_unsetenv ("CBLUR_WHOLE_IMAGE_PIXELS");
  cblur_settings_reload ();
}

gboolean
test_backend_is_gl (void)
{
  return g_strcmp0 (g_getenv ("CBLUR_BACKEND"), "gl") == 0;
}

void
test_assert_ran_on_backend (void)
{
  g_mutex_lock (&ran.lock);
  if (test_backend_is_gl ())
    {
      g_assert_cmpint (ran.gl, >, 0);
      g_assert_cmpint (ran.cpu, ==, 0);
    }
  else
    {
      g_assert_cmpint (ran.gl, ==, 0);
    }
  ran.gl = ran.cpu = 0;
  g_mutex_unlock (&ran.lock);
}

void
test_forget_backends (void)
{
  g_mutex_lock (&ran.lock);
  ran.gl = ran.cpu = 0;
  g_mutex_unlock (&ran.lock);
}

GeglBuffer *
test_random_buffer (gint    width,
                    gint    height,
                    guint32 seed)
{
  GeglRectangle rect = { 0, 0, width, height };
  GeglBuffer   *buffer = gegl_buffer_new (&rect, babl_format (TEST_FORMAT));
  gfloat       *pixels = g_new (gfloat, (gsize) width * height * 4);
  GRand        *rand = g_rand_new_with_seed (seed);
  gsize         i;

  for (i = 0; i < (gsize) width * height; i++)
    {
      gfloat alpha = g_rand_double (rand);
      gint   c;

      for (c = 0; c < 3; c++)
        pixels[i * 4 + c] = alpha * g_rand_double (rand);
      pixels[i * 4 + 3] = alpha;
    }

  gegl_buffer_set (buffer, &rect, 0, babl_format (TEST_FORMAT), pixels,
                   GEGL_AUTO_ROWSTRIDE);
  g_rand_free (rand);
  g_free (pixels);
  return buffer;
}

GeglBuffer *
test_load_photo (const gchar *name)
{
  g_autofree gchar *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);

  return test_load_image (path);
}

GeglBuffer *
test_load_image (const gchar *path)
{
  GeglNode         *graph = gegl_node_new ();
  GeglNode         *load = gegl_node_new_child (graph, "operation", "gegl:load",
                                                "path", path, NULL);
  GeglNode         *sink;
  GeglBuffer       *loaded = NULL;
  GeglBuffer       *linear;

  sink = gegl_node_new_child (graph, "operation", "gegl:buffer-sink",
                              "buffer", &loaded, NULL);
  gegl_node_link (load, sink);
  gegl_node_process (sink);
  g_object_unref (graph);
  g_assert_nonnull (loaded);

  linear = gegl_buffer_new (gegl_buffer_get_extent (loaded), babl_format (TEST_FORMAT));
  gegl_buffer_copy (loaded, NULL, GEGL_ABYSS_NONE, linear, NULL);
  g_object_unref (loaded);
  return linear;
}

gfloat *
test_read (GeglBuffer          *buffer,
           const GeglRectangle *rect)
{
  gfloat *pixels = g_new (gfloat, (gsize) rect->width * rect->height * 4);

  gegl_buffer_get (buffer, rect, 1.0, babl_format (TEST_FORMAT), pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return pixels;
}

gfloat *
test_read_raw (const gchar *path,
               gsize        n_floats)
{
  g_autoptr (GError) error = NULL;
  gchar             *contents = NULL;
  gsize              length = 0;

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("%s", error->message);
  if (length != n_floats * sizeof (gfloat))
    g_error ("%s holds %" G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT,
             path, length, n_floats * sizeof (gfloat));
  return (gfloat *) contents;
}

GeglNode *
test_blur_graph (GeglNode   *parent,
                 GeglBuffer *input,
                 GeglNode  **blur)
{
  GeglNode *source = gegl_node_new_child (parent, "operation", "gegl:buffer-source",
                                          "buffer", input, NULL);

  *blur = gegl_node_new_child (parent, "operation", "cblur:gaussian-blur", NULL);
  g_assert_true (gegl_has_operation ("cblur:gaussian-blur"));
  gegl_node_link (source, *blur);
  return source;
}

static gfloat *
blur_valist (const Babl          *format,
             GeglBuffer          *input,
             const GeglRectangle *roi,
             const gchar         *first_property,
             va_list              args)
{
  GeglNode *graph = gegl_node_new ();
  GeglNode *blur;
  gfloat   *pixels = g_new (gfloat, (gsize) roi->width * roi->height * 4);

  test_blur_graph (graph, input, &blur);
  gegl_node_set_valist (blur, first_property, args);
  gegl_node_blit (blur, 1.0, roi, format, pixels, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  g_object_unref (graph);
  return pixels;
}

gfloat *
test_blur (GeglBuffer          *input,
           const GeglRectangle *roi,
           const gchar         *first_property,
           ...)
{
  gfloat *pixels;
  va_list args;

  va_start (args, first_property);
  pixels = blur_valist (babl_format (TEST_FORMAT), input, roi, first_property, args);
  va_end (args);
  return pixels;
}

gfloat *
test_blur_as (const Babl          *format,
              GeglBuffer          *input,
              const GeglRectangle *roi,
              const gchar         *first_property,
              ...)
{
  gfloat *pixels;
  va_list args;

  va_start (args, first_property);
  pixels = blur_valist (format, input, roi, first_property, args);
  va_end (args);
  return pixels;
}

gfloat *
test_render_chunked (GeglBuffer          *input,
                     const GeglRectangle *roi,
                     gint                 chunk_pixels,
                     const gchar         *first_property,
                     ...)
{
  GeglNode              *graph = gegl_node_new ();
  g_autoptr (GeglBuffer) out = gegl_buffer_new (roi, babl_format (TEST_FORMAT));
  GeglNode              *blur, *write;
  GeglProcessor         *processor;
  gint                   threads = 1;
  va_list                args;

  test_blur_graph (graph, input, &blur);
  va_start (args, first_property);
  gegl_node_set_valist (blur, first_property, args);
  va_end (args);
  write = gegl_node_new_child (graph, "operation", "gegl:write-buffer", "buffer", out, NULL);
  gegl_node_link (blur, write);

  /* a processor's chunks hold chunksize pixels for each of GEGL's threads */
  g_object_get (gegl_config (), "threads", &threads, NULL);
  if (chunk_pixels > 0)
    processor = g_object_new (GEGL_TYPE_PROCESSOR, "node", write, "rectangle", roi,
                              "chunksize", MAX (chunk_pixels / MAX (threads, 1), 1), NULL);
  else
    processor = gegl_node_new_processor (write, roi);
  while (gegl_processor_work (processor, NULL))
    ;
  g_object_unref (processor);
  g_object_unref (graph);
  return test_read (out, roi);
}

gdouble
test_max_abs_diff (const gfloat *a,
                   const gfloat *b,
                   gsize         n)
{
  gdouble worst = 0.0;
  gsize   i;

  for (i = 0; i < n; i++)
    {
      gdouble d = fabs ((gdouble) a[i] - b[i]);

      if (!(d <= worst))
        worst = isnan (d) ? INFINITY : d;
    }
  return worst;
}

RefImage *
test_reference_input (GeglBuffer *buffer)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (buffer);
  g_autofree gfloat   *pixels = test_read (buffer, extent);

  return ref_image_from_floats (pixels, extent->width, extent->height);
}

void
test_assert_near (const RefImage *expected,
                  const gfloat   *actual,
                  gdouble         max_allowed,
                  gdouble         rms_allowed,
                  const gchar    *what)
{
  gdouble max_abs, rms;

  ref_compare_floats (expected, actual, &max_abs, &rms);
  g_test_message ("%s: max %.3g rms %.3g", what, max_abs, rms);
  g_assert_cmpfloat (max_abs, <=, max_allowed);
  g_assert_cmpfloat (rms, <=, rms_allowed);
}

gboolean
test_in_own_process (guint64 within_us)
{
  if (g_test_subprocess ())
    return TRUE;
  g_test_trap_subprocess (NULL, within_us, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  return FALSE;
}

/* the child's wait status once it has finished; -1 where it had not
 * within within_us, when it is killed */
static gint
wait_child (GPid   child,
            gint64 within_us)
{
  gint64 until = g_get_monotonic_time () + within_us;
  gint   status = 0;

  while (waitpid (child, &status, WNOHANG) == 0)
    {
      if (g_get_monotonic_time () > until)
        {
          kill (child, SIGKILL);
          waitpid (child, &status, 0);
          g_test_message ("the forked child hung");
          return -1;
        }
      g_usleep (10000);
    }
  return status;
}

void
test_assert_child_passed (GPid child)
{
  gint status = wait_child (child, 60 * G_USEC_PER_SEC);

  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

gsize
test_status_kib (const gchar *field)
{
  g_autofree gchar *status = NULL;
  g_autofree gchar *name = g_strconcat ("\n", field, ":", NULL);
  const gchar      *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, name);
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen (name), NULL, 10);
}
