/* An op's blur as the plan sees it (cblur-band-loop.h, cblur-plan.h):
 * a small typed descriptor that an op fills and the plan reads, so that
 * every op runs on the one band loop.  An op gives two things: what kind
 * of blur it is (CblurOpBlur, one constant a class), and its blur at a
 * mipmap level (CblurBlur, made by its describe function).  The plan
 * calls the op's functions on GEGL's thread that runs the op's vfunc;
 * they must not hold on to the pointers they are given.  A CblurBlur belongs
 * to the one thread that made it. */
#ifndef CBLUR_BLUR_H
#define CBLUR_BLUR_H

#include <gegl-plugin.h>

#include "cblur-backend.h"
#include "cblur-choice.h"
#include "cblur-region-io.h"

G_BEGIN_DECLS

typedef struct _CblurOpBlur CblurOpBlur;

/* An op's blur at one mipmap level. */
typedef struct
{
  /* what the choice weighs (CblurWork): the mode's name, "variable" for
   * a blur without a kernel mode, and the reach where each pixel's cost
   * follows it (direct mode), else 0 */
  const gchar  *work_mode;
  gint          cost_reach;
  /* the halo each band reads beyond its rows and columns; the kernel
   * mode of the axis that reaches further, for the band and region rules
   * of kernel blurs */
  gint          reach;
  CblurMode     mode;
  /* the band's line in the log (CblurRunReport): each axis's mode and
   * radius, or mode_name where the blur has no kernel mode */
  CblurMode     modes[2];
  const gchar  *mode_name;
  gdouble       radii[2];
  gboolean      box_as_direct;
  /* the properties its pixels depend on, which say whether a slider
   * moved since the last region (cblur_plan_prepare), or NULL; owned:
   * cblur_blur_clear() frees it */
  GBytes       *values;
  GeglAbyssPolicy abyss;       /* GEGL's pixels beyond the image */
  /* what blur_band blurs with (a CblurKernel, a CblurVariable…): set by
   * the op's process before the loop; NULL while the plan only plans */
  gconstpointer data;
} CblurBlur;

/* Blurs `band` (rows of the region, at its level, without its halo) on
 * `backend`, through `io`'s reads and writes of GEGL's pixels, falling
 * back to the CPU on any GL failure (choice/ holds those fallbacks), and
 * fills report's ran_on, the GPU's figures, gl_failure and why_cpu (as
 * those fallbacks do); the loop fills the rest.  Reads and writes it makes itself rather than through
 * io->band_io it adds to io->band_io.read_ms and write_ms.  FALSE only
 * where there is no memory for the band. */
typedef gboolean (*CblurBlurBand) (const CblurBlur     *blur,
                                   CblurBackendKind     backend,
                                   const GeglRectangle *band,
                                   CblurRegionIo       *io,
                                   CblurRunReport      *report);

/* The rows of each band of a width × height part of a region on
 * backend (the plan's cblur_band_rows_kernel or _variable). */
typedef gint (*CblurBandRows) (const CblurBlur       *blur,
                               CblurBackendKind       backend,
                               const CblurPrediction *prediction,
                               gint                   level,
                               gint                   width,
                               gint                   height);

/* Which regions the plan blurs for GEGL's (cblur_plan_cached_region). */
typedef enum
{
  /* the kernel blurs' rules: the whole image where that pays, a brush's
   * dirty part, the last frame's view, or the region alone */
  CBLUR_REGIONS_PLANNED,
  /* the whole image wherever it fits the CPU's whole-image size, for a
   * blur whose halo costs what its own pixels do */
  CBLUR_REGIONS_WHOLE_IF_FITS
} CblurRegions;

struct _CblurOpBlur
{
  const gchar   *name;        /* the op's, "cblur:gaussian-blur": its warnings */
  const gchar   *work_op;     /* CblurWork's op: "gaussian-blur" */
  CblurRegions   regions;
  CblurBandRows  band_rows;
  CblurBlurBand  blur_band;
  /* the op's blur at level (its data left NULL) */
  void         (*describe) (GeglOperation *operation,
                            gint           level,
                            CblurBlur     *blur);
};

static inline void
cblur_blur_clear (CblurBlur *blur)
{
  g_clear_pointer (&blur->values, g_bytes_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CblurBlur, cblur_blur_clear)

G_END_DECLS

#endif
