/* The life of the one context: the lock that guards its state on the
 * runtime's thread against the thread-safe functions' reads, its making
 * and destroying, its release once idle (the thread's idle hook), and
 * what becomes of it when the host forks or exits, or its user shuts the
 * runtime down (gegl_exit()).  What stays with the context between
 * calls lives in `self`. */
#include "cblur-gpu-compiler.h"
#include "cblur-gpu-config.h"
#include "cblur-gpu-lifetime.h"
#include "cblur-gpu-thread.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>

/* A host such as GIMP runs on after a blur, and the context holds its
 * users' textures and pinned buffers: over a gigabyte of each for an 8K
 * image.  The runtime's thread lets go of them once the context has been
 * idle this long (the settings' idle_ms), and the context and its
 * programs stay, whose making the next blur would otherwise wait for or
 * leave to the CPU; the context goes too where the settings say let_go.
 * Making a large image's textures and pinned buffers again costs a blur
 * more than the blur itself: they stay through a user's pause between
 * applies, mostly under a minute. */
#define IDLE_MS 60000

/* While a user holds the context (a live preview's op that has blurred on
 * the GPU), a pause of the user's must not cost the next preview a new
 * context and its programs: only an idle time this long lets it go. */
#define HELD_IDLE_MS (10 * 60 * 1000)

/* At exit, how long to wait for pinned buffers still out, which the
 * driver's own teardown frees: a user's CPU fallback takes less. */
#define EXIT_WAIT_US (10 * G_USEC_PER_SEC)

static struct
{
  GMutex      lock;   /* held for all GL work, on the runtime's thread */
  GThread    *holder;   /* the thread that holds the lock */
  GCond       unlocked;
  CblurGpu    gl;
  gint64      last_use;
  gint64      idle_after_us;   /* of the setting the last blur read */
  gint        holds;      /* cblur_gpu_hold()'s out */
  gint        made;       /* a context exists: read without the lock */
  gboolean    software;   /* ... on a software rasterizer */
  gboolean    used_egl;   /* this process has opened EGL */
  gboolean    forked;     /* from a process that had: no GL here */
  gboolean    exiting;    /* exit() has begun: no more GL */
} self;

void
cblur_gpu_lock (void)
{
  g_mutex_lock (&self.lock);
  g_atomic_pointer_set (&self.holder, g_thread_self ());
}

void
cblur_gpu_unlock (void)
{
  g_atomic_pointer_set (&self.holder, NULL);
  if (self.exiting)
    g_cond_broadcast (&self.unlocked);
  g_mutex_unlock (&self.lock);
}

/* Destroying the context frees every object in it. */
static void
context_destroy (void)
{
  if (!cblur_gpu_context_alive (&self.gl))
    return;
  g_atomic_int_set (&self.made, FALSE);
  cblur_gpu_compiler_stop (&self.gl);
  cblur_gpu_pinned_forget (&self.gl);
  cblur_gpu_context_destroy (&self.gl);
}

gboolean
cblur_gpu_lifetime_made (gboolean *is_software)
{
  if (!g_atomic_int_get (&self.made))
    return FALSE;
  if (is_software != NULL)
    *is_software = self.software;
  return TRUE;
}

void
cblur_gpu_hold (void)
{
  g_atomic_int_inc (&self.holds);
}

void
cblur_gpu_unhold (void)
{
  g_atomic_int_add (&self.holds, -1);
}

/* with the lock held */
static gint64
idle_after_us (void)
{
  return g_atomic_int_get (&self.holds) > 0 ? MAX (self.idle_after_us,
                                                   (gint64) HELD_IDLE_MS * 1000)
                                            : self.idle_after_us;
}

/* With the lock held: the users' memory goes, the context and its
 * programs stay.  A context that cannot be made current has failed, and
 * goes. */
static void
trim (void)
{
  if (!cblur_gpu_context_make (&self.gl, NULL))
    {
      context_destroy ();
      return;
    }
  cblur_gpu_context_trim (&self.gl);
  cblur_gpu_context_release (&self.gl);
}

/* The runtime thread's idle hook: the context let go where it has been
 * idle long enough; when to look again. */
