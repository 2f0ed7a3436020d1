/* The blur's shaders as the runtime's programs: each variant's defines,
 * and the pixel rules, alpha.glsl, common.glsl and srgb.glsl that every
 * shader shares. */
#include "cblur-gl-internal.h"

/* the shaders' sources, embedded at build time */
G_GNUC_INTERNAL extern const gchar cblur_shader_direct[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box_scan[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box[];
G_GNUC_INTERNAL extern const gchar cblur_shader_box_fused[];
G_GNUC_INTERNAL extern const gchar cblur_shader_abyss[];
G_GNUC_INTERNAL extern const gchar cblur_shader_premultiply[];
G_GNUC_INTERNAL extern const gchar cblur_shader_decode[];
G_GNUC_INTERNAL extern const gchar cblur_shader_encode[];
G_GNUC_INTERNAL extern const gchar cblur_shader_variable[];
G_GNUC_INTERNAL extern const gchar cblur_shader_combine[];
G_GNUC_INTERNAL extern const gchar cblur_shader_level_reduce[];
G_GNUC_INTERNAL extern const gchar cblur_shader_level_blend[];
G_GNUC_INTERNAL extern const gchar cblur_shader_alpha[];
G_GNUC_INTERNAL extern const gchar cblur_shader_common[];
G_GNUC_INTERNAL extern const gchar cblur_shader_srgb[];

/* The pixel rules' constants (cblur-pixel.h) as the shaders' defines, in
 * the C locale's digits, which hold the alpha floor exactly, then the
 * shared GLSL. */
static const gchar *
prelude (void)
{
  static gsize  once = 0;
  static gchar *text = NULL;

  if (g_once_init_enter (&once))
    {
      gchar floor_text[G_ASCII_DTOSTR_BUF_SIZE];

      text = g_strdup_printf ("#define CBLUR_ALPHA_FLOOR %s\n"
                              "#define CBLUR_ABYSS_CLAMP %d\n"
                              "#define CBLUR_ABYSS_LOOP %d\n%s%s%s",
                              g_ascii_dtostr (floor_text, sizeof floor_text, CBLUR_ALPHA_FLOOR),
                              GEGL_ABYSS_CLAMP, GEGL_ABYSS_LOOP, cblur_shader_alpha,
                              cblur_shader_common, cblur_shader_srgb);
      g_once_init_leave (&once, 1);
    }
  return text;
}

static const gchar *const names[] = {
  [CBLUR_GL_SHADER_DIRECT]      = "direct",
  [CBLUR_GL_SHADER_BOX_SCAN]    = "box-scan",
  [CBLUR_GL_SHADER_BOX]         = "box",
  [CBLUR_GL_SHADER_BOX_FUSED]   = "box-fused",
  [CBLUR_GL_SHADER_ABYSS]       = "abyss",
  [CBLUR_GL_SHADER_PREMULTIPLY] = "premultiply",
  [CBLUR_GL_SHADER_DECODE]      = "decode",
  [CBLUR_GL_SHADER_ENCODE]      = "encode",
  [CBLUR_GL_SHADER_VARIABLE]    = "variable",
  [CBLUR_GL_SHADER_COMBINE]     = "combine",
  [CBLUR_GL_SHADER_LEVEL_REDUCE] = "level-reduce",
  [CBLUR_GL_SHADER_LEVEL_BLEND] = "level-blend",
};

static const gchar *const *
sources (void)
{
  static const gchar *const table[] = {
    [CBLUR_GL_SHADER_DIRECT]      = cblur_shader_direct,
    [CBLUR_GL_SHADER_BOX_SCAN]    = cblur_shader_box_scan,
    [CBLUR_GL_SHADER_BOX]         = cblur_shader_box,
    [CBLUR_GL_SHADER_BOX_FUSED]   = cblur_shader_box_fused,
    [CBLUR_GL_SHADER_ABYSS]       = cblur_shader_abyss,
    [CBLUR_GL_SHADER_PREMULTIPLY] = cblur_shader_premultiply,
    [CBLUR_GL_SHADER_DECODE]      = cblur_shader_decode,
    [CBLUR_GL_SHADER_ENCODE]      = cblur_shader_encode,
    [CBLUR_GL_SHADER_VARIABLE]    = cblur_shader_variable,
    [CBLUR_GL_SHADER_COMBINE]     = cblur_shader_combine,
    [CBLUR_GL_SHADER_LEVEL_REDUCE] = cblur_shader_level_reduce,
    [CBLUR_GL_SHADER_LEVEL_BLEND] = cblur_shader_level_blend,
  };

  return table;
}

/* cache_len: the shared texels of the direct and fused box shaders; 0 for
 * the others. */
static gchar *
defines_for (CblurGlVariant variant,
             gint           cache_len)
{
  GString *defines = g_string_new (NULL);

  if (variant & CBLUR_GL_VERTICAL)
    g_string_append (defines, "#define VERTICAL\n");
  if (cache_len > 0)
    g_string_append_printf (defines, "#define CACHE_LEN %d\n", cache_len);
  if (variant & CBLUR_GL_PAIRS)
    g_string_append (defines, "#define PAIRS\n");
  if (variant & CBLUR_GL_PREMULTIPLY)
    g_string_append (defines, "#define PREMULTIPLY\n");
  if (variant & CBLUR_GL_SCAN)
    g_string_append (defines, "#define SCAN\n");
  if (variant & CBLUR_GL_CODES)
    g_string_append (defines, "#define CODES\n");
  if (variant & CBLUR_GL_THRESHOLD)
    g_string_append (defines, "#define THRESHOLD\n");
  return g_string_free (defines, FALSE);
}

/* Where the blur does not wait (gl->no_wait), a program still compiling
 * fails the blur with CBLUR_GL_ERROR_NOT_READY, and the CPU blurs. */
CblurGpuProgram *
cblur_gl_program_better (CblurGl         *gl,
                         CblurGlShader    shader,
                         CblurGlVariant   variant,
                         gint             cache_len,
                         CblurGlVariant   better_variant,
                         gint             better_len,
                         gboolean        *better,
                         GError         **error)
{
  g_autofree gchar *defines = defines_for (variant, cache_len);
  g_autofree gchar *better_defines = better_len > 0 ? defines_for (better_variant, better_len)
                                                    : NULL;
  const gchar      *name = names[shader];
  const gchar      *source = sources ()[shader];
  CblurGpuProgram  *program = NULL;

  if (better_defines != NULL)
    program = cblur_gpu_program_linked (gl->gpu, name, source, better_defines, prelude ());
  if (better != NULL)
    *better = program != NULL;
  if (program == NULL && gl->no_wait)
    program = cblur_gpu_program_ready (gl->gpu, name, source, defines, prelude (), error);
  else if (program == NULL)
    program = cblur_gpu_program (gl->gpu, name, source, defines, prelude (), error);
  return program;
}

CblurGpuProgram *
cblur_gl_program (CblurGl         *gl,
                  CblurGlShader    shader,
                  CblurGlVariant   variant,
                  gint             cache_len,
                  GError         **error)
{
  return cblur_gl_program_better (gl, shader, variant, cache_len, 0, 0, NULL, error);
}

void
cblur_gl_program_prepare (CblurGl         *gl,
                          CblurGlShader    shader,
                          CblurGlVariant   variant,
                          gint             cache_len)
{
  g_autofree gchar *defines = defines_for (variant, cache_len);

  cblur_gpu_prepare (gl->gpu, names[shader], sources ()[shader], defines, prelude ());
}
