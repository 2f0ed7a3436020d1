/* The runtime's own thread: it makes the context where a user would rather
 * not wait for it (cblur_gpu_state), and compiles the programs users queue
 * (cblur_gpu_prepare) on a context of its own that shares the one
 * context's objects, so that no user's thread waits for a compile.  The
 * programs it has linked wait in `done` until a user's thread, holding
 * the runtime's lock, moves them into the context's cache: this thread
 * never takes that lock while it compiles, and the lock comes first
 * wherever both are taken. */
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

static struct
{
  GMutex      lock;       /* guards all below */
  GCond       changed;
  GThread    *thread;
  gboolean    starting;   /* the thread is asked to make the context, or makes it */
  GError     *failure;    /* why it could not, until a context is made */
  GQueue      jobs;
  Job        *busy;       /* the job compiling now */
  GSList     *done;
  GHashTable *failed;     /* keys that did not compile here */
  EGLDisplay  display;
  EGLContext  context;    /* the thread's, sharing the one context's objects */
  gboolean    stop;       /* the process exits: no more GL here */
} self;

/* compiles on users' threads, and waits there for this thread's */
static guint caller_compiles;

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

/* with self.lock held: whether key is queued, compiling or done */
static gboolean
pending (const gchar *key)
{
  GSList *l;

  if (self.busy != NULL && strcmp (self.busy->key, key) == 0)
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
  CblurGpu          *gpu;

  g_usleep (cblur_gpu_fault_delay_us ());
  cblur_gpu_lock ();
  gpu = cblur_gpu_acquire (&error);
  if (gpu != NULL)
    cblur_gpu_release (gpu);
  cblur_gpu_unlock ();

  g_mutex_lock (&self.lock);
  self.starting = FALSE;
  if (gpu == NULL)
    g_propagate_error (&self.failure, g_steal_pointer (&error));
  g_cond_broadcast (&self.changed);
  g_mutex_unlock (&self.lock);
}

/* With self.lock held, which is let go while the next job compiles.  A
 * program another context uses must be linked first: glFinish. */
static void
compile_next (void)
{
  Job               *job = g_queue_pop_head (&self.jobs);
  CblurGpuProgram   *program = NULL;
  g_autoptr (GError) error = NULL;

  self.busy = job;
  g_mutex_unlock (&self.lock);
  if (eglBindAPI (EGL_OPENGL_API) &&
      eglMakeCurrent (self.display, EGL_NO_SURFACE, EGL_NO_SURFACE, self.context))
    {
      program = cblur_gpu_program_build (job->name, job->source, job->defines, job->prelude,
                                         &error);
      glFinish ();
      eglMakeCurrent (self.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
  g_mutex_lock (&self.lock);
  self.busy = NULL;
  if (program != NULL)
    {
      Done *done = g_new0 (Done, 1);

      done->key = g_steal_pointer (&job->key);
      done->program = program;
      self.done = g_slist_prepend (self.done, done);
    }
  else
    g_hash_table_add (self.failed, g_steal_pointer (&job->key));
  job_free (job);
  g_cond_broadcast (&self.changed);
}

static gpointer
run (gpointer unused)
{
  g_mutex_lock (&self.lock);
  while (!self.stop)
    {
      if (self.starting)
        {
          g_mutex_unlock (&self.lock);
          make ();
          g_mutex_lock (&self.lock);
        }
      else if (!g_queue_is_empty (&self.jobs) && self.context != EGL_NO_CONTEXT)
        compile_next ();
      else
        g_cond_wait (&self.changed, &self.lock);
    }
  g_mutex_unlock (&self.lock);
  return NULL;
}

/* A process that exits while the thread makes or uses its context: the
 * thread does no more GL once this has run.  Registered before the
 * thread first starts, ahead of the driver's own handlers. */
static void
stop_at_exit (void)
{
  g_mutex_lock (&self.lock);
  self.stop = TRUE;
  g_cond_broadcast (&self.changed);
  g_mutex_unlock (&self.lock);
}

/* with self.lock held */
static void
wake_thread (void)
{
  if (self.thread == NULL)
    {
      atexit (stop_at_exit);
      self.failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      self.thread = g_thread_new ("cblur-gl-start", run, NULL);
    }
  g_cond_broadcast (&self.changed);
}

CblurGpuState
cblur_gpu_state (gboolean   start,
                 gboolean  *is_software,
                 GError   **error)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  if (cblur_gpu_lifetime_made (is_software))
    {
      g_clear_error (&self.failure);
      return CBLUR_GPU_READY;
    }
  if (self.starting)
    return CBLUR_GPU_STARTING;
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

  if (self.busy != NULL && strcmp (self.busy->key, key) == 0)
    cblur_gpu_compiler_count_caller ();
  while (self.busy != NULL && strcmp (self.busy->key, key) == 0)
    g_cond_wait (&self.changed, &self.lock);
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
  while (self.busy != NULL)
    g_cond_wait (&self.changed, &self.lock);
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
  g_cond_broadcast (&self.changed);
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

  while (!self.stop && (self.starting || self.busy != NULL ||
                        (!g_queue_is_empty (&self.jobs) && self.context != EGL_NO_CONTEXT)))
    g_cond_wait (&self.changed, &self.lock);
}
