/* The GL backend's entry points.  A band's source and output live in
 * pinned staging buffers that GEGL reads into and writes from in place
 * (cblur_gl_staged_new); the band is cut into tiles that fit the GPU, and
 * each tile's input (its output grown by the kernel's reach) is copied from
 * the staging buffer into a texture, blurred along rows then columns, and
 * copied back, all without the CPU waiting until the band is done. */
#include "cblur-gl-private.h"
#include "cblur-stream.h"

#include <string.h>
#include <gegl.h>
#include <glib/gi18n-lib.h>

#define TEXEL_BYTES (CBLUR_CHANNELS * sizeof (gfloat))

/* a streamed band comes down in pieces of this many rows, each handed on
 * to GEGL once there */
#define DOWNLOAD_ROWS 128

/* how often a streamed band's thread looks whether pieces are down while
 * it waits for rows to upload */
#define POLL_US 100

/* a thread is worth starting for about this many bytes of copying */
#define COPY_BYTES_PER_THREAD (256.0 * 1024)

G_DEFINE_QUARK (cblur-gl-error-quark, cblur_gl_error)

/* held for all GL work: the context is current on one thread at a time */
static GMutex lock;

/* Textures outlive the call: allocating them costs more than a 4K blur
 * takes.  They grow to the largest tile seen and go with the context. */
typedef struct
{
  GLuint textures[4];
  gint   n_textures;
  gint   texture_width;
  gint   texture_height;
  GLuint framebuffer;   /* for glReadPixels where GL < 4.5 */
} Resources;

static Resources resources;

struct _CblurGlStaged
{
  CblurGlStaging source;
  CblurGlStaging output;
};

/* Staging handed out, and one kept for the next band: pinning memory costs
 * tens of milliseconds.  After a loss or an out-of-memory the context must
 * go, but not while a band's pixels still live in its buffers: it is
 * doomed, refuses work, and goes when the last of them is returned. */
static GPtrArray     *leased;
static CblurGlStaged *idle;
static gboolean       doomed;

typedef struct
{
  guchar       *to;
  gsize         to_stride;
  const guchar *from;
  gsize         from_stride;
  gsize         row_bytes;
} Copy;

static void
copy_row_range (gsize    first,
                gsize    count,
                gpointer user_data)
{
  const Copy *copy = user_data;
  gsize       row;

  for (row = first; row < first + count; row++)
    memcpy (copy->to + row * copy->to_stride,
            copy->from + row * copy->from_stride, copy->row_bytes);
}

/* one core cannot fill the memory bus */
static void
copy_image (const CblurImage *to,
            const CblurImage *from)
{
  Copy copy = { (guchar *) to->data, to->stride * sizeof (gfloat),
                (const guchar *) from->data, from->stride * sizeof (gfloat),
                to->width * TEXEL_BYTES };

  gegl_parallel_distribute_range (to->height, COPY_BYTES_PER_THREAD / copy.row_bytes,
                                  copy_row_range, &copy);
}

/* CBLUR_GL_MAX_TILE=N: tiles of at most N×N output pixels, for tests */
static gint
tile_cap (void)
{
  return (gint) MIN (cblur_test_setting ("CBLUR_GL_MAX_TILE", G_MAXINT), G_MAXINT);
}

/* CBLUR_GL_TEXTURE_BUDGET=BYTES: a smaller budget than the GPU's, for tests */
static gsize
texture_budget (const CblurGl *gl)
{
  gint64 bytes = cblur_test_setting ("CBLUR_GL_TEXTURE_BUDGET", gl->texture_budget);

  return MIN ((gsize) bytes, gl->texture_budget);
}

/* Destroying the context frees every object in it. */
static void
context_destroy (void)
{
  memset (&resources, 0, sizeof resources);
  g_clear_pointer (&idle, g_free);
  doomed = FALSE;
  cblur_gl_context_destroy ();
}

