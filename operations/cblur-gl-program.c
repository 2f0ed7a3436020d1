/* Compute programs from the embedded shaders, compiled once per variant
 * (shader, variant, cache size) and kept with the context. */
#include "cblur-gl-private.h"
#include "cblur-pixel.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* TRUE where the shader's or program's status (GL_COMPILE_STATUS,
 * GL_LINK_STATUS) says so; else the error holds format filled with the
 * shader's name and GL's info log. */
static gboolean
succeeded (GLuint                    object,
           GLenum                    status,
           PFNGLGETSHADERIVPROC      get_iv,
           PFNGLGETSHADERINFOLOGPROC get_log,
           const gchar              *format,
           const gchar              *name,
           GError                  **error)
{
  GLint             ok = GL_FALSE;
  GLint             length = 0;
  g_autofree gchar *log = NULL;

  get_iv (object, status, &ok);
  if (ok)
    return TRUE;

  get_iv (object, GL_INFO_LOG_LENGTH, &length);
  log = g_malloc0 (MAX (length, 0) + 1);
  if (length > 0)
    get_log (object, length, NULL, log);
  g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_SHADER, format, name, g_strstrip (log));
  return FALSE;
}

/* The pixel rules' constants (cblur-pixel.h) as the shaders' defines, in
 * the C locale's digits, which hold the alpha floor exactly. */
static gchar *
pixel_defines (void)
{
  gchar floor_text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("#define CBLUR_ALPHA_FLOOR %s\n"
                          "#define CBLUR_ABYSS_CLAMP %d\n"
                          "#define CBLUR_ABYSS_LOOP %d\n",
                          g_ascii_dtostr (floor_text, sizeof floor_text, CBLUR_ALPHA_FLOOR),
                          GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP);
}

/* The defines, the pixel rules, alpha.glsl and common.glsl go right after
 * the #version line that must come first; the #line keeps the info log's
 * line numbers those of the .comp file. */
static GLuint
build (const gchar  *name,
       const gchar  *source,
       const gchar  *defines,
       GError      **error)
{
  g_autofree gchar *rules = pixel_defines ();
  const gchar      *body = strchr (source, '\n') + 1;
  const gchar      *parts[] = { source, defines, rules, cblur_shader_alpha,
                                 cblur_shader_common, "#line 2\n", body };
  GLint             lengths[] = { body - source, -1, -1, -1, -1, -1, -1 };
  GLuint            shader = glCreateShader (GL_COMPUTE_SHADER);
  GLuint            program;

  glShaderSource (shader, G_N_ELEMENTS (parts), parts, lengths);
  glCompileShader (shader);
  if (!succeeded (shader, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog,
                  _("the %s shader does not compile: %s"), name, error))
    {
      glDeleteShader (shader);
      return 0;
    }

  program = glCreateProgram ();
  glAttachShader (program, shader);
  glLinkProgram (program);
  /* only flagged: it goes with the program */
  glDeleteShader (shader);
  if (!succeeded (program, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog,
                  _("the %s shader does not link: %s"), name, error))
    {
      glDeleteProgram (program);
      return 0;
    }
  return program;
}

/* cache_len: the shared texels of the direct and fused box shaders; 0 for
 * the others. */
GLuint
cblur_gl_program (CblurGl         *gl,
                  CblurGlShader    shader,
                  CblurGlVariant   variant,
                  gint             cache_len,
                  GError         **error)
{
  static const gchar *const names[] = {
    [CBLUR_GL_SHADER_DIRECT]   = "direct",
    [CBLUR_GL_SHADER_BOX_SCAN] = "box-scan",
    [CBLUR_GL_SHADER_BOX]      = "box",
    [CBLUR_GL_SHADER_BOX_FUSED] = "box-fused",
    [CBLUR_GL_SHADER_ABYSS]    = "abyss",
    [CBLUR_GL_SHADER_PREMULTIPLY] = "premultiply",
    [CBLUR_GL_SHADER_DECODE]   = "decode",
    [CBLUR_GL_SHADER_ENCODE]   = "encode",
  };
  static const gchar *const sources[] = {
    [CBLUR_GL_SHADER_DIRECT]   = cblur_shader_direct,
    [CBLUR_GL_SHADER_BOX_SCAN] = cblur_shader_box_scan,
    [CBLUR_GL_SHADER_BOX]      = cblur_shader_box,
    [CBLUR_GL_SHADER_BOX_FUSED] = cblur_shader_box_fused,
    [CBLUR_GL_SHADER_ABYSS]    = cblur_shader_abyss,
    [CBLUR_GL_SHADER_PREMULTIPLY] = cblur_shader_premultiply,
    [CBLUR_GL_SHADER_DECODE]   = cblur_shader_decode,
    [CBLUR_GL_SHADER_ENCODE]   = cblur_shader_encode,
  };
  const gchar      *name = names[shader];
  g_autoptr (GString) defines = g_string_new (NULL);
  g_autofree gchar *key = NULL;
  GLuint            program;

  /* a broken variant is never cached, so each faulty call compiles */
  if (cblur_settings ()->gl_fault == CBLUR_GL_FAULT_COMPILE)
    g_string_append (defines, "#error CBLUR_GL_FAULT=compile\n");
  if (variant & CBLUR_GL_VERTICAL)
    g_string_append (defines, "#define VERTICAL\n");
  if (cache_len > 0)
    g_string_append_printf (defines, "#define CACHE_LEN %d\n", cache_len);
  if (variant & CBLUR_GL_PAIRS)
    g_string_append (defines, "#define PAIRS\n");
  if (variant & CBLUR_GL_PREMULTIPLY)
    g_string_append (defines, "#define PREMULTIPLY\n");

  key = g_strconcat (name, "\n", defines->str, NULL);
  program = GPOINTER_TO_UINT (g_hash_table_lookup (gl->programs, key));
  if (program != 0)
    return program;

  program = build (name, sources[shader], defines->str, error);
  if (program != 0)
    g_hash_table_insert (gl->programs, g_steal_pointer (&key), GUINT_TO_POINTER (program));
  return program;
}
