/* Which of GEGL's formats the op reads and writes as they are stored:
 * their layouts and sample types, made once a process with their curves;
 * the conversions are cblur-format-convert.c's. */
#include "cblur-format.h"

#include <string.h>

/* how the components of an encoding map onto RGBA */
typedef struct
{
  const gchar *components;
  const gchar *linear;       /* the same components without a curve */
  gint         n_components;
  gboolean     has_alpha;
  gboolean     grey;
} Layout;

/* "'" components carry the space's curve, "~" ones sRGB's in any space */
static const Layout layouts[] = {
  { "RGBA",    "RGBA", 4, TRUE,  FALSE },
  { "R'G'B'A", "RGBA", 4, TRUE,  FALSE },
  { "R~G~B~A", "RGBA", 4, TRUE,  FALSE },
  { "RGB",     "RGB",  3, FALSE, FALSE },
  { "R'G'B'",  "RGB",  3, FALSE, FALSE },
  { "R~G~B~",  "RGB",  3, FALSE, FALSE },
  { "YA",      "YA",   2, TRUE,  TRUE },
  { "Y'A",     "YA",   2, TRUE,  TRUE },
  { "Y~A",     "YA",   2, TRUE,  TRUE },
  { "Y",       "Y",    1, FALSE, TRUE },
  { "Y'",      "Y",    1, FALSE, TRUE },
  { "Y~",      "Y",    1, FALSE, TRUE },
};

static const struct
{
  const gchar     *name;
  CblurSampleType  type;
  gint             bytes;
} sample_types[] = {
  { "u8",    CBLUR_SAMPLE_U8,    1 },
  { "u16",   CBLUR_SAMPLE_U16,   2 },
  { "half",  CBLUR_SAMPLE_HALF,  2 },
  { "float", CBLUR_SAMPLE_FLOAT, 4 },
};

/* The curves of an integer format's components, from babl's conversions
 * between them and the same components without a curve. */
static void
make_curves (CblurFormat  *format,
             const Layout *layout,
             const Babl   *space)
{
  g_autofree gchar *linear = g_strconcat (layout->linear, " double", NULL);
  g_autofree gchar *curved = g_strconcat (layout->components, " double", NULL);

  cblur_curves_make (babl_format_with_space (linear, space),
                     babl_format_with_space (curved, space), format->n_components,
                     format->type == CBLUR_SAMPLE_U8 ? 255 : 65535, format->curves);
}

/* Whether half or float samples of layout in space carry the sRGB curve,
 * which cblur-srgb.h computes: a perceptual layout's ("~") always, a
 * curved one's ("'") where the space's three curves are babl's sRGB.  The
 * op leaves other curves to babl. */
static gboolean
has_srgb_curve (const Layout *layout,
                const Babl   *space)
{
  const Babl *trc[3];
  const Babl *srgb = babl_trc ("sRGB");

  if (strchr (layout->components, '~') != NULL)
    return TRUE;
  babl_space_get (space, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &trc[0], &trc[1],
                  &trc[2]);
  return trc[0] == srgb && trc[1] == srgb && trc[2] == srgb;
}

/* the layout and sample type of format's encoding, if the op covers it */
static gboolean
parse_encoding (const Babl    *format,
                const Layout **layout,
                gint          *type)
{
  const gchar   *encoding = babl_format_get_encoding (format);
  g_auto (GStrv) words = encoding != NULL ? g_strsplit (encoding, " ", -1) : NULL;
  gsize          i;

  if (words == NULL || g_strv_length (words) != 2)
    return FALSE;
  *layout = NULL;
  *type = -1;
  for (i = 0; i < G_N_ELEMENTS (layouts); i++)
    if (g_str_equal (words[0], layouts[i].components))
      *layout = &layouts[i];
  for (i = 0; i < G_N_ELEMENTS (sample_types); i++)
    if (g_str_equal (words[1], sample_types[i].name))
      *type = i;
  return *layout != NULL && *type >= 0;
}

