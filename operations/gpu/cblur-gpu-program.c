/* Compute programs, linked one at a time or many at once, their
 * uniforms' locations read when they are linked: setting a uniform then
 * asks the driver nothing.  Which program a user takes, from the cache or
 * the compiler, is cblur-gpu-compiler.c's. */
#include "cblur-gpu-context.h"
#include "cblur-gpu-program.h"

#include <string.h>
#include <glib/gi18n-lib.h>

struct _CblurGpuProgram
{
  GLuint      id;
  GHashTable *locations;   /* uniform name -> location + 1 */
  /* the threads that have dispatched it: a driver may finish a program
   * at its first dispatch from each thread */
  GPtrArray  *threads;
};

/* compiles in users' tasks */
static guint caller_compiles;

/* first dispatches of a program from a thread that were not a first
 * use's */
static guint caller_first_uses;

/* the thread that runs the first uses, while it does, and the one that
 * runs the upgrades' */
static GThread *first_user;
static GThread *upgrade_user;

guint
cblur_gpu_caller_compiles (void)
{
  return g_atomic_int_get (&caller_compiles);
}

guint
cblur_gpu_caller_first_uses (void)
{
  return g_atomic_int_get (&caller_first_uses);
}

void
cblur_gpu_program_first_uses (gboolean running,
                              gboolean upgrades)
{
  g_atomic_pointer_set (&first_user, running ? g_thread_self () : NULL);
  g_atomic_pointer_set (&upgrade_user, running && upgrades ? g_thread_self () : NULL);
}

gboolean
cblur_gpu_program_in_upgrade_uses (void)
{
  return g_atomic_pointer_get (&upgrade_user) == g_thread_self ();
}

void
cblur_gpu_program_free (gpointer data)
{
  CblurGpuProgram *program = data;

  /* the GL program goes with the context */
  g_hash_table_unref (program->locations);
  g_clear_pointer (&program->threads, g_ptr_array_unref);
  g_free (program);
}

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

/* The shader compiling: the defines and prelude go right after the
 * #version line that must come first; the #line leaves the info log's line
 * numbers those of source. */
static GLuint
compile_start (const CblurGpuBuild *build)
{
  const gchar *body = strchr (build->source, '\n') + 1;
  const gchar *parts[] = { build->source, build->defines, build->prelude, "#line 2\n", body };
  GLint        lengths[] = { body - build->source, -1, -1, -1, -1 };
  GLuint       shader = glCreateShader (GL_COMPUTE_SHADER);

  glShaderSource (shader, G_N_ELEMENTS (parts), parts, lengths);
  glCompileShader (shader);
  return shader;
}

/* The compiled shader's program linking, or 0 with the compiler's log. */
static GLuint
link_start (CblurGpuBuild *build,
            GLuint         shader)
{
  GLuint program = 0;

  if (succeeded (shader, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog,
                 _("the %s shader does not compile: %s"), build->name, &build->error))
    {
      program = glCreateProgram ();
      glAttachShader (program, shader);
      glLinkProgram (program);
    }
  /* only flagged where attached: it goes with the program */
  glDeleteShader (shader);
  return program;
}

/* every active uniform's location, by name */
static GHashTable *
read_locations (GLuint program)
{
  GHashTable *locations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GLint       n = 0;
  GLint       longest = 0;
  gint        i;

  glGetProgramInterfaceiv (program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &n);
  glGetProgramInterfaceiv (program, GL_UNIFORM, GL_MAX_NAME_LENGTH, &longest);
  for (i = 0; i < n; i++)
    {
      g_autofree gchar *name = g_malloc0 (longest + 1);
      GLint             location;

      glGetProgramResourceName (program, GL_UNIFORM, i, longest + 1, NULL, name);
      location = glGetProgramResourceLocation (program, GL_UNIFORM, name);
      if (location >= 0)
        g_hash_table_insert (locations, g_steal_pointer (&name), GINT_TO_POINTER (location + 1));
    }
  return locations;
}

