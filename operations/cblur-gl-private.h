/* What the files of the GL backend share; outside cblur-gl*.c only the GL
 * tests include it.  The backend, top down:
 *
 *   cblur-gl.c           the entry points: a blur, staged or copied
 *   cblur-gl-tiles.c     cutting a band into tiles, and blurring them
 *   cblur-gl-band.c      one tile streamed as GEGL reads and writes it
 *   cblur-gl-passes.c    the compute passes of a tile, and its made abyss
 *   cblur-gl-segments.c  how long a line's segment each work group takes
 *   cblur-gl-program.c   the shaders' programs
 *   cblur-gl-transfer.c  textures, uploads, downloads, GPU timestamps
 *   cblur-gl-convert.c   pixels in GEGL's formats, converted on the GPU
 *   cblur-gl-staging.c   pinned buffers, leased to GEGL's bands
 *   cblur-gl-lifetime.c  the lock, the one context's life, the idle thread
 *   cblur-gl-context.c   making the EGL context, and what it offers
 *   cblur-gl-utils.c     GL's errors, and waiting for the GPU
 *
 * Every function that touches GL runs with cblur-gl-lifetime.c's lock
 * held and the context current. */
#ifndef CBLUR_GL_PRIVATE_H
#define CBLUR_GL_PRIVATE_H

#include <epoxy/gl.h>
#include <epoxy/egl.h>

#include "cblur-gl.h"
#include "cblur-pixel.h"
#include "cblur-settings.h"

G_BEGIN_DECLS

#define CBLUR_GL_TEXEL_BYTES (CBLUR_CHANNELS * sizeof (gfloat))

/* where glGetError is checked, which decides the fault that fires there */
typedef enum
{
  CBLUR_GL_STAGE_ALLOC,
  CBLUR_GL_STAGE_UPLOAD,
  CBLUR_GL_STAGE_DISPATCH,
  CBLUR_GL_STAGE_DOWNLOAD
} CblurGlStage;

/* a pixel buffer mapped for its whole life */
typedef struct
{
  GLuint   buffer;
  gsize    size;
  gpointer mapping;
} CblurGlStaging;

struct _CblurGlStaged
{
  CblurGlStaging source;
  CblurGlStaging output;
};

/* One blur's source and output, their pixels in the staging: what its
 * uploads read and its downloads write. */
typedef struct
{
  const CblurGlStaged *staged;
  const CblurImage    *src;
  const CblurImage    *dst;
} CblurGlJob;

/* Staging handed out to bands, and one kept for the next band: pinning
 * memory costs tens of milliseconds. */
typedef struct
{
  GPtrArray     *leased;
  CblurGlStaged *idle;
} CblurGlPool;

/* One side of a tile in a cblur-format (the source's or the output's):
 * the program and cblur-format's tables that convert its pixels as
 * stored, and for an output whose tiles split rows, a buffer that holds
 * them laid out as its staging (the source's is read from its staging). */
typedef struct
{
  GLuint             buffer;
  gsize              size;
  GLuint             tables;
  const CblurFormat *format;    /* whose tables these are */
  GLuint             program;   /* decode.comp or encode.comp; cached, not owned */
  gsize              max_range; /* bytes of the buffer a shader may see at once */
  gsize              alignment; /* of where that range starts */
} CblurGlNative;

/* The textures a tile goes through, by role.  The input holds the part of
 * the tile's input inside the image, and the made column and row after it
 * that common.glsl's map reads as the abyss's colour; the horizontal
 * passes write the texture between, the input's lines the output's
 * width, and the vertical ones the output.  The two-dispatch box goes
 * through four more along each axis: ping, pong, and the prefix and
 * suffix sums. */
typedef enum
{
  CBLUR_GL_INPUT,
  CBLUR_GL_BETWEEN,
  CBLUR_GL_OUTPUT,
  CBLUR_GL_ROW_SCRATCH,
  CBLUR_GL_COLUMN_SCRATCH = CBLUR_GL_ROW_SCRATCH + 4,
  CBLUR_GL_N_TEXTURES = CBLUR_GL_COLUMN_SCRATCH + 4
} CblurGlTexture;