static CblurFormat *
format_new (const Babl *babl)
{
  const Babl   *space = babl_format_get_space (babl);
  const Layout *layout;
  CblurFormat  *format;
  gint          type;
  gboolean      curved;

  if (!parse_encoding (babl, &layout, &type) || babl_space_is_cmyk (space))
    return NULL;
  /* float and half samples are converted as they are, or on sRGB's curve */
  curved = !g_str_equal (layout->components, layout->linear);
  if (sample_types[type].type >= CBLUR_SAMPLE_HALF && curved && !has_srgb_curve (layout, space))
    return NULL;
  if (babl_format_get_n_components (babl) != layout->n_components ||
      babl_format_get_bytes_per_pixel (babl) != layout->n_components * sample_types[type].bytes)
    return NULL;

  format = g_new0 (CblurFormat, 1);
  format->babl = babl;
  format->type = sample_types[type].type;
  format->n_components = layout->n_components;
  format->has_alpha = layout->has_alpha;
  format->grey = layout->grey;
  format->bytes_per_pixel = babl_format_get_bytes_per_pixel (babl);
  format->srgb = curved && format->type >= CBLUR_SAMPLE_HALF;
  if (format->type <= CBLUR_SAMPLE_U16)
    make_curves (format, layout, space);
  if (format->type == CBLUR_SAMPLE_U8 && format->n_components == 4)
    format->lanes = cblur_lanes_new (format->curves);
  return format;
}

/* Formats are made once and live as long as the process, as babl's own
 * do. */
const CblurFormat *
cblur_format_get (const Babl *format)
{
  static GMutex      lock;
  static GHashTable *made;
  CblurFormat       *found;

  g_mutex_lock (&lock);
  if (made == NULL)
    made = g_hash_table_new (NULL, NULL);
  if (!g_hash_table_lookup_extended (made, format, NULL, (gpointer *) &found))
    {
      found = format_new (format);
      g_hash_table_insert (made, (gpointer) format, found);
    }
  g_mutex_unlock (&lock);
  return found;
}

/* A float or half format with alpha that the op does not convert itself
 * (perceptual float on a curve other than sRGB's, say) holds a premultiplied float result as
 * well as premultiplied float does: babl converts it on the threads that
 * write the result, where a host's single render thread would convert
 * it on the way to the image or the screen. */
static gboolean
holds_float_result (const Babl *format)
{
  const Babl *type = babl_format_get_type (format, 0);
  gint        n = babl_format_get_n_components (format);
  gint        c;

  if (!babl_format_has_alpha (format) || babl_space_is_cmyk (babl_format_get_space (format)) ||
      babl_get_model_flags (babl_format_get_model (format)) & BABL_MODEL_FLAG_CMYK)
    return FALSE;
  for (c = 0; c < n; c++)
    if (babl_format_get_type (format, c) != type)
      return FALSE;
  return type == babl_type ("float") || type == babl_type ("half");
}

const Babl *
cblur_format_for_source (const Babl *source,
                         const Babl *space)
{
  if (source != NULL && (cblur_format_get (source) != NULL || holds_float_result (source)))
    return source;
  return babl_format_with_space ("RaGaBaA float", space);
}

/* A host reads a half result through babl's half conversions, several
 * times slower than its float ones (GIMP composites and displays float):
 * the op gives a covered half source's result in the same model in
 * float, which holds every half value.  An uncovered half format keeps
 * its own, whose bits babl's conversion from premultiplied float gives. */
const Babl *
cblur_format_for_result (const Babl *format)
{
  const Babl       *half = babl_type ("half");
  gint              n = babl_format_get_n_components (format);
  g_autofree gchar *name = NULL;
  gint              c;

  if (cblur_format_get (format) == NULL)
    return format;
  for (c = 0; c < n; c++)
    if (babl_format_get_type (format, c) != half)
      return format;
  name = g_strdup_printf ("%s float", babl_get_name (babl_format_get_model (format)));
  return babl_format_with_space (name, babl_format_get_space (format));
}

gboolean
cblur_format_is_rgba_float (const CblurFormat *format)
{
  return format != NULL && format->type == CBLUR_SAMPLE_FLOAT && format->n_components == 4 &&
         !format->grey && !format->srgb;
}
