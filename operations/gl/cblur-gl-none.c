/* The GPU's contract in a build without GL (meson -Dgl=disabled): there is
 * never a context, and the backend choice leaves every band to the CPU, so
 * blurring and pinned memory are never reached; they fail as GL fails
 * where it has no context. */
#include "cblur-gl.h"
#include "cblur-gl-variable.h"
#include "cblur-gl-combine.h"

#include <glib/gi18n-lib.h>
#include "cblur-i18n.h"

G_DEFINE_QUARK (cblur-gl-error-quark, cblur_gl_error)

static gboolean
no_gl (GError **error)
{
  g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_NO_CONTEXT,
                       _("this build has no GL (meson -Dgl=disabled)"));
  return FALSE;
}

gboolean
cblur_gl_available (gboolean  *is_software,
                    GError   **error)
{
  return no_gl (error);
}

void
cblur_gl_start (CblurGlBlurs blurs,
                gint64       pause_us)
{
}

gboolean
cblur_gl_started_for (CblurGlBlurs blurs)
{
  return FALSE;
}

gboolean
cblur_gl_blur (const CblurGlBandMemory *memory,
               const CblurKernel       *kernel,
               const CblurImage        *src,
               const CblurImage        *dst,
               const CblurGlSource     *source,
               CblurGlReport           *report,
               GError                 **error)
{
  return no_gl (error);
}

CblurGpuState
cblur_gpu_state (gboolean   start,
                 gboolean  *is_software,
                 GError   **error)
{
  no_gl (error);
  return CBLUR_GPU_FAILED;
}

void
cblur_gpu_hold (void)
{
}

gboolean
cblur_gpu_prepared (void)
{
  return FALSE;
}

void
cblur_gpu_on_made (CblurGpuWarmUp warm_up)
{
}

void
cblur_gpu_on_linked (CblurGpuWarmUp first_use)
{
}

void
cblur_gl_prepare_all (CblurGpu *gpu)
{
}

void
cblur_gl_first_use (CblurGpu *gpu)
{
}

void
cblur_gl_expect (const CblurKernel *kernel,
                 const CblurBandIo *band_io,
                 const CblurImage  *src,
                 const CblurImage  *dst)
{
}

void
cblur_gpu_unhold (void)
{
}

CblurGlBandMemory *
cblur_gl_band_memory_new (const CblurKernel  *kernel,
                          const CblurBandIo  *band_io,
                          CblurImage         *source,
                          CblurImage         *output,
                          GError            **error)
{
  no_gl (error);
  return NULL;
}

gboolean
cblur_gl_band_memory_streams (const CblurGlBandMemory *memory)
{
  return FALSE;
}

void
cblur_gl_band_memory_free (CblurGlBandMemory *memory)
{
}

CblurGlVariableMemory *
cblur_gl_variable_memory_new (CblurImage         *src,
                              CblurImage         *dst,
                              CblurVariableBoxes *boxes,
                              GError            **error)
{
  no_gl (error);
  return NULL;
}

void
cblur_gl_variable_memory_free (CblurGlVariableMemory *memory)
{
}

void
cblur_gl_variable_expect (const CblurImage *src,
                          const CblurImage *dst,
                          gboolean          codes)
{
}

void
cblur_gl_variable_pin_expected (CblurGpu *gpu)
{
}

gboolean
cblur_gl_variable_blur (const CblurGlVariableMemory *memory,
                        const CblurVariable         *variable,
                        const CblurImage            *src,
                        const CblurVariableMasks    *masks,
                        const CblurGlSource         *source,
                        const CblurImage            *dst,
                        CblurGlReport               *report,
                        GError                     **error)
{
  return no_gl (error);
}

gint
cblur_gl_combine_reach (const CblurGlCombine *combine)
{
  return 0;
}

gboolean
cblur_gl_combine (const CblurGlBandMemory *memory,
                  const CblurGlCombine    *combine,
                  const CblurImage        *src,
                  const CblurImage        *dst,
                  CblurGlReport           *report,
                  GError                 **error)
{
  return no_gl (error);
}

void
cblur_gl_combine_expect (const CblurGlCombine *combine,
                         const GeglRectangle  *inside,
                         const CblurFormat    *src_format,
                         const CblurFormat    *dst_format)
{
}
