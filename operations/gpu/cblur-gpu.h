/* The GPU runtime: one shared headless OpenGL 4.3 context (an EGL device,
 * else Mesa's surfaceless platform) and the objects that live in it:
 * pinned host buffers, textures, storage buffers and compute programs,
 * with dispatches, GPU timers and GL's errors.  It knows nothing of what
 * its shaders compute, nor of the program it serves: its user builds its
 * GPU code on it, and hands it its settings (cblur_gpu_configure).
 *
 * All GL work runs on the runtime's own thread: a user hands its work
 * there as a task (cblur_gpu_run) and waits for it.  A driver binds some
 * of its work to the thread that does it (NVIDIA's finishes a program at
 * its first dispatch from each thread, on that thread's CPU), so the
 * warm-ups that thread runs before the GPU takes blurs spare every user
 * that cost.  The context is made on first use, or ahead of it where the
 * caller would rather not wait (cblur_gpu_state).  Idle a while (the
 * settings' idle_ms, longer while a user holds it), it lets go of its
 * users' memory (their data, pinned buffers) while its programs stay, so
 * that the next blur pays no start; it goes only when its user shuts the
 * runtime down (cblur_gpu_shut_down), or when idle where the settings say
 * let_go, and is never used in a child forked after it existed, nor once
 * the process has begun to exit.
 *
 * Threads: the functions marked "thread-safe" may be called from any
 * thread at any time, but not from a task.  All others take a CblurGpu
 * and run inside a task or a warm-up, on the runtime's thread, with the
 * context current.  Nothing here names a GL type: a build without GL
 * compiles its users. */
#ifndef CBLUR_GPU_H
#define CBLUR_GPU_H

#include <glib.h>

G_BEGIN_DECLS

#define CBLUR_GL_ERROR (cblur_gl_error_quark ())

typedef enum
{
  CBLUR_GL_ERROR_NO_CONTEXT,
  CBLUR_GL_ERROR_SHADER,
  CBLUR_GL_ERROR_OUT_OF_MEMORY,
  CBLUR_GL_ERROR_FAILED,
  CBLUR_GL_ERROR_LOST,
  CBLUR_GL_ERROR_EXITING,  /* the process has begun to exit: no failure to warn of */
  CBLUR_GL_ERROR_NOT_READY /* a program still compiles on the runtime's thread: none
                            * either (cblur_gpu_program_ready) */
} CblurGlError;

GQuark cblur_gl_error_quark (void);

typedef struct _CblurGpu CblurGpu;

/* What the context offers, read once when it is made. */
typedef struct
{
  gchar    renderer[128];
  gboolean is_software;         /* llvmpipe, softpipe or another software rasterizer */
  gint     max_texture_size;
  gint     max_shared_memory;   /* a compute work group's, in bytes */
  gsize    memory_budget;       /* bytes of textures worth holding at once */
  gint64   max_storage_range;   /* bytes of a storage buffer a shader may see */
  gint     storage_alignment;   /* of where such a range starts */
} CblurGpuLimits;

/* ---- settings (cblur-gpu-config.c) ---- */

/* a failure point that a test makes fail, as a driver would: no context,
 * a shader that does not compile, an allocation or a dispatch that fails,
 * a GPU reset, a context slow to make */
typedef enum
{
  CBLUR_GPU_FAULT_NONE,
  CBLUR_GPU_FAULT_CONTEXT,
  CBLUR_GPU_FAULT_COMPILE,
  CBLUR_GPU_FAULT_ALLOC,
  CBLUR_GPU_FAULT_DISPATCH,
  CBLUR_GPU_FAULT_LOST,
  CBLUR_GPU_FAULT_SLOW
} CblurGpuFault;

/* What the runtime's user decides; 0 and FALSE hold the runtime's own. */
typedef struct
{
  gint64        idle_ms;  /* the users' memory goes after this long unused (a minute) */
  gboolean      let_go;   /* the context and its programs go then too */
  gboolean      debug;    /* the driver's debug messages go to g_debug, at a cost */
  CblurGpuFault fault;
} CblurGpuConfig;

