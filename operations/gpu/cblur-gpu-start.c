/* The context's start without a user waiting for it (cblur_gpu_state),
 * as chores of the runtime's thread.  The first makes the context,
 * and right after, the users' warm-ups (cblur_gpu_on_made) queue every
 * program they may need, which the compiler then builds all at once.
 * Once those are linked, the second runs the users' first uses
 * (cblur_gpu_on_linked), which dispatch them before cblur_gpu_prepared()
 * says so: a driver may finish a program only at its first dispatch from
 * a thread (NVIDIA's does, on that thread's CPU, taking up to half a
 * second for each), and the tasks that come after, on the same thread,
 * find that done.  A third runs the users' first uses of the programs
 * the compiler links in a pause (cblur_gpu_program_linked,
 * cblur_gpu_on_upgraded), for the same reason; those queue nothing
 * more, lest a rehearsal of blurs the CPU took meanwhile (a slider's
 * frames while the GPU starts, each of a radius of its own) compile and
 * dispatch a program for each in turn, and the GPU never be prepared for
 * the frames themselves.  Its state is guarded by the thread's mutex. */
#include "cblur-gpu-compiler.h"
#include "cblur-gpu-config.h"
#include "cblur-gpu-lifetime.h"
#include "cblur-gpu-program.h"
#include "cblur-gpu-thread.h"

#include <pthread.h>
#include <string.h>

static struct
{
  gboolean  starting;      /* the thread is asked to make the context, or makes it */
  gint64    make_at;       /* not before then (monotonic time) */
  GError   *failure;       /* why it could not, until a context is made */
  GSList   *warm_ups;      /* CblurGpuWarmUp, run on the context just made */
  GSList   *first_uses;    /* CblurGpuWarmUp, run once its programs are linked */
  gboolean  first_use_due; /* the context made here awaits its first uses */
  GSList   *upgrade_uses;  /* CblurGpuWarmUp, run once a pause's programs are linked */
  gboolean  upgrading;     /* they run */
} self;

/* with the mutex held */
static gboolean
make_due (void)
{
  return self.starting && g_get_monotonic_time () >= self.make_at;
}

/* with the mutex held */
static gint64
make_due_at (void)
{
  return self.starting ? self.make_at : G_MAXINT64;
}

/* The chore that makes the context, as if a user had acquired it, and
 * runs the warm-ups on it; its reason where it cannot be made.  With the
 * mutex held, let go meanwhile. */
static void
make (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSList) warm_ups = g_slist_copy (self.warm_ups);
  GSList            *l;
  CblurGpu          *gpu;

  cblur_gpu_thread_unlock ();
  g_usleep (cblur_gpu_fault_delay_us ());
  cblur_gpu_lock ();
  gpu = cblur_gpu_acquire (&error);
  if (gpu != NULL)
    {
      for (l = warm_ups; l != NULL; l = l->next)
        ((CblurGpuWarmUp) l->data) (gpu);
      cblur_gpu_release (gpu);
    }
  cblur_gpu_unlock ();

  cblur_gpu_thread_lock ();
  self.starting = FALSE;
  self.first_use_due = gpu != NULL;
  if (gpu == NULL)
    g_propagate_error (&self.failure, g_steal_pointer (&error));
  cblur_gpu_thread_changed ();
}

/* with the mutex held: once the warm-ups' programs are linked */
static gboolean
first_use_due (void)
{
  return self.first_use_due && !cblur_gpu_compiler_due ();
}

/* With the mutex held, let go meanwhile: the users' first uses, on the
 * one context where it still exists: one made since would have its
 * own. */
static void
run_uses (GSList   *uses,
          gboolean  upgrades)
{
  g_autoptr (GSList) copy = g_slist_copy (uses);
  GSList            *l;
  CblurGpu          *gpu = NULL;

  cblur_gpu_thread_unlock ();
  cblur_gpu_lock ();
  if (cblur_gpu_lifetime_made (NULL))
    gpu = cblur_gpu_acquire (NULL);
  if (gpu != NULL)
    {
      cblur_gpu_program_first_uses (TRUE, upgrades);
      for (l = copy; l != NULL; l = l->next)
        ((CblurGpuWarmUp) l->data) (gpu);
      cblur_gpu_program_first_uses (FALSE, FALSE);
      cblur_gpu_release (gpu);
    }
  cblur_gpu_unlock ();
  cblur_gpu_thread_lock ();
}

/* The chore that runs the users' first uses.  They count as a call:
 * what their rehearsals queue to compile in a pause (the best programs
 * of a blur the CPU took) then waits for one after them, while the next
 * blurs take the GPU with the programs just dispatched, rather than
 * compiling at once in a process whose GPU has served nothing. */
static void
first_use (void)
{
  run_uses (self.first_uses, FALSE);
  cblur_gpu_thread_mark_call ();
  self.first_use_due = FALSE;
  cblur_gpu_thread_changed ();
}

/* with the mutex held: the upgrades' first uses come after those of the
 * start */
