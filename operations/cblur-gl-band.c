/* One tile, streamed: rows go up as GEGL's threads read them; their
 * passes run as soon as the rows they need are there, band by band, and
 * each band comes down in pieces that GEGL's threads write while the rest
 * are on their way. */
#include "cblur-gl-private.h"
#include "cblur-stream.h"

/* a streamed band comes down in pieces of this many rows, each handed on
 * to GEGL once there */
#define DOWNLOAD_ROWS 128

/* how often a streamed band's thread looks whether pieces are down while
 * it waits for rows to upload */
#define POLL_US 100

/* a piece on its way down: done when the fence is, up to output row end */
typedef struct
{
  GLsync fence;
  gint   end;
} Piece;

static void
piece_clear (gpointer data)
{
  glDeleteSync (((Piece *) data)->fence);
}

/* Where a streamed band stands on the GPU: its input rows up to `ready`
 * have their abyss made and their horizontal passes done; its output rows
 * up to `out` their vertical passes, and are on their way down, a fence
 * after each piece. */
typedef struct
{
  CblurGl             *gl;
  const CblurGlPasses *passes;
  const CblurGlStaged *staged;
  const CblurStream   *stream;
  const CblurImage    *src;
  const CblurImage    *dst;
  CblurGlTile          tile;
  GeglRectangle        inside;   /* what GEGL reads, in the tile's input */
  gboolean             makes_abyss;
  gint                 band;
  gint                 ready;
  gint                 out;
  GArray              *pieces;
  guint                released;   /* pieces handed to GEGL */
  CblurGlStamps       *stamps;
} GpuBand;