static gboolean
nothing_staged (void)
{
  return leased == NULL || leased->len == 0;
}

/* A host such as GIMP runs on after a blur, and the context holds the
 * textures and one band's pinned staging: over a gigabyte of each for an
 * 8K band.  A thread of ours lets the context go once it has been idle
 * this long (CBLUR_GL_IDLE_MS for tests); the next blur makes a new one. */
#define IDLE_MS 20000

static GThread *reaper;
static GCond    reaper_wake;
static gboolean reaper_quit;
static gint64   last_use;
/* Read in touch(), by the blurring thread: getenv in the reaper would race
 * with a setenv in the host's threads and can crash (glibc reallocates the
 * environment). */
static gint64   idle_after_us;

static gint64
idle_us (void)
{
  return cblur_test_setting ("CBLUR_GL_IDLE_MS", IDLE_MS) * 1000;
}

static gpointer
reap_idle (gpointer unused)
{
  g_mutex_lock (&lock);
  while (!reaper_quit)
    {
      gint64 now = g_get_monotonic_time ();
      gint64 due = last_use + idle_after_us;

      if (cblur_gl_context_alive () && now >= due)
        {
          if (nothing_staged ())
            context_destroy ();
          else
            /* a band's pixels are still out in the staging */
            due = now + idle_after_us;
        }
      if (cblur_gl_context_alive ())
        g_cond_wait_until (&reaper_wake, &lock, due);
      else
        g_cond_wait (&reaper_wake, &lock);
    }
  g_mutex_unlock (&lock);
  return NULL;
}

/* With the lock held: the context is in use now. */
static void
touch (void)
{
  last_use = g_get_monotonic_time ();
  idle_after_us = idle_us ();
  if (reaper == NULL)
    reaper = g_thread_new ("cblur-gl-idle", reap_idle, NULL);
  g_cond_signal (&reaper_wake);
}

static CblurGl *
context_acquire (GError **error)
{
  g_autoptr (GError) failure = NULL;
  CblurGl           *gl;

  if (doomed && !nothing_staged ())
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST,
                           _("the OpenGL context was lost"));
      return NULL;
    }
  if (doomed)
    context_destroy ();

  gl = cblur_gl_context_acquire (&failure);
  if (gl == NULL && g_error_matches (failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST))
    {
      doomed = TRUE;
      if (nothing_staged ())
        {
          context_destroy ();
          g_clear_error (&failure);
          gl = cblur_gl_context_acquire (&failure);
        }
    }
  if (gl == NULL)
    g_propagate_error (error, g_steal_pointer (&failure));
  else
    touch ();
  return gl;
}

/* after a failure: a loss or an out-of-memory leaves GL undefined */
static void
context_release_after (const GError *failure)
{
  if (g_error_matches (failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_LOST) ||
      g_error_matches (failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_OUT_OF_MEMORY))
    doomed = TRUE;
  if (doomed && nothing_staged ())
    context_destroy ();
  else
    cblur_gl_context_release ();
}

static void
staged_delete (CblurGlStaged *staged)
{
  cblur_gl_staging_clear (&staged->source);
  cblur_gl_staging_clear (&staged->output);
  g_free (staged);
}

static void
point_at (CblurImage *image,
          gpointer    mapping)
{
  image->data = mapping;
  image->stride = (gsize) image->width * CBLUR_CHANNELS;
}

/* Staging for source and output's rectangles, which are pointed at it.
 * With the lock held and the context current. */
