/* What the runtime's files share of its programs (cblur-gpu-program.c):
 * their linking, one at a time or many at once, and the counts the tests
 * read.  Nothing outside cblur-gpu-*.c includes it. */
#ifndef CBLUR_GPU_PROGRAM_H
#define CBLUR_GPU_PROGRAM_H

#include "cblur-gpu.h"

G_BEGIN_DECLS

/* a program to link: what cblur_gpu_program() takes, then what came of it */
typedef struct
{
  const gchar     *name;
  const gchar     *source;
  const gchar     *defines;
  const gchar     *prelude;
  CblurGpuProgram *program;   /* linked, not cached */
  GError          *error;     /* else the compiler's log */
} CblurGpuBuild;

/* the programs linked on the thread's current context, all at once */
void     cblur_gpu_programs_build  (CblurGpuBuild *builds,
                                    guint          n);
/* the program linked in a user's task, which its user waits for: counted
 * for cblur_gpu_caller_compiles() */
CblurGpuProgram *cblur_gpu_program_build (const gchar  *name,
                                          const gchar  *source,
                                          const gchar  *defines,
                                          const gchar  *prelude,
                                          GError      **error);
/* the cache's value destructor */
void     cblur_gpu_program_free    (gpointer      program);
/* the program cache's key */
gchar   *cblur_gpu_program_key     (const gchar  *name,
                                    const gchar  *defines);
/* on the runtime's thread: the first uses (cblur_gpu_on_linked) run, and
 * their first dispatches are not counted as a user's; `upgrades`: they
 * are the upgrades' (cblur_gpu_on_upgraded) */
void     cblur_gpu_program_first_uses (gboolean running,
                                       gboolean upgrades);
/* whether the calling thread runs the upgrades' first uses, which queue
 * no programs (cblur_gpu_program_linked) */
gboolean cblur_gpu_program_in_upgrade_uses (void);
/* whether the calling thread has dispatched the program, or runs the
 * first uses, which do */
gboolean cblur_gpu_program_used_here  (const CblurGpuProgram *program);

G_END_DECLS

#endif
