/* Every program a blur can take, queued for the runtime's thread as soon
 * as the context is made (cblur_gpu_on_made), so that under auto no blur
 * waits for a compile and the GPU takes blurs once they are all linked.
 * The shaders' variants do not follow the radius: direct.comp's cache
 * comes in powers of two and box-fused.comp's segment in a handful of
 * lengths (cblur-gl-segments.c), the reach and the outputs a segment
 * makes being uniforms, so the set is a few dozen programs for every
 * radius and size. */
#include "cblur-gl-internal.h"

#include "cblur-settings.h"

/* an axis's direct and fused programs; first: its first pass's variant
 * where the source holds straight alpha */
static void
queue_axis (CblurGl        *gl,
            CblurGlVariant  variant)
{
  CblurGlSegment lengths[CBLUR_GL_MAX_LENGTHS];
  gint           lens[CBLUR_GL_MAX_LENGTHS];
  gint           n, i;

  n = cblur_gl_direct_cache_lens (gl, lens);
  for (i = 0; i < n; i++)
    cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_DIRECT, variant, lens[i]);
  n = cblur_gl_fused_lengths (gl, lengths);
  for (i = 0; i < n; i++)
    cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_FUSED,
                              variant | (lengths[i].pairs ? CBLUR_GL_PAIRS : 0), lengths[i].len);
  if (!(variant & CBLUR_GL_PREMULTIPLY))
    {
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_SCAN, variant, 0);
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX, variant, 0);
    }
}

/* A software rasterizer, which auto leaves for the CPU, compiles nothing
 * ahead, but where the tests ask (CBLUR_GL_NO_WAIT). */
void
cblur_gl_prepare_all (CblurGpu *gpu)
{
  CblurGl gl = { gpu, cblur_gpu_limits (gpu), NULL, TRUE };

  if (gl.limits->is_software && !cblur_settings ()->gl_no_wait)
    return;
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_ABYSS, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_DECODE, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_ENCODE, 0, 0);
  cblur_gl_program_prepare (&gl, CBLUR_GL_SHADER_PREMULTIPLY, 0, 0);
  queue_axis (&gl, 0);
  queue_axis (&gl, CBLUR_GL_PREMULTIPLY);
  queue_axis (&gl, CBLUR_GL_VERTICAL);
}
