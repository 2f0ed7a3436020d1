#include "bench-method.h"

#include <string.h>

#include "cblur-settings.h"

const BenchMethod bench_methods[] = {
  { "cpu-direct",  "cblur:gaussian-blur", "cpu", "direct" },
  { "cpu-box",     "cblur:gaussian-blur", "cpu", "box" },
  { "cpu-auto",    "cblur:gaussian-blur", "cpu", "auto" },
  { "gl-direct",   "cblur:gaussian-blur", "gl",  "direct" },
  { "gl-box",      "cblur:gaussian-blur", "gl",  "box" },
  { "gl-auto",     "cblur:gaussian-blur", "gl",  "auto" },
  { "auto",        "cblur:gaussian-blur", "auto", "auto" },
  { "gegl-iir",    "gegl:gaussian-blur",  NULL,  "iir" },
  { "gegl-fir",    "gegl:gaussian-blur",  NULL,  "fir" },
  { "cpu-variable", "cblur:variable-blur", "cpu", NULL },
  { "gl-variable", "cblur:variable-blur", "gl", NULL },
  { "auto-variable", "cblur:variable-blur", "auto", NULL },
  { "gegl-variable", "gegl:variable-blur", NULL, NULL },
  { "cpu-unsharp",  "cblur:unsharp-mask", "cpu",  NULL },
  { "gl-unsharp",   "cblur:unsharp-mask", "gl",   NULL },
  { "auto-unsharp", "cblur:unsharp-mask", "auto", NULL },
  { "cpu-unsharp-threshold", "cblur:unsharp-mask", "cpu", "threshold" },
  { "gl-unsharp-threshold", "cblur:unsharp-mask", "gl", "threshold" },
  { "auto-unsharp-threshold", "cblur:unsharp-mask", "auto", "threshold" },
  { "gegl-unsharp", "gegl:unsharp-mask",  NULL,   NULL },
  { "gegl-unsharp-threshold", "gegl:unsharp-mask", NULL, "threshold" },
  { "cpu-high-pass",  "cblur:high-pass", "cpu",  NULL },
  { "gl-high-pass",   "cblur:high-pass", "gl",   NULL },
  { "auto-high-pass", "cblur:high-pass", "auto", NULL },
  { "gegl-high-pass", "gegl:high-pass",  NULL,   NULL },
  { "cpu-dog",  "cblur:difference-of-gaussians", "cpu",  NULL },
  { "gl-dog",   "cblur:difference-of-gaussians", "gl",   NULL },
  { "auto-dog", "cblur:difference-of-gaussians", "auto", NULL },
  { "gegl-dog", "gegl:difference-of-gaussians",  NULL,   NULL },
  { "gegl-io",     "gegl:convert-format", NULL,  NULL },
  { "gegl-invert", "gegl:invert-linear",  NULL,  NULL },
  { "gegl-nop",    "gegl:nop",            NULL,  NULL },
};

const gsize bench_n_methods = G_N_ELEMENTS (bench_methods);

gboolean
bench_method_is_gegl (const BenchMethod *method)
{
  return method->backend == NULL;
}

static void
set_enum (GeglNode    *node,
          const gchar *property,
          const gchar *nick)
{
  GParamSpec           *spec = gegl_node_find_property (node, property);
  g_autoptr (GEnumClass) enums = g_type_class_ref (G_PARAM_SPEC_VALUE_TYPE (spec));
  GEnumValue           *value = g_enum_get_value_by_nick (enums, nick);

  g_assert (value != NULL);
  gegl_node_set (node, property, value->value, NULL);
}

gboolean
bench_method_is_combine (const BenchMethod *method)
{
  const gchar *name = strchr (method->operation, ':') + 1;

  return g_str_equal (name, "unsharp-mask") || g_str_equal (name, "high-pass") ||
         g_str_equal (name, "difference-of-gaussians");
}

/* the blurs with arithmetic, cblur's and GEGL's alike: std-dev = radius /
 * 3, the difference's second blur twice the first (GEGL's defaults' ratio) */
static gboolean
set_std_dev (GeglNode          *node,
             const BenchMethod *method,
             gdouble            radius)
{
  const gchar *name = strchr (method->operation, ':') + 1;

  if (g_str_equal (name, "unsharp-mask") || g_str_equal (name, "high-pass"))
    gegl_node_set (node, "std-dev", radius / 3.0, NULL);
  else if (g_str_equal (name, "difference-of-gaussians"))
    gegl_node_set (node, "radius1", radius / 3.0, "radius2", 2.0 * radius / 3.0, NULL);
  else
    return FALSE;
  return TRUE;
}

void
bench_method_set_radius (GeglNode          *node,
                         const BenchMethod *method,
                         gdouble            radius)
{
  if (set_std_dev (node, method, radius))
    return;
  if (g_str_equal (method->operation, "gegl:gaussian-blur"))
    gegl_node_set (node, "std-dev-x", radius / 3.0, "std-dev-y", radius / 3.0, NULL);
  else if (method->backend != NULL || g_str_equal (method->operation, "gegl:variable-blur"))
    gegl_node_set (node, "radius", radius, NULL);
}

GeglNode *
bench_method_node (GeglNode          *graph,
                   const BenchMethod *method,
                   gdouble            radius)
{
  GeglNode *node = gegl_node_new_child (graph, "operation", method->operation, NULL);

  if (g_strcmp0 (method->mode, "threshold") == 0)
    gegl_node_set (node, "threshold", 0.1, NULL);
  if (g_str_equal (method->operation, "gegl:convert-format"))
    gegl_node_set (node, "format", babl_format ("RaGaBaA float"), NULL);
  else if (g_str_equal (method->operation, "gegl:gaussian-blur"))
    set_enum (node, "filter", method->mode);
  else if (method->backend != NULL)
    {
      g_setenv ("CBLUR_BACKEND", method->backend, TRUE);
      cblur_settings_reload ();
      if (method->mode != NULL && gegl_node_find_property (node, "mode") != NULL)
        set_enum (node, "mode", method->mode);
    }
  bench_method_set_radius (node, method, radius);
  return node;
}
