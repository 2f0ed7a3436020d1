/* The life of the one context: the lock that lets one thread at a time use
 * it, its making and destroying, and the thread that lets it go once idle.
 * Everything the backend keeps between calls lives in `self`. */
#include "cblur-gl-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* A host such as GIMP runs on after a blur, and the context holds the
 * textures and one band's pinned staging: over a gigabyte of each for an
 * 8K band.  A thread of ours lets the context go once it has been idle
 * this long (CBLUR_GL_IDLE_MS for tests); the next blur makes a new one. */
#define IDLE_MS 20000

static struct
{
  GMutex   lock;   /* held for all GL work: the context is current on one thread at a time */
  CblurGl  gl;
  GThread *reaper;
  GCond    reaper_wake;
  gboolean reaper_quit;
  gint64   last_use;
  /* Read in touch(), by the blurring thread: getenv in the reaper would
   * race with a setenv in the host's threads and can crash (glibc
   * reallocates the environment). */
  gint64   idle_after_us;
} self;

void
cblur_gl_lock (void)
{
  g_mutex_lock (&self.lock);
}

void
cblur_gl_unlock (void)
{
  g_mutex_unlock (&self.lock);
}

/* Destroying the context frees every object in it. */
static void
context_destroy (void)
{
  memset (&self.gl.textures, 0, sizeof self.gl.textures);
  cblur_gl_pool_forget_idle (&self.gl.pool);
  self.gl.failed = FALSE;
  cblur_gl_context_destroy (&self.gl);
}

static gint64
idle_us (void)
{
  return cblur_test_setting ("CBLUR_GL_IDLE_MS", IDLE_MS) * 1000;
}

static gpointer
reap_idle (gpointer unused)
{
  g_mutex_lock (&self.lock);
  while (!self.reaper_quit)
    {
      gint64 now = g_get_monotonic_time ();
      gint64 due = self.last_use + self.idle_after_us;

      if (cblur_gl_context_alive (&self.gl) && now >= due)
        {
          if (cblur_gl_pool_is_empty (&self.gl.pool))
            context_destroy ();
          else
            /* a band's pixels are still out in the staging */
            due = now + self.idle_after_us;
        }
      if (cblur_gl_context_alive (&self.gl))
        g_cond_wait_until (&self.reaper_wake, &self.lock, due);
      else
        g_cond_wait (&self.reaper_wake, &self.lock);
    }
  g_mutex_unlock (&self.lock);
  return NULL;
}

/* With the lock held: the context is in use now. */
static void
touch (void)
{
  self.last_use = g_get_monotonic_time ();
  self.idle_after_us = idle_us ();
  if (self.reaper == NULL)
    self.reaper = g_thread_new ("cblur-gl-idle", reap_idle, NULL);
  g_cond_signal (&self.reaper_wake);
}

CblurGl *
cblur_gl_acquire (GError **error)
{
  g_autoptr (GError) failure = NULL;
  CblurGl           *gl = &self.gl;
  gboolean           ok;

  if (gl->failed && !cblur_gl_pool_is_empty (&gl->pool))
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST,
                           _("the OpenGL context was lost"));
      return NULL;
    }
  if (gl->failed)
    context_destroy ();

  ok = cblur_gl_context_acquire (gl, &failure);
  if (!ok && g_error_matches (failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST))
    {
      gl->failed = TRUE;
      if (cblur_gl_pool_is_empty (&gl->pool))
        {
          context_destroy ();
          g_clear_error (&failure);
          ok = cblur_gl_context_acquire (gl, &failure);
        }
    }
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&failure));
      return NULL;
    }
  touch ();
  return gl;
}

void
cblur_gl_release (void)
{
  if (self.gl.failed && cblur_gl_pool_is_empty (&self.gl.pool))
    context_destroy ();
  else
    cblur_gl_context_release (&self.gl);
}

CblurGlPool *
cblur_gl_pool (void)
{
  return &self.gl.pool;
}

void
cblur_gl_shutdown (void)
{
  GThread *stopping;

  g_mutex_lock (&self.lock);
  context_destroy ();
  self.reaper_quit = TRUE;
  g_cond_signal (&self.reaper_wake);
  stopping = g_steal_pointer (&self.reaper);
  g_mutex_unlock (&self.lock);

  if (stopping != NULL)
    g_thread_join (stopping);
  g_mutex_lock (&self.lock);
  self.reaper_quit = FALSE;
  g_mutex_unlock (&self.lock);
}

gboolean
cblur_gl_holds_context (void)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&self.lock);

  return cblur_gl_context_alive (&self.gl);
}

/* so that unloading the module frees the context */
__attribute__ ((destructor)) static void
unload (void)
{
  cblur_gl_shutdown ();
}
