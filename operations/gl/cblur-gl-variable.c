/* The variable blur's GL entry points.  A band's source, output and
 * boxes live in pinned host memory that GEGL reads into and writes from
 * in place; the boxes go to video memory once, and the band is cut
 * into the Gaussian blur's tiles, each uploaded (decoded where it is
 * stored in a cblur-format), blurred along rows then columns, and
 * downloaded (encoded likewise). */
#include "cblur-gl-stream.h"
#include "cblur-gl-variable.h"
#include "cblur-gl-variable-passes.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* The boxes as variable.comp reads them: a box per pixel, or, with
 * CODES, the 256 boxes of a byte's codes, then a byte per pixel, four to
 * a word. */
struct _CblurGlVariableMemory
{
  CblurGlBandMemory band;     /* source and output */
  CblurGpuPinned   *boxes;
  gsize             boxes_size;
  gboolean          codes;
};

#define CODES_TABLE (256 * sizeof (CblurBoxWidth))

/* The boxes' storage buffer in video memory, which stays with the
 * context as the textures do: allocating it costs more than a small blur takes. */
typedef struct
{
  guint buffer;
  gsize size;
} Widths;

static gsize
image_size (CblurImage *image)
{
  image->stride = cblur_image_packed_stride (image);
  return image->stride * image->height * sizeof (gfloat);
}

static gsize
boxes_size (const CblurImage *src,
            gboolean          codes)
{
  gsize n = (gsize) src->width * src->height;

  return codes ? CODES_TABLE + (n + 3) / 4 * 4 : n * sizeof (CblurBoxWidth);
}

/* the memory's three pinned buffers of sizes[], all or none */
typedef struct
{
  CblurGlVariableMemory *memory;
  const gsize           *sizes;
} MemoryNew;

static gboolean
pin (CblurGpu  *gpu,
     gpointer   data,
     GError   **error)
{
  const MemoryNew  *call = data;
  CblurGpuPinned  **pinned[3] = { &call->memory->band.source, &call->memory->band.output,
                                  &call->memory->boxes };
  gint              i;

  for (i = 0; i < 3; i++)
    {
      *pinned[i] = cblur_gpu_pinned_new (gpu, call->sizes[i], error);
      if (*pinned[i] == NULL)
        break;
    }
  if (i == 3)
    return TRUE;
  while (i-- > 0)
    cblur_gpu_pinned_give_back (gpu, g_steal_pointer (pinned[i]));
  return FALSE;
}

/* the pinned buffers of the largest band the CPU blurred while the GPU
 * may yet take the next, for the first uses to pin ahead */
static struct
{
  GMutex lock;
  gsize  sizes[3];
} expected;

void
cblur_gl_variable_expect (const CblurImage *src,
                          const CblurImage *dst,
                          gboolean          codes)
{
  CblurImage src_sized = *src;
  CblurImage dst_sized = *dst;
  gsize      sizes[3] = { image_size (&src_sized), image_size (&dst_sized),
                          boxes_size (src, codes) };

  g_mutex_lock (&expected.lock);
  if (sizes[0] + sizes[1] > expected.sizes[0] + expected.sizes[1])
    memcpy (expected.sizes, sizes, sizeof sizes);
  g_mutex_unlock (&expected.lock);
}

void
cblur_gl_variable_pin_expected (CblurGpu *gpu)
{
  CblurGpuPinned *pinned[3] = { NULL };
  gsize           sizes[3];
  gint            i;

  g_mutex_lock (&expected.lock);
  memcpy (sizes, expected.sizes, sizeof sizes);
  memset (expected.sizes, 0, sizeof expected.sizes);
  g_mutex_unlock (&expected.lock);
  for (i = 0; i < 3 && sizes[0] > 0; i++)
    pinned[i] = cblur_gpu_pinned_new (gpu, sizes[i], NULL);
  for (i = 0; i < 3; i++)
    if (pinned[i] != NULL)
      cblur_gpu_pinned_give_back (gpu, pinned[i]);
}

CblurGlVariableMemory *
cblur_gl_variable_memory_new (CblurImage         *src,
                              CblurImage         *dst,
                              CblurVariableBoxes *boxes,
                              GError            **error)
{
  g_autofree CblurGlVariableMemory *memory = g_new0 (CblurGlVariableMemory, 1);
  gsize                             sizes[3] = {
    image_size (src), image_size (dst), boxes_size (src, boxes->table != NULL)
  };
  MemoryNew                         call = { memory, sizes };

  if (!cblur_gl_run (pin, &call, error))
    return NULL;

  src->data = memory->band.source->data;
  dst->data = memory->band.output->data;
  memory->boxes_size = sizes[2];
  memory->codes = boxes->table != NULL;
  if (memory->codes)
    {
      guint8 *data = memory->boxes->data;

      memcpy (data, boxes->table, CODES_TABLE);
      boxes->codes = data + CODES_TABLE;
      boxes->widths = NULL;
    }
  else
    {
      boxes->widths = memory->boxes->data;
      boxes->codes = NULL;
    }
  memory->band.tiles = 1;
  return g_steal_pointer (&memory);
}

