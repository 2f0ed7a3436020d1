#include "config.h"
#include "cblur-backend-offer.h"

#include "cblur-gpu.h"
#include "cblur-machine.h"
#include "cblur-settings.h"

/* the GL backend's band for whole images; on the CPU a 4K image or a
 * 12 MP photo with a long halo */
#define GPU_WHOLE_IMAGE_PIXELS (24 * 1024 * 1024)
#define CPU_WHOLE_IMAGE_PIXELS (16 * 1024 * 1024)

void
cblur_backend_hold_gpu (gboolean hold)
{
  if (hold)
    cblur_gpu_hold ();
  else
    cblur_gpu_unhold ();
}

CblurBackendKind
cblur_backend_likely (void)
{
  CblurBackendChoice choice = cblur_settings ()->backend;

  if (choice == CBLUR_BACKEND_CHOICE_CPU || !CBLUR_HAVE_GL)
    return CBLUR_BACKEND_CPU;
  if (choice == CBLUR_BACKEND_CHOICE_GL || cblur_machine_has_gpu ())
    return CBLUR_BACKEND_GL;
  return CBLUR_BACKEND_CPU;
}

gsize
cblur_backend_region_overhead (CblurBackendKind backend)
{
  return backend == CBLUR_BACKEND_GL ? 1024 * 1024 : 0;
}

gsize
cblur_backend_gpu_whole_image_pixels (void)
{
  return cblur_setting_or (cblur_settings ()->whole_image_pixels, GPU_WHOLE_IMAGE_PIXELS);
}

gsize
cblur_backend_whole_image_pixels (CblurBackendKind backend)
{
  gboolean is_software = TRUE;

  if (backend == CBLUR_BACKEND_CPU)
    return cblur_setting_or (cblur_settings ()->whole_image_pixels, CPU_WHOLE_IMAGE_PIXELS);
  if (cblur_gl_available (&is_software, NULL) && !is_software)
    return cblur_backend_gpu_whole_image_pixels ();
  return 0;
}