/* Fills config (zeroed) with the settings as they are now; called on any
 * thread, whenever the runtime needs them, so that a change shows at the
 * next use. */
typedef void (*CblurGpuConfigRead) (CblurGpuConfig *config);

/* Thread-safe: where the runtime reads its settings; until then, and
 * where read is NULL, it holds its own. */
void      cblur_gpu_configure      (CblurGpuConfigRead read);

/* ---- tasks (cblur-gpu-task.c) ---- */

/* A user's GL work, run on the runtime's thread with the context current:
 * TRUE where it succeeded, else FALSE with the error. */
typedef gboolean (*CblurGpuTask) (CblurGpu  *gpu,
                                  gpointer   data,
                                  GError   **error);

/* Thread-safe: runs task on the runtime's thread, making the context where
 * there is none, and waits for it; its result.  FALSE, without running
 * it, where there is no GL 4.3 context, in a forked child, once the
 * process has begun to exit (CBLUR_GL_ERROR_EXITING, for a task still
 * waiting then too), or after a failure while pinned buffers are still
 * out.  Tasks run one at a time, in the order they come. */
gboolean  cblur_gpu_run            (CblurGpuTask   task,
                                    gpointer       data,
                                    GError       **error);

/* Thread-safe: TRUE once a context exists, making it if needed on the
 * runtime's thread (a task, waited for). */
gboolean  cblur_gpu_available      (gboolean *is_software,
                                    GError  **error);
/* Thread-safe, for tests: whether a context exists now, and whether it
 * holds users' memory (data or idle pinned buffers). */
gboolean  cblur_gpu_holds_context  (void);
gboolean  cblur_gpu_holds_memory   (void);

/* ---- the context's objects (cblur-gpu-context.c) ---- */

const CblurGpuLimits *cblur_gpu_limits (const CblurGpu *gpu);

/* A user's objects that stay with the context under `key` (a static string's
 * address): destroy runs, with the context current, when the context lets
 * go of its memory after an idle time or goes, and deletes the data's GL
 * objects and frees its host memory; the next user makes them again. */
gpointer  cblur_gpu_get_data (CblurGpu       *gpu,
                              gconstpointer   key);
void      cblur_gpu_set_data (CblurGpu       *gpu,
                              gconstpointer   key,
                              gpointer        data,
                              GDestroyNotify  destroy);

/* A point in the GPU's queue of work. */
typedef struct _CblurGpuFence CblurGpuFence;

/* How a dispatch uses an image. */
typedef enum
{
  CBLUR_GPU_READ,
  CBLUR_GPU_WRITE,
  CBLUR_GPU_READ_WRITE
} CblurGpuAccess;

/* What must see the writes of the dispatches before: their images'
 * texels in later dispatches, uploads into their textures, downloads
 * through a framebuffer, copies from their buffers, the host's reads of
 * pinned buffers. */
typedef enum
{
  CBLUR_GPU_BARRIER_IMAGES         = 1 << 0,
  CBLUR_GPU_BARRIER_TEXTURE_UPDATE = 1 << 1,
  CBLUR_GPU_BARRIER_FRAMEBUFFER    = 1 << 2,
  CBLUR_GPU_BARRIER_BUFFER_UPDATE  = 1 << 3,
  CBLUR_GPU_BARRIER_MAPPED         = 1 << 4
} CblurGpuBarrier;

/* ---- errors (cblur-gpu-check.c) ---- */

/* Reads every pending GL error and the reset status, each logged by name
 * with `site`; FALSE, with the first as the error, where there was any.  A
 * loss or an out-of-memory leaves GL undefined: the context is marked
 * failed, which sticks until it is destroyed.  The fault a test sets
 * (CblurGpuConfig's fault) fires here, through cblur-gpu-config.c. */
gboolean  cblur_gpu_check    (CblurGpu      *gpu,
                              const gchar   *site,
                              GError       **error);
/* Marks the context failed: its objects cannot be trusted. */
void      cblur_gpu_fail     (CblurGpu      *gpu);
/* Until the GPU has done all work so far, then cblur_gpu_check(). */
gboolean  cblur_gpu_finish   (CblurGpu      *gpu,
                              const gchar   *site,
                              GError       **error);
