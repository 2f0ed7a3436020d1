/* The programs a user takes: from the context's cache, from the compiler
 * (cblur-gpu-compiler.c), or compiled in the user's task; and those it
 * queues for the compiler. */
#include "cblur-gpu-compiler.h"
#include "cblur-gpu-config.h"
#include "cblur-gpu-context.h"
#include "cblur-gpu-program.h"

#include <glib/gi18n-lib.h>

gboolean
cblur_gpu_prepare (CblurGpu    *gpu,
                   const gchar *name,
                   const gchar *source,
                   const gchar *defines,
                   const gchar *prelude)
{
  return cblur_gpu_compiler_queue (gpu, name, source, defines, prelude, FALSE);
}

CblurGpuProgram *
cblur_gpu_program (CblurGpu     *gpu,
                   const gchar  *name,
                   const gchar  *source,
                   const gchar  *defines,
                   const gchar  *prelude,
                   GError      **error)
{
  g_autofree gchar *key = cblur_gpu_program_key (name, defines);
  g_autofree gchar *faulty = NULL;
  CblurGpuProgram  *program;

  /* a broken program is never cached, so each faulty call compiles */
  if (cblur_gpu_fault_compile ())
    {
      faulty = g_strconcat ("#error CBLUR_GL_FAULT=compile\n", defines, NULL);
      program = cblur_gpu_program_build (name, source, faulty, prelude, error);
      g_warn_if_fail (program == NULL);
      return NULL;
    }
  program = g_hash_table_lookup (gpu->programs, key);
  if (program != NULL)
    return program;

  /* one the compiler linked is in the cache once taken */
  program = cblur_gpu_compiler_take (gpu, key);
  if (program != NULL)
    return program;
  program = cblur_gpu_program_build (name, source, defines, prelude, error);
  if (program != NULL)
    g_hash_table_insert (gpu->programs, g_steal_pointer (&key), program);
  return program;
}

CblurGpuProgram *
cblur_gpu_program_ready (CblurGpu     *gpu,
                         const gchar  *name,
                         const gchar  *source,
                         const gchar  *defines,
                         const gchar  *prelude,
                         GError      **error)
{
  g_autofree gchar *key = cblur_gpu_program_key (name, defines);
  CblurGpuProgram  *program;

  /* a faulty program, or one the compiler cannot make, fails here with
   * the compiler's log */
  if (cblur_gpu_fault_compile () || !cblur_gpu_prepare (gpu, name, source, defines, prelude))
    return cblur_gpu_program (gpu, name, source, defines, prelude, error);
  program = g_hash_table_lookup (gpu->programs, key);
  if (program == NULL)
    g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NOT_READY,
                 _("the %s shader is still compiling"), name);
  return program;
}

CblurGpuProgram *
cblur_gpu_program_linked (CblurGpu    *gpu,
                          const gchar *name,
                          const gchar *source,
                          const gchar *defines,
                          const gchar *prelude)
{
  g_autofree gchar *key = cblur_gpu_program_key (name, defines);
  CblurGpuProgram  *program;

  if (cblur_gpu_fault_compile ())
    return NULL;
  if (cblur_gpu_program_in_upgrade_uses ())
    cblur_gpu_compiler_collect (gpu);
  else
    cblur_gpu_compiler_queue (gpu, name, source, defines, prelude, TRUE);
  /* a driver may finish a program at its first dispatch from a thread:
   * the first uses' (cblur_gpu_on_upgraded) come first */
  program = g_hash_table_lookup (gpu->programs, key);
  return program != NULL && cblur_gpu_program_used_here (program) ? program : NULL;
}
