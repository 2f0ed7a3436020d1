/* What the blur's GL files share; outside cblur-gl*.c only the GL tests
 * include it.  They sit on the GPU runtime (cblur-gpu.h), top down:
 *
 *   cblur-gl-runtime.c   the runtime as the module runs it: its settings, its end
 *   cblur-gl-blur.c      the entry points (cblur-gl.h), and cblur-gl-pinned.h
 *   cblur-gl-tiles.c     cutting a band into tiles, and blurring them
 *   cblur-gl-stream.c    one tile streamed as GEGL reads and writes it
 *   cblur-gl-passes.c    the compute passes of a tile, and its made abyss
 *   cblur-gl-box.[ch]    the two-dispatch box's passes
 *   cblur-gl-segments.c  how long a line's segment each work group takes
 *   cblur-gl-textures.c  the textures a tile goes through, which stay with the context
 *   cblur-gl-transfer.c  a tile's uploads and downloads, and their GPU time
 *   cblur-gl-convert.c   pixels in GEGL's formats, converted on the GPU
 *   cblur-gl-shaders.c   the blur's shaders as the runtime's programs
 *   cblur-gl-variable*.c the variable blur (cblur-gl-variable.h) on the same tiles,
 *                        textures and conversions
 *   cblur-gl-combine.c   blurs joined with their source, on the same tiles
 *
 * Every function here runs on the runtime's thread with its context
 * current: in a task (cblur_gpu_run()) or a warm-up. */
#ifndef CBLUR_GL_INTERNAL_H
#define CBLUR_GL_INTERNAL_H

#include "cblur-gl.h"
#include "cblur-gpu.h"
#include "cblur-pixel.h"
#include "cblur-settings.h"

G_BEGIN_DECLS

#define CBLUR_GL_TEXEL_BYTES (CBLUR_CHANNELS * sizeof (gfloat))

/* a band's source and output in pinned host memory */
struct _CblurGlBandMemory
{
  CblurGpuPinned *source;
  CblurGpuPinned *output;
  gint            tiles;    /* of its plan */
};

/* One blur's source and output, their pixels in the band's memory: what
 * its uploads read and its downloads write. */
typedef struct
{
  const CblurGlBandMemory *memory;
  const CblurImage        *src;
  const CblurImage        *dst;
} CblurGlJob;

/* One side of a tile in a cblur-format (the source's or the output's):
 * the program and cblur-format's tables that convert its pixels as
 * stored, and for an output whose tiles split rows, a buffer that holds
 * them laid out as its pinned memory (the source's is read from there). */
typedef struct
{
  guint             buffer;
  gsize              size;
  guint             tables;
  const CblurFormat *format;    /* whose tables these are */
  CblurGpuProgram   *program;   /* decode.comp or encode.comp */
} CblurGlNative;

/* The textures a tile goes through, by role.  The input holds the part of the
 * tile's input inside the image, and the made column and row after it that
 * common.glsl's map reads as the abyss's colour; the horizontal passes write
 * the texture between, the input's lines the output's width, and the vertical
 * ones the output.  The two-dispatch box goes through four more along each
 * axis: ping, pong, and the prefix and suffix sums. */
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
  CblurGpuTexture textures[CBLUR_GL_N_TEXTURES];
  gint            n_textures;
  CblurGlNative   native[2];     /* source, output */
} CblurGlTextures;

/* The blur's view of the context for one call. */
typedef struct
{
  CblurGpu             *gpu;
  const CblurGpuLimits *limits;
  CblurGlTextures      *textures;
  gboolean              no_wait;   /* CblurGlSource's: no compile waited for */
  /* the first uses' (cblur-gl-variants.c): every box axis on the
   * two-shader box (else only reaches beyond the fused box's); no better
   * programs queued (cblur_gl_program_better) */
  gboolean              two_shader;
  gboolean              settled;
  /* the limits, as the tests may lower them: a tile's edge, the
   * textures' bytes, a work group's shared bytes */
  gint                  max_tile;
  gsize                 texture_budget;
  gint                  shared_memory;
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
  CblurGpuTimer *timers[CBLUR_GL_N_SPANS];
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
  CBLUR_GL_SHADER_ENCODE,
  CBLUR_GL_SHADER_VARIABLE,
  CBLUR_GL_SHADER_COMBINE,
  CBLUR_GL_SHADER_LEVEL_REDUCE,
  CBLUR_GL_SHADER_LEVEL_BLEND
} CblurGlShader;

/* a shader's variant: its column pass; its texels pairs of channels (the
 * fused box); its source in straight alpha, premultiplied as loaded; the
 * running sums rather than the outputs, and boxes looked up by a byte a
 * pixel (variable.comp); the unsharp mask with its threshold mask
 * (combine.comp) */