static gint64
reap (void)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);
  gint64                   now = g_get_monotonic_time ();
  gint64                   due = self.last_use + idle_after_us ();
  CblurGpuConfig           config;

  cblur_gpu_config_read (&config);
  if (self.exiting || self.forked || !cblur_gpu_context_alive (&self.gl) ||
      (!config.let_go && !cblur_gpu_context_holds_memory (&self.gl)))
    return G_MAXINT64;
  if (now < due)
    return due;
  /* a user's pixels may still be out in pinned buffers */
  if (self.gl.pinned_out > 0)
    return now + idle_after_us ();
  if (config.let_go || self.gl.failed)
    context_destroy ();
  else
    trim ();
  return G_MAXINT64;
}

/* With the lock held: the context is in use now. */
static void
touch (void)
{
  CblurGpuConfig config;

  cblur_gpu_config_read (&config);
  self.last_use = g_get_monotonic_time ();
  self.idle_after_us = (config.idle_ms > 0 ? config.idle_ms : IDLE_MS) * 1000;
}

/* on the runtime's thread */
static void
destroy_unless_exiting (gpointer unused)
{
  g_mutex_lock (&self.lock);
  if (!self.exiting)
    context_destroy ();
  g_mutex_unlock (&self.lock);
}

void
cblur_gpu_shut_down (void)
{
  cblur_gpu_thread_end (destroy_unless_exiting, NULL);
}

/* A child forked after we used EGL inherits the driver's state (its
 * display, its file descriptors onto the GPU, shared with the parent) but
 * none of its threads.  Neither Mesa nor NVIDIA's EGL supports going on
 * with that: a call waits on threads that are not there, or works on the
 * parent's GPU objects, and even eglTerminate/eglInitialize come back to
 * the same inherited display (Mesa and libglvnd hold one per platform and
 * device).  So the child forgets the parent's context, lock and pinned
 * buffers without touching them, as the runtime's thread and compiler
 * forget theirs, and its users go to the CPU. */
static void
forget_in_child (void)
{
  gboolean inherited = self.used_egl || self.forked;

  memset (&self, 0, sizeof self);
  self.forked = inherited;
}

gboolean
cblur_gpu_lifetime_refuse (GError **error)
{
  if (self.forked)
    g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NO_CONTEXT,
                 _("no OpenGL 4.3 context (%s)"),
                 _("a process forked from one that used OpenGL blurs on the CPU"));
  else if (self.exiting)
    g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_EXITING,
                         _("the process is exiting"));
  else
    return FALSE;
  return TRUE;
}

/* Registered (leave_at_exit) once the first context is made and has
 * worked (warm_up), so after the driver's own exit handlers, which
 * therefore run after this:
 * once they have, a GL call still running in another thread crashes.  It
 * stops the runtime's thread (the tasks still waiting fail, and their
 * users blur on the CPU), waits for the task in flight and for the pinned
 * buffers still out, stops new tasks from starting, and leaves the
 * context to the driver's teardown: no EGL call of ours inside whatever
 * host is exiting (GIMP, the gegl CLI, Python). */
static void
wait_at_exit (void)
{
  gint64 deadline = g_get_monotonic_time () + EXIT_WAIT_US;

  cblur_gpu_thread_stop_and_wait (deadline);
  cblur_gpu_compiler_quiesce (deadline);
  /* exit() from within a GL call (a host's callback) must not wait on itself */
  if (g_atomic_pointer_get (&self.holder) == g_thread_self ())
    {
      self.exiting = TRUE;
      return;
    }
  g_mutex_lock (&self.lock);
  self.exiting = TRUE;
  while (self.gl.pinned_out > 0 &&
         g_cond_wait_until (&self.unlocked, &self.lock, deadline))
    ;
  g_mutex_unlock (&self.lock);
}

/* A child forked from a process that used EGL must not run the driver's
 * exit handlers: NVIDIA's tear down, through the GPU file descriptors the
 * child shares, the parent's context, whose next call then waits forever.
 * Registered after them, this runs before them, and ends such a child
 * there with its stdio flushed, as _exit() after a fork does: the host's
 * exit handlers registered before ours do not run in it either. */
#ifdef __GLIBC__
static void
leave_at_exit (gint     status,
               gpointer unused)
{
  if (self.forked)
    {
      fflush (NULL);
      _exit (status);
    }
  wait_at_exit ();
}
#endif

