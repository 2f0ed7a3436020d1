#version 430 core

/* A tile's blurs joined with its source, as cblur-combine.c joins them
 * on the CPU, in the same float operations: `kind` picks the arithmetic
 * (cblur-gl-combine.c's Kind).  Every texel is premultiplied linear RGBA
 * float; first and result may be the same texture, each invocation
 * reading its texel before it writes it.  With THRESHOLD defined, the
 * unsharp mask weighs the difference with GEGL's threshold mask, which
 * each work group makes and blurs in its shared memory (below). */

layout (local_size_x = 16, local_size_y = 16) in;

layout (rgba32f, binding = 0) uniform readonly image2D source;
layout (rgba32f, binding = 1) uniform readonly image2D first;
layout (rgba32f, binding = 2) uniform readonly image2D second;
layout (rgba32f, binding = 3) uniform writeonly image2D result;

#define KIND_COPY       0   /* first, as it is */
#define KIND_UNSHARP    1
#define KIND_HIGH_PASS  2
#define KIND_DIFFERENCE 3

uniform int   kind;
uniform ivec2 size;        /* the result's texels */
uniform ivec2 source_at;   /* the source's texel of the result's first */
uniform ivec2 first_at;    /* likewise, the first blur's */
uniform ivec2 second_at;   /* likewise, the second blur's */
uniform float amount;
uniform float contrast;

/* gegl:high-pass's gammas about its contrast */
#define GAMMA_DOWN 0.4545
#define GAMMA_UP   2.2

float
used_alpha (float alpha)
{
  return abs (alpha) <= CBLUR_ALPHA_FLOOR ? CBLUR_ALPHA_FLOOR : alpha;
}

vec3
straight (vec4 texel)
{
  return texel.rgb * (1.0 / used_alpha (texel.a));
}

float
signed_power (float value,
              float exponent)
{
  return value >= 0.0 ? pow (value, exponent) : -pow (-value, exponent);
}

float
srgb_from_linear (float value)
{
  float magnitude = abs (value);
  float encoded = magnitude <= 0.0031308 ? 12.92 * magnitude
                                         : 1.055 * pow (magnitude, 1.0 / 2.4) - 0.055;

  return value < 0.0 ? -encoded : encoded;
}

float
srgb_to_linear_power (float value,
                      float exponent)
{
  float magnitude = abs (value);
  float power = magnitude <= 0.04045 ? pow (magnitude / 12.92, exponent)
                                     : pow ((magnitude + 0.055) / 1.055, 2.4 * exponent);

  return value < 0.0 ? -power : power;
}

/* mask: the blurred threshold mask's weight of the difference, 1 for
 * none */
vec4
unsharp (vec4  source,
         vec4  blurred,
         float mask)
{
  vec3 value = straight (source);

  return vec4 ((amount * ((value - straight (blurred)) * mask) + value) *
               used_alpha (source.a), source.a);
}

float
high_pass_channel (float source,
                   float blurred,
                   float alpha,
                   float over,
                   float result_alpha)
{
  float inverted = 1.0 - srgb_from_linear (blurred);
  float curved = inverted * over + srgb_from_linear (source) * alpha * (1.0 - over);
  float straight_curved = curved * (1.0 / used_alpha (result_alpha));

  /* at contrast 1 the two gammas meet in one power */
  if (contrast == 1.0)
    return srgb_to_linear_power (straight_curved, GAMMA_DOWN * GAMMA_UP);
  return signed_power ((srgb_to_linear_power (straight_curved, GAMMA_DOWN) - 0.5) * contrast +
                       0.5, GAMMA_UP);
}

vec4
high_pass (vec4 source,
           vec4 blurred)
{
  float over = 0.5 * blurred.a;   /* the inverted blur's alpha at half opacity */
  float result_alpha = over + source.a - over * source.a;
  vec3  plain = straight (source);
  vec3  blur = straight (blurred);
  vec3  value;
  int   c;

  for (c = 0; c < 3; c++)
    value[c] = high_pass_channel (plain[c], blur[c], source.a, over, result_alpha);
  return vec4 (value * used_alpha (result_alpha), result_alpha);
}

