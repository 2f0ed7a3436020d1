/* How long an idle GPU keeps its low clock once work comes: a compute
 * job timed at the clock a stream of jobs leaves, then, after each
 * pause, the same job back to back until it runs that fast again.  An
 * apply after a pause meets the GPU as this finds it.
 *
 *   cblur-gpu-clock [--pauses 8,8] [--for-ms 300] [--steps 2000]
 */
#include <stdlib.h>
#include <glib.h>

#include "cblur-gpu.h"

#define ITEMS      (1 << 22)
#define GROUP_SIZE 256

static const gchar *busy_source =
  "#version 430\n"
  "layout (local_size_x = 256) in;\n"
  "layout (std430, binding = 0) buffer Values { float values[]; };\n"
  "uniform int steps;\n"
  "void main () {\n"
  "  uint  i = gl_GlobalInvocationID.x;\n"
  "  float a = values[i];\n"
  "  for (int k = 0; k < steps; k++)\n"
  "    a = a * 1.0000001 + 0.5;\n"
  "  values[i] = a;\n"
  "}\n";

typedef struct
{
  gint    steps;
  guint   buffer;
  gdouble ms;    /* the job's wall time, out */
} Job;

/* a task: one job, waited for */
static gboolean
run_job (CblurGpu  *gpu,
         gpointer   data,
         GError   **error)
{
  Job             *job = data;
  CblurGpuProgram *busy = cblur_gpu_program (gpu, "busy", busy_source, "", "", error);
  gint64           started = g_get_monotonic_time ();

  if (busy == NULL)
    return FALSE;
  if (job->buffer == 0)
    job->buffer = cblur_gpu_buffer_new (ITEMS * sizeof (gfloat), NULL);
  cblur_gpu_use (busy);
  cblur_gpu_set_int (busy, "steps", job->steps);
  cblur_gpu_bind_buffer (0, job->buffer, 0, 0);
  cblur_gpu_dispatch (cblur_gpu_groups (ITEMS, GROUP_SIZE), 1, 0);
  if (!cblur_gpu_finish (gpu, "busy job", error))
    return FALSE;
  job->ms = (g_get_monotonic_time () - started) / 1000.0;
  return TRUE;
}

static gdouble
job_ms (Job *job)
{
  g_autoptr (GError) error = NULL;

  if (!cblur_gpu_run (run_job, job, &error))
    g_error ("no GPU job: %s", error->message);
  return job->ms;
}

/* jobs back to back for for_ms: the first job's time and when one first
 * runs within a fifth of `fast` */
static void
after_pause (Job    *job,
             gdouble fast,
             gdouble for_ms)
{
  gint64  started = g_get_monotonic_time ();
  gdouble first = job_ms (job);
  gdouble elapsed = first;

  while (job->ms > fast * 1.2 && elapsed < for_ms)
    {
      job_ms (job);
      elapsed = (g_get_monotonic_time () - started) / 1000.0;
    }
  if (job->ms > fast * 1.2)
    g_print ("first job %.2f ms, still %.2f ms after %.0f ms of jobs\n", first, job->ms, elapsed);
  else
    g_print ("first job %.2f ms, %.2f ms after %.0f ms of jobs\n", first, job->ms, elapsed);
}

int
main (int    argc,
      char **argv)
{
  Job                 job = { 2000, 0, 0 };
  g_autofree gchar   *pauses_arg = NULL;
  gdouble             for_ms = 300;
  GOptionEntry        entries[] = {
    { "pauses", 0, 0, G_OPTION_ARG_STRING, &pauses_arg, "seconds idle before each run (8,8)", "S,…" },
    { "for-ms", 0, 0, G_OPTION_ARG_DOUBLE, &for_ms, "longest run of jobs (300)", "MS" },
    { "steps", 0, 0, G_OPTION_ARG_INT, &job.steps, "a job's steps for each of its items (2000)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- the GPU's clock after pauses");
  g_autoptr (GError)  error = NULL;
  g_auto (GStrv)      pauses = NULL;
  gdouble             fast = G_MAXDOUBLE;
  gint                i;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  pauses = g_strsplit (pauses_arg != NULL ? pauses_arg : "8,8", ",", -1);
  for (i = 0; i < 300; i++)
    fast = MIN (fast, job_ms (&job));
  g_print ("a job after a stream of them: %.2f ms\n", fast);
  for (i = 0; pauses[i] != NULL; i++)
    {
      g_usleep ((gulong) (g_ascii_strtod (pauses[i], NULL) * G_USEC_PER_SEC));
      g_print ("after %s s idle: ", pauses[i]);
      after_pause (&job, fast, for_ms);
    }
  return EXIT_SUCCESS;
}