static CblurGlStaged *
lease (CblurGl     *gl,
       CblurImage  *source,
       CblurImage  *output,
       GError     **error)
{
  CblurGlStaged *staged = g_steal_pointer (&idle);

  if (staged == NULL)
    staged = g_new0 (CblurGlStaged, 1);
  cblur_gl_staging_reserve (&staged->source,
                            (gsize) source->width * source->height * TEXEL_BYTES);
  cblur_gl_staging_reserve (&staged->output,
                            (gsize) output->width * output->height * TEXEL_BYTES);
  if (!cblur_gl_check (gl, CBLUR_GL_STAGE_ALLOC, error))
    {
      staged_delete (staged);
      return NULL;
    }
  /* GEGL is about to write where the mapping points */
  if (staged->source.mapping == NULL || staged->output.mapping == NULL)
    {
      g_set_error_literal (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_OUT_OF_MEMORY,
                           _("a pixel buffer could not be mapped"));
      staged_delete (staged);
      return NULL;
    }

  point_at (source, staged->source.mapping);
  point_at (output, staged->output.mapping);
  if (leased == NULL)
    leased = g_ptr_array_new ();
  g_ptr_array_add (leased, staged);
  return staged;
}

/* With the lock held; without a current context the buffers are left to
 * go with the context. */
static void
give_back (CblurGlStaged *staged,
           gboolean       current)
{
  g_ptr_array_remove_fast (leased, staged);
  if (!current)
    g_free (staged);
  else if (idle == NULL)
    idle = staged;
  else
    staged_delete (staged);
}

CblurGlStaged *
cblur_gl_staged_new (CblurImage  *source,
                     CblurImage  *output,
                     GError     **error)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);
  g_autoptr (GError)       failure = NULL;
  CblurGl                 *gl = context_acquire (error);
  CblurGlStaged           *staged;

  if (gl == NULL)
    return NULL;

  staged = lease (gl, source, output, &failure);
  context_release_after (failure);
  if (staged == NULL)
    g_propagate_error (error, g_steal_pointer (&failure));
  return staged;
}

void
cblur_gl_staged_free (CblurGlStaged *staged)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);
  gboolean                 current = !doomed && context_acquire (NULL) != NULL;

  give_back (staged, current);
  if (current)
    cblur_gl_context_release ();
  else if (doomed && nothing_staged ())
    context_destroy ();
}

static CblurGlStaged *
find_lease (const CblurImage *source,
            const CblurImage *output)
{
  guint i;

  for (i = 0; leased != NULL && i < leased->len; i++)
    {
      CblurGlStaged *staged = g_ptr_array_index (leased, i);

      if (staged->source.mapping == source->data && staged->output.mapping == output->data)
        return staged;
    }
  return NULL;
}

/* Enough textures of at least in_width × in_height; the check also catches
 * what earlier calls left. */
static gboolean
resources_reserve (CblurGl           *gl,
                   const CblurKernel *kernel,
                   const CblurGlPlan *plan,
                   Resources         *res,
                   GError           **error)
{
  gint in_width = plan->width + 2 * kernel->reach;
  gint in_height = plan->height + 2 * kernel->reach;
  gint n_textures = cblur_gl_passes_textures (gl, kernel);
  gint i;

  if (res->n_textures < n_textures || res->texture_width < in_width ||
      res->texture_height < in_height)
    {
      gint grown_width = MAX (res->texture_width, in_width);
      gint grown_height = MAX (res->texture_height, in_height);

      glDeleteTextures (res->n_textures, res->textures);
      res->n_textures = MAX (res->n_textures, n_textures);
      /* a wide tile after a tall one must not make a huge square */
      if ((gsize) grown_width * grown_height * res->n_textures * TEXEL_BYTES >
          texture_budget (gl))
        {
          grown_width = in_width;
          grown_height = in_height;
          res->n_textures = n_textures;
        }
      res->texture_width = grown_width;
      res->texture_height = grown_height;
      glGenTextures (res->n_textures, res->textures);
      for (i = 0; i < res->n_textures; i++)
        {
          glBindTexture (GL_TEXTURE_2D, res->textures[i]);
          glTexStorage2D (GL_TEXTURE_2D, 1, GL_RGBA32F,
                          res->texture_width, res->texture_height);
        }
      glBindTexture (GL_TEXTURE_2D, 0);
    }

  if (res->framebuffer == 0 && !gl->has_texture_sub_image)
    glGenFramebuffers (1, &res->framebuffer);
  return cblur_gl_check (gl, CBLUR_GL_STAGE_ALLOC, error);
}

