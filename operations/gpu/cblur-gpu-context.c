/* The one headless OpenGL 4.3 core context: an EGL device first (hardware
 * before Mesa's software device), else Mesa's surfaceless platform.  It is
 * made current for each call and released after, so GEGL's threads may take
 * turns with it under cblur-gpu-lifetime.c's lock. */
#include "cblur-gpu-config.h"
#include "cblur-gpu-context.h"
#include "cblur-gpu-program.h"

#include <dlfcn.h>
#include <string.h>
#include <epoxy/egl.h>
#include <glib/gi18n-lib.h>

#define MAX_DEVICES 32

/* a cblur_gpu_set_data() slot */
typedef struct
{
  gconstpointer  key;
  gpointer       data;
  GDestroyNotify destroy;
} Data;

#define MIN_TEXTURE_BUDGET ((gsize) 512 << 20)
#define MAX_TEXTURE_BUDGET ((gsize) 4 << 30)

/* libepoxy aborts the process when it cannot load these, so look first */
static gboolean
libraries_present (void)
{
  static gsize present = 0;

  if (g_once_init_enter (&present))
    {
      gboolean found = dlopen ("libEGL.so.1", RTLD_LAZY) != NULL &&
                       (dlopen ("libOpenGL.so.0", RTLD_LAZY) != NULL ||
                        dlopen ("libGL.so.1", RTLD_LAZY) != NULL);

      g_once_init_leave (&present, found ? 1 : 2);
    }
  return present == 1;
}

/* A core 4.3 context sharing share's objects (or none), that shows a GPU
 * reset where the driver offers that (EGL 1.5 or KHR_create_context). */
static EGLContext
new_context (EGLDisplay dpy,
             EGLConfig  config,
             EGLContext share)
{
  EGLint     attribs[] = {
    EGL_CONTEXT_MAJOR_VERSION, 4,
    EGL_CONTEXT_MINOR_VERSION, 3,
    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
    EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, EGL_LOSE_CONTEXT_ON_RESET,
    EGL_NONE
  };
  EGLContext ctx = eglCreateContext (dpy, config, share, attribs);

  if (ctx == EGL_NO_CONTEXT)
    {
      attribs[6] = EGL_NONE;
      ctx = eglCreateContext (dpy, config, share, attribs);
    }
  return ctx;
}

