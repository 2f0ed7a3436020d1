/* What the files of the GL backend share; outside cblur-gl*.c only the
 * tiling test includes it, for the tile plan.  Every function that touches
 * GL runs with cblur-gl.c's lock held and the context current. */
#ifndef CBLUR_GL_PRIVATE_H
#define CBLUR_GL_PRIVATE_H

#include <epoxy/gl.h>

#include "cblur-gl.h"
#include "cblur-pixel.h"
#include "cblur-settings.h"

G_BEGIN_DECLS

/* CBLUR_GL_FAULT: the failure point a test makes fail */
typedef enum
{
  CBLUR_GL_FAULT_NONE,
  CBLUR_GL_FAULT_CONTEXT,
  CBLUR_GL_FAULT_COMPILE,
  CBLUR_GL_FAULT_ALLOC,
  CBLUR_GL_FAULT_DISPATCH,
  CBLUR_GL_FAULT_LOST
} CblurGlFault;

/* where glGetError is checked, which decides the fault that fires there */
typedef enum
{
  CBLUR_GL_STAGE_ALLOC,
  CBLUR_GL_STAGE_UPLOAD,
  CBLUR_GL_STAGE_DISPATCH,
  CBLUR_GL_STAGE_DOWNLOAD
} CblurGlStage;

typedef struct
{
  gchar       renderer[128];
  gboolean    is_software;
  GLint       max_texture_size;
  GLint       max_shared_memory;
  gsize       texture_budget;   /* bytes the textures of one tile may take */
  gboolean    has_texture_sub_image;
  gboolean    has_reset_status;
  GHashTable *programs;   /* defines -> linked program */
} CblurGl;

/* a pixel buffer mapped for its whole life */
typedef struct
{
  GLuint   buffer;
  gsize    size;
  gpointer mapping;
} CblurGlStaging;

typedef struct
{
  gint n_x;
  gint n_y;
  gint width;    /* output pixels of every tile but the last in a row */
  gint height;   /* ... in a column */
} CblurGlPlan;

typedef enum
{
  CBLUR_GL_SHADER_DIRECT,
  CBLUR_GL_SHADER_BOX_SCAN,
  CBLUR_GL_SHADER_BOX,
  CBLUR_GL_SHADER_BOX_FUSED,
  CBLUR_GL_SHADER_ABYSS,
  CBLUR_GL_SHADER_PREMULTIPLY
} CblurGlShader;

G_GNUC_INTERNAL extern const gchar cblur_shader_direct[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box_scan[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box_fused[];
G_GNUC_INTERNAL extern const gchar cblur_shader_abyss[];
G_GNUC_INTERNAL extern const gchar cblur_shader_premultiply[];
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

/* cblur-gl-context.c */
G_GNUC_INTERNAL CblurGlFault cblur_gl_fault            (void);
G_GNUC_INTERNAL CblurGl     *cblur_gl_context_acquire  (GError      **error);
G_GNUC_INTERNAL void         cblur_gl_context_release  (void);
G_GNUC_INTERNAL void         cblur_gl_context_destroy  (void);
G_GNUC_INTERNAL gboolean     cblur_gl_context_alive    (void);
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

/* cblur-gl.c, for tests: whether a context exists now */
G_GNUC_INTERNAL gboolean     cblur_gl_holds_context    (void);

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
G_GNUC_INTERNAL void         cblur_gl_staging_reserve  (CblurGlStaging *staging,
                                                        gsize           size);
G_GNUC_INTERNAL void         cblur_gl_staging_clear    (CblurGlStaging *staging);

/* box-fused.comp's segment: CACHE_LEN, and whether it goes a pair of
 * channels at a time */
typedef struct
{
  gint     len;
  gboolean pairs;
} CblurGlSegment;

/* cblur-gl-passes.c: the programs and weights of a kernel */
typedef struct
{
  GLuint programs[2];   /* horizontal, vertical; cached, not owned */
  GLuint scans[2];      /* the box's running sums, likewise; 0 when fused */
  CblurGlSegment segments[2];   /* box-fused.comp's, by axis; len 0 for the other shaders */
  GLuint weights;
  GLuint premultiply;   /* for a straight source that the passes cannot premultiply, else 0 */
} CblurGlPasses;

/* a tile's input in textures[0]; its first pixel at x, y absolute */
typedef struct
{
  gint x;
  gint y;
  gint in_width;
  gint in_height;
} CblurGlTile;

G_GNUC_INTERNAL gint         cblur_gl_passes_textures  (const CblurGl     *gl,
                                                        const CblurKernel *kernel);
/* for tiles of at most out_width × out_height outputs; straight: their
 * input in straight alpha, which the passes premultiply */
G_GNUC_INTERNAL gboolean     cblur_gl_passes_init      (CblurGl           *gl,
                                                        const CblurKernel *kernel,
                                                        gint               out_width,
                                                        gint               out_height,
                                                        gboolean           straight,
                                                        CblurGlPasses     *passes,
                                                        GError           **error);
/* The passes go in bands of this many output rows, any number of input
 * rows at a time; 0 where they go only whole. */
G_GNUC_INTERNAL gint         cblur_gl_passes_band      (const CblurKernel   *kernel,
                                                        const CblurGlPasses *passes);
/* horizontal, over input rows [first_row, first_row + n_rows) */
G_GNUC_INTERNAL void         cblur_gl_passes_rows      (const CblurKernel   *kernel,
                                                        const CblurGlPasses *passes,
                                                        const GLuint        *textures,
                                                        const CblurGlTile   *tile,
                                                        gint                 first_row,
                                                        gint                 n_rows);
/* vertical, for output rows [first_out, first_out + n_out), first_out a
 * multiple of the band, once the rows they need have had their
 * horizontal passes; returns the texture they are in */
G_GNUC_INTERNAL GLuint       cblur_gl_passes_columns   (const CblurKernel   *kernel,
                                                        const CblurGlPasses *passes,
                                                        const GLuint        *textures,
                                                        const CblurGlTile   *tile,
                                                        gint                 first_out,
                                                        gint                 n_out);
/* both, whole; returns the texture that holds the output */
G_GNUC_INTERNAL GLuint       cblur_gl_passes_run       (const CblurKernel   *kernel,
                                                        const CblurGlPasses *passes,
                                                        const GLuint        *textures,
                                                        const CblurGlTile   *tile);
G_GNUC_INTERNAL void         cblur_gl_passes_clear     (CblurGlPasses     *passes);
G_GNUC_INTERNAL gboolean     cblur_gl_fill_abyss       (CblurGl              *gl,
                                                        GLuint                texture,
                                                        gint                  width,
                                                        gint                  height,
                                                        gint                  first_row,
                                                        gint                  n_rows,
                                                        const GeglRectangle  *inside,
                                                        GeglAbyssPolicy       policy,
                                                        GError              **error);
G_END_DECLS

#endif
