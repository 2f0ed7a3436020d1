/* What cblur-gl-variable.c and cblur-gl-variable-passes.c share: a
 * band's passes over its tiles.  With the runtime's lock held and its
 * context current, as in cblur-gl-internal.h. */
#ifndef CBLUR_GL_VARIABLE_PASSES_H
#define CBLUR_GL_VARIABLE_PASSES_H

#include "cblur-gl-internal.h"
#include "cblur-gl-variable-levels.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* the textures the passes go through: the input, the texture between,
 * the output, and each axis's ping, pong and running sums (the first
 * three of its scratch textures; the fourth goes unused) */
#define CBLUR_GL_VARIABLE_TEXTURES (CBLUR_GL_COLUMN_SCRATCH + 3)

typedef struct
{
  const CblurVariable   *variable;
  const CblurGpuTexture *textures;     /* the context's, by CblurGlTexture */
  CblurGpuProgram       *scans[2];     /* running sums, by axis; cached, not owned */
  CblurGpuProgram       *programs[2];  /* outputs, by axis */
  guint                  widths;       /* the band's boxes, a storage buffer */
  gboolean               codes;        /* ...as a byte's boxes, then bytes */
  GeglRectangle          table;        /* the pixels they are of: the band's source */
  gfloat                 colour[CBLUR_CHANNELS];   /* the abyss's */
  CblurGlStamps         *stamps;       /* compute spans go here */
  const CblurGlVariableLevels *levels; /* blended into the output; NULL: none */
} CblurGlVariablePasses;

/* each role's texture for the tiles, largest of each */
G_GNUC_INTERNAL void     cblur_gl_variable_texture_sizes (const CblurVariable *variable,
                                                          const GArray        *tiles,
                                                          CblurGlSize          sizes[CBLUR_GL_VARIABLE_TEXTURES]);
G_GNUC_INTERNAL gboolean cblur_gl_variable_passes_init   (CblurGl               *gl,
                                                          const CblurVariable   *variable,
                                                          guint                  widths,
                                                          gboolean               codes,
                                                          const CblurImage      *src,
                                                          GeglAbyssPolicy        abyss,
                                                          CblurGlStamps         *stamps,
                                                          CblurGlVariablePasses *passes,
                                                          GError               **error);
/* queues every program the passes may take for the runtime's thread
 * (cblur_gl_prepare_all()) */
G_GNUC_INTERNAL void     cblur_gl_variable_prepare       (CblurGl               *gl);
/* both axes' passes over the tile, whose input texture holds its inside;
 * returns the texture that holds its output */
G_GNUC_INTERNAL const CblurGpuTexture *cblur_gl_variable_passes_run (const CblurGlVariablePasses *passes,
                                                                     const CblurGlTile           *tile);
/* The same in two steps, for a tile streamed under an abyss other than
 * loop's: the row passes of its inside rows [first, first + n), counted
 * from its first, whose boxes are in the widths; then, once every row's
 * are done, the column passes, which return the output's texture. */
G_GNUC_INTERNAL void     cblur_gl_variable_passes_rows    (const CblurGlVariablePasses *passes,
                                                           const CblurGlTile           *tile,
                                                           gint                         first,
                                                           gint                         n);
G_GNUC_INTERNAL const CblurGpuTexture *cblur_gl_variable_passes_columns (const CblurGlVariablePasses *passes,
                                                                         const CblurGlTile           *tile);

G_END_DECLS

#endif
