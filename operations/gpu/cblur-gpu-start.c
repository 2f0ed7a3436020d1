/* The runtime's own thread, which does all of its GL work: the users'
 * tasks (cblur_gpu_run), one at a time, each waited for by its user; the
 * context's making where a user would rather not wait for it
 * (cblur_gpu_state); between tasks, the programs users queue
 * (cblur_gpu_prepare), compiled on a context of its own that shares the
 * one context's objects; and the context's release once idle.  The
 * programs it has linked wait in `done` until a task, holding the
 * runtime's lock, moves them into the context's cache; the lock comes
 * first wherever both are taken.  Right after it has made the context,
 * the users' warm-ups (cblur_gpu_on_made) queue every program they may
 * need, and the thread compiles what is queued all at once.  Once those
 * are linked, the users' first uses (cblur_gpu_on_linked) dispatch them
 * before cblur_gpu_prepared() says so: a driver may finish a program only
 * at its first dispatch from a thread (NVIDIA's does, on that thread's
 * CPU, taking up to half a second for each), and the tasks that come
 * after, on the same thread, find that done. */
#include "cblur-gpu-context.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  gchar *key;
  gchar *name;
  gchar *source;
  gchar *defines;
  gchar *prelude;
} Job;

typedef struct
{
  gchar           *key;
  CblurGpuProgram *program;
} Done;

/* a user's call, on its user's stack */
typedef struct
{
  CblurGpuCall call;
  gpointer     data;
  gboolean     done;
  gboolean     ran;
} Call;

static struct
{
  GMutex      lock;       /* guards all below */
  GCond       changed;
  GThread    *thread;
  GQueue      calls;      /* Call, waited for by their users */
  gboolean    starting;   /* the thread is asked to make the context, or makes it */
  GError     *failure;    /* why it could not, until a context is made */
  GQueue      jobs;
  GPtrArray  *busy;       /* the jobs compiling now */
  GSList     *warm_ups;   /* CblurGpuWarmUp, run on the context just made */
  GSList     *first_uses; /* CblurGpuWarmUp, run once its programs are linked */
  gboolean    first_use_due; /* the context made here awaits its first uses */
  GSList     *done;
  GHashTable *failed;     /* keys that did not compile here */
  EGLDisplay  display;
  EGLContext  context;    /* the thread's, sharing the one context's objects */
  gboolean    stop;       /* the process exits: no more GL here */
  gboolean    first_use;  /* the thread runs the first uses */
} self;

/* Programs compiled at once: enough for a driver's threads to work on
 * side by side, and few enough that a process exiting meanwhile waits
 * for them in time. */
#define BATCH 16

/* compiles in users' tasks */
static guint caller_compiles;

/* first dispatches of a program from a thread that were not a first
 * use's */
static guint caller_first_uses;

void
cblur_gpu_compiler_count_caller (void)
{
  g_atomic_int_inc (&caller_compiles);
}

guint
cblur_gpu_caller_compiles (void)
{
  return g_atomic_int_get (&caller_compiles);
}

/* on the runtime's thread, where first_use is not read elsewhere */
void
cblur_gpu_compiler_count_first_use (void)
{
  if (g_thread_self () != g_atomic_pointer_get (&self.thread) || !self.first_use)
    g_atomic_int_inc (&caller_first_uses);
}

guint
cblur_gpu_caller_first_uses (void)
{
  return g_atomic_int_get (&caller_first_uses);
}

static void
job_free (Job *job)
{
  g_free (job->key);
  g_free (job->name);
  g_free (job->source);
  g_free (job->defines);
  g_free (job->prelude);
  g_free (job);
}

static void
done_free (Done *done)
{
  cblur_gpu_program_free (done->program);
  g_free (done->key);
  g_free (done);
}

/* with self.lock held: whether key is compiling */
static gboolean
busy (const gchar *key)
{
  guint i;

  for (i = 0; self.busy != NULL && i < self.busy->len; i++)
    if (strcmp (((Job *) g_ptr_array_index (self.busy, i))->key, key) == 0)
      return TRUE;
  return FALSE;
}