typedef struct
{
  gint width;
  gint height;
} CblurGlSize;

/* Textures outlive the call: allocating them costs more than a 4K blur
 * takes.  Each grows to the largest of its role seen and goes with the
 * context, and so do the native buffers. */
typedef struct
{
  GLuint        textures[CBLUR_GL_N_TEXTURES];
  CblurGlSize   sizes[CBLUR_GL_N_TEXTURES];
  gint          n_textures;
  GLuint        framebuffer;   /* for glReadPixels where GL < 4.5 */
  CblurGlNative native[2];     /* source, output */
} CblurGlTextures;

/* The context and what lives in it. */
typedef struct
{
  EGLDisplay      display;
  EGLContext      context;
  gchar           renderer[128];
  gboolean        is_software;
  GLint           max_texture_size;
  GLint           max_shared_memory;
  gsize           texture_budget;   /* bytes the textures of one tile may take */
  gboolean        has_texture_sub_image;
  gboolean        has_reset_status;
  GHashTable     *programs;   /* defines -> linked program */
  /* Sticky: a loss or an out-of-memory leaves GL undefined, and the
   * context must go, though not while a band's pixels live in its
   * staging: until then it refuses work. */
  gboolean        failed;
  CblurGlTextures textures;
  CblurGlPool     pool;
} CblurGl;

typedef struct
{
  gint n_x;
  gint n_y;
  gint width;    /* output pixels of every tile but the last in a row */
  gint height;   /* ... in a column */
} CblurGlPlan;

/* A tile's input, its output grown by the reach, its first pixel at x, y
 * absolute.  The input texture holds only its part `inside` (relative to
 * that pixel), from the texture's corner; beyond, the abyss policy makes
 * it.  Where GEGL reads the whole input, inside is all of it. */
typedef struct
{
  gint            x;
  gint            y;
  gint            in_width;
  gint            in_height;
  GeglRectangle   inside;
  GeglAbyssPolicy abyss;
} CblurGlTile;

/* GPU timestamps around each upload, compute and download: pairs of
 * queries, begin and end, per span */
typedef enum
{
  CBLUR_GL_SPAN_UPLOAD,
  CBLUR_GL_SPAN_COMPUTE,
  CBLUR_GL_SPAN_DOWNLOAD,
  CBLUR_GL_N_SPANS
} CblurGlSpan;

typedef struct
{
  GArray *queries[CBLUR_GL_N_SPANS];
} CblurGlStamps;

typedef enum
{
  CBLUR_GL_SHADER_DIRECT,
  CBLUR_GL_SHADER_BOX_SCAN,
  CBLUR_GL_SHADER_BOX,
  CBLUR_GL_SHADER_BOX_FUSED,
  CBLUR_GL_SHADER_ABYSS,
  CBLUR_GL_SHADER_PREMULTIPLY,
  CBLUR_GL_SHADER_DECODE,
  CBLUR_GL_SHADER_ENCODE
} CblurGlShader;

