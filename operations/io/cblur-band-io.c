/* GEGL converts pixels on the thread that asks, so its reads and writes
 * are spread over its own threads, in pieces of whole GEGL tiles: threads
 * that shared a tile would each fetch, and for writes allocate, all of
 * it.  A streamed band runs them on a thread of its own, which hands the
 * pieces out top first, so that the caller (the GPU's thread) can upload
 * the top while the bottom is still being read, and the top can be
 * written while the bottom still comes down. */
#include "cblur-band-io.h"

#include <gegl.h>

#include "cblur-parallel.h"

/* An image cut along GEGL's tile grid into bands of one tile row, and
 * the bands into pieces of whole tiles: enough of them for every thread
 * to take several, since the last to finish decides when all are done. */
typedef struct
{
  const CblurImage *image;
  gint              top;            /* absolute, on the grid */
  gint              left;
  gint              band_rows;
  gint              piece_columns;
  gint              n_bands;
  gint              n_columns;
} Grid;

struct _CblurStreamRun
{
  CblurBandIo      *band_io;
  Grid              src;
  Grid              dst;
  GThread          *thread;

  /* the rest under the lock */
  GMutex            lock;
  GCond             changed;
  gint              next_read;       /* pieces handed out */
  gint              next_write;
  gint             *pieces_read;     /* per band of src */
  gint              bands_read;      /* from the top, without a gap */
  gint              rows_read;
  gint              rows_released;
  gboolean          finishing;
  gint64            started;
  gint64            read_until;
  gint64            write_from;
  gint64            write_until;
};

/* the multiple of step at or below value */
static gint
floor_to (gint value,
          gint step)
{
  return value >= 0 ? value / step * step : -((-value + step - 1) / step * step);
}

static gint
ceil_div (gint value,
          gint step)
{
  return (value + step - 1) / step;
}

static void
grid_init (Grid              *grid,
           const CblurBandIo *band_io,
           const CblurImage  *image)
{
  gint tile_width = MAX (band_io->tile_width, 1);
  gint tiles_across, columns;

  grid->image = image;
  grid->band_rows = MAX (band_io->tile_height, 1);
  grid->top = floor_to (image->y, grid->band_rows);
  grid->n_bands = ceil_div (image->y + image->height - grid->top, grid->band_rows);
  grid->left = floor_to (image->x, tile_width);
  tiles_across = ceil_div (image->x + image->width - grid->left, tile_width);
  columns = CLAMP (ceil_div (8 * cblur_parallel_threads (), MAX (grid->n_bands, 1)), 1,
                   MAX (tiles_across, 1));
  grid->piece_columns = ceil_div (tiles_across, columns) * tile_width;
  grid->n_columns = ceil_div (image->x + image->width - grid->left, grid->piece_columns);
}

static gint
n_pieces (const Grid *grid)
{
  return grid->n_bands * grid->n_columns;
}

/* rows [*begin, *end) of the image in band */
static void
band_rows (const Grid *grid,
           gint        band,
           gint       *begin,
           gint       *end)
{
  gint top = grid->top + band * grid->band_rows - grid->image->y;

  *begin = MAX (top, 0);
  *end = MIN (top + grid->band_rows, grid->image->height);
}

static void
transfer_piece (const Grid      *grid,
                gint             piece,
                CblurBandIoFunc  func,
                gpointer         user_data)
{
  gint left = grid->left + piece % grid->n_columns * grid->piece_columns - grid->image->x;
  gint x = MAX (left, 0);
  gint width = MIN (left + grid->piece_columns, grid->image->width) - x;
  gint begin, end;

  band_rows (grid, piece / grid->n_columns, &begin, &end);
  func (grid->image, x, begin, width, end - begin, user_data);
}

/* With the lock held: a piece of src is in. */
static void
piece_read (CblurStreamRun *run,
            gint            piece)
{
  const Grid *grid = &run->src;
  gint        begin;

  run->pieces_read[piece / grid->n_columns]++;
  while (run->bands_read < grid->n_bands &&
         run->pieces_read[run->bands_read] == grid->n_columns)
    run->bands_read++;
  if (run->bands_read > 0)
    band_rows (grid, run->bands_read - 1, &begin, &run->rows_read);
  if (run->bands_read == grid->n_bands)
    run->read_until = g_get_monotonic_time ();
  g_cond_broadcast (&run->changed);
}

