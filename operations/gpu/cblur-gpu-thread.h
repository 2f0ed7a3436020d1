/* The runtime's own thread (cblur-gpu-thread.c), which does all of its GL
 * work, and the one mutex that guards the state of what it runs.  It knows
 * nothing of that work: the files above it hand it calls, which a user
 * waits for, and chores, which it runs between calls whenever one is due;
 * with nothing due it runs the idle hook and sleeps until the time that
 * hook names, or until someone wakes it.  Nothing outside cblur-gpu-*.c
 * includes it. */
#ifndef CBLUR_GPU_THREAD_H
#define CBLUR_GPU_THREAD_H

#include <glib.h>

G_BEGIN_DECLS

typedef void (*CblurGpuCall) (gpointer data);

/* A kind of work the thread runs between calls, first due first, in the
 * order added: due() with the mutex held; run() with it held too, which
 * it may let go meanwhile; due_at(), where not NULL, with it held: the
 * monotonic time at which due() may turn TRUE with nothing else
 * happening (G_MAXINT64: none), for the idle thread to wake at. */
typedef struct
{
  gboolean (*due)    (void);
  void     (*run)    (void);
  gint64   (*due_at) (void);
} CblurGpuChore;

/* With the mutex let go, when nothing is due: work for an idle thread,
 * and when to look again (G_MAXINT64: not until woken). */
typedef gint64 (*CblurGpuIdle) (void);

void     cblur_gpu_thread_lock      (void);
void     cblur_gpu_thread_unlock    (void);
/* with the mutex held: the thread and every waiter look again; wake also
 * starts the thread where it does not run */
void     cblur_gpu_thread_changed   (void);
void     cblur_gpu_thread_wake      (void);
/* with the mutex held: until a change, or the monotonic time `until`
 * (G_MAXINT64: none); FALSE where that time came */
gboolean cblur_gpu_thread_wait      (gint64 until);
/* with the mutex held: whether the process exits, when the thread does
 * no more GL and runs no more calls */
gboolean cblur_gpu_thread_stopping  (void);
/* with the mutex held: the monotonic time the last call ended, or 0 */
gint64   cblur_gpu_thread_last_call (void);
/* with the mutex held: work of the thread's own that counts as a call
 * has ended now */
void     cblur_gpu_thread_mark_call (void);

/* with the mutex held: a chore, added once however often asked */
void     cblur_gpu_thread_add_chore (const CblurGpuChore *chore);
/* thread-safe: the idle hook */
void     cblur_gpu_thread_set_idle  (CblurGpuIdle         idle);

/* call (data) on the thread, which starts where it does not run, waited
 * for; FALSE, without running it, once the process has begun to exit.
 * Not from the thread. */
gboolean cblur_gpu_thread_call      (CblurGpuCall call,
                                     gpointer     data);
/* gegl_exit(): call (data) on the thread, which then ends; a later call
 * starts another */
void     cblur_gpu_thread_end       (CblurGpuCall call,
                                     gpointer     data);
/* at exit: the calls waiting, and any to come, do not run */
void     cblur_gpu_thread_stop      (void);
/* exit(): as cblur_gpu_thread_stop, then waits until deadline (monotonic)
 * for the thread's work in hand to end */
void     cblur_gpu_thread_stop_and_wait (gint64 deadline);

G_END_DECLS

#endif