/* On success the context is current, made with *config. */
static EGLContext
create_context (EGLDisplay  dpy,
                EGLConfig  *config)
{
  gboolean   configured = TRUE;
  EGLContext ctx = EGL_NO_CONTEXT;
  EGLint     major, minor, n_configs;

  if (dpy == EGL_NO_DISPLAY || !eglInitialize (dpy, &major, &minor))
    return EGL_NO_CONTEXT;

  if (epoxy_has_egl_extension (dpy, "EGL_KHR_surfaceless_context") &&
      eglBindAPI (EGL_OPENGL_API))
    {
      if (!epoxy_has_egl_extension (dpy, "EGL_KHR_no_config_context"))
        {
          static const EGLint wanted[] = {
            EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
            EGL_SURFACE_TYPE, EGL_DONT_CARE,
            EGL_NONE
          };

          configured = eglChooseConfig (dpy, wanted, config, 1, &n_configs) &&
                       n_configs > 0;
        }
      if (configured)
        ctx = new_context (dpy, *config, EGL_NO_CONTEXT);

      /* staging needs persistent mappings (GL 4.4's buffer storage) */
      if (ctx != EGL_NO_CONTEXT &&
          !(eglMakeCurrent (dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx) &&
            epoxy_gl_version () >= 43 &&
            (epoxy_gl_version () >= 44 || epoxy_has_gl_extension ("GL_ARB_buffer_storage"))))
        {
          eglMakeCurrent (dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
          eglDestroyContext (dpy, ctx);
          ctx = EGL_NO_CONTEXT;
        }
    }

  if (ctx == EGL_NO_CONTEXT)
    eglTerminate (dpy);
  return ctx;
}

static gboolean
open_display (CblurGpu   *gl,
              EGLDisplay  dpy)
{
  gl->config = EGL_NO_CONFIG_KHR;
  gl->context = create_context (dpy, &gl->config);
  if (gl->context == EGL_NO_CONTEXT)
    return FALSE;
  gl->display = dpy;
  return TRUE;
}

static gboolean
device_is_software (EGLDeviceEXT device)
{
  const gchar *extensions;

  if (!epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_EXT_device_query"))
    return FALSE;
  extensions = eglQueryDeviceStringEXT (device, EGL_EXTENSIONS);
  return extensions != NULL && strstr (extensions, "EGL_MESA_device_software") != NULL;
}

static gboolean
open_device (CblurGpu *gl)
{
  EGLDeviceEXT devices[MAX_DEVICES];
  EGLint       n_devices = 0;
  gint         software, i;

  if (!epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_EXT_device_enumeration") ||
      !epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_EXT_platform_device") ||
      !eglQueryDevicesEXT (MAX_DEVICES, devices, &n_devices))
    return FALSE;

  /* Mesa lists its software rasterizer as a device as well */
  for (software = FALSE; software <= TRUE; software++)
    for (i = 0; i < n_devices; i++)
      if (device_is_software (devices[i]) == software &&
          open_display (gl, eglGetPlatformDisplayEXT (EGL_PLATFORM_DEVICE_EXT,
                                                      devices[i], NULL)))
        return TRUE;
  return FALSE;
}

static gboolean
open_surfaceless (CblurGpu *gl)
{
  return epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless") &&
         open_display (gl, eglGetPlatformDisplayEXT (EGL_PLATFORM_SURFACELESS_MESA,
                                                     EGL_DEFAULT_DISPLAY, NULL));
}

/* An eighth of the video memory where the driver tells (NVIDIA), within
 * bounds: more tiles mean more halos. */
static gsize
texture_budget (void)
{
  GLint kib = 0;

  if (epoxy_has_gl_extension ("GL_NVX_gpu_memory_info"))
    glGetIntegerv (GL_GPU_MEMORY_INFO_DEDICATED_VIDMEM_NVX, &kib);
  return CLAMP (((gsize) MAX (kib, 0) << 10) / 8, MIN_TEXTURE_BUDGET, MAX_TEXTURE_BUDGET);
}

static void
read_capabilities (CblurGpu *gl)
{
  CblurGpuLimits   *limits = &gl->limits;
  const gchar      *renderer = (const gchar *) glGetString (GL_RENDERER);
  g_autofree gchar *lower = g_ascii_strdown (renderer != NULL ? renderer : "", -1);
  GLint             alignment = 1;

  g_strlcpy (limits->renderer, renderer != NULL ? renderer : "", sizeof limits->renderer);
  limits->is_software = strstr (lower, "llvmpipe") != NULL ||
                        strstr (lower, "softpipe") != NULL ||
                        strstr (lower, "software") != NULL;
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &limits->max_texture_size);
  glGetIntegerv (GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &limits->max_shared_memory);
  glGetInteger64v (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &limits->max_storage_range);
  glGetIntegerv (GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  limits->storage_alignment = MAX (alignment, 1);
  limits->memory_budget = texture_budget ();
  gl->has_texture_sub_image = epoxy_gl_version () >= 45 ||
                              epoxy_has_gl_extension ("GL_ARB_get_texture_sub_image");
  gl->has_reset_status = epoxy_gl_version () >= 45 ||
                         epoxy_has_gl_extension ("GL_KHR_robustness");
  gl->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        cblur_gpu_program_free);
  gl->data = g_array_new (FALSE, TRUE, sizeof (Data));
  cblur_gpu_debug_enable ();
}

gboolean
cblur_gpu_context_make (CblurGpu  *gl,
                        GError   **error)
{
  if (cblur_gpu_fault_context ())
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NO_CONTEXT,
                   _("no OpenGL 4.3 context (%s)"), "CBLUR_GL_FAULT=context");
      return FALSE;
    }

  if (gl->context != EGL_NO_CONTEXT)
    {
      /* the API is per thread, and the release below must hit this one */
      if (eglBindAPI (EGL_OPENGL_API) &&
          eglMakeCurrent (gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, gl->context))
        return TRUE;
      /* the caller decides when the context may go: pixels may live in it */
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST,
                   _("the OpenGL context was lost (%s)"), cblur_gpu_egl_error ());
      return FALSE;
    }

  if (!libraries_present () || !(open_device (gl) || open_surfaceless (gl)))
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NO_CONTEXT,
                   _("no OpenGL 4.3 context (%s)"),
                   _("no EGL device or Mesa surfaceless display offers one"));
      return FALSE;
    }

  read_capabilities (gl);
  return TRUE;
}

