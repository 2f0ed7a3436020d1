/* Every program a blur's other radii reach, compiled on the runtime's
 * thread before a slider gets there: the shaders' variants follow the
 * reach in steps (direct.comp's cache, box-fused.comp's segment, the
 * two-shader box beyond), so a drag over the radius crosses a few dozen
 * of them, each of which would otherwise compile on the render thread.
 * The programs chosen here are the ones cblur-gl-passes.c's
 * init_programs() takes for each reach. */
#include "cblur-gl-internal.h"

#include <stdlib.h>

/* the longest reach the op's radii give, on either axis */
#define MAX_REACH ((gint) (3 * CBLUR_RADIUS_MAX / 2))

/* the programs queued so far for one output size and alpha */
typedef struct
{
  CblurGl    *gl;
  GHashTable *queued;   /* shader, variant and cache length as one number */
} Queue;

static void
queue (Queue          *q,
       CblurGlShader   shader,
       CblurGlVariant  variant,
       gint            cache_len)
{
  guint key = ((guint) shader << 28) | ((guint) variant << 24) | (guint) cache_len;

  if (g_hash_table_add (q->queued, GUINT_TO_POINTER (key)))
    cblur_gl_program_prepare (q->gl, shader, variant, cache_len);
}

/* an axis's programs at `reach`, in both modes, as init_programs() picks
 * them; n_out: the axis's outputs on the tile */
static void
queue_reach (Queue    *q,
             gint      axis,
             gint      reach,
             gint      n_out,
             gboolean  straight)
{
  CblurKernelAxis along = { CBLUR_MODE_BOX };
  CblurGlVariant  variant = axis == CBLUR_AXIS_Y ? CBLUR_GL_VERTICAL : 0;
  CblurGlVariant  first = straight && axis == CBLUR_AXIS_X ? CBLUR_GL_PREMULTIPLY : 0;
  CblurGlSegment  segment;

  along.reach = along.half_width = reach;
  segment = cblur_gl_fused_segment (q->gl, &along, n_out,
                                    axis == CBLUR_AXIS_Y ? CBLUR_GL_MIN_STRIPES : 1);
  queue (q, CBLUR_GL_SHADER_DIRECT, variant | first, cblur_gl_direct_cache_len (q->gl, &along));
  if (segment.len > 0)
    queue (q, CBLUR_GL_SHADER_BOX_FUSED, variant | first | (segment.pairs ? CBLUR_GL_PAIRS : 0),
           segment.len);
  else
    {
      if (first != 0)
        queue (q, CBLUR_GL_SHADER_PREMULTIPLY, 0, 0);
      queue (q, CBLUR_GL_SHADER_BOX_SCAN, variant, 0);
      queue (q, CBLUR_GL_SHADER_BOX, variant, 0);
    }
}

void
cblur_gl_variants_prepare (CblurGl           *gl,
                           const CblurKernel *kernel,
                           const CblurGlTile *largest,
                           gboolean           straight)
{
  static const gchar key[] = "cblur-gl-variants";
  GHashTable        *done = cblur_gpu_get_data (gl->gpu, key);
  gint               n_out[2] = { largest->in_width - 2 * kernel->reach,
                                  largest->in_height - 2 * kernel->reach };
  g_autofree gchar  *size = g_strdup_printf ("%d %d %d", n_out[0], n_out[1], straight);
  Queue              q = { gl, NULL };
  gint               step, axis;

  if (done == NULL)
    {
      done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      cblur_gpu_set_data (gl->gpu, key, done, (GDestroyNotify) g_hash_table_unref);
    }
  if (!g_hash_table_add (done, g_steal_pointer (&size)))
    return;

  q.queued = g_hash_table_new (NULL, NULL);
  for (step = 0; step <= MAX_REACH; step++)
    for (axis = 0; axis < 2; axis++)
      {
        /* after the kernel's own: what any blur of the size may need */
        if (step == 1 && axis == 0)
          {
            queue (&q, CBLUR_GL_SHADER_ABYSS, 0, 0);
            queue (&q, CBLUR_GL_SHADER_DECODE, 0, 0);
            queue (&q, CBLUR_GL_SHADER_ENCODE, 0, 0);
          }
        gint below = kernel->axes[axis].reach - step;
        gint above = kernel->axes[axis].reach + step;

        if (above <= MAX_REACH)
          queue_reach (&q, axis, above, n_out[axis], straight);
        if (step > 0 && below >= 0)
          queue_reach (&q, axis, below, n_out[axis], straight);
      }
  g_hash_table_unref (q.queued);
}
