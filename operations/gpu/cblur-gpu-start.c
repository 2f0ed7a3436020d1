/* The runtime's own thread: it makes the context where a user would rather
 * not wait for it (cblur_gpu_state), and compiles the programs users queue
 * (cblur_gpu_prepare) on a context of its own that shares the one
 * context's objects, so that no user's thread waits for a compile.  The
 * programs it has linked wait in `done` until a user's thread, holding
 * the runtime's lock, moves them into the context's cache: this thread
 * never takes that lock while it compiles, and the lock comes first
 * wherever both are taken.  Right after it has made the context, the
 * users' warm-ups (cblur_gpu_on_made) queue every program they may
 * need, and the thread compiles what is queued all at once. */
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
  GPtrArray  *busy;       /* the jobs compiling now */
  GSList     *warm_ups;   /* CblurGpuWarmUp, run on the context just made */
  GSList     *done;
  GHashTable *failed;     /* keys that did not compile here */
  EGLDisplay  display;
  EGLContext  context;    /* the thread's, sharing the one context's objects */
  gboolean    stop;       /* the process exits: no more GL here */
} self;

/* Programs compiled at once: enough for a driver's threads to work on
 * side by side, and few enough that a process exiting meanwhile waits
 * for them in time. */
#define BATCH 16

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
        compile_queued ();
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

  if (busy (key))
    cblur_gpu_compiler_count_caller ();
  while (busy (key))
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

gboolean
cblur_gpu_prepared (void)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  return !self.starting && self.busy == NULL && g_queue_is_empty (&self.jobs);
}

void
cblur_gpu_on_made (CblurGpuWarmUp warm_up)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  if (g_slist_find (self.warm_ups, warm_up) == NULL)
    self.warm_ups = g_slist_append (self.warm_ups, warm_up);
}