typedef enum
{
  CBLUR_GL_VERTICAL    = 1 << 0,
  CBLUR_GL_PAIRS       = 1 << 1,
  CBLUR_GL_PREMULTIPLY = 1 << 2,
  CBLUR_GL_SCAN        = 1 << 3,
  CBLUR_GL_CODES       = 1 << 4,
  CBLUR_GL_THRESHOLD   = 1 << 5
} CblurGlVariant;

/* box-fused.comp's segment: CACHE_LEN, and whether it goes a pair of
 * channels at a time */
typedef struct
{
  gint     len;
  gboolean pairs;
} CblurGlSegment;

/* the most segment lengths box-fused.comp has: each is a program */
#define CBLUR_GL_MAX_LENGTHS 8

/* direct.comp's cache that serves every reach, in halves of a segment
 * where the window is longer: twice the fewest */
#define CBLUR_GL_DIRECT_ANY_CACHE 1024

/* direct.comp's outputs per work group, its SEGMENT */
#define CBLUR_GL_DIRECT_SEGMENT 384

/* The passes of one kernel over tiles of one plan: their programs and
 * weights, and the textures they ping-pong through. */
typedef struct
{
  const CblurKernel     *kernel;
  const CblurGpuTexture *textures;      /* the context's, by CblurGlTexture */
  CblurGlStamps         *stamps;        /* compute spans go here */
  CblurGpuProgram       *programs[2];   /* horizontal, vertical; cached, not owned */
  CblurGpuProgram       *scans[2];      /* the box's running sums, likewise; NULL when fused */
  CblurGlSegment         segments[2];   /* box-fused.comp's, by axis; len 0 for the other shaders */
  guint                  weights[2];    /* direct's, by axis; 0 for a box axis */
  CblurGpuProgram       *premultiply;   /* for a straight source that the passes cannot premultiply */
  CblurGpuProgram       *made;          /* abyss.comp, for a tile with a made line */
  gboolean               upgrading;     /* a better program compiles meanwhile */
} CblurGlPasses;

/* cblur-gl-textures.c: the call's view of the context and its textures;
 * report, if not NULL, names its renderer and largest texture */
G_GNUC_INTERNAL void         cblur_gl_view             (CblurGpu          *gpu,
                                                        CblurGl           *gl,
                                                        CblurGlReport     *report);
/* the first n_textures of at least sizes[i] each */
G_GNUC_INTERNAL gboolean     cblur_gl_textures_reserve (CblurGl           *gl,
                                                        gint               n_textures,
                                                        const CblurGlSize *sizes,
                                                        GError           **error);
/* textures for every tile of tiles (cblur_gl_tiles_new()'s); whether any
 * has a made line */
G_GNUC_INTERNAL gboolean     cblur_gl_textures_fit     (const CblurKernel *kernel,
                                                        const GArray      *tiles,
                                                        CblurGlSize        sizes[CBLUR_GL_N_TEXTURES]);
/* the made column and row after the inside: 1 where the tile has them */
G_GNUC_INTERNAL gint         cblur_gl_made_lines       (const CblurGlTile *tile);
/* the rows of the input texture that the horizontal passes go over */
G_GNUC_INTERNAL gint         cblur_gl_input_rows       (const CblurGlTile *tile);

/* cblur-gl-transfer.c */
/* part of job's src (x, y from its first pixel) into the input texture from
 * row tex_y; decoded and premultiplied there where src is in a cblur-format */
G_GNUC_INTERNAL void         cblur_gl_upload           (CblurGl             *gl,
                                                        const CblurGlJob    *job,
                                                        const GeglRectangle *part,
                                                        gint                 tex_y);
/* result's rows from tex_y into part of job's dst, in dst's format
 * (encoded where it is a cblur-format); after the shaders' image stores
 * are made visible (cblur_gl_download_barrier) */
