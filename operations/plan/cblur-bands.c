#include "config.h"
#include "cblur-bands.h"

#include "cblur-settings.h"

/* Host memory for one band of a kernel blur's region: input with halo,
 * the pass between, and output stay below a few hundred MB on 8K images.
 * Whole images go in larger bands: a 4K image with the widest halo is
 * one band, which pays the halo once. */
#define CHUNK_BAND_PIXELS (8 * 1024 * 1024)
#define WHOLE_BAND_PIXELS (24 * 1024 * 1024)

/* The CPU holds only the pass between, 16 bytes a pixel, which is most of
 * what a blur adds to a host's memory and all that a first blur faults
 * in. */
#define CPU_BAND_PIXELS (4 * 1024 * 1024)

/* A variable blur's band with its halo: source, boxes, the pass between
 * and the result take about 56 bytes a pixel, and a 4K image at radius
 * 100 is one band.  While the CPU serves until the GPU is ready, bands of
 * a few hundred rows of a 4K image, so that the GPU takes the rest soon
 * after. */
#define VARIABLE_BAND_PIXELS  (16 * 1024 * 1024)
#define HANDING_OVER_PIXELS   (2 * 1024 * 1024)

/* from these reaches on, the CPU too blurs whole images: from there a
 * chunk's halo costs more than a whole image's longer passes.  Direct
 * mode loses more on whole images' tall column strips than it gains. */
#define WHOLE_IMAGE_REACH_BOX    24
#define WHOLE_IMAGE_REACH_DIRECT 128

/* GEGL renders in chunks, each with its own halo.  The GPU pays for that
 * halo in transfers and a call of its own, and the CPU, at long reaches,
 * in reading and blurring it, so there the whole image at once, which the
 * backends cut into bands themselves, pays it only once, and GEGL's cache
 * of the result serves the chunks that follow.  Direct mode on the CPU
 * loses more on a whole image's tall column strips than it gains.
 *
 * Above level 0 a host shows the image zoomed out (GIMP's canvas), in
 * chunks of a few thousand pixels of the level each: there the CPU spends
 * more on each chunk's start (threads, reads, a halo as wide as the
 * chunk's own rows) than on its pixels, and the image at the level is a
 * quarter of its pixels or less, so the CPU too blurs it whole at any
 * reach. */
gboolean
cblur_renders_whole_images (CblurBackendKind backend,
                            CblurMode        mode,
                            gint             reach,
                            gint             level)
{
  return backend == CBLUR_BACKEND_GL || level > 0 ||
         reach >= (mode == CBLUR_MODE_BOX ? WHOLE_IMAGE_REACH_BOX : WHOLE_IMAGE_REACH_DIRECT);
}

/* The rows of a band of a width × height part whose band, with a halo of
 * reach around it, holds about budget pixels (the band_pixels setting
 * where set), and at least `least` rows */
static gint64
rows_in_budget (gint64 budget,
                gint   reach,
                gint64 least,
                gint   width,
                gint   height)
{
  gint64 rows = cblur_setting_or (cblur_settings ()->band_pixels, budget) /
                ((gint64) width + 2 * reach) - 2 * reach;

  return CLAMP (rows, least, height);
}

gint
cblur_band_rows_kernel (const CblurBlur       *blur,
                        CblurBackendKind       backend,
                        const CblurPrediction *prediction,
                        gint                   level,
                        gint                   width,
                        gint                   height)
{
  gint   reach = blur->reach;
  gint64 budget = backend == CBLUR_BACKEND_CPU ? CPU_BAND_PIXELS
                  : cblur_renders_whole_images (backend, blur->mode, reach, level)
                    ? WHOLE_BAND_PIXELS : CHUNK_BAND_PIXELS;
  /* never let the halo dominate a band: on the CPU, which reads and blurs
   * it, let it be a third of it at most */
  gint64 least = MIN (height, MAX (64, (backend == CBLUR_BACKEND_CPU ? 6 : 2) * reach));
  gint64 rows = rows_in_budget (budget, reach, least, width, height);
  /* bands of one height, rather than a sliver at the bottom */
  gint64 bands = (height + rows - 1) / rows;

  return (gint) MAX ((height + bands - 1) / bands, least);
}

/* whose halo is at most two thirds of a band */
gint
cblur_band_rows_variable (const CblurBlur       *blur,
                          CblurBackendKind       backend,
                          const CblurPrediction *prediction,
                          gint                   level,
                          gint                   width,
                          gint                   height)
{
  gint reach = blur->reach;

  return (gint) rows_in_budget (prediction->hands_over ? HANDING_OVER_PIXELS
                                                       : VARIABLE_BAND_PIXELS,
                                reach, MIN (height, MAX (64, 2 * reach)), width, height);
}
