/* The two-dispatch box, for a reach too long for box-fused.comp's shared
 * memory: each pass of an axis a dispatch for the running sums of its
 * blocks (box-scan.comp) and one for its outputs (box.comp), through the
 * axis's scratch textures. */
#include "cblur-gl-box.h"

/* the box shaders' work group width */
#define BOX_GROUP 64

/* the shaders' image units */
enum
{
  SRC_UNIT,
  DST_UNIT,
  PREFIX_UNIT,
  SUFFIX_UNIT
};

void
cblur_gl_set_map (const CblurGpuProgram *program,
                  CblurGlMap             map)
{
  cblur_gpu_set_int (program, "map_first", map.first);
  cblur_gpu_set_int (program, "map_len", map.len);
  cblur_gpu_set_int (program, "map_abyss", map.abyss);
}

/* the box's window, the same for both of its shaders' outputs */
void
cblur_gl_set_box_window (const CblurGpuProgram *program,
                         const CblurKernelAxis *kernel)
{
  cblur_gpu_set_int (program, "box_half", kernel->box_half);
  cblur_gpu_set_int (program, "block", kernel->box_block);
  cblur_gpu_set_float (program, "fraction", kernel->box_fraction);
  cblur_gpu_set_float (program, "scale", kernel->box_scale);
}

/* for the pass after, which reads all of this one's n_out outputs */
static CblurGlMap
whole_map (gint n_out)
{
  return (CblurGlMap) { 0, n_out, GEGL_ABYSS_CLAMP };
}

/* The scratch textures are ping, pong, and the prefix and suffix sums.
 * n_in and origin (the absolute coordinate of the first input pixel along
 * the axis) are the tile's, whose lines the axis reads from its skip on. */
void
cblur_gl_box_passes (const CblurGlPasses   *passes,
                     gboolean               vertical,
                     const CblurGpuTexture *from,
                     const CblurGpuTexture *to,
                     CblurGlMap             map,
                     gint                   n_in,
                     gint                   origin,
                     gint                   lines)
{
  const CblurKernelAxis *kernel = &passes->kernel->axes[vertical];
  gint                   skip = cblur_kernel_skip (passes->kernel, vertical);
  const CblurGpuTexture *scratch = passes->textures + (vertical ? CBLUR_GL_COLUMN_SCRATCH
                                                                : CBLUR_GL_ROW_SCRATCH);
  const CblurGpuProgram *scan = passes->scans[vertical];
  const CblurGpuProgram *program = passes->programs[vertical];
  gint                   pass;

  map.first -= skip;
  n_in -= 2 * skip;
  origin += skip;
  cblur_gpu_bind_image (PREFIX_UNIT, &scratch[2], CBLUR_GPU_READ_WRITE);
  cblur_gpu_bind_image (SUFFIX_UNIT, &scratch[3], CBLUR_GPU_READ_WRITE);
  cblur_gpu_set_int (scan, "n_lines", lines);
  cblur_gpu_set_int (scan, "block", kernel->box_block);
  cblur_gpu_set_int (program, "n_lines", lines);
  cblur_gl_set_box_window (program, kernel);

  for (pass = 0; pass < kernel->iterations; pass++)
    {
      const CblurGpuTexture *target = pass == kernel->iterations - 1 ? to : &scratch[pass % 2];
      gint                   phase = cblur_floor_mod (origin, kernel->box_block);
      gint                   n_out = n_in - 2 * (kernel->box_half + 1);

      cblur_gpu_bind_image (SRC_UNIT, from, CBLUR_GPU_READ);
      cblur_gpu_use (scan);
      cblur_gl_set_map (scan, map);
      cblur_gpu_set_int (scan, "n_in", n_in);
      cblur_gpu_set_int (scan, "block_phase", phase);
      cblur_gpu_dispatch (cblur_gpu_groups (lines, BOX_GROUP),
                          cblur_gpu_groups (n_in + phase, kernel->box_block),
                          CBLUR_GPU_BARRIER_IMAGES);

      cblur_gpu_bind_image (DST_UNIT, target, CBLUR_GPU_WRITE);
      cblur_gpu_use (program);
      cblur_gl_set_map (program, map);
      cblur_gpu_set_int (program, "n_in", n_in);
      cblur_gpu_set_int (program, "block_phase", phase);
      if (vertical)
        cblur_gpu_dispatch (cblur_gpu_groups (lines, BOX_GROUP), n_out,
                            CBLUR_GPU_BARRIER_IMAGES);
      else
        cblur_gpu_dispatch (cblur_gpu_groups (n_out, BOX_GROUP), lines,
                            CBLUR_GPU_BARRIER_IMAGES);

      from = target;
      map = whole_map (n_out);
      n_in = n_out;
      origin += kernel->box_half + 1;
    }
}