/* byte offset of pixel x, y of an image in its staging buffer */
static gsize
staged_offset (const CblurImage *image,
               gint              x,
               gint              y)
{
  return ((gsize) y * image->stride + (gsize) x * CBLUR_CHANNELS) * sizeof (gfloat);
}

/* width × height of src from x, y into textures[0] at tex_x, tex_y */
static void
upload_rect (const CblurGlStaged *staged,
             const CblurImage    *src,
             gint                 x,
             gint                 y,
             gint                 width,
             gint                 height,
             gint                 tex_x,
             gint                 tex_y)
{
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, staged->source.buffer);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, src->stride / CBLUR_CHANNELS);
  glBindTexture (GL_TEXTURE_2D, resources.textures[0]);
  glTexSubImage2D (GL_TEXTURE_2D, 0, tex_x, tex_y, width, height, GL_RGBA, GL_FLOAT,
                   GSIZE_TO_POINTER (staged_offset (src, x, y)));
  glBindTexture (GL_TEXTURE_2D, 0);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glBindBuffer (GL_PIXEL_UNPACK_BUFFER, 0);
}

/* result's rows from tex_y, width × height, into dst at x, y; after the
 * shaders' image stores are made visible (download_barrier) */
static void
download_rows (CblurGl             *gl,
               const CblurGlStaged *staged,
               GLuint               result,
               const CblurImage    *dst,
               gint                 x,
               gint                 y,
               gint                 width,
               gint                 height,
               gint                 tex_y)
{
  gsize offset = staged_offset (dst, x, y);

  glBindBuffer (GL_PIXEL_PACK_BUFFER, staged->output.buffer);
  glPixelStorei (GL_PACK_ROW_LENGTH, dst->stride / CBLUR_CHANNELS);
  /* NVIDIA reads a float framebuffer back at a few MB/s, a texture at
   * PCIe speed */
  if (gl->has_texture_sub_image)
    glGetTextureSubImage (result, 0, 0, tex_y, 0, width, height, 1, GL_RGBA, GL_FLOAT,
                          staged->output.size - offset, GSIZE_TO_POINTER (offset));
  else
    {
      glBindFramebuffer (GL_READ_FRAMEBUFFER, resources.framebuffer);
      glFramebufferTexture2D (GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_TEXTURE_2D, result, 0);
      glReadBuffer (GL_COLOR_ATTACHMENT0);
      glReadPixels (0, tex_y, width, height, GL_RGBA, GL_FLOAT, GSIZE_TO_POINTER (offset));
      glBindFramebuffer (GL_READ_FRAMEBUFFER, 0);
    }
  glPixelStorei (GL_PACK_ROW_LENGTH, 0);
  glBindBuffer (GL_PIXEL_PACK_BUFFER, 0);
}

