/* The runtime's compiler, one of its thread's chores: it compiles what
 * users queue
 * (cblur_gpu_prepare) in batches, several at once, on a context of its
 * own that shares the one context's objects; a program a blur would do
 * better with (cblur_gpu_program_linked) only once no call has come for
 * QUIET_US, since a call waits for the batch.  What it has linked waits in
 * `done` until a task, holding the runtime's GL lock, moves it into the
 * context's cache; its state is guarded by the thread's mutex, which
 * comes after that lock wherever both are taken. */
#include "cblur-gpu-compiler.h"
#include "cblur-gpu-config.h"
#include "cblur-gpu-context.h"
#include "cblur-gpu-program.h"
#include "cblur-gpu-thread.h"

#include <pthread.h>
#include <string.h>

typedef struct
{
  gchar    *key;
  gchar    *name;
  gchar    *source;
  gchar    *defines;
  gchar    *prelude;
  gboolean  quiet;   /* compiled only once the calls pause */
} Job;

typedef struct
{
  gchar           *key;
  CblurGpuProgram *program;
} Done;

/* guarded by the thread's mutex */
static struct
{
  GQueue      jobs;
  GPtrArray  *busy;       /* the jobs compiling now */
  GSList     *done;
  GHashTable *failed;     /* keys that did not compile here */
  gint        quiet;      /* jobs queued that wait for a pause */
  gboolean    upgraded;   /* a batch with such jobs is linked, not yet used */
  EGLDisplay  display;
  EGLContext  context;    /* the compiler's, sharing the one context's objects */
} self;

/* Programs compiled at once: enough for a driver's threads to work on
 * side by side, and few enough that a process exiting meanwhile waits
 * for them in time. */
#define BATCH 16

/* The pause in the calls after which the programs that wait for one
 * compile: longer than a live preview's frames are apart, shorter than
 * a user's pause between applies. */
#define QUIET_US (300 * G_TIME_SPAN_MILLISECOND)

/* The programs that wait for a pause, at most: those of the latest blurs
 * that asked, the older ones dropped. */
#define MAX_QUIET 4

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

/* with the mutex held: whether key is compiling */
static gboolean
busy (const gchar *key)
{
  guint i;

  for (i = 0; self.busy != NULL && i < self.busy->len; i++)
    if (strcmp (((Job *) g_ptr_array_index (self.busy, i))->key, key) == 0)
      return TRUE;
  return FALSE;
}

/* with the mutex held: whether key is queued, compiling or done */
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

/* with the GL lock and the mutex held: what the compiler has linked goes
 * into the cache */
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

/* The driver compiles in as many threads as it likes, where it can. */
static void
compile_in_parallel (void)
{
  if (epoxy_has_gl_extension ("GL_KHR_parallel_shader_compile"))
    glMaxShaderCompilerThreadsKHR (0xFFFFFFFF);
  else if (epoxy_has_gl_extension ("GL_ARB_parallel_shader_compile"))
    glMaxShaderCompilerThreadsARB (0xFFFFFFFF);
}

/* with the mutex held: whether the calls have paused long enough */
static gboolean
quiet (void)
{
  return g_get_monotonic_time () >= cblur_gpu_thread_last_call () + QUIET_US;
}

/* with the mutex held: the next job to compile, or NULL */
static Job *
next_job (void)
{
  GList *l;

  for (l = self.jobs.head; l != NULL; l = l->next)
    if (!((Job *) l->data)->quiet || quiet ())
      {
        Job *job = l->data;

        g_queue_delete_link (&self.jobs, l);
        self.quiet -= job->quiet;
        return job;
      }
  return NULL;
}

/* with the mutex held: the batch's programs done, or failed */
static void
finish_batch (GPtrArray     *jobs,
              CblurGpuBuild *builds)
{
  guint i;

  self.busy = NULL;
  for (i = 0; i < jobs->len; i++)
    {
      Job *job = g_ptr_array_index (jobs, i);

      self.upgraded |= job->quiet && builds[i].program != NULL;

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
  cblur_gpu_thread_changed ();
}

/* The chore: with the mutex held, which is let go while the next BATCH
 * queued jobs compile, all at once.  A program another context uses must
 * be linked first: glFinish. */
static void
compile_queued (void)
{
  g_autoptr (GPtrArray)     jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) job_free);
  g_autofree CblurGpuBuild *builds = NULL;
  Job                      *job;
  guint                     i;

  while (jobs->len < BATCH && (job = next_job ()) != NULL)
    g_ptr_array_add (jobs, job);
  builds = g_new0 (CblurGpuBuild, jobs->len);
  for (i = 0; i < jobs->len; i++)
    {
      Job *job = g_ptr_array_index (jobs, i);

      builds[i] = (CblurGpuBuild) { job->name, job->source, job->defines, job->prelude };
    }
  self.busy = jobs;
  cblur_gpu_thread_unlock ();
  if (eglBindAPI (EGL_OPENGL_API) &&
      eglMakeCurrent (self.display, EGL_NO_SURFACE, EGL_NO_SURFACE, self.context))
    {
      compile_in_parallel ();
      cblur_gpu_programs_build (builds, jobs->len);
      glFinish ();
      eglMakeCurrent (self.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
  cblur_gpu_thread_lock ();
  finish_batch (jobs, builds);
}

gboolean
cblur_gpu_compiler_due (void)
{
  return self.context != EGL_NO_CONTEXT &&
         ((guint) self.quiet < self.jobs.length || (self.quiet > 0 && quiet ()));
}

/* the chore's: where only jobs that wait for a pause are queued, when it
 * comes */
static gint64
due_at (void)
{
  if (self.context == EGL_NO_CONTEXT || self.quiet == 0)
    return G_MAXINT64;
  return cblur_gpu_thread_last_call () + QUIET_US;
}

gboolean
cblur_gpu_compiler_busy (void)
{
  return self.busy != NULL;
}

gboolean
cblur_gpu_compiler_queued (void)
{
  return (guint) self.quiet < self.jobs.length;
}

gboolean
cblur_gpu_compiler_waiting (void)
{
  return self.context != EGL_NO_CONTEXT && self.quiet > 0;
}

gboolean
cblur_gpu_compiler_upgraded (gboolean forget)
{
  gboolean upgraded = self.upgraded;

  self.upgraded &= !forget;
  return upgraded;
}

/* The parent's compiler is not in a forked child: what it held is
 * forgotten. */
static void
forget_in_child (void)
{
  memset (&self, 0, sizeof self);
}

/* with the mutex held: the compiler's context, made where there is none */
static gboolean
compiler_context (CblurGpu *gpu)
{
  static const CblurGpuChore chore = { cblur_gpu_compiler_due, compile_queued, due_at };
  static gboolean            registered;

  if (!registered)
    {
      pthread_atfork (NULL, NULL, forget_in_child);
      registered = TRUE;
    }
  if (self.failed == NULL)
    self.failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self.context != EGL_NO_CONTEXT)
    return TRUE;
  self.display = gpu->display;
  self.context = cblur_gpu_context_share (gpu);
  cblur_gpu_thread_add_chore (&chore);
  return self.context != EGL_NO_CONTEXT;
}