/* with self.lock held: whether key is queued, compiling or done */
static gboolean
pending (const gchar *key)
{
  GSList *l;

  if (busy (key))
    return TRUE;
  for (l = self.done; l != NULL; l = l->next)
    if (strcmp (((Done *) l->data)->key, key) == 0)
      return TRUE;
  return g_queue_find_custom (&self.jobs, key, (GCompareFunc) strcmp) != NULL;
}

/* with both locks held: what the thread has linked goes into the cache */
static void
collect (CblurGpu *gpu)
{
  while (self.done != NULL)
    {
      Done *done = self.done->data;

      self.done = g_slist_delete_link (self.done, self.done);
      g_hash_table_insert (gpu->programs, g_steal_pointer (&done->key),
                           g_steal_pointer (&done->program));
      g_free (done);
    }
}

/* The context, as if a user had acquired it; its reason where it cannot
 * be made. */
static void
make (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSList) warm_ups = NULL;
  GSList            *l;
  CblurGpu          *gpu;

  g_usleep (cblur_gpu_fault_delay_us ());
  cblur_gpu_lock ();
  gpu = cblur_gpu_acquire (&error);
  if (gpu != NULL)
    {
      g_mutex_lock (&self.lock);
      warm_ups = g_slist_copy (self.warm_ups);
      g_mutex_unlock (&self.lock);
      for (l = warm_ups; l != NULL; l = l->next)
        ((CblurGpuWarmUp) l->data) (gpu);
      cblur_gpu_release (gpu);
    }
  cblur_gpu_unlock ();

  g_mutex_lock (&self.lock);
  self.starting = FALSE;
  self.first_use_due = gpu != NULL;
  if (gpu == NULL)
    g_propagate_error (&self.failure, g_steal_pointer (&error));
  g_cond_broadcast (&self.changed);
  g_mutex_unlock (&self.lock);
}

/* The driver compiles in as many threads as it likes, where it can. */
static void
compile_in_parallel (void)
{
  if (epoxy_has_gl_extension ("GL_KHR_parallel_shader_compile"))
    glMaxShaderCompilerThreadsKHR (0xFFFFFFFF);
  else if (epoxy_has_gl_extension ("GL_ARB_parallel_shader_compile"))
    glMaxShaderCompilerThreadsARB (0xFFFFFFFF);
}

/* With self.lock held, which is let go while the next BATCH queued jobs
 * compile, all at once.  A program another context uses must be linked first:
 * glFinish. */