static void
download_barrier (void)
{
  glMemoryBarrier (GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
}

/* GPU timestamps around each upload, compute and download: pairs of
 * queries, begin and end, per span */
typedef enum
{
  SPAN_UPLOAD,
  SPAN_COMPUTE,
  SPAN_DOWNLOAD,
  N_SPANS
} Span;

typedef struct
{
  GArray *queries[N_SPANS];
} Stamps;

static void
stamps_init (Stamps *stamps)
{
  gint span;

  for (span = 0; span < N_SPANS; span++)
    stamps->queries[span] = g_array_new (FALSE, FALSE, sizeof (GLuint));
}

static void
stamp (Stamps *stamps,
       Span    span)
{
  GLuint query;

  glGenQueries (1, &query);
  glQueryCounter (query, GL_TIMESTAMP);
  g_array_append_val (stamps->queries[span], query);
}

/* report, where the GPU is done, gets the spans' sums; NULL drops them */
static void
stamps_clear (Stamps        *stamps,
              CblurGlReport *report)
{
  gdouble ms[N_SPANS] = { 0 };
  gint    span;
  guint   i;

  for (span = 0; span < N_SPANS; span++)
    {
      GArray *queries = stamps->queries[span];

      for (i = 0; report != NULL && i + 1 < queries->len; i += 2)
        {
          GLuint64 begin = 0, end = 0;

          glGetQueryObjectui64v (g_array_index (queries, GLuint, i), GL_QUERY_RESULT, &begin);
          glGetQueryObjectui64v (g_array_index (queries, GLuint, i + 1), GL_QUERY_RESULT, &end);
          ms[span] += (end - begin) / 1e6;
        }
      glDeleteQueries (queries->len, (GLuint *) queries->data);
      g_array_unref (queries);
    }

  if (report != NULL)
    {
      report->upload_ms += ms[SPAN_UPLOAD];
      report->compute_ms += ms[SPAN_COMPUTE];
      report->download_ms += ms[SPAN_DOWNLOAD];
    }
}

/* Tiles of at most plan->width × plan->height output pixels that, with
 * their halo, fit a texture and the GPU's memory. */
static gboolean
plan_tiles (CblurGl           *gl,
            const CblurKernel *kernel,
            const CblurImage  *dst,
            CblurGlPlan       *plan,
            GError           **error)
{
  gint max_edge = gl->max_texture_size - 2 * kernel->reach;

  if (max_edge < 1)
    {
      g_set_error (error, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                   _("the blur reaches too far for textures of %d pixels"),
                   gl->max_texture_size);
      return FALSE;
    }

  cblur_gl_plan_tiles (dst->width, dst->height, kernel->reach,
                       MIN (max_edge, tile_cap ()),
                       texture_budget (gl) / (cblur_gl_passes_textures (gl, kernel) * TEXEL_BYTES),
                       plan);
  return TRUE;
}

static GLuint
run_passes (const CblurKernel   *kernel,
            const CblurGlPasses *passes,
            const CblurGlTile   *tile,
            Stamps              *stamps)
{
  GLuint result;

  stamp (stamps, SPAN_COMPUTE);
  result = cblur_gl_passes_run (kernel, passes, resources.textures, tile);
  stamp (stamps, SPAN_COMPUTE);
  return result;
}

/* The GPU works through every tile before the CPU waits once. */
static gboolean
blur_tiles (CblurGl             *gl,
            const CblurKernel   *kernel,
            const CblurGlPasses *passes,
            const CblurGlPlan   *plan,
            const CblurGlStaged *staged,
            const CblurImage    *src,
            const CblurImage    *dst,
            Stamps              *stamps,
            GError             **error)
{
  gint tile;

  for (tile = 0; tile < plan->n_x * plan->n_y; tile++)
    {
      gint        x = tile % plan->n_x * plan->width;
      gint        y = tile / plan->n_x * plan->height;
      gint        width = MIN (plan->width, dst->width - x);
      gint        height = MIN (plan->height, dst->height - y);
      /* src is dst grown by the reach: the tile's input starts at x, y */
      CblurGlTile input = { src->x + x, src->y + y, width + 2 * kernel->reach,
                            height + 2 * kernel->reach };
      GLuint      result;

      stamp (stamps, SPAN_UPLOAD);
      upload_rect (staged, src, x, y, input.in_width, input.in_height, 0, 0);
      stamp (stamps, SPAN_UPLOAD);
      if (!cblur_gl_check (gl, CBLUR_GL_STAGE_UPLOAD, error))
        return FALSE;

      result = run_passes (kernel, passes, &input, stamps);
      if (!cblur_gl_check (gl, CBLUR_GL_STAGE_DISPATCH, error))
        return FALSE;

      download_barrier ();
      stamp (stamps, SPAN_DOWNLOAD);
      download_rows (gl, staged, result, dst, x, y, width, height, 0);
      stamp (stamps, SPAN_DOWNLOAD);
      /* the next tile's upload overwrites textures[0] */
      glMemoryBarrier (GL_TEXTURE_UPDATE_BARRIER_BIT);
    }

  return cblur_gl_wait (gl, CBLUR_GL_STAGE_DOWNLOAD, error);
}

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
  const CblurKernel   *kernel;
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
  Stamps              *stamps;
} GpuBand;

