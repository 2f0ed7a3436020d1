/* Every program a blur can take, queued for the runtime's thread as soon
 * as the context is made (cblur_gpu_on_made), so that under auto no blur
 * waits for a compile.  The shaders' variants do not follow the radius:
 * direct.comp's cache comes in powers of two and box-fused.comp's segment
 * in a handful of lengths (cblur-gl-segments.c), the reach and the
 * outputs a segment makes being uniforms, so the set is about thirty
 * programs for every radius and size.
 *
 * A few of them serve every radius, only slower than the best: the
 * direct cache that holds any window in halves
 * (CBLUR_GL_DIRECT_ANY_CACHE), the longest fused segment and the
 * two-shader box beyond it.  They go first, and the GPU takes blurs once
 * they are linked (cblur_gpu_prepared); until the rest are, a blur takes
 * the best of those linked (cblur_gl_linked_snapshot). */
#include "cblur-gl-internal.h"

#include "cblur-settings.h"

/* an axis's programs in its variant: its direct caches and fused
 * segments, those that serve every reach alone where `any` */
static void
queue_axis (CblurGl        *gl,
            CblurGlVariant  variant,
            gboolean        any)
{
  CblurGlSegment lengths[CBLUR_GL_MAX_LENGTHS];
  gint           lens[CBLUR_GL_MAX_LENGTHS];
  gint           n, i;

  n = cblur_gl_direct_cache_lens (gl, lens);
  for (i = 0; i < n; i++)
    if (!any || lens[i] == CBLUR_GL_DIRECT_ANY_CACHE)
      cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_DIRECT, variant, lens[i]);
  n = cblur_gl_fused_lengths (gl, lengths);
  for (i = any ? n - 1 : 0; i < n; i++)
    cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_FUSED,
                              variant | (lengths[i].pairs ? CBLUR_GL_PAIRS : 0), lengths[i].len);
}

/* the programs that serve every blur: the axes' in both alphas, the
 * two-shader box (premultiply.comp first where the source is straight),
 * and the abyss and format conversions */
static void
queue_any (CblurGl *gl)
{
  queue_axis (gl, 0, TRUE);
  queue_axis (gl, CBLUR_GL_PREMULTIPLY, TRUE);
  queue_axis (gl, CBLUR_GL_VERTICAL, TRUE);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_SCAN, 0, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX, 0, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX_SCAN, CBLUR_GL_VERTICAL, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_BOX, CBLUR_GL_VERTICAL, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_PREMULTIPLY, 0, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_ABYSS, 0, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_DECODE, 0, 0);
  cblur_gl_program_prepare (gl, CBLUR_GL_SHADER_ENCODE, 0, 0);
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
  queue_any (&gl);
  cblur_gpu_prepared_mark ();
  queue_axis (&gl, 0, FALSE);
  queue_axis (&gl, CBLUR_GL_PREMULTIPLY, FALSE);
  queue_axis (&gl, CBLUR_GL_VERTICAL, FALSE);
}

/* the linked lengths of an axis in its variant */
static void
snapshot_axis (CblurGl        *gl,
               gint            axis,
               CblurGlVariant  variant)
{
  CblurGlSegment lengths[CBLUR_GL_MAX_LENGTHS];
  gint           lens[CBLUR_GL_MAX_LENGTHS];
  gint           n, i;

  gl->direct_linked[axis] = gl->fused_linked[axis] = 0;
  n = cblur_gl_direct_cache_lens (gl, lens);
  for (i = 0; i < n; i++)
    if (cblur_gl_program_linked (gl, CBLUR_GL_SHADER_DIRECT, variant, lens[i]))
      gl->direct_linked[axis] |= 1u << i;
  n = cblur_gl_fused_lengths (gl, lengths);
  for (i = 0; i < n; i++)
    if (cblur_gl_program_linked (gl, CBLUR_GL_SHADER_BOX_FUSED,
                                 variant | (lengths[i].pairs ? CBLUR_GL_PAIRS : 0),
                                 lengths[i].len))
      gl->fused_linked[axis] |= 1u << i;
}

void
cblur_gl_linked_snapshot (CblurGl  *gl,
                          gboolean  straight)
{
  snapshot_axis (gl, CBLUR_AXIS_X, straight ? CBLUR_GL_PREMULTIPLY : 0);
  snapshot_axis (gl, CBLUR_AXIS_Y, CBLUR_GL_VERTICAL);
}