/* One texel up through a pixel buffer, a dispatch that writes it, and
 * the texel down again, as a user does.  Drivers set up some of their
 * state the first time they do each, and register exit handlers of their
 * own then (llvmpipe at the first upload, LLVM's JIT at the first
 * dispatch): done now, before ours is registered, those run after ours. */
static void
warm_up (void)
{
  static const gchar  source[] =
    "#version 430\n"
    "layout (local_size_x = 1) in;\n"
    "layout (rgba32f, binding = 0) uniform image2D texel;\n"
    "void main () { imageStore (texel, ivec2 (0), imageLoad (texel, ivec2 (0)) + 1.0); }\n";
  const gchar        *sources[] = { source };
  gfloat              pixel[4] = { 0 };   /* one RGBA float texel */
  GLuint              texture, buffer, shader, program;
  GLsync              fence;

  glGenBuffers (1, &buffer);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, buffer);
  glBufferStorage (GL_PIXEL_UNPACK_BUFFER, sizeof pixel, pixel, GL_MAP_READ_BIT);
  glGenTextures (1, &texture);
  glBindTexture (GL_TEXTURE_2D, texture);
  glTexStorage2D (GL_TEXTURE_2D, 1, GL_RGBA32F, 1, 1);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_FLOAT, NULL);
  glBindTexture (GL_TEXTURE_2D, 0);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);

  shader = glCreateShader (GL_COMPUTE_SHADER);
  glShaderSource (shader, 1, sources, NULL);
  glCompileShader (shader);
  program = glCreateProgram ();
  glAttachShader (program, shader);
  glLinkProgram (program);
  glUseProgram (program);
  glBindImageTexture (0, texture, 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA32F);
  glDispatchCompute (1, 1, 1);
  glMemoryBarrier (GL_TEXTURE_UPDATE_BARRIER_BIT);

  glBindBuffer (GL_PIXEL_PACK_BUFFER, buffer);
  glBindTexture (GL_TEXTURE_2D, texture);
  glGetTexImage (GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, NULL);
  fence = glFenceSync (GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glClientWaitSync (fence, GL_SYNC_FLUSH_COMMANDS_BIT, G_MAXUINT64);

  glDeleteSync (fence);
  glBindTexture (GL_TEXTURE_2D, 0);
  glBindBuffer (GL_PIXEL_PACK_BUFFER, 0);
  glUseProgram (0);
  glDeleteProgram (program);
  glDeleteShader (shader);
  glDeleteTextures (1, &texture);
  glDeleteBuffers (1, &buffer);
  glGetError ();
}

/* With the lock held, once a context has been made. */
static void
watch_host (void)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      warm_up ();
#ifdef __GLIBC__
      on_exit (leave_at_exit, NULL);
#else
      atexit (wait_at_exit);
#endif
      g_once_init_leave (&registered, 1);
    }
}

CblurGpu *
cblur_gpu_acquire (GError **error)
{
  static gsize       fork_watched = 0;
  g_autoptr (GError) failure = NULL;
  CblurGpu          *gl = &self.gl;
  gboolean           ok;

  if (g_once_init_enter (&fork_watched))
    {
      pthread_atfork (NULL, NULL, forget_in_child);
      cblur_gpu_thread_set_idle (reap);
      g_once_init_leave (&fork_watched, 1);
    }
  if (cblur_gpu_lifetime_refuse (error))
    return NULL;

  if (gl->failed && gl->pinned_out > 0)
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST,
                           _("the OpenGL context was lost"));
      return NULL;
    }
  if (gl->failed)
    context_destroy ();

  self.used_egl = TRUE;
  ok = cblur_gpu_context_make (gl, &failure);
  if (!ok && g_error_matches (failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST))
    {
      gl->failed = TRUE;
      if (gl->pinned_out == 0)
        {
          context_destroy ();
          g_clear_error (&failure);
          ok = cblur_gpu_context_make (gl, &failure);
        }
    }
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&failure));
      return NULL;
    }
  watch_host ();
  touch ();
  self.software = gl->limits.is_software;
  g_atomic_int_set (&self.made, TRUE);
  return gl;
}

void
cblur_gpu_release (CblurGpu *gpu)
{
  if (self.exiting || self.forked)
    return;
  if (gpu->failed && gpu->pinned_out == 0)
    context_destroy ();
  else
    cblur_gpu_context_release (gpu);
}

CblurGpu *
cblur_gpu_lifetime_context (void)
{
  return &self.gl;
}