vec4
difference (vec4 first,
            vec4 second)
{
  return vec4 ((straight (first) - straight (second)) * used_alpha (first.a), first.a);
}

#ifdef THRESHOLD

/* The mask, as cblur_combine_threshold() makes it: where the luminance
 * of twice the difference between source and first reaches the
 * threshold, the source's alpha as white, else black, premultiplied
 * (GEGL blurs Y'A as Y'aA).  Beyond the image a texel takes the mask of
 * the image's nearest pixel, as GEGL's blur of the mask reads it under
 * clamp.  The sigma 1 blur's taps go from the centre out. */

#define GROUP          16
#define MASK_REACH_MAX 3
#define SPAN           (GROUP + 2 * MASK_REACH_MAX)

uniform ivec4 image;          /* the image's first and last texels, in the result's */
uniform vec4  luminance;      /* of the image's space, in r, g, b */
uniform float threshold;
uniform int   mask_reach;     /* at most MASK_REACH_MAX */
uniform vec4  mask_weights;

shared vec2 masks[SPAN][SPAN];    /* white, alpha: the group's and its reach's */
shared vec2 rows[SPAN][GROUP];    /* those blurred along rows */

vec2
mask_at (ivec2 p)
{
  ivec2 q = clamp (p, image.xy, image.zw);
  vec4  texel = imageLoad (source, q + source_at);
  vec3  difference = 2.0 * abs (straight (texel) - straight (imageLoad (first, q + first_at)));
  float lit = luminance.r * difference.r + luminance.g * difference.g +
              luminance.b * difference.b;

  return vec2 (lit >= threshold ? used_alpha (texel.a) : 0.0, texel.a);
}

/* the blurred mask at the group's texel `at`, from rows */
vec2
mask_blurred (ivec2 at)
{
  vec2 sum = mask_weights[0] * rows[at.y + mask_reach][at.x];
  int  k;

  for (k = 1; k <= mask_reach; k++)
    sum += mask_weights[k] * (rows[at.y + mask_reach - k][at.x] +
                              rows[at.y + mask_reach + k][at.x]);
  return sum;
}

void
main ()
{
  ivec2 corner = ivec2 (gl_WorkGroupID.xy) * GROUP - mask_reach;
  ivec2 at = ivec2 (gl_LocalInvocationID.xy);
  ivec2 p = ivec2 (gl_GlobalInvocationID.xy);
  int   span = GROUP + 2 * mask_reach;
  int   i, k;
  vec2  mask;

  for (i = at.y * GROUP + at.x; i < span * span; i += GROUP * GROUP)
    masks[i / span][i % span] = mask_at (corner + ivec2 (i % span, i / span));
  barrier ();
  for (i = at.y * GROUP + at.x; i < span * GROUP; i += GROUP * GROUP)
    {
      int  row = i / GROUP;
      int  column = i % GROUP + mask_reach;
      vec2 sum = mask_weights[0] * masks[row][column];

      for (k = 1; k <= mask_reach; k++)
        sum += mask_weights[k] * (masks[row][column - k] + masks[row][column + k]);
      rows[row][i % GROUP] = sum;
    }
  barrier ();
  if (any (greaterThanEqual (p, size)))
    return;
  mask = mask_blurred (at);
  imageStore (result, p, unsharp (imageLoad (source, p + source_at),
                                  imageLoad (first, p + first_at),
                                  mask.x * (1.0 / used_alpha (mask.y))));
}

#else

/* the result's first row of this dispatch: a streamed tile's stripe */
uniform int from_row;

void
main ()
{
  ivec2 p = ivec2 (gl_GlobalInvocationID.xy) + ivec2 (0, from_row);
  vec4  blurred;
  vec4  joined;

  if (any (greaterThanEqual (p, size)))
    return;

  blurred = imageLoad (first, p + first_at);
  if (kind == KIND_UNSHARP)
    joined = unsharp (imageLoad (source, p + source_at), blurred, 1.0);
  else if (kind == KIND_HIGH_PASS)
    joined = high_pass (imageLoad (source, p + source_at), blurred);
  else if (kind == KIND_DIFFERENCE)
    joined = difference (blurred, imageLoad (second, p + second_at));
  else
    joined = blurred;
  imageStore (result, p, joined);
}

#endif
