/* The programs a blur that does not wait takes, queued for the runtime's
 * thread as soon as the context is made (cblur_gpu_on_made): those that
 * serve every radius, only a little slower than the best for each.  They
 * are direct.comp with the cache that holds any window in halves
 * (CBLUR_GL_DIRECT_ANY_CACHE), box-fused.comp with its longest segment,
 * the two-shader box beyond it, the abyss and format conversions, and
 * the variable blur's and combine.comp, which joins blurs with their
 * source: those of the blurs the starts asked for
 * (cblur_gl_start), in one batch.
 * Under auto the GPU takes blurs once they are linked
 * (cblur_gpu_prepared).  A blur's best programs compile only in a pause
 * of the GPU's blurs (cblur_gl_program_better), since GL calls on the
 * context, and a frame with them, wait for a compile.  Before the GPU
 * takes blurs with any of them, the runtime's thread dispatches each
 * once (cblur_gpu_on_linked, cblur_gpu_on_upgraded), since a driver may
 * finish a program only at its first dispatch. */
#include "cblur-gl-internal.h"
#include "cblur-gl-variable.h"
#include "cblur-gl-variable-passes.h"

#include "cblur-settings.h"

#include <gegl.h>

/* the blurs that starts asked for, 0 for none: then all */
static gint started_blurs;

CblurGlBlurs
cblur_gl_started_blurs (void)
{
  CblurGlBlurs blurs = g_atomic_int_get (&started_blurs);

  return blurs != 0 ? blurs : CBLUR_GL_BLURS_ALL;
}

gboolean
cblur_gl_started_for (CblurGlBlurs blurs)
{
  return (cblur_gl_started_blurs () & blurs) == blurs;
}

/* a task: the programs of the blurs in data queued */
static gboolean
queue_blurs (CblurGpu  *gpu,
             gpointer   data,
             GError   **error)
{
  CblurGl gl;

  cblur_gl_view (gpu, &gl, NULL);
  cblur_gl_prepare_blurs (&gl, GPOINTER_TO_INT (data));
  return TRUE;
}

/* A context made already ran its warm-ups with the blurs asked for
 * before: the others' programs are queued now. */
void
cblur_gl_start (CblurGlBlurs blurs,
                gint64       pause_us)
{
  CblurGlBlurs  before;
  CblurGpuState state;

  cblur_gl_runtime_init ();
  before = g_atomic_int_or (&started_blurs, blurs);
  state = pause_us > 0 ? cblur_gpu_start_after (pause_us) : cblur_gpu_state (TRUE, NULL, NULL);
  if (state == CBLUR_GPU_READY && before != 0 && (before & blurs) != blurs)
    cblur_gpu_run (queue_blurs, GINT_TO_POINTER (blurs & ~before), NULL);
}

/* an axis's direct and fused programs in its variant */
static void
queue_axis (CblurGl        *gl,
            CblurGlVariant  variant)
{
  CblurGlSegment lengths[CBLUR_GL_MAX_LENGTHS];
  gint           n = cblur_gl_fused_lengths (gl, lengths);

  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_DIRECT, variant, CBLUR_GL_DIRECT_ANY_CACHE);
  if (n > 0)
    cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_FUSED,
                              variant | (lengths[n - 1].pairs ? CBLUR_GL_PAIRS : 0),
                              lengths[n - 1].len);
}

void
cblur_gl_prepare_blurs (CblurGl      *gl,
                        CblurGlBlurs  blurs)
{
  /* abyss.comp too: a band read only inside the image, as the first
   * uses' rehearsal of a whole input is, has the GPU make the rest */
  if (blurs & (CBLUR_GL_BLURS_ENCODED | CBLUR_GL_BLURS_STRAIGHT))
    {
      queue_axis (gl, 0);
      queue_axis (gl, CBLUR_GL_VERTICAL);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_ABYSS, 0, 0);
    }
  if (blurs & CBLUR_GL_BLURS_STRAIGHT)
    queue_axis (gl, CBLUR_GL_PREMULTIPLY);
  /* the two-shader box, premultiply.comp first where the source is
   * straight */
  if (blurs & CBLUR_GL_BLURS_TWO_SHADER)
    {
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_SCAN, 0, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX, 0, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_SCAN, CBLUR_GL_VERTICAL, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX, CBLUR_GL_VERTICAL, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_PREMULTIPLY, 0, 0);
    }
  if (blurs & (CBLUR_GL_BLURS_ENCODED | CBLUR_GL_BLURS_VARIABLE))
    {
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_DECODE, 0, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_ENCODE, 0, 0);
    }
  if (blurs & CBLUR_GL_BLURS_VARIABLE)
    cblur_gl_variable_prepare (gl);
  if (blurs & CBLUR_GL_BLURS_COMBINE)
    {
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_COMBINE, 0, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_COMBINE, CBLUR_GL_THRESHOLD, 0);
    }
}

static void upgrade_use (CblurGpu *gpu);

/* A software rasterizer, which auto leaves for the CPU, compiles nothing
 * ahead, but where the tests ask (CBLUR_GL_NO_WAIT).  Each program
 * queued lengthens the start that a waiting blur waits for, the more so
 * on few cores and with the driver's cache cold: only the started blurs'
 * go. */