void
cblur_gl_variable_memory_free (CblurGlVariableMemory *memory)
{
  cblur_gpu_pinned_free (memory->band.source);
  cblur_gpu_pinned_free (memory->band.output);
  cblur_gpu_pinned_free (memory->boxes);
  g_free (memory);
}

/* with the context current, when it lets go of its memory or goes */
static void
widths_free (gpointer data)
{
  Widths *widths = data;

  cblur_gpu_buffer_free (&widths->buffer);
  g_free (widths);
}

/* where the boxes go in video memory, which every pass reads */
static gboolean
widths_buffer (CblurGl                     *gl,
               const CblurGlVariableMemory *memory,
               guint                       *buffer,
               GError                     **error)
{
  static const gchar key[] = "cblur-gl-variable-widths";
  Widths            *widths = cblur_gpu_get_data (gl->gpu, key);
  gsize              size = memory->boxes_size;

  if ((gint64) size > gl->limits->max_storage_range)
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                   _("the band's boxes take %d MiB, more than a shader may read from "
                     "one buffer"), (gint) (size >> 20));
      return FALSE;
    }
  if (widths == NULL)
    {
      widths = g_new0 (Widths, 1);
      cblur_gpu_set_data (gl->gpu, key, widths, widths_free);
    }
  if (widths->size < size)
    {
      cblur_gpu_buffer_free (&widths->buffer);
      widths->buffer = cblur_gpu_buffer_new (size, NULL);
      widths->size = size;
    }
  *buffer = widths->buffer;
  return cblur_gpu_check (gl->gpu, "alloc variable widths", error);
}

/* bytes [offset, offset + size) of the boxes into video memory */
static void
copy_widths (const CblurGlVariableMemory *memory,
             guint                        buffer,
             gsize                        offset,
             gsize                        size)
{
  cblur_gpu_copy (memory->boxes->buffer, offset, buffer, offset, size);
  cblur_gpu_barrier (CBLUR_GPU_BARRIER_BUFFER_UPDATE);
}

/* Where the boxes of src's rows [first, first + n) lie: a byte or a box a
 * pixel, after the table of a byte's boxes. */
static void
rows_of_widths (const CblurGlVariableMemory *memory,
                const CblurImage            *src,
                gint                         first,
                gint                         n,
                gsize                       *offset,
                gsize                       *size)
{
  gsize row = memory->codes ? (gsize) src->width : src->width * sizeof (CblurBoxWidth);

  *offset = (memory->codes ? CODES_TABLE : 0) + first * row;
  *size = n * row;
}

/* A streamed tile's passes: before each run of rows' passes, their boxes
 * go up. */
typedef struct
{
  const CblurGlVariablePasses *passes;
  const CblurGlVariableMemory *memory;
  const CblurImage            *src;
  guint                        widths;
} Streamed;

static void
streamed_rows (gconstpointer      data,
               const CblurGlTile *tile,
               gint               first,
               gint               n)
{
  const Streamed *s = data;
  gsize           offset, size;

  rows_of_widths (s->memory, s->src, tile->y + tile->inside.y - s->src->y + first, n, &offset,
                  &size);
  copy_widths (s->memory, s->widths, offset, size);
  cblur_gl_variable_passes_rows (s->passes, tile, first, n);
}

static const CblurGpuTexture *
streamed_columns (gconstpointer      data,
                  const CblurGlTile *tile,
                  gint               first,
                  gint               n)
{
  return cblur_gl_variable_passes_columns (((const Streamed *) data)->passes, tile);
}

/* the tile as the rows come, its output once all have: the table of a
 * byte's boxes first */
static gboolean
blur_streamed (CblurGl                     *gl,
               const CblurGlVariablePasses *passes,
               const CblurGlVariableMemory *memory,
               const CblurGlJob            *job,
               CblurStreamRun              *run,
               const CblurGlTile           *tile,
               GError                     **error)
{
  Streamed            s = { passes, memory, job->src, passes->widths };
  CblurGlStreamPasses stream = { &s, passes->stamps, passes->variable->reach,
                                 job->dst->height, streamed_rows, streamed_columns, NULL };

  if (memory->codes)
    copy_widths (memory, s.widths, 0, CODES_TABLE);
  return cblur_gl_blur_streamed (gl, &stream, job, run, tile, error);
}

/* the levels' textures, counted as textures of a tile's size: a level's
 * cells and its blur's scratch hold the tile over f^2 (f is 2 or more
 * but for a level close above the base) */
#define LEVEL_TEXTURES 4

