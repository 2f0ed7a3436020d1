/* The variable blur's levels on a tile (cblur-variable.h), as
 * cblur-cpu-variable-levels.c makes them: each level the band's pixels
 * take, its cells reduced from the tile's input (level-reduce.comp),
 * blurred by the Gaussian blur's two-dispatch box passes
 * (cblur-gl-box.h) and blended into the base's output by each pixel's
 * sigma (level-blend.comp).  With the runtime's lock held and its
 * context current, as in cblur-gl-internal.h. */
#ifndef CBLUR_GL_VARIABLE_LEVELS_H
#define CBLUR_GL_VARIABLE_LEVELS_H

#include "cblur-gl-internal.h"
#include "cblur-kernel.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* the grids' textures, which stay with the context */
typedef struct _CblurGlLevelTextures CblurGlLevelTextures;

typedef struct
{
  const CblurVariable   *variable;
  gint                   least;        /* the lowest and highest upper level */
  gint                   most;         /* of the band's pixels */
  guint                  masks;        /* the band's mask values, or each byte's, */
  guint                  codes;        /* a storage buffer; the boxes' buffer with */
  GeglRectangle          band;         /* the bytes, or 0; the rectangle of either */
  GeglAbyssPolicy        abyss;
  gfloat                 colour[CBLUR_CHANNELS];   /* the abyss's */
  CblurGpuProgram       *reduce;
  CblurGpuProgram       *blend;
  CblurGpuProgram       *scans[2];     /* the box's, by axis */
  CblurGpuProgram       *programs[2];
  CblurKernel           *kernels[CBLUR_VARIABLE_LEVELS_MAX];   /* the grids' blurs */
  CblurGlLevelTextures  *textures;
} CblurGlVariableLevels;

/* For the tiles of dst (cblur_gl_tiles_new()'s, with the variable's
 * reach), whose pixels' mask values are masks; where those are bytes,
 * codes is the storage buffer of src's boxes (variable.comp's, with
 * CODES), else 0: FALSE with error where GL cannot hold them.  *levels
 * is cleared where no pixel takes a level (most -1). */
G_GNUC_INTERNAL gboolean cblur_gl_variable_levels_init    (CblurGl                   *gl,
                                                           const CblurVariable       *variable,
                                                           const CblurVariableMasks  *masks,
                                                           guint                      codes,
                                                           const CblurImage          *src,
                                                           const CblurImage          *dst,
                                                           GeglAbyssPolicy            abyss,
                                                           const GArray              *tiles,
                                                           CblurGlVariableLevels     *levels,
                                                           GError                   **error);
/* the levels blended into the tile's output, read from its input */
G_GNUC_INTERNAL void     cblur_gl_variable_levels_run     (const CblurGlVariableLevels *levels,
                                                           const CblurGlTile           *tile,
                                                           const CblurGpuTexture       *input,
                                                           const CblurGpuTexture       *output);
G_GNUC_INTERNAL void     cblur_gl_variable_levels_clear   (CblurGlVariableLevels *levels);
/* queues the programs the levels take (cblur_gl_prepare_all()) */
G_GNUC_INTERNAL void     cblur_gl_variable_levels_prepare (CblurGl *gl);

G_END_DECLS

#endif
