/* How long a segment of a line each work group of the shaders blurs:
 * what shared memory holds, weighed by what a texel costs. */
#include "cblur-gl-internal.h"

/* direct.comp's fewest vec4s of shared memory: a power of two above a
 * segment */
#define DIRECT_MIN_CACHE 512
G_STATIC_ASSERT (DIRECT_MIN_CACHE > CBLUR_GL_DIRECT_SEGMENT);
G_STATIC_ASSERT (CBLUR_GL_DIRECT_ANY_CACHE == 2 * DIRECT_MIN_CACHE);

/* box-fused.comp's THREADS, and the fewest outputs per segment worth its
 * halo; a reach too long for that runs the two-shader passes */
#define FUSED_GROUP       256
#define FUSED_MIN_OUTPUTS 256

/* The time a texel of a segment takes, by each invocation's share of it
 * (3, 5, 7, ... texels), relative to four channels in shares of 3; longer
 * shares than the tables hold cost LONG_SHARE_COST.  Two channels at a
 * time cost less a texel than four in middling shares, where the
 * four-channel registers and shared memory leave room for fewer work
 * groups at once.  The weights are the fused box's variants' relative
 * times on an NVIDIA H100, each axis alone over a 4K image at radius 15
 * and 60; another GPU may order them otherwise. */
static const gdouble four_channel_cost[] = { 1.00, 1.24, 1.02, 1.09 };
static const gdouble two_channel_cost[] = { 1.11, 0.91, 0.95, 1.00, 1.35,
                                            1.24, 1.18, 1.28, 1.23, 1.19 };
#define LONG_SHARE_COST 1.4

static gdouble
texel_cost (gint     share,
            gboolean pairs)
{
  guint index = (share - 3) / 2;

  if (pairs)
    return index < G_N_ELEMENTS (two_channel_cost) ? two_channel_cost[index] : LONG_SHARE_COST;
  return index < G_N_ELEMENTS (four_channel_cost) ? four_channel_cost[index] : LONG_SHARE_COST;
}

/* The fused box holds a segment and its 2 * reach halo in shared memory,
 * beside two texels and a bool per invocation: the most shares of
 * FUSED_GROUP texels that fit. */
static gint
fused_fits (const CblurGl *gl,
            gboolean       pairs)
{
  gint texel = (pairs ? 2 : 4) * (gint) sizeof (gfloat);

  return (gl->shared_memory - FUSED_GROUP * (2 * texel + 4)) / texel / FUSED_GROUP;
}

/* The fused box's segment lengths, in shares of FUSED_GROUP texels, four
 * channels or pairs, shortest first: a handful, each a program of its
 * own, so that a sweep over the radius meets few compiles.  Short shares
 * serve short reaches and narrow images, long ones long reaches, whose
 * halo a short segment would spend most of its memory on; over 4K views
 * at all reaches the best of these comes close to the best of every odd
 * share (on the same H100).  The longest serves every reach any of them
 * does. */
static const struct
{
  gint     share;
  gboolean pairs;
} fused_lengths[] = { { 3, FALSE }, { 5, TRUE }, { 9, TRUE }, { 15, TRUE }, { 21, TRUE } };

gint
cblur_gl_fused_lengths (const CblurGl  *gl,
                        CblurGlSegment *lengths)
{
  gint  n = 0;
  guint i;

  G_STATIC_ASSERT (G_N_ELEMENTS (fused_lengths) <= CBLUR_GL_MAX_LENGTHS);

  for (i = 0; i < G_N_ELEMENTS (fused_lengths); i++)
    if (fused_lengths[i].share <= fused_fits (gl, fused_lengths[i].pairs))
      {
        lengths[n].len = fused_lengths[i].share * FUSED_GROUP;
        lengths[n].pairs = fused_lengths[i].pairs;
        n++;
      }
  return n;
}

/* The segment that makes n_out outputs of a line for the least work: its
 * length times the segments the line needs, weighed by texel_cost, in at
 * least min_segments where any segment allows that.  Pairs of channels fit
 * twice the segment, so spend less of it on the halo at long reaches.  An
 * odd SHARE spreads the invocations' shares over all banks.  len is 0 when
 * no segment leaves FUSED_MIN_OUTPUTS outputs.  `any`: the longest, the
 * one that serves every reach, compiled ahead (cblur-gl-variants.c). */
CblurGlSegment
cblur_gl_fused_segment (const CblurGl         *gl,
                        const CblurKernelAxis *kernel,
                        gint                   n_out,
                        gint                   min_segments,
                        gboolean               any)
{
  CblurGlSegment best = { 0, FALSE };
  CblurGlSegment lengths[CBLUR_GL_MAX_LENGTHS];
  gboolean       best_too_few = TRUE;
  gdouble        best_cost = G_MAXDOUBLE;
  gint           n = cblur_gl_fused_lengths (gl, lengths);
  gint           i;

  for (i = 0; i < n; i++)
    {
      gint     len = lengths[i].len;
      gint     outputs = len - 2 * kernel->reach;
      gint     segments = (n_out + outputs - 1) / MAX (outputs, 1);
      gboolean too_few = segments < min_segments;
      gdouble  cost = (gdouble) segments * len * texel_cost (len / FUSED_GROUP, lengths[i].pairs);

      if (outputs < FUSED_MIN_OUTPUTS || (any && i < n - 1))
        continue;
      if (too_few < best_too_few || (too_few == best_too_few && cost < best_cost))
        {
          best_too_few = too_few;
          best_cost = cost;
          best = lengths[i];
        }
    }
  return best;
}

/* Shared memory is reserved whether used or not, and the more a work group
 * reserves the fewer run at once: the smallest power of two of vec4s that
 * holds a segment and its halo, else the largest that fits, whose
 * halves must each hold a segment: a longer window is loaded a half at a
 * time. */
static gint
best_cache_len (const CblurGl         *gl,
                const CblurKernelAxis *kernel)
{
  gint window = CBLUR_GL_DIRECT_SEGMENT + 2 * kernel->half_width;
  gint bytes = gl->shared_memory;
  gint len = DIRECT_MIN_CACHE;

  while (len < window && 2 * len * 4 * (gint) sizeof (gfloat) <= bytes)
    len *= 2;
  if (len < window)
    len = MAX (len, CBLUR_GL_DIRECT_ANY_CACHE);
  return len;
}

gint
cblur_gl_direct_cache_len (const CblurGl         *gl,
                           const CblurKernelAxis *kernel,
                           gboolean               any)
{
  return any ? CBLUR_GL_DIRECT_ANY_CACHE : best_cache_len (gl, kernel);
}