gchar *
cblur_gpu_program_key (const gchar *name,
                       const gchar *defines)
{
  return g_strconcat (name, "\n", defines, NULL);
}

/* Every shader is compiled, then every program linked, before any status
 * is asked: a driver with GL_KHR_parallel_shader_compile's threads works
 * on all of them at once, where asking waits for each in turn. */
void
cblur_gpu_programs_build (CblurGpuBuild *builds,
                          guint          n)
{
  g_autofree GLuint *ids = g_new0 (GLuint, n);
  guint              i;

  for (i = 0; i < n; i++)
    ids[i] = compile_start (&builds[i]);
  for (i = 0; i < n; i++)
    ids[i] = link_start (&builds[i], ids[i]);
  for (i = 0; i < n; i++)
    {
      if (ids[i] == 0)
        continue;
      if (!succeeded (ids[i], GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog,
                      _("the %s shader does not link: %s"), builds[i].name, &builds[i].error))
        {
          glDeleteProgram (ids[i]);
          continue;
        }
      builds[i].program = g_new0 (CblurGpuProgram, 1);
      builds[i].program->id = ids[i];
      builds[i].program->locations = read_locations (ids[i]);
    }
}

CblurGpuProgram *
cblur_gpu_program_build (const gchar  *name,
                         const gchar  *source,
                         const gchar  *defines,
                         const gchar  *prelude,
                         GError      **error)
{
  CblurGpuBuild build = { name, source, defines, prelude };

  g_atomic_int_inc (&caller_compiles);
  cblur_gpu_programs_build (&build, 1);
  if (build.program == NULL)
    g_propagate_error (error, build.error);
  return build.program;
}

gboolean
cblur_gpu_program_used_here (const CblurGpuProgram *program)
{
  return g_atomic_pointer_get (&first_user) == g_thread_self () ||
         (program->threads != NULL && g_ptr_array_find (program->threads, g_thread_self (), NULL));
}

void
cblur_gpu_use (const CblurGpuProgram *program)
{
  CblurGpuProgram *counted = (CblurGpuProgram *) program;

  if (counted->threads == NULL)
    counted->threads = g_ptr_array_new ();
  if (!g_ptr_array_find (counted->threads, g_thread_self (), NULL))
    {
      g_ptr_array_add (counted->threads, g_thread_self ());
      if (g_atomic_pointer_get (&first_user) != g_thread_self ())
        g_atomic_int_inc (&caller_first_uses);
    }
  glUseProgram (program->id);
}

/* -1, which GL ignores, for a uniform the program does not use */
static GLint
location (const CblurGpuProgram *program,
          const gchar           *name)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (program->locations, name)) - 1;
}

void
cblur_gpu_set_int (const CblurGpuProgram *program,
                   const gchar           *name,
                   gint                   value)
{
  glProgramUniform1i (program->id, location (program, name), value);
}

void
cblur_gpu_set_uint (const CblurGpuProgram *program,
                    const gchar           *name,
                    guint                  value)
{
  glProgramUniform1ui (program->id, location (program, name), value);
}

void
cblur_gpu_set_float (const CblurGpuProgram *program,
                     const gchar           *name,
                     gfloat                 value)
{
  glProgramUniform1f (program->id, location (program, name), value);
}

void
cblur_gpu_set_ivec2 (const CblurGpuProgram *program,
                     const gchar           *name,
                     gint                   x,
                     gint                   y)
{
  glProgramUniform2i (program->id, location (program, name), x, y);
}

void
cblur_gpu_set_ivec4 (const CblurGpuProgram *program,
                     const gchar           *name,
                     const gint            *value)
{
  glProgramUniform4iv (program->id, location (program, name), 1, value);
}

void
cblur_gpu_set_vec4 (const CblurGpuProgram *program,
                    const gchar           *name,
                    const gfloat          *value)
{
  glProgramUniform4fv (program->id, location (program, name), 1, value);
}
