/* One tile, streamed: rows go up as GEGL's threads read them; their
 * passes run as soon as the rows they need are there, stripe by stripe,
 * and each stripe comes down in lots that GEGL's threads write while the
 * rest are on their way. */
#include "cblur-gl-stream.h"

/* a stripe comes down in lots of this many rows, each handed on to GEGL
 * once there */
#define DOWNLOAD_ROWS 128

/* how often the streaming thread looks whether lots are down while it
 * waits for rows to upload */
#define POLL_US 100

/* a lot on its way down: done when the fence is, up to output row end */
typedef struct
{
  CblurGpuFence *fence;
  gint   end;
} Lot;

static void
lot_clear (gpointer data)
{
  cblur_gpu_fence_free (((Lot *) data)->fence);
}

/* Where the streamed tile stands on the GPU: its input rows up to `ready`
 * have their horizontal passes done, or need none; its output rows up to
 * `out` their vertical passes, and are on their way down, a fence after
 * each lot. */
typedef struct
{
  const CblurGlTile         *tile;
  CblurGl                   *gl;
  const CblurGlStreamPasses *passes;
  const CblurGlJob          *job;
  gint                       ready;
  gint                       out;
  GArray                    *lots;
  guint                      released;   /* lots handed to GEGL */
} Streamed;

static void
send_down (Streamed              *s,
           const CblurGpuTexture *result,
           gint                   first,
           gint                   n_rows)
{
  gint row;

  cblur_gl_download_barrier ();
  for (row = first; row < first + n_rows; row += DOWNLOAD_ROWS)
    {
      GeglRectangle rows = { 0, row, s->job->dst->width,
                             MIN (DOWNLOAD_ROWS, first + n_rows - row) };
      Lot         lot;

      cblur_gl_stamp (s->passes->stamps, CBLUR_GL_SPAN_DOWNLOAD);
      cblur_gl_download (s->gl, s->job, result, &rows, row);
      cblur_gl_stamp (s->passes->stamps, CBLUR_GL_SPAN_DOWNLOAD);
      lot.fence = cblur_gpu_fence (s->gl->gpu);
      lot.end = row + rows.height;
      g_array_append_val (s->lots, lot);
    }
  /* the next uploads go into a texture that shaders write */
  cblur_gpu_barrier (CBLUR_GPU_BARRIER_TEXTURE_UPDATE);
}

/* The horizontal passes of input rows [ready, complete) that lie inside
 * the image.  The abyss's rows above and below need none: the vertical
 * passes read them from the edge rows' results, or the made row's, or
 * under loop from the far side's (common.glsl's map). */
static void
advance_rows (Streamed *s,
              gint      complete)
{
  const GeglRectangle *inside = &s->tile->inside;
  gint                 first = MAX (s->ready, inside->y);
  gint                 end = MIN (complete, inside->y + inside->height);

  if (end > first)
    s->passes->rows (s->passes->passes, s->tile, first - inside->y, end - first);
  s->ready = complete;
}

/* Input rows up to `complete` are uploaded: their abyss, their
 * horizontal passes, and the vertical passes of every stripe that has all
 * its rows. */
static gboolean
advance (Streamed  *s,
         gint       complete,
         GError   **error)
{
  gint reach = s->passes->reach;
  gint stripe = s->passes->stripe;

  if (complete > s->ready)
    advance_rows (s, complete);

  while (s->out < s->job->dst->height &&
         (s->ready == s->tile->in_height || s->out + stripe + 2 * reach <= s->ready))
    {
      gint                   n_rows = MIN (stripe, s->job->dst->height - s->out);
      const CblurGpuTexture *result = s->passes->columns (s->passes->passes, s->tile, s->out,
                                                          n_rows);

      send_down (s, result, s->out, n_rows);
      s->out += n_rows;
    }
  cblur_gpu_flush ();
  return cblur_gpu_check (s->gl->gpu, "dispatch stripes", error);
}

/* The output rows whose lots are down, without waiting: GEGL's threads
 * may write them. */
static gint
rows_arrived (Streamed *s)
{
  gint rows = 0;

  while (s->released < s->lots->len)
    {
      const Lot *lot = &g_array_index (s->lots, Lot, s->released);

      if (!cblur_gpu_passed (lot->fence))
        break;
      rows = lot->end;
      s->released++;
    }
  return rows;
}

/* The whole tile at once, once all its rows are up. */
static gboolean
blur_whole (Streamed  *s,
            GError   **error)
{
  send_down (s, s->passes->whole (s->passes->passes, s->tile), 0, s->job->dst->height);
  cblur_gpu_flush ();
  return cblur_gpu_check (s->gl->gpu, "dispatch tile", error);
}

gboolean
cblur_gl_blur_streamed (CblurGl                   *gl,
                        const CblurGlStreamPasses *passes,
                        const CblurGlJob          *job,
                        CblurStreamRun            *run,
                        const CblurGlTile         *tile,
                        GError                   **error)
{
  const GeglRectangle *inside = &tile->inside;
  g_autoptr (GArray)   lots = g_array_new (FALSE, FALSE, sizeof (Lot));
  Streamed             s = { tile, gl, passes, job, 0, 0, lots, 0 };
  /* the rows of job's src that run has read and are not yet up */
  GeglRectangle        read = { tile->x + inside->x - job->src->x,
                                tile->y + inside->y - job->src->y, inside->width, 0 };
  gboolean             in_stripes = passes->stripe > 0 &&
                                    !(tile->abyss == GEGL_ABYSS_LOOP &&
                                      inside->height < tile->in_height);
  gint                 uploaded = 0;
  guint                i;

  g_array_set_clear_func (lots, lot_clear);
  while (uploaded < inside->height)
    {
      gint arrived = rows_arrived (&s);
      /* with lots on their way down, looking in on them now and then */
      gint rows = cblur_stream_release_and_wait (run, arrived, uploaded,
                                                 s.released < lots->len ? POLL_US : -1);

      if (rows == uploaded)
        continue;
      read.height = rows - uploaded;
      cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_UPLOAD);
      cblur_gl_upload (gl, job, &read, uploaded);
      cblur_gl_stamp (passes->stamps, CBLUR_GL_SPAN_UPLOAD);
      read.y += read.height;
      uploaded = rows;
      /* the abyss below the image waits for its last row */
      if (in_stripes && !advance (&s, uploaded == inside->height ? tile->in_height
                                                               : inside->y + uploaded, error))
        return FALSE;
      /* the copy starts now, not when GL next waits */
      cblur_gpu_flush ();
    }
  if (!cblur_gpu_check (gl->gpu, "upload rows", error))
    return FALSE;
  if (!in_stripes && !blur_whole (&s, error))
    return FALSE;

  for (i = s.released; i < lots->len; i++)
    {
      const Lot *lot = &g_array_index (lots, Lot, i);

      if (!cblur_gpu_wait (gl->gpu, lot->fence, "download rows", error))
        return FALSE;
      cblur_stream_release (run, lot->end);
    }
  return TRUE;
}