G_GNUC_INTERNAL extern const gchar cblur_shader_direct[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box_scan[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box_fused[];
G_GNUC_INTERNAL extern const gchar cblur_shader_abyss[];
G_GNUC_INTERNAL extern const gchar cblur_shader_premultiply[];
G_GNUC_INTERNAL extern const gchar cblur_shader_decode[];
G_GNUC_INTERNAL extern const gchar cblur_shader_encode[];
G_GNUC_INTERNAL extern const gchar cblur_shader_alpha[];
G_GNUC_INTERNAL extern const gchar cblur_shader_common[];

/* a shader's variant: its column pass; its texels pairs of channels (the
 * fused box); its source in straight alpha, premultiplied as loaded */
typedef enum
{
  CBLUR_GL_VERTICAL    = 1 << 0,
  CBLUR_GL_PAIRS       = 1 << 1,
  CBLUR_GL_PREMULTIPLY = 1 << 2
} CblurGlVariant;

/* box-fused.comp's segment: CACHE_LEN, and whether it goes a pair of
 * channels at a time */
typedef struct
{
  gint     len;
  gboolean pairs;
} CblurGlSegment;

/* direct.comp's outputs per work group, its SEGMENT */
#define CBLUR_GL_DIRECT_SEGMENT 384

/* The passes of one kernel over tiles of one plan: their programs and
 * weights, and the textures they ping-pong through. */
typedef struct
{
  const CblurKernel *kernel;
  const GLuint      *textures;   /* the context's, by CblurGlTexture */
  CblurGlStamps     *stamps;     /* compute spans go here */
  GLuint             programs[2];   /* horizontal, vertical; cached, not owned */
  GLuint             scans[2];      /* the box's running sums, likewise; 0 when fused */
  CblurGlSegment     segments[2];   /* box-fused.comp's, by axis; len 0 for the other shaders */
  GLuint             weights[2];    /* direct's, by axis; 0 for a box axis */
  GLuint             premultiply;   /* for a straight source that the passes cannot premultiply, else 0 */
  GLuint             made;          /* abyss.comp, for a tile with a made line, else 0 */
} CblurGlPasses;

/* cblur-gl-lifetime.c: acquire, with the lock held, makes the context
 * current (or NULL: refused while it has failed and a band's pixels are
 * still in its staging); release lets it go, or destroys it where it has
 * failed and nothing is staged */
G_GNUC_INTERNAL void         cblur_gl_lock             (void);
G_GNUC_INTERNAL void         cblur_gl_unlock           (void);
G_GNUC_INTERNAL CblurGl     *cblur_gl_acquire          (GError           **error);
G_GNUC_INTERNAL void         cblur_gl_release          (void);
/* with the lock held: the staging leased out, current context or not */
G_GNUC_INTERNAL CblurGlPool *cblur_gl_pool             (void);
/* for tests: whether a context exists now */
G_GNUC_INTERNAL gboolean     cblur_gl_holds_context    (void);

/* cblur-gl-context.c */
G_GNUC_INTERNAL gboolean     cblur_gl_context_acquire  (CblurGl      *gl,
                                                        GError      **error);
G_GNUC_INTERNAL void         cblur_gl_context_release  (CblurGl      *gl);
G_GNUC_INTERNAL void         cblur_gl_context_destroy  (CblurGl      *gl);
G_GNUC_INTERNAL gboolean     cblur_gl_context_alive    (const CblurGl *gl);

/* cblur-gl-utils.c: FALSE, with the error, where GL reports one; a loss
 * or an out-of-memory marks gl failed */
G_GNUC_INTERNAL gboolean     cblur_gl_check            (CblurGl      *gl,
                                                        CblurGlStage  stage,
                                                        GError      **error);
G_GNUC_INTERNAL gboolean     cblur_gl_wait             (CblurGl      *gl,
                                                        CblurGlStage  stage,
                                                        GError      **error);
/* until the GPU passes fence, which stays the caller's */
G_GNUC_INTERNAL gboolean     cblur_gl_wait_for         (CblurGl      *gl,
                                                        GLsync        fence,
                                                        CblurGlStage  stage,
                                                        GError      **error);

/* cblur-gl-staging.c */
G_GNUC_INTERNAL CblurGlStaged *cblur_gl_pool_lease     (CblurGl          *gl,
                                                        CblurImage       *source,
                                                        CblurImage       *output,
                                                        GError          **error);
/* current: whether the context is, else the buffers go with it */
G_GNUC_INTERNAL void         cblur_gl_pool_give_back   (CblurGlPool      *pool,
                                                        CblurGlStaged    *staged,
                                                        gboolean          current);
G_GNUC_INTERNAL CblurGlStaged *cblur_gl_pool_find      (const CblurGlPool *pool,
                                                        const CblurImage *source,
                                                        const CblurImage *output);
G_GNUC_INTERNAL gboolean     cblur_gl_pool_is_empty    (const CblurGlPool *pool);
/* the context has gone, and its buffers with it */
G_GNUC_INTERNAL void         cblur_gl_pool_forget_idle (CblurGlPool      *pool);

/* cblur-gl-transfer.c: the first n_textures of at least sizes[i] each */
G_GNUC_INTERNAL gboolean     cblur_gl_textures_reserve (CblurGl           *gl,
                                                        gint               n_textures,
                                                        const CblurGlSize *sizes,
                                                        GError           **error);
/* the smaller of the GPU's and CBLUR_GL_TEXTURE_BUDGET */
G_GNUC_INTERNAL gsize        cblur_gl_texture_budget   (const CblurGl    *gl);
/* piece of job's src (x, y from its first pixel) into the input texture
 * from row tex_y; decoded and premultiplied there where src is in a
 * cblur-format */
G_GNUC_INTERNAL void         cblur_gl_upload           (CblurGl             *gl,
                                                        const CblurGlJob    *job,
                                                        const GeglRectangle *piece,
                                                        gint                 tex_y);
/* result's rows from tex_y into piece of job's dst, in dst's format
 * (encoded where it is a cblur-format); after the shaders' image stores
 * are made visible (cblur_gl_download_barrier) */
G_GNUC_INTERNAL void         cblur_gl_download         (CblurGl             *gl,
                                                        const CblurGlJob    *job,
                                                        GLuint               result,
                                                        const GeglRectangle *piece,
                                                        gint                 tex_y);
G_GNUC_INTERNAL void         cblur_gl_download_barrier (void);
G_GNUC_INTERNAL void         cblur_gl_stamps_init      (CblurGlStamps    *stamps);
G_GNUC_INTERNAL void         cblur_gl_stamp            (CblurGlStamps    *stamps,
                                                        CblurGlSpan       span);
/* report, where the GPU is done, gets the spans' sums; NULL drops them */
G_GNUC_INTERNAL void         cblur_gl_stamps_clear     (CblurGlStamps    *stamps,
                                                        CblurGlReport    *report);

/* cblur-gl-convert.c: for src and dst where they are in a cblur-format,
 * dst's tiles of at most out_rows rows split into columns (else 0) */
G_GNUC_INTERNAL gboolean     cblur_gl_convert_prepare  (CblurGl             *gl,
                                                        const CblurImage    *src,
                                                        const CblurImage    *dst,
                                                        gint                 out_rows,
                                                        GError             **error);
/* cblur_gl_upload's work for a source in a cblur-format (up, into
 * texture) and cblur_gl_download's for an output in one (from texture):
 * piece is the image's rectangle (x, y from its first pixel), which is
 * texture's from row tex_y */
G_GNUC_INTERNAL void         cblur_gl_transfer_native  (CblurGl             *gl,
                                                        const CblurGlJob    *job,
                                                        gboolean             up,
                                                        GLuint               texture,
                                                        const GeglRectangle *piece,
                                                        gint                 tex_y);

/* cblur-gl-program.c */
G_GNUC_INTERNAL GLuint       cblur_gl_program          (CblurGl       *gl,
                                                        CblurGlShader  shader,
                                                        CblurGlVariant variant,
                                                        gint           cache_len,
                                                        GError       **error);

/* cblur-gl-tiles.c */
G_GNUC_INTERNAL void         cblur_gl_plan_tiles       (gint          width,
                                                        gint          height,
                                                        gint          reach,
                                                        gint          max_edge,
                                                        gsize         max_texels,
                                                        CblurGlPlan  *plan);
/* the plan for dst on this GPU */
G_GNUC_INTERNAL gboolean     cblur_gl_plan             (CblurGl           *gl,
                                                        const CblurKernel *kernel,
                                                        const CblurImage  *dst,
                                                        CblurGlPlan       *plan,
                                                        GError           **error);
/* The plan's tiles for dst, largest first, whose input is read from src:
 * all of it, or only the band's part inside the image, beyond which
 * `abyss` makes the rest, each tile's from its own part of src where
 * cblur_gl_tiles_make_abyss() says it can. */
G_GNUC_INTERNAL GArray      *cblur_gl_tiles_new        (const CblurGlPlan   *plan,
                                                        gint                 reach,
                                                        const CblurImage    *src,
                                                        GeglAbyssPolicy      abyss,
                                                        const CblurImage    *dst);
G_GNUC_INTERNAL gboolean     cblur_gl_tiles_make_abyss (const GArray        *tiles,
                                                        const CblurImage    *src);
/* job's src is read as cblur_gl_tiles_new() read it */
G_GNUC_INTERNAL gboolean     cblur_gl_blur_tiles       (CblurGl             *gl,
                                                        const CblurGlPasses *passes,
                                                        const GArray        *tiles,
                                                        const CblurGlJob    *job,
                                                        GError             **error);

/* cblur-gl-band.c: one tile, streamed: run reads the tile's input, or its
 * part inside the image, from job's src */
G_GNUC_INTERNAL gboolean     cblur_gl_blur_streamed    (CblurGl             *gl,
                                                        const CblurGlPasses *passes,
                                                        const CblurGlJob    *job,
                                                        CblurStreamRun      *run,
                                                        const CblurGlTile   *tile,
                                                        GError             **error);

/* cblur-gl-segments.c: box-fused.comp's segment that makes n_out outputs
 * of a line for the least work, in at least min_segments where it can;
 * len 0 where none leaves enough outputs beside its halo */
G_GNUC_INTERNAL CblurGlSegment cblur_gl_fused_segment  (const CblurGl     *gl,
                                                        const CblurKernelAxis *kernel,
                                                        gint               n_out,
                                                        gint               min_segments);
/* direct.comp's CACHE_LEN */
G_GNUC_INTERNAL gint         cblur_gl_direct_cache_len (const CblurGl     *gl,
                                                        const CblurKernelAxis *kernel);

/* cblur-gl-passes.c */
G_GNUC_INTERNAL gint         cblur_gl_passes_textures  (const CblurGl     *gl,
                                                        const CblurKernel *kernel);
/* for the tiles (cblur_gl_tiles_new()'s, largest first), with the
 * context's textures made ready for them; straight: their input in
 * straight alpha, which the passes premultiply */
G_GNUC_INTERNAL gboolean     cblur_gl_passes_init      (CblurGl           *gl,
                                                        const CblurKernel *kernel,
                                                        const GArray      *tiles,
                                                        gboolean           straight,
                                                        CblurGlStamps     *stamps,
                                                        CblurGlPasses     *passes,
                                                        GError           **error);
/* The passes go in bands of this many output rows, any number of input
 * rows at a time; 0 where they go only whole (where an axis runs the
 * two-shader box). */
G_GNUC_INTERNAL gint         cblur_gl_passes_band      (const CblurGlPasses *passes);
/* horizontal, over rows [first_row, first_row + n_rows) of the input
 * texture: the tile's rows inside the image, from its first */
G_GNUC_INTERNAL void         cblur_gl_passes_rows      (const CblurGlPasses *passes,
                                                        const CblurGlTile   *tile,
                                                        gint                 first_row,
                                                        gint                 n_rows);
/* vertical, for output rows [first_out, first_out + n_out), first_out a
 * multiple of the band, once the rows they need have had their
 * horizontal passes; returns the texture they are in */
G_GNUC_INTERNAL GLuint       cblur_gl_passes_columns   (const CblurGlPasses *passes,
                                                        const CblurGlTile   *tile,
                                                        gint                 first_out,
                                                        gint                 n_out);
/* the made column and row of the tile's input texture, where the abyss
 * has a colour and lies in the tile, and the horizontal passes of that
 * row where the passes go in bands: before the tile's other passes */
G_GNUC_INTERNAL void         cblur_gl_passes_made      (const CblurGlPasses *passes,
                                                        const CblurGlTile   *tile);
/* both, whole, but for cblur_gl_passes_made's; returns the texture that
 * holds the output */
G_GNUC_INTERNAL GLuint       cblur_gl_passes_run       (const CblurGlPasses *passes,
                                                        const CblurGlTile   *tile);
G_GNUC_INTERNAL void         cblur_gl_passes_clear     (CblurGlPasses     *passes);

G_END_DECLS

#endif
