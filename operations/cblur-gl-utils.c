/* GL's errors as GErrors, and waiting for the GPU.  A loss or an
 * out-of-memory leaves GL undefined: the context is marked failed, which
 * sticks until it is destroyed (cblur-gl-lifetime.c). */
#include "cblur-gl-private.h"

#include <glib/gi18n-lib.h>

/* a GPU reset mid-wait never signals the fence: look for one this often */
#define WAIT_SLICE_NS (100 * 1000 * 1000)

static const gchar *
stage_name (CblurGlStage stage)
{
  switch (stage)
    {
    case CBLUR_GL_STAGE_ALLOC:    return "alloc";
    case CBLUR_GL_STAGE_UPLOAD:   return "upload";
    case CBLUR_GL_STAGE_DISPATCH: return "dispatch";
    default:                      return "download";
    }
}

/* reset: what glGetGraphicsResetStatus said, which it says only once */
static gboolean
check (CblurGl       *gl,
       CblurGlStage   stage,
       GLenum         reset,
       GError       **error)
{
  CblurGlFault fault = cblur_settings ()->gl_fault;
  GLenum       code = glGetError ();
  gint         flags;

  /* GL keeps a flag per kind of error; clear the others for the next call */
  for (flags = 0; flags < 8 && glGetError () != GL_NO_ERROR; flags++)
    ;

  if (stage == CBLUR_GL_STAGE_ALLOC && fault == CBLUR_GL_FAULT_ALLOC)
    code = GL_OUT_OF_MEMORY;
  if (stage == CBLUR_GL_STAGE_DISPATCH && fault == CBLUR_GL_FAULT_DISPATCH)
    code = GL_INVALID_OPERATION;
  if (stage == CBLUR_GL_STAGE_DISPATCH && fault == CBLUR_GL_FAULT_LOST)
    reset = GL_UNKNOWN_CONTEXT_RESET;

  if (reset != GL_NO_ERROR || code == GL_CONTEXT_LOST)
    {
      gl->failed = TRUE;
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST,
                   _("the OpenGL context was lost (%s)"), stage_name (stage));
    }
  else if (code == GL_OUT_OF_MEMORY)
    {
      gl->failed = TRUE;
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_OUT_OF_MEMORY,
                   _("the GPU ran out of memory (%s)"), stage_name (stage));
    }
  else if (code != GL_NO_ERROR)
    g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                 _("OpenGL error 0x%04x (%s)"), code, stage_name (stage));
  else
    return TRUE;
  return FALSE;
}

gboolean
cblur_gl_check (CblurGl       *gl,
                CblurGlStage   stage,
                GError       **error)
{
  return check (gl, stage,
                gl->has_reset_status ? glGetGraphicsResetStatus () : GL_NO_ERROR, error);
}

gboolean
cblur_gl_wait_for (CblurGl       *gl,
                   GLsync         fence,
                   CblurGlStage   stage,
                   GError       **error)
{
  GLenum reset = GL_NO_ERROR;

  while (reset == GL_NO_ERROR &&
         glClientWaitSync (fence, GL_SYNC_FLUSH_COMMANDS_BIT, WAIT_SLICE_NS) == GL_TIMEOUT_EXPIRED)
    if (gl->has_reset_status)
      reset = glGetGraphicsResetStatus ();

  if (reset == GL_NO_ERROR && gl->has_reset_status)
    reset = glGetGraphicsResetStatus ();
  return check (gl, stage, reset, error);
}

gboolean
cblur_gl_wait (CblurGl       *gl,
               CblurGlStage   stage,
               GError       **error)
{
  GLsync   fence = glFenceSync (GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  gboolean ok = cblur_gl_wait_for (gl, fence, stage, error);

  glDeleteSync (fence);
  return ok;
}