static void
send_down (GpuBand *s,
           GLuint   result,
           gint     first,
           gint     n_rows)
{
  gint row;

  download_barrier ();
  for (row = first; row < first + n_rows; row += DOWNLOAD_ROWS)
    {
      gint  rows = MIN (DOWNLOAD_ROWS, first + n_rows - row);
      Piece piece;

      stamp (s->stamps, SPAN_DOWNLOAD);
      download_rows (s->gl, s->staged, result, s->dst, 0, row, s->dst->width, rows, row);
      stamp (s->stamps, SPAN_DOWNLOAD);
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
         cblur_gl_fill_abyss (s->gl, resources.textures[1], s->dst->width, s->tile.in_height,
                              first, end - first, &inside, s->stream->abyss, error);
}

/* Input rows up to `complete` are uploaded: their abyss, their
 * horizontal passes, and the vertical passes of every band that has all
 * its rows. */
static gboolean
advance (GpuBand  *s,
         gint      complete,
         GError  **error)
{
  gint reach = s->kernel->reach;
  gint inside_end = s->inside.y + s->inside.height;

  if (complete > s->ready)
    {
      /* the horizontal passes run on the input image's rows only; where
       * GEGL makes the abyss, those are all of the tile's */
      gint first = MAX (s->ready, s->inside.y);
      gint end = MIN (complete, inside_end);

      if (end > first)
        {
          if (s->makes_abyss &&
              !cblur_gl_fill_abyss (s->gl, resources.textures[0], s->tile.in_width,
                                    s->tile.in_height, first, end - first,
                                    &s->inside, s->stream->abyss, error))
            return FALSE;
          stamp (s->stamps, SPAN_COMPUTE);
          cblur_gl_passes_rows (s->kernel, s->passes, resources.textures, &s->tile,
                                first, end - first);
          stamp (s->stamps, SPAN_COMPUTE);
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
    }

  while (s->out < s->dst->height &&
         (s->ready == s->tile.in_height || s->out + s->band + 2 * reach <= s->ready))
    {
      gint   n_rows = MIN (s->band, s->dst->height - s->out);
      GLuint result;

      stamp (s->stamps, SPAN_COMPUTE);
      result = cblur_gl_passes_columns (s->kernel, s->passes, resources.textures, &s->tile,
                                        s->out, n_rows);
      stamp (s->stamps, SPAN_COMPUTE);
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

/* One tile, streamed: rows go up as GEGL's threads read them; their
 * passes run as soon as the rows they need are there, band by band, and
 * each band comes down in pieces that GEGL's threads write while the rest
 * are on their way.  run reads `read`: src, or its part inside the input,
 * around which abyss.comp makes the rest.  Loop's abyss needs the far
 * edge, and the two-dispatch box goes whole: those wait for all rows. */
static gboolean
blur_streamed (CblurGl             *gl,
               const CblurKernel   *kernel,
               const CblurGlPasses *passes,
               const CblurGlStaged *staged,
               CblurStreamRun      *run,
               const CblurStream   *stream,
               const CblurImage    *read,
               const CblurImage    *src,
               const CblurImage    *dst,
               Stamps              *stamps,
               GError             **error)
{
  g_autoptr (GArray)    pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  GpuBand               s = { gl, kernel, passes, staged, stream, src, dst,
                              { src->x, src->y, src->width, src->height },
                              { read->x - src->x, read->y - src->y, read->width, read->height },
                              read != src, cblur_gl_passes_band (kernel, passes), 0, 0,
                              pieces, 0, stamps };
  gboolean              in_bands = s.band > 0 &&
                                   !(s.makes_abyss && stream->abyss == GEGL_ABYSS_LOOP);
  gint                  uploaded = 0;
  guint                 i;

  g_array_set_clear_func (pieces, piece_clear);
  while (uploaded < read->height)
    {
      /* with pieces on their way down, looking in on them now and then */
      gint rows = cblur_stream_wait_read (run, uploaded,
                                          s.released < pieces->len ? POLL_US : -1);

      release_arrived (&s, run);
      if (rows == uploaded)
        continue;
      stamp (stamps, SPAN_UPLOAD);
      upload_rect (staged, src, s.inside.x, s.inside.y + uploaded, read->width,
                   rows - uploaded, s.inside.x, s.inside.y + uploaded);
      stamp (stamps, SPAN_UPLOAD);
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

  if (!in_bands)
    {
      if (s.makes_abyss &&
          !cblur_gl_fill_abyss (gl, resources.textures[0], src->width, src->height,
                                0, src->height, &s.inside, stream->abyss, error))
        return FALSE;
      send_down (&s, run_passes (kernel, passes, &s.tile, stamps), 0, dst->height);
      glFlush ();
      if (!cblur_gl_check (gl, CBLUR_GL_STAGE_DISPATCH, error))
        return FALSE;
    }

  for (i = s.released; i < pieces->len; i++)
    {
      const Piece *piece = &g_array_index (pieces, Piece, i);

      if (!cblur_gl_wait_for (gl, piece->fence, CBLUR_GL_STAGE_DOWNLOAD, error))
        return FALSE;
      cblur_stream_release (run, piece->end);
    }
  return TRUE;
}

/* stream, if any, reads src first and writes dst after, where the band
 * is not one tile; straight: src comes, or came, in straight alpha */
static gboolean
blur_staged (CblurGl             *gl,
             const CblurKernel   *kernel,
             const CblurGlStaged *staged,
             CblurStream         *stream,
             gboolean             straight,
             const CblurImage    *src,
             const CblurImage    *dst,
             CblurGlReport       *report,
             GError             **error)
{
  CblurGlPasses   passes = { 0 };
  CblurGlPlan     plan = { 0 };
  Stamps          stamps;
  CblurStreamRun *run = NULL;
  CblurImage      inside;
  gboolean        makes_abyss = FALSE;
  gboolean        ok;

  ok = plan_tiles (gl, kernel, dst, &plan, error);
  report->tiles = plan.n_x * plan.n_y;
  if (ok && stream != NULL && report->tiles == 1)
    {
      makes_abyss = cblur_stream_inside (stream, src, &inside);
      run = cblur_stream_start (stream, makes_abyss ? &inside : src, dst);
    }
  else
    cblur_stream_read_all (stream, src);

  stamps_init (&stamps);
  ok = ok && cblur_gl_passes_init (gl, kernel, plan.width, plan.height, straight, &passes,
                                   error) &&
       resources_reserve (gl, kernel, &plan, &resources, error);
  if (ok && run != NULL)
    ok = blur_streamed (gl, kernel, &passes, staged, run, stream,
                        makes_abyss ? &inside : src,
                        src, dst, &stamps, error);
  else if (ok)
    ok = blur_tiles (gl, kernel, &passes, &plan, staged, src, dst, &stamps, error);

  if (run != NULL)
    cblur_stream_finish (run);
  else if (ok)
    cblur_stream_write_all (stream, dst);
  stamps_clear (&stamps, ok ? report : NULL);
  cblur_gl_passes_clear (&passes);
  return ok;
}

/* Images that are not staged go through staging of the call's own. */
static gboolean
blur_copied (CblurGl            *gl,
             const CblurKernel  *kernel,
             CblurStream        *stream,
             const CblurImage   *src,
             const CblurImage   *dst,
             CblurGlReport      *report,
             GError            **error)
{
  CblurImage     staged_src = *src;
  CblurImage     staged_dst = *dst;
  CblurGlStaged *staged;
  gboolean       ok;

  cblur_stream_read_all (stream, src);
  staged = lease (gl, &staged_src, &staged_dst, error);
  if (staged == NULL)
    return FALSE;

  copy_image (&staged_src, src);
  ok = blur_staged (gl, kernel, staged, NULL, cblur_stream_is_straight (stream),
                    &staged_src, &staged_dst, report, error);
  if (ok)
    {
      copy_image (dst, &staged_dst);
      cblur_stream_write_all (stream, dst);
    }
  give_back (staged, TRUE);
  return ok;
}

gboolean
cblur_gl_available (gboolean  *is_software,
                    GError   **error)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);
  CblurGl                 *gl = context_acquire (error);

  if (gl == NULL)
    return FALSE;
  if (is_software != NULL)
    *is_software = gl->is_software;
  cblur_gl_context_release ();
  return TRUE;
}

gboolean
cblur_gl_blur (const CblurKernel  *kernel,
               const CblurImage   *src,
               const CblurImage   *dst,
               CblurStream        *stream,
               CblurGlReport      *report,
               GError            **error)
{
  g_autoptr (GMutexLocker) locker = NULL;
  g_autoptr (GError)       failure = NULL;
  CblurGlReport            unused;
  CblurGlStaged           *staged;
  CblurGl                 *gl;
  gboolean                 ok = FALSE;

  if (report == NULL)
    report = &unused;
  memset (report, 0, sizeof *report);

  if (src->width != dst->width + 2 * kernel->reach ||
      src->height != dst->height + 2 * kernel->reach)
    {
      g_set_error_literal (&failure, CBLUR_GL_ERROR, CBLUR_GL_ERROR_FAILED,
                           _("the source is not the output grown by the blur's reach"));
      gl = NULL;
    }
  else
    {
      locker = g_mutex_locker_new (&lock);
      gl = context_acquire (&failure);
    }

  if (gl != NULL)
    {
      g_strlcpy (report->renderer, gl->renderer, sizeof report->renderer);
      report->max_texture_size = gl->max_texture_size;

      staged = find_lease (src, dst);
      if (cblur_kernel_is_identity (kernel) || dst->width <= 0 || dst->height <= 0)
        {
          cblur_stream_read_all (stream, src);
          copy_image (dst, src);
          if (cblur_stream_is_straight (stream))
            cblur_premultiply (dst);
          cblur_stream_write_all (stream, dst);
          ok = TRUE;
        }
      else
        ok = staged != NULL
               ? blur_staged (gl, kernel, staged, stream, cblur_stream_is_straight (stream),
                              src, dst, report, &failure)
               : blur_copied (gl, kernel, stream, src, dst, report, &failure);
      context_release_after (failure);
    }
  else
    cblur_stream_read_all (stream, src);

  if (!ok)
    g_propagate_error (error, g_steal_pointer (&failure));
  return ok;
}

void
cblur_gl_shutdown (void)
{
  GThread *stopping;

  g_mutex_lock (&lock);
  context_destroy ();
  reaper_quit = TRUE;
  g_cond_signal (&reaper_wake);
  stopping = g_steal_pointer (&reaper);
  g_mutex_unlock (&lock);

  if (stopping != NULL)
    g_thread_join (stopping);
  g_mutex_lock (&lock);
  reaper_quit = FALSE;
  g_mutex_unlock (&lock);
}

gboolean
cblur_gl_holds_context (void)
{
  g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&lock);

  return cblur_gl_context_alive ();
}

/* so that unloading the module frees the context */
__attribute__ ((destructor)) static void
unload (void)
{
  cblur_gl_shutdown ();
}