void
cblur_gpu_context_release (CblurGpu *gl)
{
  if (gl->display != EGL_NO_DISPLAY)
    eglMakeCurrent (gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

EGLContext
cblur_gpu_context_share (const CblurGpu *gl)
{
  return new_context (gl->display, gl->config, gl->context);
}

gboolean
cblur_gpu_context_alive (const CblurGpu *gl)
{
  return gl->context != EGL_NO_CONTEXT;
}

static void
data_clear (Data *data)
{
  if (data->destroy != NULL)
    data->destroy (data->data);
}

gpointer
cblur_gpu_get_data (CblurGpu      *gpu,
                    gconstpointer  key)
{
  guint i;

  for (i = 0; i < gpu->data->len; i++)
    if (g_array_index (gpu->data, Data, i).key == key)
      return g_array_index (gpu->data, Data, i).data;
  return NULL;
}

void
cblur_gpu_set_data (CblurGpu       *gpu,
                    gconstpointer   key,
                    gpointer        data,
                    GDestroyNotify  destroy)
{
  Data  slot = { key, data, destroy };
  guint i;

  for (i = 0; i < gpu->data->len; i++)
    if (g_array_index (gpu->data, Data, i).key == key)
      {
        data_clear (&g_array_index (gpu->data, Data, i));
        g_array_index (gpu->data, Data, i) = slot;
        return;
      }
  g_array_append_val (gpu->data, slot);
}

void
cblur_gpu_context_trim (CblurGpu *gpu)
{
  guint i;

  for (i = 0; i < gpu->data->len; i++)
    data_clear (&g_array_index (gpu->data, Data, i));
  g_array_set_size (gpu->data, 0);
  cblur_gpu_pinned_trim (gpu);
}

gboolean
cblur_gpu_context_holds_memory (const CblurGpu *gpu)
{
  return gpu->context != EGL_NO_CONTEXT &&
         (gpu->data->len > 0 || (gpu->pinned_idle != NULL && gpu->pinned_idle->len > 0));
}

const CblurGpuLimits *
cblur_gpu_limits (const CblurGpu *gpu)
{
  return &gpu->limits;
}

/* Destroying the context frees every object in it, so after a loss or an
 * out-of-memory (which leaves GL undefined) the next call starts clean. */
void
cblur_gpu_context_destroy (CblurGpu *gl)
{
  if (gl->context == EGL_NO_CONTEXT)
    return;

  /* the users' data deletes its objects with the context current */
  eglMakeCurrent (gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, gl->context);
  cblur_gpu_context_trim (gl);
  g_clear_pointer (&gl->data, g_array_unref);
  gl->framebuffer = 0;
  gl->failed = FALSE;
  g_clear_pointer (&gl->programs, g_hash_table_unref);
  eglMakeCurrent (gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext (gl->display, gl->context);
  eglTerminate (gl->display);
  gl->context = EGL_NO_CONTEXT;
  gl->display = EGL_NO_DISPLAY;
}
