/* Put before every shader's own text, after common.glsl: the sRGB curve
 * of the float and half formats whose colours carry it, for decode.comp
 * and encode.comp.  cblur-srgb.h's operations in its order, each exact:
 * `precise` keeps multiplies and adds apart, and a quotient is taken in
 * double, whose rounding to float is float division's (GLSL's float
 * division may be an approximation), so that the GPU converts bit for bit
 * as the CPU does. */

/* a / b, rounded as the CPU's float division rounds */
float
srgb_quotient (float a,
               float b)
{
  return float (double (a) / double (b));
}

/* x^(p/q) for x positive and normal, or +inf: cblur_srgb_power */
float
srgb_power (float x,
            int   p,
            int   q,
            float ratio,
            float inverse_q)
{
  uint          bits = floatBitsToUint (x);
  int           biased = int (bits >> 23u);
  int           up = (bits & 0x7fffffu) >= 0x3504f3u ? 1 : 0;
  int           e = biased - 127 + up;
  precise float m = uintBitsToFloat ((bits & 0x7fffffu) | (uint (127 - up) << 23u));
  precise float t = srgb_quotient (m - 1.0, m + 1.0);
  precise float s = t * t;
  precise float log2_m = t * (2.88539004 + s * (0.961796701 + s * (0.577078044 +
                                                                    s * (0.412198573 +
                                                                         s * 0.3205989))));
  int           whole = p * (e + 180);
  int           n = whole / q - 180 * p / q;
  precise float z = float (whole - whole / q * q) * inverse_q + ratio * log2_m;
  precise float k = floor (z + 0.5);
  precise float f = z - k;
  precise float power = 1.0 + f * (0.693147182 +
                                   f * (0.240226507 +
                                        f * (0.0555041097 +
                                             f * (0.00961812865 +
                                                  f * (0.00133335579 +
                                                       f * (0.000154035297 +
                                                            f * 1.52527336e-05))))));
  precise float result;

  n = biased == 255 ? 129 : clamp (n + int (k), -120, 129);
  result = power * uintBitsToFloat (uint (n - 2 + 127) << 23u);
  return result * 4.0;
}

/* cblur_srgb_decode */
float
srgb_decoded (float v)
{
  precise float shifted = v + 0.055;

  if (v > 0.04045)
    return srgb_power (srgb_quotient (shifted, 1.055), 12, 5, 2.4000001, 0.200000003);
  return v * 0.0773993805;
}

/* cblur_srgb_encode */
float
srgb_encoded (float x)
{
  precise float power;
  precise float encoded;

  if (x > 0.003130804954)
    {
      power = srgb_power (x, 5, 12, 0.416666657, 0.0833333358);
      encoded = (power - 1.0) * 1.055 + 1.0;
      return encoded;
    }
  return x * 12.92;
}