static void
send_down (GpuBand *s,
           GLuint   result,
           gint     first,
           gint     n_rows)
{
  gint row;

  cblur_gl_download_barrier ();
  for (row = first; row < first + n_rows; row += DOWNLOAD_ROWS)
    {
      gint  rows = MIN (DOWNLOAD_ROWS, first + n_rows - row);
      Piece piece;

      cblur_gl_stamp (s->stamps, CBLUR_GL_SPAN_DOWNLOAD);
      cblur_gl_download (s->gl, s->staged, result, s->dst, 0, row, s->dst->width, rows, row);
      cblur_gl_stamp (s->stamps, CBLUR_GL_SPAN_DOWNLOAD);
      piece.fence = glFenceSync (GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      piece.end = row + rows;
      g_array_append_val (s->pieces, piece);
    }
  /* the next uploads go where the vertical passes wrote */
  glMemoryBarrier (GL_TEXTURE_UPDATE_BARRIER_BIT);
}

/* A row of the abyss above or below the input is, under any policy but
 * loop, a copy of the edge row or one colour, and so is what the
 * horizontal passes make of it: rather than run them on such rows (40% of
 * a 4K image's input rows at radius 600), their results are made from the
 * edge rows' by abyss.comp in the texture between the axes, rows
 * [first, end) of it. */
static gboolean
made_between (GpuBand  *s,
              gint      first,
              gint      end,
              GError  **error)
{
  GeglRectangle inside = { 0, s->inside.y, s->dst->width, s->inside.height };

  return first >= end ||
         cblur_gl_fill_abyss (s->gl, s->passes->textures[1], s->dst->width, s->tile.in_height,
                              first, end - first, &inside, s->stream->abyss, error);
}

/* The horizontal passes of input rows [ready, complete), on the input
 * image's rows only; where GEGL makes the abyss, those are all of the
 * tile's. */
static gboolean
advance_rows (GpuBand  *s,
              gint      complete,
              GError  **error)
{
  gint inside_end = s->inside.y + s->inside.height;
  gint first = MAX (s->ready, s->inside.y);
  gint end = MIN (complete, inside_end);

  if (end > first)
    {
      if (s->makes_abyss &&
          !cblur_gl_fill_abyss (s->gl, s->passes->textures[0], s->tile.in_width,
                                s->tile.in_height, first, end - first,
                                &s->inside, s->stream->abyss, error))
        return FALSE;
      cblur_gl_passes_rows (s->passes, &s->tile, first, end - first);
    }
  if (s->makes_abyss)
    {
      gboolean top_edge_now = s->ready <= s->inside.y && end > s->inside.y;

      if (top_edge_now && !made_between (s, 0, s->inside.y, error))
        return FALSE;
      if (complete == s->tile.in_height && !made_between (s, inside_end, complete, error))
        return FALSE;
    }
  s->ready = complete;
  return TRUE;
}

/* Input rows up to `complete` are uploaded: their abyss, their
 * horizontal passes, and the vertical passes of every band that has all
 * its rows. */
static gboolean
advance (GpuBand  *s,
         gint      complete,
         GError  **error)
{
  gint reach = s->passes->kernel->reach;

  if (complete > s->ready && !advance_rows (s, complete, error))
    return FALSE;

  while (s->out < s->dst->height &&
         (s->ready == s->tile.in_height || s->out + s->band + 2 * reach <= s->ready))
    {
      gint   n_rows = MIN (s->band, s->dst->height - s->out);
      GLuint result = cblur_gl_passes_columns (s->passes, &s->tile, s->out, n_rows);

      send_down (s, result, s->out, n_rows);
      s->out += n_rows;
    }
  glFlush ();
  return cblur_gl_check (s->gl, CBLUR_GL_STAGE_DISPATCH, error);
}

/* The pieces that are down go to GEGL's threads, without waiting. */
static void
release_arrived (GpuBand        *s,
                 CblurStreamRun *run)
{
  while (s->released < s->pieces->len)
    {
      const Piece *piece = &g_array_index (s->pieces, Piece, s->released);
      GLenum       status = glClientWaitSync (piece->fence, 0, 0);

      if (status != GL_ALREADY_SIGNALED && status != GL_CONDITION_SATISFIED)
        return;
      cblur_stream_release (run, piece->end);
      s->released++;
    }
}

/* The whole tile at once, once all its rows are up. */
static gboolean
blur_whole (GpuBand  *s,
            GError  **error)
{
  if (s->makes_abyss &&
      !cblur_gl_fill_abyss (s->gl, s->passes->textures[0], s->src->width, s->src->height,
                            0, s->src->height, &s->inside, s->stream->abyss, error))
    return FALSE;
  send_down (s, cblur_gl_passes_run (s->passes, &s->tile), 0, s->dst->height);
  glFlush ();
  return cblur_gl_check (s->gl, CBLUR_GL_STAGE_DISPATCH, error);
}

/* Loop's abyss needs the far edge, and the two-dispatch box goes whole:
 * those wait for all rows. */
gboolean
cblur_gl_blur_streamed (CblurGl             *gl,
                        const CblurGlPasses *passes,
                        const CblurGlStaged *staged,
                        CblurStreamRun      *run,
                        const CblurStream   *stream,
                        const CblurImage    *read,
                        const CblurImage    *src,
                        const CblurImage    *dst,
                        CblurGlStamps       *stamps,
                        GError             **error)
{
  g_autoptr (GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  GpuBand            s = { gl, passes, staged, stream, src, dst,
                           { src->x, src->y, src->width, src->height },
                           { read->x - src->x, read->y - src->y, read->width, read->height },
                           read != src, cblur_gl_passes_band (passes), 0, 0,
                           pieces, 0, stamps };
  gboolean           in_bands = s.band > 0 &&
                                !(s.makes_abyss && stream->abyss == GEGL_ABYSS_LOOP);
  gint               uploaded = 0;
  guint              i;

  g_array_set_clear_func (pieces, piece_clear);
  while (uploaded < read->height)
    {
      /* with pieces on their way down, looking in on them now and then */
      gint rows = cblur_stream_wait_read (run, uploaded,
                                          s.released < pieces->len ? POLL_US : -1);

      release_arrived (&s, run);
      if (rows == uploaded)
        continue;
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_UPLOAD);
      cblur_gl_upload (gl, staged, src, s.inside.x, s.inside.y + uploaded, read->width,
                       rows - uploaded, s.inside.x, s.inside.y + uploaded);
      cblur_gl_stamp (stamps, CBLUR_GL_SPAN_UPLOAD);
      uploaded = rows;
      /* the abyss below the input waits for its last row */
      if (in_bands && !advance (&s, uploaded == read->height ? src->height
                                                             : s.inside.y + uploaded, error))
        return FALSE;
      /* the copy starts now, not when GL next waits */
      glFlush ();
    }
  if (!cblur_gl_check (gl, CBLUR_GL_STAGE_UPLOAD, error))
    return FALSE;
  if (!in_bands && !blur_whole (&s, error))
    return FALSE;

  for (i = s.released; i < pieces->len; i++)
    {
      const Piece *piece = &g_array_index (pieces, Piece, i);

      if (!cblur_gl_wait_for (gl, piece->fence, CBLUR_GL_STAGE_DOWNLOAD, error))
        return FALSE;
      cblur_stream_release (run, piece->end);
    }
  return TRUE;
}