static void
compile_queued (void)
{
  g_autoptr (GPtrArray)   jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) job_free);
  g_autofree CblurGpuBuild *builds = NULL;
  gboolean                current;
  guint                   i;

  while (!g_queue_is_empty (&self.jobs) && jobs->len < BATCH)
    g_ptr_array_add (jobs, g_queue_pop_head (&self.jobs));
  builds = g_new0 (CblurGpuBuild, jobs->len);
  for (i = 0; i < jobs->len; i++)
    {
      Job *job = g_ptr_array_index (jobs, i);

      builds[i] = (CblurGpuBuild) { job->name, job->source, job->defines, job->prelude };
    }
  self.busy = jobs;
  g_mutex_unlock (&self.lock);
  current = eglBindAPI (EGL_OPENGL_API) &&
            eglMakeCurrent (self.display, EGL_NO_SURFACE, EGL_NO_SURFACE, self.context);
  if (current)
    {
      compile_in_parallel ();
      cblur_gpu_programs_build (builds, jobs->len);
      glFinish ();
      eglMakeCurrent (self.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
  g_mutex_lock (&self.lock);
  self.busy = NULL;
  for (i = 0; i < jobs->len; i++)
    {
      Job *job = g_ptr_array_index (jobs, i);

      g_clear_error (&builds[i].error);
      if (builds[i].program != NULL)
        {
          Done *done = g_new0 (Done, 1);

          done->key = g_steal_pointer (&job->key);
          done->program = builds[i].program;
          self.done = g_slist_prepend (self.done, done);
        }
      else
        g_hash_table_add (self.failed, g_steal_pointer (&job->key));
    }
  g_cond_broadcast (&self.changed);
}

/* The users' first uses, on the one context where it still exists: one
 * made since would have its own. */
static void
first_use (void)
{
  g_autoptr (GSList) first_uses = NULL;
  GSList            *l;
  CblurGpu          *gpu = NULL;

  g_mutex_lock (&self.lock);
  first_uses = g_slist_copy (self.first_uses);
  g_mutex_unlock (&self.lock);
  cblur_gpu_lock ();
  if (cblur_gpu_lifetime_made (NULL))
    gpu = cblur_gpu_acquire (NULL);
  if (gpu != NULL)
    {
      self.first_use = TRUE;
      for (l = first_uses; l != NULL; l = l->next)
        ((CblurGpuWarmUp) l->data) (gpu);
      self.first_use = FALSE;
      cblur_gpu_release (gpu);
    }
  cblur_gpu_unlock ();
}

/* with self.lock held, let go while the user's call runs */
static void
answer (void)
{
  Call *call = g_queue_pop_head (&self.calls);

  g_mutex_unlock (&self.lock);
  call->call (call->data);
  g_mutex_lock (&self.lock);
  call->ran = call->done = TRUE;
  g_cond_broadcast (&self.changed);
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

/* with self.lock held: work for the thread */
static gboolean
work_waiting (void)
{
  return !g_queue_is_empty (&self.calls) || self.starting || self.first_use_due ||
         (!g_queue_is_empty (&self.jobs) && self.context != EGL_NO_CONTEXT);
}

/* With self.lock held, let go meanwhile: the context goes where it has
 * been idle long enough, and the thread sleeps until it may have been,
 * or until there is work. */
static void
idle (void)
{
  gint64 due;

  g_mutex_unlock (&self.lock);
  due = cblur_gpu_lifetime_reap ();
  g_mutex_lock (&self.lock);
  if (work_waiting () || self.stop || self.thread != g_thread_self ())
    return;
  if (due == G_MAXINT64)
    g_cond_wait (&self.changed, &self.lock);
  else
    g_cond_wait_until (&self.changed, &self.lock, due);
}

static void wake_thread (void);

/* Until the process exits, or gegl_exit() ends this thread (a later call
 * starts another). */
static gpointer
run (gpointer unused)
{
  g_mutex_lock (&self.lock);
  while (!self.stop && self.thread == g_thread_self ())
    {
      if (!g_queue_is_empty (&self.calls))
        answer ();
      else if (self.starting)
        {
          g_mutex_unlock (&self.lock);
          make ();
          g_mutex_lock (&self.lock);
        }
      else if (!g_queue_is_empty (&self.jobs) && self.context != EGL_NO_CONTEXT)
        compile_queued ();
      else if (self.first_use_due)
        {
          g_mutex_unlock (&self.lock);
          first_use ();
          g_mutex_lock (&self.lock);
          self.first_use_due = FALSE;
          g_cond_broadcast (&self.changed);
        }
      else
        idle ();
    }
  if (self.stop)
    refuse_calls ();
  else if (work_waiting ())
    wake_thread ();
  g_mutex_unlock (&self.lock);
  return NULL;
}

/* A process that exits while the thread makes or uses its context: the
 * thread does no more GL once this has run, and the users waiting for
 * it go on without.  Registered before the thread first starts, ahead of
 * the driver's own handlers. */
static void
stop_at_exit (void)
{
  g_mutex_lock (&self.lock);
  self.stop = TRUE;
  refuse_calls ();
  g_mutex_unlock (&self.lock);
}

/* with self.lock held */
static void
wake_thread (void)
{
  static gboolean registered;

  if (!registered)
    {
      atexit (stop_at_exit);
      registered = TRUE;
    }
  if (self.failed == NULL)
    self.failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self.thread == NULL)
    self.thread = g_thread_new ("cblur-gl", run, NULL);
  g_cond_broadcast (&self.changed);
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
  wake_thread ();
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

CblurGpuState
cblur_gpu_state (gboolean   start,
                 gboolean  *is_software,
                 GError   **error)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  /* until the warm-ups have queued their programs too */
  if (self.starting)
    return CBLUR_GPU_STARTING;
  if (cblur_gpu_lifetime_made (is_software))
    {
      g_clear_error (&self.failure);
      return CBLUR_GPU_READY;
    }
  if (self.failure != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self.failure);
      return CBLUR_GPU_FAILED;
    }
  if (!start || self.stop)
    return CBLUR_GPU_NOT_STARTED;
  self.starting = TRUE;
  wake_thread ();
  return CBLUR_GPU_STARTING;
}