G_GNUC_INTERNAL void         cblur_gl_download         (CblurGl             *gl,
                                                        const CblurGlJob    *job,
                                                        const CblurGpuTexture *result,
                                                        const GeglRectangle *part,
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
/* cblur_gl_upload's work for a source in a cblur-format (up, into texture) and
 * cblur_gl_download's for an output in one (from texture): part is the image's
 * rectangle (x, y from its first pixel), which is texture's from row tex_y */
G_GNUC_INTERNAL void         cblur_gl_transfer_native  (CblurGl             *gl,
                                                        const CblurGlJob    *job,
                                                        gboolean             up,
                                                        const CblurGpuTexture *texture,
                                                        const GeglRectangle *part,
                                                        gint                 tex_y);

/* cblur-gl-shaders.c: the shader's program for the variant */
G_GNUC_INTERNAL CblurGpuProgram *cblur_gl_program (CblurGl         *gl,
                                                  CblurGlShader    shader,
                                                  CblurGlVariant   variant,
                                                  gint             cache_len,
                                                  GError         **error);
/* or that of better_variant and better_len where it is linked and ready
 * here (*better); else that compiles as the tasks pause (0: none) */
G_GNUC_INTERNAL CblurGpuProgram *cblur_gl_program_better (CblurGl        *gl,
                                                         CblurGlShader   shader,
                                                         CblurGlVariant  variant,
                                                         gint            cache_len,
                                                         CblurGlVariant  better_variant,
                                                         gint            better_len,
                                                         gboolean       *better,
                                                         GError        **error);
/* the same program compiled on the runtime's thread, for a later blur */
G_GNUC_INTERNAL void         cblur_gl_program_prepare  (CblurGl         *gl,
                                                        CblurGlShader    shader,
                                                        CblurGlVariant   variant,
                                                        gint             cache_len);

/* cblur-gl-tiles.c */
G_GNUC_INTERNAL void         cblur_gl_plan_tiles       (gint          width,
                                                        gint          height,
                                                        gint          reach,
                                                        gint          max_edge,
                                                        gsize         max_texels,
                                                        CblurGlPlan  *plan);
/* the plan for dst on this GPU, for a blur of that reach whose passes
 * hold n_textures textures of a tile's size */
G_GNUC_INTERNAL gboolean     cblur_gl_plan             (CblurGl           *gl,
                                                        gint               reach,
                                                        gint               n_textures,
                                                        const CblurImage  *dst,
                                                        CblurGlPlan       *plan,
                                                        GError           **error);
/* whether src holds all of dst grown by reach, not only its part inside */
G_GNUC_INTERNAL gboolean     cblur_gl_holds_grown      (const CblurImage    *src,
                                                        const CblurImage    *dst,
                                                        gint                 reach);
/* The plan's tiles for dst, largest first, whose input is read from src:
 * all of it, or only the band's part inside the image, beyond which
 * `abyss` makes the rest, each tile's from its own part of src where
 * cblur_gl_tiles_can_make_abyss() says so. */
G_GNUC_INTERNAL GArray      *cblur_gl_tiles_new        (const CblurGlPlan   *plan,
                                                        gint                 reach,
                                                        const CblurImage    *src,
                                                        GeglAbyssPolicy      abyss,
                                                        const CblurImage    *dst);
G_GNUC_INTERNAL gboolean     cblur_gl_tiles_can_make_abyss (const GArray    *tiles,
                                                            const CblurImage *src,
                                                            GError          **error);
/* A blur's passes over one tile whose input texture holds the tile's
 * inside: the texture that holds the tile's output. */
typedef const CblurGpuTexture *(*CblurGlTilePasses) (gconstpointer      passes,
                                                     const CblurGlTile *tile);
/* each tile up, through run's passes and down, the upload and download
 * stamped; job's src is read as cblur_gl_tiles_new() read it */
G_GNUC_INTERNAL gboolean     cblur_gl_tiles_run        (CblurGl            *gl,
                                                        const GArray       *tiles,
                                                        gint                reach,
                                                        const CblurGlJob   *job,
                                                        CblurGlTilePasses   run,
                                                        gconstpointer       passes,
                                                        CblurGlStamps      *stamps,
                                                        GError            **error);

/* cblur-gl-runtime.c, thread-safe: cblur_gpu_run() as the module runs it */
G_GNUC_INTERNAL gboolean     cblur_gl_run              (CblurGpuTask         task,
                                                        gpointer             data,
                                                        GError             **error);

/* cblur-gl-blur.c: src and dst, anywhere in memory, blurred through pinned
 * memory of the call's own, as cblur_gl_blur() without band memory does */
G_GNUC_INTERNAL gboolean     cblur_gl_blur_copied      (CblurGl             *gl,
                                                        const CblurKernel   *kernel,
                                                        const CblurGlSource *source,
                                                        const CblurImage    *src,
                                                        const CblurImage    *dst,
                                                        CblurGlReport       *report,
                                                        GError             **error);

/* cblur-gl-blur.c: a blur of a band as cblur_band_memory_new() makes it for
 * band_io's reads, source (the output grown by the reach) and output without
 * pixels, which it points at pinned memory of their own; what that takes stays
 * for the next band of the same geometry, its pixels of no use */
G_GNUC_INTERNAL gboolean     cblur_gl_rehearse         (CblurGl             *gl,
                                                        const CblurKernel   *kernel,
                                                        const CblurBandIo   *band_io,
                                                        CblurImage          *source,
                                                        CblurImage          *output,
                                                        GError             **error);

/* cblur-gl-expected.c: a blur served by programs that serve every radius
 * while better ones compile, for the upgrades' first uses to rehearse;
 * and the blur to rehearse, forgotten, as cblur_gl_rehearse() takes it
 * (NULL where there is none) */
G_GNUC_INTERNAL void         cblur_gl_expect_upgrade   (const CblurKernel   *kernel,
                                                        const CblurGlSource *source,
                                                        const CblurImage    *src,
                                                        const CblurImage    *dst);
G_GNUC_INTERNAL CblurKernel *cblur_gl_expected_take    (CblurBandIo         *band_io,
                                                        CblurImage          *src,
                                                        CblurImage          *dst);
/* cblur-gl-combine.c: the first uses' join, which dispatches
 * combine.comp once; and the rehearsal of the largest join expected
 * (cblur_gl_combine_expect), forgotten once run */
G_GNUC_INTERNAL void         cblur_gl_combine_first_use (CblurGl            *gl);
G_GNUC_INTERNAL void         cblur_gl_combine_rehearse_expected (CblurGl    *gl);
/* cblur-gl-variants.c: the programs that blurs take at every radius and
 * size, queued for the runtime's thread where not linked yet */
G_GNUC_INTERNAL void         cblur_gl_prepare_blurs    (CblurGl             *gl,
                                                        CblurGlBlurs         blurs);
/* cblur-gl-variants.c: the blurs the starts so far asked for
 * (cblur_gl_start), all where none did */
G_GNUC_INTERNAL CblurGlBlurs cblur_gl_started_blurs    (void);
/* cblur-gl-runtime.c, thread-safe: the runtime configured as the module
 * runs it, once */
G_GNUC_INTERNAL void         cblur_gl_runtime_init     (void);

/* cblur-gl-segments.c: box-fused.comp's segment that makes n_out outputs
 * of a line for the least work, in at least min_segments where it can;
 * where `any`, the longest, which serves every reach; len 0 where none
 * leaves enough outputs beside its halo */
G_GNUC_INTERNAL CblurGlSegment cblur_gl_fused_segment  (const CblurGl         *gl,
                                                        const CblurKernelAxis *kernel,
                                                        gint                   n_out,
                                                        gint                   min_segments,
                                                        gboolean               any);
/* direct.comp's CACHE_LEN; where `any`, CBLUR_GL_DIRECT_ANY_CACHE */
G_GNUC_INTERNAL gint         cblur_gl_direct_cache_len (const CblurGl         *gl,
                                                        const CblurKernelAxis *kernel,
                                                        gboolean               any);
/* every segment cblur_gl_fused_segment() may give on gl's GPU, at most
 * CBLUR_GL_MAX_LENGTHS, shortest first, into lengths; how many */
G_GNUC_INTERNAL gint         cblur_gl_fused_lengths    (const CblurGl         *gl,
                                                        CblurGlSegment        *lengths);

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
/* The vertical passes go in stripes of this many output rows, the
 * horizontal ones any number of input rows at a time; 0 where they go
 * only whole (where an axis runs the two-shader box). */
G_GNUC_INTERNAL gint         cblur_gl_passes_stripe    (const CblurGlPasses *passes);
/* horizontal, over rows [first_row, first_row + n_rows) of the input
 * texture: the tile's rows inside the image, from its first */
G_GNUC_INTERNAL void         cblur_gl_passes_rows      (const CblurGlPasses *passes,
                                                        const CblurGlTile   *tile,
                                                        gint                 first_row,
                                                        gint                 n_rows);
/* vertical, for output rows [first_out, first_out + n_out), first_out a
 * multiple of the stripe, once the rows they need have had their
 * horizontal passes; returns the texture they are in */
G_GNUC_INTERNAL const CblurGpuTexture *cblur_gl_passes_columns   (const CblurGlPasses *passes,
                                                        const CblurGlTile   *tile,
                                                        gint                 first_out,
                                                        gint                 n_out);
/* the made column and row of the tile's input texture, where the abyss
 * has a colour and lies in the tile, and the horizontal passes of that
 * row where the passes go in stripes: before the tile's other passes */
G_GNUC_INTERNAL void         cblur_gl_passes_made      (const CblurGlPasses *passes,
                                                        const CblurGlTile   *tile);
/* both, whole, but for cblur_gl_passes_made's; returns the output's texture */
G_GNUC_INTERNAL const CblurGpuTexture *cblur_gl_passes_run (const CblurGlPasses *passes,
                                                            const CblurGlTile   *tile);
G_GNUC_INTERNAL void         cblur_gl_passes_clear     (CblurGlPasses     *passes);

G_END_DECLS

#endif