/* With the lock held: whether the next piece of dst may be written. */
static gboolean
next_write_released (const CblurStreamRun *run)
{
  gint begin, end;

  band_rows (&run->dst, run->next_write / run->dst.n_columns, &begin, &end);
  return run->rows_released >= end;
}

/* Each thread writes what may be written, else reads what is left to
 * read, else waits for more to be released: GEGL's reads and writes
 * overlap where the GPU hands rows back before the last are read.  Where
 * GEGL's threads are busy with another task, one thread does it all. */
static void
work (gint     i,
      gint     n,
      gpointer user_data)
{
  CblurStreamRun *run = user_data;
  const Grid     *src = &run->src;
  const Grid     *dst = &run->dst;

  g_mutex_lock (&run->lock);
  for (;;)
    {
      gint piece;

      if (run->next_write < n_pieces (dst) && next_write_released (run))
        {
          piece = run->next_write++;
          if (run->write_from == 0)
            run->write_from = g_get_monotonic_time ();
          g_mutex_unlock (&run->lock);
          transfer_piece (dst, piece, run->band_io->write, run->band_io->user_data);
          g_mutex_lock (&run->lock);
          run->write_until = MAX (run->write_until, g_get_monotonic_time ());
        }
      else if (run->next_read < n_pieces (src))
        {
          piece = run->next_read++;
          g_mutex_unlock (&run->lock);
          transfer_piece (src, piece, run->band_io->read, run->band_io->user_data);
          g_mutex_lock (&run->lock);
          piece_read (run, piece);
        }
      else if (run->next_write < n_pieces (dst) && !run->finishing)
        g_cond_wait (&run->changed, &run->lock);
      else
        break;
    }
  g_mutex_unlock (&run->lock);
}

static gpointer
run_thread (gpointer user_data)
{
  cblur_parallel_distribute (cblur_parallel_threads (), work, user_data);
  return NULL;
}

CblurStreamRun *
cblur_stream_start (CblurBandIo      *band_io,
                    const CblurImage *src,
                    const CblurImage *dst)
{
  CblurStreamRun *run = g_new0 (CblurStreamRun, 1);

  run->band_io = band_io;
  grid_init (&run->src, band_io, src);
  grid_init (&run->dst, band_io, dst);
  run->pieces_read = g_new0 (gint, run->src.n_bands);
  run->read_until = run->started = g_get_monotonic_time ();
  g_mutex_init (&run->lock);
  g_cond_init (&run->changed);
  run->thread = g_thread_new ("cblur-stream", run_thread, run);
  return run;
}

gint
cblur_stream_wait_read (CblurStreamRun *run,
                        gint            rows,
                        gint64          timeout_us)
{
  gint64 until = g_get_monotonic_time () + timeout_us;
  gint   read;

  g_mutex_lock (&run->lock);
  while (run->rows_read <= rows && run->rows_read < run->src.image->height)
    if (timeout_us < 0)
      g_cond_wait (&run->changed, &run->lock);
    else if (!g_cond_wait_until (&run->changed, &run->lock, until))
      break;
  read = run->rows_read;
  g_mutex_unlock (&run->lock);
  return read;
}

void
cblur_stream_release (CblurStreamRun *run,
                      gint            rows)
{
  g_mutex_lock (&run->lock);
  run->rows_released = MAX (run->rows_released, rows);
  g_cond_broadcast (&run->changed);
  g_mutex_unlock (&run->lock);
}

gint
cblur_stream_release_and_wait (CblurStreamRun *run,
                               gint            released,
                               gint            rows,
                               gint64          timeout_us)
{
  cblur_stream_release (run, released);
  return cblur_stream_wait_read (run, rows, timeout_us);
}

void
cblur_stream_finish (CblurStreamRun *run)
{
  g_mutex_lock (&run->lock);
  run->finishing = TRUE;
  g_cond_broadcast (&run->changed);
  g_mutex_unlock (&run->lock);
  g_thread_join (run->thread);

  run->band_io->read_ms += (run->read_until - run->started) / 1000.0;
  if (run->write_from != 0)
    run->band_io->write_ms += (run->write_until - run->write_from) / 1000.0;
  g_mutex_clear (&run->lock);
  g_cond_clear (&run->changed);
  g_free (run->pieces_read);
  g_free (run);
}