gboolean
cblur_gpu_prepare (CblurGpu    *gpu,
                   const gchar *name,
                   const gchar *source,
                   const gchar *defines,
                   const gchar *prelude)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);
  g_autofree gchar        *key = cblur_gpu_program_key (name, defines);
  Job                     *job;

  collect (gpu);
  if (g_hash_table_contains (gpu->programs, key) || pending (key))
    return TRUE;
  if (self.stop || (self.failed != NULL && g_hash_table_contains (self.failed, key)))
    return FALSE;
  if (self.context == EGL_NO_CONTEXT)
    {
      self.display = gpu->display;
      self.context = cblur_gpu_context_share (gpu);
      if (self.context == EGL_NO_CONTEXT)
        return FALSE;
    }

  job = g_new0 (Job, 1);
  job->key = g_steal_pointer (&key);
  job->name = g_strdup (name);
  job->source = g_strdup (source);
  job->defines = g_strdup (defines);
  job->prelude = g_strdup (prelude);
  g_queue_push_tail (&self.jobs, job);
  wake_thread ();
  return TRUE;
}

CblurGpuProgram *
cblur_gpu_compiler_take (CblurGpu    *gpu,
                         const gchar *key)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);
  GList                   *queued;

  collect (gpu);
  queued = g_queue_find_custom (&self.jobs, key, (GCompareFunc) strcmp);
  if (queued != NULL)
    {
      job_free (queued->data);
      g_queue_delete_link (&self.jobs, queued);
    }
  return g_hash_table_lookup (gpu->programs, key);
}

void
cblur_gpu_compiler_stop (CblurGpu *gpu)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  g_queue_clear_full (&self.jobs, (GDestroyNotify) job_free);
  self.first_use_due = FALSE;
  g_slist_free_full (g_steal_pointer (&self.done), (GDestroyNotify) done_free);
  if (self.failed != NULL)
    g_hash_table_remove_all (self.failed);
  if (self.context != EGL_NO_CONTEXT)
    eglDestroyContext (self.display, self.context);
  self.context = EGL_NO_CONTEXT;
}

void
cblur_gpu_compiler_quiesce (gint64 deadline)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  self.stop = TRUE;
  g_queue_clear_full (&self.jobs, (GDestroyNotify) job_free);
  refuse_calls ();
  while (self.busy != NULL && g_cond_wait_until (&self.changed, &self.lock, deadline))
    ;
}

/* The parent's thread is not in the child: what it held is forgotten. */
void
cblur_gpu_start_forget (void)
{
  memset (&self, 0, sizeof self);
}

void
cblur_gpu_wait_prepared (void)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  while (!self.stop && (self.starting || self.busy != NULL || self.first_use_due ||
                        (!g_queue_is_empty (&self.jobs) && self.context != EGL_NO_CONTEXT)))
    g_cond_wait (&self.changed, &self.lock);
}

gboolean
cblur_gpu_prepared (void)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  return !self.starting && self.busy == NULL && !self.first_use_due &&
         g_queue_is_empty (&self.jobs);
}

void
cblur_gpu_on_made (CblurGpuWarmUp warm_up)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  if (g_slist_find (self.warm_ups, warm_up) == NULL)
    self.warm_ups = g_slist_append (self.warm_ups, warm_up);
}

void
cblur_gpu_on_linked (CblurGpuWarmUp first_use)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  if (g_slist_find (self.first_uses, first_use) == NULL)
    self.first_uses = g_slist_append (self.first_uses, first_use);
}
