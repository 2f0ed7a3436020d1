#include "cblur-kept.h"

#include "cblur-memory.h"

/* A 4K image at mipmap level 1, with room to spare: larger images are
 * shown at level 0 only in parts, whose halo changes with the radius. */
#define KEPT_PIXELS_MAX ((gint64) 4 * 1024 * 1024)

/* Margins grow in steps, so that a slider's reach, growing a little each
 * frame, makes the room again only now and then. */
#define MARGIN_STEP 128

struct _CblurKept
{
  GMutex             lock;
  gconstpointer      source;      /* cblur_kept_source's */
  gint               level;
  /* what the pixels are for */
  GeglRectangle      rect;
  const CblurFormat *format;
  gboolean           straight;
  gint               group_rows;
  gint               margin;
  gint               blurs;       /* taken for that since the source changed */
  CblurPixel        *pixels;      /* room for rect, once a second blur asks */
  gboolean           held;        /* the pixels are the source's */
  gboolean           taken;
  gboolean           changed;     /* the source changed while taken */
};

CblurKept *
cblur_kept_new (void)
{
  CblurKept *kept = g_new0 (CblurKept, 1);

  g_mutex_init (&kept->lock);
  return kept;
}

void
cblur_kept_free (CblurKept *kept)
{
  g_return_if_fail (!kept->taken);
  g_clear_pointer (&kept->pixels, cblur_pixels_free);
  g_mutex_clear (&kept->lock);
  g_free (kept);
}

/* under the lock */
static void
let_go (CblurKept *kept)
{
  kept->held = FALSE;
  kept->blurs = 0;
  kept->changed = kept->taken;
}

void
cblur_kept_forget (CblurKept *kept)
{
  g_mutex_lock (&kept->lock);
  let_go (kept);
  g_mutex_unlock (&kept->lock);
}

void
cblur_kept_source (CblurKept     *kept,
                   gconstpointer  source,
                   gint           level)
{
  g_mutex_lock (&kept->lock);
  if (source != kept->source || level != kept->level)
    let_go (kept);
  kept->source = source;
  kept->level = level;
  g_mutex_unlock (&kept->lock);
}

static gboolean
is_for (const CblurKept     *kept,
        const GeglRectangle *rect,
        const CblurFormat   *format,
        gboolean             straight,
        gint                 group_rows,
        gint                 margin)
{
  return gegl_rectangle_equal (&kept->rect, rect) && kept->format == format &&
         kept->straight == straight && kept->group_rows == group_rows &&
         kept->margin >= margin;
}

/* under the lock, not taken: the room made for this blur */
static void
make_for (CblurKept           *kept,
          const GeglRectangle *rect,
          const CblurFormat   *format,
          gboolean             straight,
          gint                 group_rows,
          gint                 margin)
{
  if (!is_for (kept, rect, format, straight, group_rows, margin))
    {
      g_clear_pointer (&kept->pixels, cblur_pixels_free);
      let_go (kept);
      kept->rect = *rect;
      kept->format = format;
      kept->straight = straight;
      kept->group_rows = group_rows;
      kept->margin = (margin + MARGIN_STEP - 1) / MARGIN_STEP * MARGIN_STEP;
    }
  /* the first blur of a source may be its only one */
  if (++kept->blurs >= 2 && kept->pixels == NULL)
    kept->pixels = cblur_pixels_alloc ((gsize) (rect->height + group_rows - 1) / group_rows *
                                       group_rows * (rect->width + 2 * kept->margin) *
                                       sizeof (CblurPixel));
}

CblurPixel *
cblur_kept_take (CblurKept           *kept,
                 const GeglRectangle *rect,
                 const CblurFormat   *format,
                 gboolean             straight,
                 gint                 group_rows,
                 gint                *margin,
                 gboolean            *held)
{
  CblurPixel *pixels = NULL;

  if ((gint64) rect->width * rect->height > KEPT_PIXELS_MAX || rect->width <= 0 ||
      rect->height <= 0)
    return NULL;
  g_mutex_lock (&kept->lock);
  if (!kept->taken)
    {
      make_for (kept, rect, format, straight, group_rows, *margin);
      pixels = kept->pixels;
      kept->taken = pixels != NULL;
      *margin = kept->margin;
      *held = kept->held;
    }
  g_mutex_unlock (&kept->lock);
  return pixels;
}

void
cblur_kept_give_back (CblurKept *kept)
{
  g_mutex_lock (&kept->lock);
  kept->held = !kept->changed;
  kept->taken = FALSE;
  kept->changed = FALSE;
  g_mutex_unlock (&kept->lock);
}