/* A fence after the work so far, and waiting for one (which stays the
 * caller's), looking for a GPU reset meanwhile; then cblur_gpu_check(). */
CblurGpuFence *cblur_gpu_fence (CblurGpu      *gpu);
gboolean  cblur_gpu_wait     (CblurGpu      *gpu,
                              CblurGpuFence *fence,
                              const gchar   *site,
                              GError       **error);
/* Whether the fence has passed, without waiting. */
gboolean  cblur_gpu_passed   (CblurGpuFence *fence);
void      cblur_gpu_fence_free (CblurGpuFence *fence);

/* ---- pinned host buffers (cblur-gpu-pinned.c) ---- */

/* A buffer in cached host memory that the GPU reaches by DMA, mapped
 * readable and writable for its whole life. */
typedef struct
{
  guint    buffer;
  gsize    size;
  gpointer data;
} CblurGpuPinned;

/* Pinning memory is slow (the driver locks every page): a few given back
 * stay for the next.  While any is out, the context is not let go when idle, and at
 * exit the process waits for them.  Its data stays mapped for any
 * thread to read and write until it is given back or freed. */
CblurGpuPinned *cblur_gpu_pinned_new  (CblurGpu        *gpu,
                                       gsize            size,
                                       GError         **error);
/* in a task, for the next */
void            cblur_gpu_pinned_give_back (CblurGpu        *gpu,
                                            CblurGpuPinned  *pinned);
/* Thread-safe: gives it back on the runtime's thread, or where the
 * context cannot be made current there, frees only its host part. */
void            cblur_gpu_pinned_free      (CblurGpuPinned  *pinned);

/* Thread-safe, for tests: how often pinned memory has been made or grown
 * in this process. */
guint           cblur_gpu_pinned_reserved  (void);

/* ---- textures and buffers (cblur-gpu-texture.c) ---- */

/* An RGBA float texture, the compute shaders' image. */
typedef struct
{
  guint id;
  gint  width;
  gint  height;
} CblurGpuTexture;

/* texture of at least width × height, remade where it is smaller */
void      cblur_gpu_texture_reserve (CblurGpuTexture       *texture,
                                     gint                   width,
                                     gint                   height);
void      cblur_gpu_texture_clear   (CblurGpuTexture       *texture);

/* A storage buffer of size bytes, holding data if not NULL. */
guint     cblur_gpu_buffer_new      (gsize                  size,
                                     gconstpointer          data);
void      cblur_gpu_buffer_free     (guint                 *buffer);

/* width × height texels from row y of the texture to or from a buffer,
 * whose rows are row_texels apart from byte offset on; the download's
 * buffer holds buffer_size bytes */
void      cblur_gpu_upload          (const CblurGpuTexture *texture,
                                     gint                   y,
                                     gint                   width,
                                     gint                   height,
                                     guint                  buffer,
                                     gsize                  offset,
                                     gsize                  row_texels);
void      cblur_gpu_download        (CblurGpu              *gpu,
                                     const CblurGpuTexture *texture,
                                     gint                   y,
                                     gint                   width,
                                     gint                   height,
                                     guint                  buffer,
                                     gsize                  buffer_size,
                                     gsize                  offset,
                                     gsize                  row_texels);
void      cblur_gpu_copy            (guint                  from,
                                     gsize                  from_offset,
                                     guint                  to,
                                     gsize                  to_offset,
                                     gsize                  size);

/* ---- start-up without waiting (cblur-gpu-start.c) ---- */

typedef enum
{
  CBLUR_GPU_NOT_STARTED,   /* no context, none being made */
  CBLUR_GPU_STARTING,      /* the runtime's thread makes it, or runs its warm-ups */
  CBLUR_GPU_READY,         /* it exists */
  CBLUR_GPU_FAILED         /* the runtime's thread could not make it */
} CblurGpuState;

/* Thread-safe, and never waits, not even for the lock: whether the
 * context exists, and where it does not and `start`, has the runtime's
 * own thread begin to make it (a driver's first load takes a second).
 * is_software where READY, as cblur_gpu_available()'s; the reason where
 * FAILED, which stays until a context is made. */
