/* Which backend runs the variable blur, the band's pixels, and the
 * fallback from GL to the CPU, with the Gaussian blur's rules
 * (cblur-backend.h): CBLUR_BACKEND chooses, and any GL failure blurs the
 * band on the CPU, the report saying why. */
#ifndef CBLUR_BACKEND_VARIABLE_H
#define CBLUR_BACKEND_VARIABLE_H

#include "cblur-band-io.h"
#include "cblur-image.h"
#include "cblur-report.h"
#include "cblur-variable.h"

G_BEGIN_DECLS

/* Where a band's source, output and boxes live: the GL backend's pinned
 * memory, which the GPU copies from and into in place, or the heap. */
typedef struct _CblurVariableBandMemory CblurVariableBandMemory;

/* The band's pixels for src and dst (their rectangles set; src: the part
 * of dst's grown by the reach that is read) and the boxes of src's
 * pixels, row after row, for the caller to fill: a byte a pixel
 * (boxes->codes) where boxes->table is set, which both backends look up
 * there, else a box a pixel (boxes->widths).  The table stays the
 * caller's and lives as long as the band.  src->format and dst->format
 * ask for pixels as GEGL stores them, or NULL for premultiplied RGBA
 * float; either backend converts them as it blurs, so the caller copies
 * rows in and out as they are.  Never NULL: the heap aborts where it has
 * no room, as GEGL does. */
CblurVariableBandMemory *cblur_variable_band_memory_new  (CblurBackendKind         backend,
                                                          CblurImage              *src,
                                                          CblurImage              *dst,
                                                          CblurVariableBoxes      *boxes);
void                     cblur_variable_band_memory_free (CblurVariableBandMemory *band);

/* Thread-safe: under auto, the band the GPU would blur next where it
 * takes the input whole (src and dst as cblur_variable_band_memory_new()
 * takes them, codes where the boxes are a byte a pixel), while the CPU
 * blurs it in bands: the GPU's first uses pin its memory ahead. */
void                     cblur_backend_variable_expect   (const CblurImage        *src,
                                                          const CblurImage        *dst,
                                                          gboolean                 codes);

/* Blurs the band's src into its dst with its boxes, the rest made under
 * abyss (cblur_cpu_variable_blur says what each holds), on the backend
 * the band was made for, or on the CPU where GL fails; band_io, if any,
 * reads src and its boxes from GEGL (streamed on the GPU but under loop's
 * abyss) and writes dst back, whatever backend ran; without one src holds
 * its pixels and boxes, and dst keeps the result.  Fills report's ran_on, the
 * GPU's figures, gl_failure and why_cpu (cblur_run_report_clear frees
 * it).  Call from one thread at a time per band. */
void cblur_backend_variable_blur (CblurVariableBandMemory  *band,
                                  const CblurVariable      *variable,
                                  const CblurImage         *src,
                                  const CblurVariableMasks *masks,
                                  GeglAbyssPolicy           abyss,
                                  CblurBandIo              *band_io,
                                  const CblurImage         *dst,
                                  CblurRunReport           *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CblurVariableBandMemory, cblur_variable_band_memory_free)

G_END_DECLS

#endif