/* with the mutex held: the oldest job that waits for a pause goes */
static void
drop_oldest_quiet (void)
{
  GList *l;

  for (l = self.jobs.head; l != NULL; l = l->next)
    if (((Job *) l->data)->quiet)
      {
        job_free (l->data);
        g_queue_delete_link (&self.jobs, l);
        self.quiet--;
        return;
      }
}

/* with the mutex held */
static gboolean
queue (CblurGpu    *gpu,
       const gchar *key,
       const gchar *name,
       const gchar *source,
       const gchar *defines,
       const gchar *prelude,
       gboolean     waits)
{
  Job *job;

  collect (gpu);
  if (g_hash_table_contains (gpu->programs, key) || pending (key))
    return TRUE;
  if (cblur_gpu_thread_stopping () || !compiler_context (gpu) ||
      g_hash_table_contains (self.failed, key))
    return FALSE;
  if (waits && self.quiet >= MAX_QUIET)
    drop_oldest_quiet ();
  job = g_new0 (Job, 1);
  job->key = g_strdup (key);
  job->name = g_strdup (name);
  job->source = g_strdup (source);
  job->defines = g_strdup (defines);
  job->prelude = g_strdup (prelude);
  job->quiet = waits;
  self.quiet += waits;
  g_queue_push_tail (&self.jobs, job);
  cblur_gpu_thread_wake ();
  return TRUE;
}

gboolean
cblur_gpu_compiler_queue (CblurGpu    *gpu,
                          const gchar *name,
                          const gchar *source,
                          const gchar *defines,
                          const gchar *prelude,
                          gboolean     waits)
{
  g_autofree gchar *key = cblur_gpu_program_key (name, defines);
  gboolean          queued;

  cblur_gpu_thread_lock ();
  queued = queue (gpu, key, name, source, defines, prelude, waits);
  cblur_gpu_thread_unlock ();
  return queued;
}

void
cblur_gpu_compiler_collect (CblurGpu *gpu)
{
  cblur_gpu_thread_lock ();
  collect (gpu);
  cblur_gpu_thread_unlock ();
}

CblurGpuProgram *
cblur_gpu_compiler_take (CblurGpu    *gpu,
                         const gchar *key)
{
  GList *queued;

  cblur_gpu_thread_lock ();
  collect (gpu);
  queued = g_queue_find_custom (&self.jobs, key, (GCompareFunc) strcmp);
  if (queued != NULL)
    {
      self.quiet -= ((Job *) queued->data)->quiet;
      job_free (queued->data);
      g_queue_delete_link (&self.jobs, queued);
    }
  cblur_gpu_thread_unlock ();
  return g_hash_table_lookup (gpu->programs, key);
}

void
cblur_gpu_compiler_stop (CblurGpu *gpu)
{
  cblur_gpu_thread_lock ();
  g_queue_clear_full (&self.jobs, (GDestroyNotify) job_free);
  self.quiet = 0;
  self.upgraded = FALSE;
  g_slist_free_full (g_steal_pointer (&self.done), (GDestroyNotify) done_free);
  if (self.failed != NULL)
    g_hash_table_remove_all (self.failed);
  if (self.context != EGL_NO_CONTEXT)
    eglDestroyContext (self.display, self.context);
  self.context = EGL_NO_CONTEXT;
  cblur_gpu_thread_unlock ();
}

void
cblur_gpu_compiler_quiesce (gint64 deadline)
{
  cblur_gpu_thread_lock ();
  g_queue_clear_full (&self.jobs, (GDestroyNotify) job_free);
  self.quiet = 0;
  while (self.busy != NULL && cblur_gpu_thread_wait (deadline))
    ;
  cblur_gpu_thread_unlock ();
}