CblurGpuState cblur_gpu_state (gboolean   start,
                               gboolean  *is_software,
                               GError   **error);
/* The same, started, but the context made after pause_us, in which an
 * exit has no start to wait for; cblur_gpu_state (TRUE) hurries it. */
CblurGpuState cblur_gpu_start_after (gint64     pause_us);

/* Thread-safe, for tests and the benchmark: until the runtime's thread has
 * made the context it was asked for, compiled all that is queued (what
 * waits for a pause in the tasks too, which this wait makes) and run the
 * first uses. */
void      cblur_gpu_wait_prepared   (void);
/* Thread-safe, and waits only for the runtime's thread's short lock:
 * whether that thread has nothing queued (but what waits for a pause),
 * compiling or to use first, so that a blur that takes only the programs
 * the warm-ups queued finds them linked and already dispatched once, and
 * no task waits for a compile or a first use.  While it compiles, a task waits
 * for the batch: a user that takes GL blurs meanwhile does better to
 * queue nothing more. */
gboolean  cblur_gpu_prepared        (void);
/* On the runtime's thread, the context current: queues
 * (cblur_gpu_prepare) the programs a user of the runtime may take. */
typedef void (*CblurGpuWarmUp) (CblurGpu *gpu);
/* Thread-safe: warm_up runs, once each, whenever the runtime's thread has
 * made the context (cblur_gpu_state), before that says READY. */
void      cblur_gpu_on_made         (CblurGpuWarmUp warm_up);
/* Thread-safe: first_use runs, once each, on the runtime's thread with the
 * context current, once the programs that the warm-ups queued are linked
 * and before cblur_gpu_prepared() says TRUE: a user's dispatches of each
 * of them, on work of its own.  A driver may finish a program only at its
 * first dispatch from a thread: this is where that waits, not a user's
 * first frame. */
void      cblur_gpu_on_linked       (CblurGpuWarmUp first_use);
/* Thread-safe: use runs, once each time, as first_use does, after the
 * runtime's thread has linked programs that cblur_gpu_program_linked()
 * queued: a user's dispatches of those it asked for.  There
 * cblur_gpu_program_linked() queues nothing: a program no task asked for
 * waits for one that does. */
void      cblur_gpu_on_upgraded     (CblurGpuWarmUp use);

/* ---- lifetime (cblur-gpu-lifetime.c) ---- */

/* Thread-safe: a user that holds the context from going after the
 * settings' idle time (a live preview's op): while any hold is out, only
 * a far longer idle time lets it go. */
void      cblur_gpu_hold   (void);
void      cblur_gpu_unhold (void);
/* Thread-safe: the context and the runtime's thread go (the host's
 * library shuts down: gegl_exit()); a later call starts them again. */
void      cblur_gpu_shut_down (void);

/* ---- programs (cblur-gpu-cache.c, cblur-gpu-compiler.c, cblur-gpu-program.c) ---- */

/* A linked compute program, which stays with the context; its uniforms' locations
 * are read once, when it is linked. */
typedef struct _CblurGpuProgram CblurGpuProgram;

/* The program of source (a #version line first) with `defines` and then
 * `prelude` after its #version line, compiled once per name and defines;
 * NULL, with the compiler's log, where it does not build.  The info log's
 * line numbers stay the source's. */
CblurGpuProgram *cblur_gpu_program   (CblurGpu              *gpu,
                                      const gchar           *name,
                                      const gchar           *source,
                                      const gchar           *defines,
                                      const gchar           *prelude,
                                      GError               **error);
/* The same program without a compile that its task's user waits for:
 * where it is not linked yet it is queued, as by cblur_gpu_prepare(), and
 * NULL comes back with CBLUR_GL_ERROR_NOT_READY; compiled in the task only
 * where the queue cannot (its context failed, or its compile did, for the
 * log). */
CblurGpuProgram *cblur_gpu_program_ready (CblurGpu          *gpu,
                                          const gchar       *name,
                                          const gchar       *source,
                                          const gchar       *defines,
                                          const gchar       *prelude,
                                          GError           **error);
