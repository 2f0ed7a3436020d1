#include "config.h"
#include "cblur-band-memory.h"

#include "cblur-backend-offer.h"
#include "cblur-gl.h"
#include "cblur-memory.h"
#include "cblur-settings.h"

struct _CblurBandMemory
{
  CblurGlBandMemory *memory;
  CblurImage         heap[2];   /* src and dst where not in the GPU's memory */
};

gboolean
cblur_backend_does_nothing (const CblurKernel *kernel,
                            const CblurImage  *dst)
{
  return cblur_kernel_is_identity (kernel) || dst->width <= 0 || dst->height <= 0;
}

static gsize
image_bytes (const CblurImage *image)
{
  return image->stride * image->height * sizeof (gfloat);
}

/* image gets its pixels, which *owned holds for freeing */
static gboolean
heap_image (CblurImage *image,
            CblurImage *owned)
{
  image->stride = cblur_image_packed_stride (image);
  image->data = cblur_pixels_alloc (image_bytes (image));
  *owned = *image;
  return image->data != NULL;
}

/* Where the backend makes the abyss beyond the input, GEGL reads only the
 * part of src inside; not where there is no halo to make. */
static gboolean
reads_inside (const CblurKernel *kernel,
              const CblurBandIo *band_io,
              const CblurImage  *src,
              const CblurImage  *dst,
              GeglRectangle     *inside)
{
  GeglRectangle all = { src->x, src->y, src->width, src->height };

  return !cblur_backend_does_nothing (kernel, dst) &&
         cblur_band_io_inside_rect (band_io, &all, inside);
}

gboolean
cblur_band_gl_takes_whole (gint               reach,
                           const CblurBandIo *band_io)
{
  const GeglRectangle *inside;
  gint                 scale;

  if (!CBLUR_HAVE_GL || band_io == NULL ||
      cblur_settings ()->backend != CBLUR_BACKEND_CHOICE_AUTO)
    return FALSE;
  inside = &band_io->inside;
  scale = 1 << band_io->level;
  return ((gdouble) inside->width + 2.0 * reach) * ((gdouble) inside->height + 2.0 * reach) *
         scale * scale <= (gdouble) cblur_backend_gpu_whole_image_pixels ();
}

/* Under auto, where the GPU would blur the CPU's band's input whole, at
 * level 0 where the band is a preview's, its first uses rehearse that
 * blur (cblur_gl_expect). */
static void
expect_on_gl (const CblurKernel *kernel,
              const CblurBandIo *band_io,
              const CblurImage  *src,
              const CblurImage  *dst)
{
  if (cblur_band_gl_takes_whole (kernel->reach, band_io))
    cblur_gl_expect (kernel, band_io, src, dst);
}

CblurBandMemory *
cblur_band_memory_new (CblurBackendKind   backend,
                       const CblurKernel *kernel,
                       const CblurBandIo *band_io,
                       CblurImage        *src,
                       CblurImage        *dst)
{
  g_autoptr (CblurBandMemory) band = g_new0 (CblurBandMemory, 1);
  GeglRectangle               inside;
  gboolean                    makes_abyss = reads_inside (kernel, band_io, src, dst, &inside);

  /* the CPU reads rows and writes columns as its passes go */
  if (backend == CBLUR_BACKEND_CPU && !cblur_backend_does_nothing (kernel, dst))
    {
      expect_on_gl (kernel, band_io, src, dst);
      return g_steal_pointer (&band);
    }

  /* where staging fails, so will the blur, which reports why */
  if (backend == CBLUR_BACKEND_GL)
    band->memory = cblur_gl_band_memory_new (kernel, makes_abyss ? band_io : NULL, src, dst,
                                             NULL);
  else if (makes_abyss)
    cblur_band_io_shrink (src, &inside);
  if (band->memory == NULL &&
      !(heap_image (src, &band->heap[0]) && heap_image (dst, &band->heap[1])))
    return NULL;
  return g_steal_pointer (&band);
}

CblurGlBandMemory *
cblur_band_memory_gl (const CblurBandMemory *band)
{
  return band != NULL ? band->memory : NULL;
}

void
cblur_band_memory_free (CblurBandMemory *band)
{
  g_clear_pointer (&band->memory, cblur_gl_band_memory_free);
  cblur_pixels_free (band->heap[0].data);
  cblur_pixels_free (band->heap[1].data);
  g_free (band);
}
