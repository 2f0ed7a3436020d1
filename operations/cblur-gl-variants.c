/* The programs a blur that does not wait takes, queued for the runtime's
 * thread as soon as the context is made (cblur_gpu_on_made): those that
 * serve every radius, only a little slower than the best for each.  They
 * are direct.comp with the cache that holds any window in halves
 * (CBLUR_GL_DIRECT_ANY_CACHE), box-fused.comp with its longest segment,
 * the two-shader box beyond it, the abyss and format conversions, and
 * the variable blur's: a score of programs that one batch compiles.  Under auto the GPU
 * takes blurs once they are linked (cblur_gpu_prepared), and nothing
 * else is compiled for them: while the runtime's thread compiles, GL
 * calls on the context may wait for it, and a frame would with them. */
#include "cblur-gl-internal.h"
#include "cblur-gl-variable-passes.h"

#include "cblur-settings.h"

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

/* A software rasterizer, which auto leaves for the CPU, compiles nothing
 * ahead, but where the tests ask (CBLUR_GL_NO_WAIT). */
void
cblur_gl_prepare_all (CblurGpu *gpu)
{
  CblurGl gl;

  cblur_gl_view (gpu, &gl);
  if (gl.limits->is_software && !cblur_settings ()->gl_no_wait)
    return;
  queue_axis (&gl, 0);
  queue_axis (&gl, CBLUR_GL_PREMULTIPLY);
  queue_axis (&gl, CBLUR_GL_VERTICAL);
  /* the two-shader box, premultiply.comp first where the source is
   * straight */
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_BOX_SCAN, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_BOX, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_BOX_SCAN, CBLUR_GL_VERTICAL, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_BOX, CBLUR_GL_VERTICAL, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_PREMULTIPLY, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_ABYSS, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_DECODE, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_ENCODE, 0, 0);
  cblur_gl_variable_prepare (&gl);
}