/* tiles of dst that fit a texture and the GPU's memory with their halo */
static GArray *
plan_tiles (CblurGl             *gl,
            const CblurVariable *variable,
            const CblurImage    *src,
            GeglAbyssPolicy      abyss,
            const CblurImage    *dst,
            GError             **error)
{
  CblurGlPlan        plan;
  g_autoptr (GArray) tiles = NULL;
  gint               textures = CBLUR_GL_VARIABLE_TEXTURES +
                                (variable->n_levels > 0 ? LEVEL_TEXTURES : 0);

  if (!cblur_gl_plan (gl, variable->reach, textures, dst, &plan, error))
    return NULL;
  tiles = cblur_gl_tiles_new (&plan, variable->reach, src, abyss, dst);
  if (!cblur_gl_tiles_can_make_abyss (tiles, src, error))
    return NULL;
  return g_steal_pointer (&tiles);
}

static const CblurGpuTexture *
variable_passes (gconstpointer      passes,
                 const CblurGlTile *tile)
{
  return cblur_gl_variable_passes_run (passes, tile);
}

static gboolean
blur_band (CblurGl                     *gl,
           const CblurGlVariableMemory *memory,
           const CblurVariable         *variable,
           const CblurImage            *src,
           const CblurVariableMasks    *masks,
           GeglAbyssPolicy              abyss,
           CblurStreamRun              *run,
           const CblurImage            *dst,
           CblurGlReport               *report,
           GError                     **error)
{
  CblurGlJob            job = { &memory->band, src, dst };
  CblurGlVariablePasses passes = { 0 };
  CblurGlVariableLevels levels = { .most = -1 };
  CblurGlSize           sizes[CBLUR_GL_VARIABLE_TEXTURES];
  CblurGlStamps         stamps;
  g_autoptr (GArray)    tiles = plan_tiles (gl, variable, src, abyss, dst, error);
  guint                 widths = 0;
  gboolean              ok = tiles != NULL;
  gboolean              streams;

  if (!ok)
    return FALSE;
  report->tiles = tiles->len;
  /* a band of several tiles goes whole once all of it is read */
  if (run != NULL && (tiles->len != 1 || abyss == GEGL_ABYSS_LOOP))
    cblur_stream_wait_read (run, src->height, -1);
  streams = run != NULL && tiles->len == 1 && abyss != GEGL_ABYSS_LOOP;
  cblur_gl_variable_texture_sizes (variable, tiles, sizes);
  cblur_gl_stamps_init (&stamps);
  cblur_gl_stamp (&stamps, CBLUR_GL_SPAN_UPLOAD);
  ok = widths_buffer (gl, memory, &widths, error);
  if (ok && !streams)
    copy_widths (memory, widths, 0, memory->boxes_size);
  cblur_gl_stamp (&stamps, CBLUR_GL_SPAN_UPLOAD);
  ok = ok && cblur_gl_textures_reserve (gl, CBLUR_GL_VARIABLE_TEXTURES, sizes, error) &&
       cblur_gl_variable_passes_init (gl, variable, widths, memory->codes, src, abyss,
                                      &stamps, &passes, error) &&
       cblur_gl_variable_levels_init (gl, variable, masks, memory->codes ? widths : 0, src,
                                      dst, abyss, tiles, &levels, error) &&
       /* a result of whole rows is encoded straight into the pinned memory */
       cblur_gl_convert_prepare (gl, src, dst, tiles->len > 1 ? sizes[CBLUR_GL_OUTPUT].height : 0,
                                 error);
  passes.levels = levels.most >= 0 ? &levels : NULL;
  if (ok && streams)
    ok = blur_streamed (gl, &passes, memory, &job, run, &g_array_index (tiles, CblurGlTile, 0),
                        error);
  else if (ok)
    ok = cblur_gl_tiles_run (gl, tiles, variable->reach, &job, variable_passes, &passes,
                             &stamps, error);
  if (ok && run != NULL && !streams)
    cblur_stream_release (run, dst->height);
  cblur_gl_variable_levels_clear (&levels);
  cblur_gl_stamps_clear (&stamps, ok ? report : NULL);
  return ok;
}

/* cblur_gl_variable_blur()'s arguments, for its task */
typedef struct
{
  const CblurGlVariableMemory *memory;
  const CblurVariable         *variable;
  const CblurImage            *src;
  const CblurVariableMasks    *masks;
  const CblurGlSource         *source;
  const CblurImage            *dst;
  CblurGlReport               *report;
} Blur;

static gboolean
blur (CblurGpu  *gpu,
      gpointer   data,
      GError   **error)
{
  const Blur *call = data;
  CblurGl     gl;

  cblur_gl_view (gpu, &gl, call->report);
  gl.no_wait = call->source->no_wait;
  return blur_band (&gl, call->memory, call->variable, call->src, call->masks,
                    call->source->abyss, call->source->run, call->dst, call->report, error);
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
  Blur call = { memory, variable, src, masks, source, dst, report };

  memset (report, 0, sizeof *report);
  g_return_val_if_fail (!cblur_variable_is_identity (variable), FALSE);
  g_return_val_if_fail (dst->width > 0 && dst->height > 0, FALSE);
  return cblur_gl_run (blur, &call, error);
}
