/* The blur the GPU's first uses rehearse next (cblur-gl-variants.c):
 * an input the CPU has blurred whole or in bands while the GPU may yet
 * take blurs (cblur_gl_expect), or one the GPU served with programs that
 * serve every radius while better ones compile (cblur_gl_expect_upgrade),
 * the largest of them, so that its next blur on the GPU finds its pinned
 * memory, textures and programs made and dispatched. */
#include "cblur-gl-internal.h"

/* the largest input with its halo of those recorded since the last
 * rehearsal */
static struct
{
  GMutex             lock;
  gdouble            pixels;       /* with the halo; 0 where there is none */
  gdouble            radii[2];     /* by CblurAxis */
  CblurMode          mode;         /* the axes', or auto where they differ */
  gint               iterations;
  GeglRectangle      inside;
  GeglAbyssPolicy    abyss;
  gboolean           straight;
  const CblurFormat *formats[2];   /* src's and dst's */
} expected;

/* The blur of whole, at full size, to rehearse, where it is the largest
 * yet: kernel's at `level`.  Above level 0 it is a dialog's preview,
 * which a user applies next at level 0: that blur is the one rehearsed,
 * with the radii the preview's stand for, in the mode auto takes there. */
static void
expect (const CblurKernel   *kernel,
        gint                 level,
        const GeglRectangle *whole,
        GeglAbyssPolicy      abyss,
        gboolean             straight,
        const CblurImage    *src,
        const CblurImage    *dst)
{
  const CblurKernelAxis *x = &kernel->axes[CBLUR_AXIS_X];
  const CblurKernelAxis *y = &kernel->axes[CBLUR_AXIS_Y];
  gint                   scale = 1 << level;
  gdouble                reach = (gdouble) kernel->reach * scale;
  gdouble                pixels = ((gdouble) whole->width + 2.0 * reach) *
                                  ((gdouble) whole->height + 2.0 * reach);

  g_mutex_lock (&expected.lock);
  if (pixels > expected.pixels)
    {
      expected.pixels = pixels;
      expected.radii[CBLUR_AXIS_X] = x->radius * scale;
      expected.radii[CBLUR_AXIS_Y] = y->radius * scale;
      expected.mode = x->mode == y->mode && level == 0 ? x->mode : CBLUR_MODE_AUTO;
      expected.iterations = CLAMP (MAX (x->iterations, y->iterations), CBLUR_ITERATIONS_MIN,
                                   CBLUR_ITERATIONS_MAX);
      expected.inside = *whole;
      expected.abyss = abyss;
      expected.straight = straight;
      expected.formats[0] = src->format;
      expected.formats[1] = dst->format;
    }
  g_mutex_unlock (&expected.lock);
}

void
cblur_gl_expect (const CblurKernel *kernel,
                 const CblurBandIo *band_io,
                 const CblurImage  *src,
                 const CblurImage  *dst)
{
  GeglRectangle whole = cblur_band_io_inside_at_full_size (band_io);

  expect (kernel, band_io->level, &whole, band_io->abyss, band_io->straight_alpha, src, dst);
}

/* Its output as a whole image of its own: the same tiles, and so the
 * same programs. */
void
cblur_gl_expect_upgrade (const CblurKernel   *kernel,
                         const CblurGlSource *source,
                         const CblurImage    *src,
                         const CblurImage    *dst)
{
  GeglRectangle inside = { dst->x, dst->y, dst->width, dst->height };

  expect (kernel, 0, &inside, GEGL_ABYSS_NONE, source->straight, src, dst);
}

/* the recorded blur, forgotten, as cblur_gl_rehearse() takes it; NULL
 * where there is none */
CblurKernel *
cblur_gl_expected_take (CblurBandIo *band_io,
                        CblurImage  *src,
                        CblurImage  *dst)
{
  CblurKernel *kernel = NULL;

  g_mutex_lock (&expected.lock);
  if (expected.pixels > 0)
    {
      kernel = cblur_kernel_new_xy (expected.radii[CBLUR_AXIS_X], expected.radii[CBLUR_AXIS_Y],
                                    expected.mode, expected.iterations);
      band_io->inside = expected.inside;
      band_io->abyss = expected.abyss;
      band_io->straight_alpha = expected.straight;
      *src = (CblurImage) { NULL, band_io->inside.x - kernel->reach,
                            band_io->inside.y - kernel->reach,
                            band_io->inside.width + 2 * kernel->reach,
                            band_io->inside.height + 2 * kernel->reach, 0, expected.formats[0] };
      *dst = (CblurImage) { NULL, band_io->inside.x, band_io->inside.y, band_io->inside.width,
                            band_io->inside.height, 0, expected.formats[1] };
    }
  expected.pixels = 0;
  g_mutex_unlock (&expected.lock);
  return kernel;
}
