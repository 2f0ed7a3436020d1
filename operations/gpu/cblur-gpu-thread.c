/* The runtime's own thread: the users' calls, one at a time, each waited
 * for by its user; between them the chores that are due (the context's
 * start, the compiler's batches, the first uses); else the idle hook (the
 * context's release once idle) and sleep.  One mutex guards the calls
 * and the state the chores look at; the runtime's GL lock, where both are
 * taken, comes first. */
#include "cblur-gpu-thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* a user's call, on its user's stack */
typedef struct
{
  CblurGpuCall call;
  gpointer     data;
  gboolean     done;
  gboolean     ran;
} Call;

/* room for the chores: the start, the compiler, the first uses */
#define MAX_CHORES 8

static struct
{
  GMutex        lock;       /* guards all below, and the chores' state */
  GCond         changed;
  GThread      *thread;
  GQueue        calls;      /* Call, waited for by their users */
  CblurGpuChore chores[MAX_CHORES];
  gint          n_chores;
  CblurGpuIdle  idle;
  gint64        last_call;  /* when the last call ended */
  gboolean      stop;       /* the process exits: no more GL here */
  gboolean      working;    /* a call, chore or the idle hook runs, the mutex let go */
} self;

void
cblur_gpu_thread_lock (void)
{
  g_mutex_lock (&self.lock);
}

void
cblur_gpu_thread_unlock (void)
{
  g_mutex_unlock (&self.lock);
}

void
cblur_gpu_thread_changed (void)
{
  g_cond_broadcast (&self.changed);
}

gboolean
cblur_gpu_thread_wait (gint64 until)
{
  if (until == G_MAXINT64)
    {
      g_cond_wait (&self.changed, &self.lock);
      return TRUE;
    }
  return g_cond_wait_until (&self.changed, &self.lock, until);
}

gboolean
cblur_gpu_thread_stopping (void)
{
  return self.stop;
}

gint64
cblur_gpu_thread_last_call (void)
{
  return self.last_call;
}

void
cblur_gpu_thread_mark_call (void)
{
  self.last_call = g_get_monotonic_time ();
}

/* with self.lock held: the first chore due, or NULL */
static const CblurGpuChore *
chore_due (void)
{
  gint i;

  for (i = 0; i < self.n_chores; i++)
    if (self.chores[i].due ())
      return &self.chores[i];
  return NULL;
}

/* with self.lock held: the work in hand has ended */
static void
worked (void)
{
  self.working = FALSE;
  g_cond_broadcast (&self.changed);
}

/* with self.lock held, let go while the user's call runs */
static void
answer (void)
{
  Call *call = g_queue_pop_head (&self.calls);

  self.working = TRUE;
  g_mutex_unlock (&self.lock);
  call->call (call->data);
  g_mutex_lock (&self.lock);
  call->ran = call->done = TRUE;
  self.last_call = g_get_monotonic_time ();
  worked ();
}

/* with self.lock held: the users waiting for calls that will not run */
static void
refuse_calls (void)
{
  Call *call;

  while ((call = g_queue_pop_head (&self.calls)) != NULL)
    call->done = TRUE;
  g_cond_broadcast (&self.changed);
}

/* with self.lock held: no more calls run, those waiting neither */
static void
stop (void)
{
  self.stop = TRUE;
  refuse_calls ();
}

/* with self.lock held: work for the thread */
static gboolean
work_waiting (void)
{
  return !g_queue_is_empty (&self.calls) || chore_due () != NULL;
}

/* With self.lock held, let go while the idle hook runs: the thread
 * sleeps until it or a chore is due again, or until there is work. */
static void
idle (void)
{
  CblurGpuIdle hook = self.idle;
  gint64       due = G_MAXINT64;
  gint         i;

  if (hook != NULL)
    {
      self.working = TRUE;
      g_mutex_unlock (&self.lock);
      due = hook ();
      g_mutex_lock (&self.lock);
      worked ();
    }
  if (work_waiting () || self.stop || self.thread != g_thread_self ())
    return;
  for (i = 0; i < self.n_chores; i++)
    if (self.chores[i].due_at != NULL)
      due = MIN (due, self.chores[i].due_at ());
  cblur_gpu_thread_wait (due);
}