static gboolean
upgrade_use_due (void)
{
  return !self.first_use_due && cblur_gpu_compiler_upgraded (FALSE);
}

/* The chore that runs the users' first uses of the programs linked in a
 * pause (cblur_gpu_on_upgraded). */
static void
upgrade_use (void)
{
  cblur_gpu_compiler_upgraded (TRUE);
  self.upgrading = TRUE;
  run_uses (self.upgrade_uses, TRUE);
  self.upgrading = FALSE;
  cblur_gpu_thread_changed ();
}

/* The parent's start is not in a forked child: what it held is
 * forgotten. */
static void
forget_in_child (void)
{
  memset (&self, 0, sizeof self);
}

/* with the mutex held: the chores, added once */
static void
add_chores (void)
{
  static const CblurGpuChore make_chore = { make_due, make, make_due_at };
  static const CblurGpuChore first_use_chore = { first_use_due, first_use };
  static const CblurGpuChore upgrade_use_chore = { upgrade_use_due, upgrade_use };
  static gboolean            added;

  if (added)
    return;
  pthread_atfork (NULL, NULL, forget_in_child);
  cblur_gpu_thread_add_chore (&make_chore);
  cblur_gpu_thread_add_chore (&first_use_chore);
  cblur_gpu_thread_add_chore (&upgrade_use_chore);
  added = TRUE;
}

/* With the mutex held: the state, and where it is not started and
 * `start`, the start asked for, not before make_at. */
static CblurGpuState
state_starting (gboolean   start,
                gint64     make_at,
                gboolean  *is_software,
                GError   **error)
{
  CblurGpuState state;

  /* until the warm-ups have queued their programs too; a start asked for
   * at once makes a later one begin now */
  if (self.starting)
    {
      if (start && make_at < self.make_at)
        {
          self.make_at = make_at;
          cblur_gpu_thread_changed ();
        }
      state = CBLUR_GPU_STARTING;
    }
  else if (cblur_gpu_lifetime_made (is_software))
    {
      g_clear_error (&self.failure);
      state = CBLUR_GPU_READY;
    }
  else if (self.failure != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self.failure);
      state = CBLUR_GPU_FAILED;
    }
  else if (!start || cblur_gpu_thread_stopping ())
    state = CBLUR_GPU_NOT_STARTED;
  else
    {
      add_chores ();
      self.starting = TRUE;
      self.make_at = make_at;
      cblur_gpu_thread_wake ();
      state = CBLUR_GPU_STARTING;
    }
  return state;
}

CblurGpuState
cblur_gpu_state (gboolean   start,
                 gboolean  *is_software,
                 GError   **error)
{
  CblurGpuState state;

  cblur_gpu_thread_lock ();
  state = state_starting (start, 0, is_software, error);
  cblur_gpu_thread_unlock ();
  return state;
}

CblurGpuState
cblur_gpu_start_after (gint64 pause_us)
{
  CblurGpuState state;

  cblur_gpu_thread_lock ();
  state = state_starting (TRUE, g_get_monotonic_time () + pause_us, NULL, NULL);
  cblur_gpu_thread_unlock ();
  return state;
}

void
cblur_gpu_wait_prepared (void)
{
  cblur_gpu_thread_lock ();
  while (!cblur_gpu_thread_stopping () &&
         (self.starting || cblur_gpu_compiler_busy () || self.first_use_due ||
          cblur_gpu_compiler_due () || cblur_gpu_compiler_waiting () ||
          cblur_gpu_compiler_upgraded (FALSE) || self.upgrading))
    cblur_gpu_thread_wait (G_MAXINT64);
  cblur_gpu_thread_unlock ();
}

gboolean
cblur_gpu_prepared (void)
{
  gboolean prepared;

  cblur_gpu_thread_lock ();
  prepared = !self.starting && !cblur_gpu_compiler_busy () && !self.first_use_due &&
             !cblur_gpu_compiler_queued () && !cblur_gpu_compiler_upgraded (FALSE) &&
             !self.upgrading;
  cblur_gpu_thread_unlock ();
  return prepared;
}

void
cblur_gpu_on_made (CblurGpuWarmUp warm_up)
{
  cblur_gpu_thread_lock ();
  if (g_slist_find (self.warm_ups, warm_up) == NULL)
    self.warm_ups = g_slist_append (self.warm_ups, warm_up);
  cblur_gpu_thread_unlock ();
}

void
cblur_gpu_on_upgraded (CblurGpuWarmUp use)
{
  cblur_gpu_thread_lock ();
  add_chores ();
  if (g_slist_find (self.upgrade_uses, use) == NULL)
    self.upgrade_uses = g_slist_append (self.upgrade_uses, use);
  cblur_gpu_thread_unlock ();
}

void
cblur_gpu_on_linked (CblurGpuWarmUp first_use)
{
  cblur_gpu_thread_lock ();
  if (g_slist_find (self.first_uses, first_use) == NULL)
    self.first_uses = g_slist_append (self.first_uses, first_use);
  cblur_gpu_thread_unlock ();
}