/* The program where it is linked and the calling thread may dispatch it
 * at once; else NULL, without an error, and it is queued for the
 * runtime's thread to compile once the tasks pause a while (a task that
 * comes meanwhile waits for the batch), after which the upgrades' first
 * uses (cblur_gpu_on_upgraded) dispatch it: a blur served meanwhile by a
 * program already linked takes it from the next on.  Called from those
 * uses, it queues nothing.  NULL too where it cannot be compiled there
 * (its context failed, or its compile did). */
CblurGpuProgram *cblur_gpu_program_linked (CblurGpu          *gpu,
                                           const gchar       *name,
                                           const gchar       *source,
                                           const gchar       *defines,
                                           const gchar       *prelude);
/* Has the runtime's thread compile the program between tasks, in the
 * order queued and several at once, on a context of its own that shares
 * this one's objects, where it is not linked or queued yet: a later
 * cblur_gpu_program() takes it without a compile.  FALSE where that
 * cannot be (no context of its own, or the program failed there
 * before). */
gboolean  cblur_gpu_prepare     (CblurGpu              *gpu,
                                 const gchar           *name,
                                 const gchar           *source,
                                 const gchar           *defines,
                                 const gchar           *prelude);
/* Thread-safe, for tests and the benchmark: programs compiled inside
 * users' tasks so far, which their users waited for. */
guint     cblur_gpu_caller_compiles (void);
/* Thread-safe, for tests: first dispatches (cblur_gpu_use()) of a
 * program from a thread, each thread counting apart as a driver may,
 * that were a user's, in a task or on a thread other than the runtime's,
 * rather than a first use's (cblur_gpu_on_linked). */
guint     cblur_gpu_caller_first_uses (void);
void      cblur_gpu_use         (const CblurGpuProgram *program);
void      cblur_gpu_set_int     (const CblurGpuProgram *program,
                                 const gchar           *name,
                                 gint                   value);
void      cblur_gpu_set_uint    (const CblurGpuProgram *program,
                                 const gchar           *name,
                                 guint                  value);
void      cblur_gpu_set_float   (const CblurGpuProgram *program,
                                 const gchar           *name,
                                 gfloat                 value);
void      cblur_gpu_set_ivec2   (const CblurGpuProgram *program,
                                 const gchar           *name,
                                 gint                   x,
                                 gint                   y);
void      cblur_gpu_set_ivec4   (const CblurGpuProgram *program,
                                 const gchar           *name,
                                 const gint            *value);
void      cblur_gpu_set_vec4    (const CblurGpuProgram *program,
                                 const gchar           *name,
                                 const gfloat          *value);

/* ---- dispatch and timers (cblur-gpu-dispatch.c) ---- */

/* work groups of size for n items */
static inline gint
cblur_gpu_groups (gint n,
                  gint size)
{
  return (n + size - 1) / size;
}

/* texture as the program's image `unit` */
void      cblur_gpu_bind_image  (guint                  unit,
                                 const CblurGpuTexture *texture,
                                 CblurGpuAccess         access);
/* bytes [offset, offset + size) of buffer as storage block `binding`;
 * size 0: all of it */
void      cblur_gpu_bind_buffer (guint                  binding,
                                 guint                  buffer,
                                 gsize                  offset,
                                 gsize                  size);
/* The program in use over x × y work groups; `barrier` (or 0) orders
 * what follows after it. */
void      cblur_gpu_dispatch    (gint                   x,
                                 gint                   y,
                                 CblurGpuBarrier        barrier);
void      cblur_gpu_barrier     (CblurGpuBarrier        barrier);
/* what is queued starts now, not when GL next waits */
void      cblur_gpu_flush       (void);

/* GPU time between pairs of marks. */
typedef struct _CblurGpuTimer CblurGpuTimer;

CblurGpuTimer *cblur_gpu_timer_new   (void);
/* a timestamp: the first of each pair begins a span, the second ends it */
void           cblur_gpu_timer_mark  (CblurGpuTimer *timer);
/* the spans' sum in milliseconds, waiting for the GPU where read, else 0 */
gdouble        cblur_gpu_timer_free  (CblurGpuTimer *timer,
                                      gboolean       read);

G_END_DECLS

#endif