/* With self.lock held, once the process has begun to exit: the calls
 * still waiting are refused, and the thread waits for the end rather
 * than end itself.  A thread that ends runs its thread-local destructors
 * (EGL's among them) then, beside exit() unloading the libraries they
 * live in. */
static void
park (void)
{
  refuse_calls ();
  for (;;)
    g_cond_wait (&self.changed, &self.lock);
}

/* Until the process exits, or gegl_exit() ends this thread (a later call
 * starts another). */
static gpointer
run (gpointer unused)
{
  const CblurGpuChore *chore;

  g_mutex_lock (&self.lock);
  while (!self.stop && self.thread == g_thread_self ())
    {
      if (!g_queue_is_empty (&self.calls))
        answer ();
      else if ((chore = chore_due ()) != NULL)
        {
          self.working = TRUE;
          chore->run ();
          worked ();
        }
      else
        idle ();
    }
  if (self.stop)
    park ();
  else if (work_waiting ())
    cblur_gpu_thread_wake ();
  g_mutex_unlock (&self.lock);
  return NULL;
}

void
cblur_gpu_thread_stop (void)
{
  g_mutex_lock (&self.lock);
  stop ();
  g_mutex_unlock (&self.lock);
}

/* The driver's exit handlers come after this: GL the thread is still
 * doing then (a compile, a first use, a trim) would run into its
 * teardown.  The thread itself, exiting from inside its work, does not
 * wait for itself. */
void
cblur_gpu_thread_stop_and_wait (gint64 deadline)
{
  g_mutex_lock (&self.lock);
  stop ();
  while (self.working && self.thread != g_thread_self () &&
         g_cond_wait_until (&self.changed, &self.lock, deadline))
    ;
  g_mutex_unlock (&self.lock);
}

/* The parent's thread is not in a forked child: what it held is
 * forgotten. */
static void
forget_in_child (void)
{
  memset (&self, 0, sizeof self);
}

/* Where the process exits while the thread makes or uses its context,
 * the thread does no more GL once cblur_gpu_thread_stop() has run, and
 * the users waiting for it go on without: registered before the thread
 * first starts, ahead of the driver's own exit handlers. */
void
cblur_gpu_thread_wake (void)
{
  static gboolean registered;

  if (!registered)
    {
      atexit (cblur_gpu_thread_stop);
      pthread_atfork (NULL, NULL, forget_in_child);
      registered = TRUE;
    }
  if (self.thread == NULL)
    self.thread = g_thread_new ("cblur-gl", run, NULL);
  g_cond_broadcast (&self.changed);
}

void
cblur_gpu_thread_add_chore (const CblurGpuChore *chore)
{
  gint i;

  for (i = 0; i < self.n_chores; i++)
    if (self.chores[i].run == chore->run)
      return;
  g_return_if_fail (self.n_chores < MAX_CHORES);
  self.chores[self.n_chores++] = *chore;
}

void
cblur_gpu_thread_set_idle (CblurGpuIdle idle)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  self.idle = idle;
}

gboolean
cblur_gpu_thread_call (CblurGpuCall call,
                       gpointer     data)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);
  Call                     waiting = { call, data, FALSE, FALSE };

  g_return_val_if_fail (self.thread != g_thread_self (), FALSE);
  if (self.stop)
    return FALSE;
  g_queue_push_tail (&self.calls, &waiting);
  cblur_gpu_thread_wake ();
  while (!waiting.done)
    g_cond_wait (&self.changed, &self.lock);
  return waiting.ran;
}

void
cblur_gpu_thread_end (CblurGpuCall call,
                      gpointer     data)
{
  GThread *ending;

  if (!cblur_gpu_thread_call (call, data))
    return;
  g_mutex_lock (&self.lock);
  ending = g_steal_pointer (&self.thread);
  g_cond_broadcast (&self.changed);
  g_mutex_unlock (&self.lock);
  if (ending != NULL)
    g_thread_join (ending);
}
