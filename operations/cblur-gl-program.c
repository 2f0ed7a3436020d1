/* Compute programs from the embedded shaders, compiled once per variant
 * (shader, axis, cache size) and kept with the context. */
#include "cblur-gl-private.h"

#include <string.h>
#include <glib/gi18n-lib.h>

static gchar *
info_log (GLuint                    object,
          PFNGLGETSHADERIVPROC      get_iv,
          PFNGLGETSHADERINFOLOGPROC get_log)
{
  GLint  length = 0;
  gchar *log;

  get_iv (object, GL_INFO_LOG_LENGTH, &length);
  log = g_malloc0 (MAX (length, 0) + 1);
  if (length > 0)
    get_log (object, length, NULL, log);
  return g_strstrip (log);
}

/* The defines go right after the #version line that must come first; the
 * #line keeps the info log's line numbers those of the .comp file. */
static GLuint
build (const gchar  *name,
       const gchar  *source,
       const gchar  *defines,
       GError      **error)
{
  const gchar *body = strchr (source, '\n') + 1;
  const gchar *parts[] = { source, defines, "#line 2\n", body };
  GLint        lengths[] = { body - source, -1, -1, -1 };
  GLuint       shader = glCreateShader (GL_COMPUTE_SHADER);
  GLuint       program;
  GLint        ok = GL_FALSE;

  glShaderSource (shader, G_N_ELEMENTS (parts), parts, lengths);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      g_autofree gchar *log = info_log (shader, glGetShaderiv, glGetShaderInfoLog);

      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_SHADER,
                   _("the %s shader does not compile: %s"), name, log);
      glDeleteShader (shader);
      return 0;
    }

  program = glCreateProgram ();
  glAttachShader (program, shader);
  glLinkProgram (program);
  /* only flagged: it goes with the program */
  glDeleteShader (shader);
  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      g_autofree gchar *log = info_log (program, glGetProgramiv, glGetProgramInfoLog);

      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_SHADER,
                   _("the %s shader does not link: %s"), name, log);
      glDeleteProgram (program);
      return 0;
    }
  return program;
}

/* cache_len: the direct shader's shared vec4s; 0 for the box shader */
GLuint
cblur_gl_program (CblurGl        *gl,
                  CblurGlShader   shader,
                  gboolean        vertical,
                  gint            cache_len,
                  GError        **error)
{
  static const gchar *const names[] = {
    [CBLUR_GL_SHADER_DIRECT]   = "direct",
    [CBLUR_GL_SHADER_BOX_SCAN] = "box-scan",
    [CBLUR_GL_SHADER_BOX]      = "box",
  };
  static const gchar *const sources[] = {
    [CBLUR_GL_SHADER_DIRECT]   = cblur_shader_direct,
    [CBLUR_GL_SHADER_BOX_SCAN] = cblur_shader_box_scan,
    [CBLUR_GL_SHADER_BOX]      = cblur_shader_box,
  };
  const gchar      *name = names[shader];
  g_autoptr (GString) defines = g_string_new (NULL);
  g_autofree gchar *key = NULL;
  GLuint            program;

  /* a broken variant is never cached, so each faulty call compiles */
  if (cblur_gl_fault () == CBLUR_GL_FAULT_COMPILE)
    g_string_append (defines, "#error CBLUR_GL_FAULT=compile\n");
  if (vertical)
    g_string_append (defines, "#define VERTICAL\n");
  if (cache_len > 0)
    g_string_append_printf (defines, "#define CACHE_LEN %d\n", cache_len);

  key = g_strconcat (name, "\n", defines->str, NULL);
  program = GPOINTER_TO_UINT (g_hash_table_lookup (gl->programs, key));
  if (program != 0)
    return program;

  program = build (name, sources[shader], defines->str, error);
  if (program != 0)
    g_hash_table_insert (gl->programs, g_steal_pointer (&key), GUINT_TO_POINTER (program));
  return program;
}