/* every piece of an image, in any order */
typedef struct
{
  Grid             grid;
  CblurBandIoFunc  func;
  gpointer         user_data;
  gint             next;   /* atomic */
} AllPieces;

static void
transfer_pieces (gint     i,
                 gint     n,
                 gpointer user_data)
{
  AllPieces *all = user_data;
  gint       piece;

  while ((piece = g_atomic_int_add (&all->next, 1)) < n_pieces (&all->grid))
    transfer_piece (&all->grid, piece, all->func, all->user_data);
}

static gdouble
transfer_all (CblurBandIo      *band_io,
              const CblurImage *image,
              CblurBandIoFunc   func)
{
  AllPieces all = { { 0 }, func, band_io->user_data, 0 };
  gint64    started = g_get_monotonic_time ();

  grid_init (&all.grid, band_io, image);
  cblur_parallel_distribute (MIN (cblur_parallel_threads (), n_pieces (&all.grid)),
                             transfer_pieces, &all);
  return (g_get_monotonic_time () - started) / 1000.0;
}

void
cblur_band_io_read_all (CblurBandIo      *band_io,
                       const CblurImage *src)
{
  if (band_io != NULL)
    band_io->read_ms += transfer_all (band_io, src, band_io->read);
}

void
cblur_band_io_write_all (CblurBandIo      *band_io,
                        const CblurImage *dst)
{
  if (band_io != NULL)
    band_io->write_ms += transfer_all (band_io, dst, band_io->write);
}

/* the pixels of image in rect (absolute), sharing image's */
static CblurImage
sub_image (const CblurImage    *image,
           const GeglRectangle *rect)
{
  CblurImage sub = *image;

  if (image->data != NULL)
    sub.data = (gfloat *) cblur_image_bytes (image, rect->x - image->x, rect->y - image->y);
  sub.x = rect->x;
  sub.y = rect->y;
  sub.width = rect->width;
  sub.height = rect->height;
  return sub;
}

static GeglRectangle
image_rect (const CblurImage *image)
{
  GeglRectangle rect = { image->x, image->y, image->width, image->height };

  return rect;
}

gboolean
cblur_band_io_inside_rect (const CblurBandIo   *band_io,
                          const GeglRectangle *all,
                          GeglRectangle       *part)
{
  if (band_io == NULL || !gegl_rectangle_intersect (part, all, &band_io->inside) ||
      gegl_rectangle_equal (part, all))
    return FALSE;
  /* loop's abyss repeats the far side of the input, which must be there */
  return band_io->abyss != GEGL_ABYSS_LOOP || gegl_rectangle_equal (part, &band_io->inside);
}

gboolean
cblur_band_io_inside (const CblurBandIo *band_io,
                     const CblurImage  *src,
                     CblurImage        *inside)
{
  GeglRectangle all = image_rect (src);
  GeglRectangle part;

  if (!cblur_band_io_inside_rect (band_io, &all, &part))
    return FALSE;
  *inside = sub_image (src, &part);
  return TRUE;
}

void
cblur_band_io_shrink (CblurImage          *src,
                     const GeglRectangle *inside)
{
  src->data = NULL;
  src->stride = 0;
  src->x = inside->x;
  src->y = inside->y;
  src->width = inside->width;
  src->height = inside->height;
}

gboolean
cblur_band_io_band (const CblurBandIo *band_io,
                   gint               reach,
                   const CblurImage  *src,
                   const CblurImage  *dst,
                   CblurImage        *halo,
                   CblurImage        *inside)
{
  if (src->width == dst->width + 2 * reach && src->height == dst->height + 2 * reach)
    {
      *halo = *src;
      return cblur_band_io_inside (band_io, src, inside);
    }
  *halo = (CblurImage) { NULL, dst->x - reach, dst->y - reach,
                         dst->width + 2 * reach, dst->height + 2 * reach, 0, src->format };
  *inside = *src;
  return TRUE;
}

GeglRectangle
cblur_band_io_inside_at_full_size (const CblurBandIo *band_io)
{
  const GeglRectangle *inside = &band_io->inside;
  gint                 scale = 1 << band_io->level;

  return (GeglRectangle) { inside->x * scale, inside->y * scale, inside->width * scale,
                           inside->height * scale };
}

gboolean
cblur_band_io_is_straight (const CblurBandIo *band_io)
{
  return band_io != NULL && band_io->straight_alpha;
}
