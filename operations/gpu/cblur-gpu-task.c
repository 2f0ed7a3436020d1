/* The users' tasks: their GL work, handed to the runtime's thread and
 * waited for, with the context acquired around it; and the thread-safe
 * functions built on them. */
#include "cblur-gpu-lifetime.h"
#include "cblur-gpu-thread.h"

#include <glib/gi18n-lib.h>

/* a task and what came of it, for the runtime's thread */
typedef struct
{
  CblurGpuTask task;
  gpointer     data;
  GError     **error;
  gboolean     ok;
} Task;

static void
run_task (gpointer data)
{
  Task     *task = data;
  CblurGpu *gpu;

  cblur_gpu_lock ();
  gpu = cblur_gpu_acquire (task->error);
  if (gpu != NULL)
    {
      task->ok = task->task (gpu, task->data, task->error);
      cblur_gpu_release (gpu);
    }
  cblur_gpu_unlock ();
}

gboolean
cblur_gpu_run (CblurGpuTask   task,
               gpointer       data,
               GError       **error)
{
  Task run = { task, data, error, FALSE };

  if (cblur_gpu_lifetime_refuse (error))
    return FALSE;
  if (!cblur_gpu_thread_call (run_task, &run))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_EXITING,
                           _("the process is exiting"));
      return FALSE;
    }
  return run.ok;
}

static gboolean
read_software (CblurGpu  *gpu,
               gpointer   is_software,
               GError   **error)
{
  if (is_software != NULL)
    *(gboolean *) is_software = gpu->limits.is_software;
  return TRUE;
}

gboolean
cblur_gpu_available (gboolean  *is_software,
                     GError   **error)
{
  return cblur_gpu_run (read_software, is_software, error);
}

/* with the lock held: only the host's part of a buffer whose context has
 * gone or cannot be reached */
static void
drop (CblurGpuPinned *pinned)
{
  cblur_gpu_lifetime_context ()->pinned_out--;
  g_free (pinned);
}

/* On the runtime's thread.  Where the context cannot be made current, it
 * has failed and the buffer goes with it. */
static void
pinned_free (gpointer pinned)
{
  CblurGpu *gpu;

  cblur_gpu_lock ();
  gpu = cblur_gpu_acquire (NULL);
  if (gpu != NULL)
    cblur_gpu_pinned_give_back (gpu, pinned);
  else
    drop (pinned);
  cblur_gpu_release (cblur_gpu_lifetime_context ());
  cblur_gpu_unlock ();
}

/* Once the process has begun to exit, or in a forked child, no GL: only
 * the host's part, which an exit waits for. */
void
cblur_gpu_pinned_free (CblurGpuPinned *pinned)
{
  if (!cblur_gpu_lifetime_refuse (NULL) && cblur_gpu_thread_call (pinned_free, pinned))
    return;
  cblur_gpu_lock ();
  drop (pinned);
  cblur_gpu_unlock ();
}

gboolean
cblur_gpu_holds_context (void)
{
  gboolean holds;

  cblur_gpu_lock ();
  holds = cblur_gpu_context_alive (cblur_gpu_lifetime_context ());
  cblur_gpu_unlock ();
  return holds;
}

gboolean
cblur_gpu_holds_memory (void)
{
  gboolean holds;

  cblur_gpu_lock ();
  holds = cblur_gpu_context_holds_memory (cblur_gpu_lifetime_context ());
  cblur_gpu_unlock ();
  return holds;
}