void
cblur_gl_prepare_all (CblurGpu *gpu)
{
  CblurGl gl;

  cblur_gl_view (gpu, &gl, NULL);
  if (gl.limits->is_software && !cblur_settings ()->gl_no_wait)
    return;
  cblur_gpu_on_upgraded (upgrade_use);
  cblur_gl_prepare_blurs (&gl, cblur_gl_started_blurs ());
}

/* The expected input's blur, whose first on the GPU would otherwise pin
 * its memory and make its textures in a user's frame */
static void
rehearse_expected (CblurGl *gl)
{
  CblurBandIo             band_io = { 0 };
  CblurImage              src, dst;
  g_autoptr (CblurKernel) kernel = cblur_gl_expected_take (&band_io, &src, &dst);
  g_autoptr (GError)      error = NULL;

  if (kernel == NULL || cblur_kernel_is_identity (kernel))
    return;
  gl->two_shader = FALSE;
  if (!cblur_gl_rehearse (gl, kernel, &band_io, &src, &dst, &error))
    g_debug ("a rehearsal of the GPU's first blur failed: %s", error->message);
}

/* The first uses' blurs: a few pixels each, radius FIRST_USE_RADIUS,
 * which take the programs any other blur takes; box mode runs boxes
 * from CBLUR_BOX_FROM on */
#define FIRST_USE_SIZE   16
#define FIRST_USE_RADIUS (CBLUR_BOX_FROM + 1.5)

/* Together they dispatch every program cblur_gl_prepare_all() queues
 * but combine.comp's, which cblur_gl_combine_first_use() dispatches:
 * direct.comp and box-fused.comp along both axes, premultiplying a
 * straight float source held only inside the image, around which
 * abyss.comp makes the abyss, or reading one stored as 8-bit RGBA
 * (decode.comp, encode.comp); and the two-shader box after
 * premultiply.comp. */
static const struct
{
  CblurMode    mode;
  gboolean     straight;   /* float, straight, only inside; else 8-bit, with its halo */
  gboolean     two_shader;
  CblurGlBlurs blurs;      /* whose programs it dispatches */
} first_uses[] = {
  { CBLUR_MODE_DIRECT, TRUE, FALSE, CBLUR_GL_BLURS_STRAIGHT },
  { CBLUR_MODE_DIRECT, FALSE, FALSE, CBLUR_GL_BLURS_ENCODED },
  { CBLUR_MODE_BOX, TRUE, FALSE, CBLUR_GL_BLURS_STRAIGHT },
  { CBLUR_MODE_BOX, FALSE, FALSE, CBLUR_GL_BLURS_ENCODED },
  { CBLUR_MODE_BOX, TRUE, TRUE, CBLUR_GL_BLURS_TWO_SHADER }
};

static CblurImage
first_use_image (const CblurFormat *format,
                 gint               margin)
{
  CblurImage image = { NULL, -margin, -margin, FIRST_USE_SIZE + 2 * margin,
                       FIRST_USE_SIZE + 2 * margin, 0, format };

  image.stride = cblur_image_packed_stride (&image);
  image.data = g_malloc0 (image.stride * sizeof (gfloat) * image.height);
  return image;
}

/* Pixels of no use: what counts is that each program has been
 * dispatched, and failures are the next real blur's to report. */
static void
blur_once (CblurGl   *gl,
           CblurMode  mode,
           gboolean   straight)
{
  g_autoptr (CblurKernel) kernel = cblur_kernel_new (FIRST_USE_RADIUS, mode, 3);
  const CblurFormat      *format = straight ? NULL
                                            : cblur_format_get (babl_format ("R'G'B'A u8"));
  CblurImage              src = first_use_image (format, straight ? 0 : kernel->reach);
  CblurImage              dst = first_use_image (format, 0);
  CblurGlSource           source = { GEGL_ABYSS_NONE, straight, NULL, NULL, TRUE };
  CblurGlReport           report;
  g_autoptr (GError)      error = NULL;

  if (!cblur_gl_blur_copied (gl, kernel, &source, &src, &dst, &report, &error))
    g_debug ("a first use of the GPU's programs failed: %s", error->message);
  g_free (src.data);
  g_free (dst.data);
}

/* a CblurGpuWarmUp after an upgrade (cblur_gpu_on_upgraded) */
static void
upgrade_use (CblurGpu *gpu)
{
  CblurGl gl;

  cblur_gl_view (gpu, &gl, NULL);
  rehearse_expected (&gl);
  cblur_gl_combine_rehearse_expected (&gl);
  cblur_gl_variable_pin_expected (gpu);
}

void
cblur_gl_first_use (CblurGpu *gpu)
{
  CblurGlBlurs blurs = cblur_gl_started_blurs ();
  CblurGl      gl;
  guint        i;

  cblur_gl_view (gpu, &gl, NULL);
  if (gl.limits->is_software && !cblur_settings ()->gl_no_wait)
    return;
  gl.settled = TRUE;
  for (i = 0; i < G_N_ELEMENTS (first_uses); i++)
    if (first_uses[i].blurs & blurs)
      {
        gl.two_shader = first_uses[i].two_shader;
        blur_once (&gl, first_uses[i].mode, first_uses[i].straight);
      }
  gl.two_shader = FALSE;
  if (blurs & CBLUR_GL_BLURS_COMBINE)
    cblur_gl_combine_first_use (&gl);
  gl.settled = FALSE;
  rehearse_expected (&gl);
  cblur_gl_combine_rehearse_expected (&gl);
  cblur_gl_variable_pin_expected (gpu);
}
