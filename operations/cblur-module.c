/* The module GEGL loads: one for all of the project's ops, so that they
 * share one GL context, one pool of memory and one set of settings. */
#include <gegl-plugin.h>

void gegl_op_cblur_gaussian_blur_register_type (GTypeModule *module);
void gegl_op_cblur_variable_blur_register_type (GTypeModule *module);
void gegl_op_cblur_unsharp_mask_register_type (GTypeModule *module);
void gegl_op_cblur_high_pass_register_type (GTypeModule *module);
void gegl_op_cblur_difference_of_gaussians_register_type (GTypeModule *module);

G_MODULE_EXPORT const GeglModuleInfo *gegl_module_query    (GTypeModule *module);
G_MODULE_EXPORT gboolean              gegl_module_register (GTypeModule *module);

static const GeglModuleInfo modinfo = { GEGL_MODULE_ABI_VERSION };

G_MODULE_EXPORT const GeglModuleInfo *
gegl_module_query (GTypeModule *module)
{
  return &modinfo;
}

G_MODULE_EXPORT gboolean
gegl_module_register (GTypeModule *module)
{
  gegl_op_cblur_gaussian_blur_register_type (module);
  gegl_op_cblur_variable_blur_register_type (module);
  gegl_op_cblur_unsharp_mask_register_type (module);
  gegl_op_cblur_high_pass_register_type (module);
  gegl_op_cblur_difference_of_gaussians_register_type (module);
  return TRUE;
}
