// Internal: XNNPACK's fp32 requantization of uint8 (and int8) outputs, shared by the uint8 1×1 (and
// spatial) convolutions and the uint8/int8 depthwise convolution.
#ifndef VISIONTASKS_CKERNELS_REQUANTIZE_H
#define VISIONTASKS_CKERNELS_REQUANTIZE_H

#include "Rounding.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

// XNNPACK's xnn_qu8_quantize (xnn_qs8_quantize): the float bound divided by the scale, plus the zero
// point (in float), clamped to 0…255 (−128…127), rounded to nearest-even.
static inline int32_t vt_quantize_bound_in(float v, float scale, int32_t zp, float qmin, float qmax) {
  float q = v / scale + (float)zp;
  q = q > qmin ? q : qmin;
  q = q < qmax ? q : qmax;
  return vt_round_even(q);
}
static inline int32_t vt_quantize_bound(float v, float scale, int32_t zp) { return vt_quantize_bound_in(v, scale, zp, 0.0f, 255.0f); }

// The delegate's float range of a fused activation: NONE −∞…∞, RELU 0…∞, RELU_N1_TO_1 −1…1, RELU6 0…6.
static inline void vt_activation_range(int32_t activation, float *lo, float *hi) {
  *lo = activation == 0 ? -INFINITY : activation == 2 ? -1.0f : 0.0f;
  *hi = activation == 2 ? 1.0f : activation == 3 ? 6.0f : INFINITY;
}

// The requantization of a uint8 (int8) op: float(acc) · scale clamped to [low, high] (the activation's
// bounds less the zero point), rounded to nearest-even, plus the zero point. (XNNPACK clamps the high
// end in float and the low end after packing with saturation: the same values.)
typedef struct {
  float scale, low, high;
  int32_t zero_point;
} vt_requantization;

// For input/filter/output scales and the output's zero point and activation; the scale is computed
// as XNNPACK computes it (input · filter / output, in float).
static inline vt_requantization vt_requantization_make_typed(float input_scale, float filter_scale, float output_scale,
                                                             int32_t output_zero_point, int32_t activation, int is_signed) {
  vt_requantization r;
  float lo, hi;
  const float qmin = is_signed ? -128.0f : 0.0f, qmax = is_signed ? 127.0f : 255.0f;
  r.scale = input_scale * filter_scale / output_scale;
  vt_activation_range(activation, &lo, &hi);
  r.low = (float)(vt_quantize_bound_in(lo, output_scale, output_zero_point, qmin, qmax) - output_zero_point);
  r.high = (float)(vt_quantize_bound_in(hi, output_scale, output_zero_point, qmin, qmax) - output_zero_point);
  r.zero_point = output_zero_point;
  return r;
}
static inline vt_requantization vt_requantization_make(float input_scale, float filter_scale, float output_scale,
                                                       int32_t output_zero_point, int32_t activation) {
  return vt_requantization_make_typed(input_scale, filter_scale, output_scale, output_zero_point, activation, 0);
}

// XNNPACK's packed store of one rounded value q (after the float clamp at the high end): saturated to
// int16 (vpackssdw), plus the zero point with int16 saturation (vpaddsw), saturated to int8 or uint8
// (vpacksswb / vpackuswb), at least qmin (vpmaxsb / vpmaxub). The byte stored.
static inline __attribute__((always_inline)) uint8_t vt_pack_saturated(int32_t q, int32_t zp, int32_t qmin, int is_signed) {
  q = q < -32768 ? -32768 : q > 32767 ? 32767 : q;
  int32_t v = q + zp;
  v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
  v = is_signed ? (v < -128 ? -128 : v > 127 ? 127 : v) : (v < 0 ? 0 : v > 255 ? 255 : v);
  return (uint8_t)(v > qmin ? v : qmin);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
// The same for four vectors of 16 rounded values at once: the packs interleave them by 128-bit lane
// (lane L holds lanes 4L…4L + 3 of q[0], q[1], q[2], q[3] in that order); the caller puts the bytes
// where they go.
__attribute__((target("avx512f,avx512bw"))) static inline __attribute__((always_inline)) __m512i
vt_pack4_saturated_avx512(const __m512i q[4], int32_t zp, int32_t qmin, int is_signed) {
  const __m512i z = _mm512_set1_epi16((int16_t)zp);
  const __m512i a = _mm512_adds_epi16(_mm512_packs_epi32(q[0], q[1]), z), b = _mm512_adds_epi16(_mm512_packs_epi32(q[2], q[3]), z);
  return is_signed ? _mm512_max_epi8(_mm512_packs_epi16(a, b), _mm512_set1_epi8((char)qmin))
                   : _mm512_max_epu8(_mm512_packus_epi16(a, b), _mm512_set1_epi8((char)qmin));
}
#endif

// The output byte (an int8 output's two's-complement byte); `scale` replaces r->scale (per channel).
static inline __attribute__((always_inline)) uint8_t vt_requantize_scaled(const vt_requantization *r, float scale, int32_t acc) {
  float f = (float)acc * scale;
  f = f < r->low ? r->low : f;
  f = f > r->high ? r->high : f;
  return (uint8_t)(vt_round_even(f) + r->zero_point);
}

static inline __attribute__((always_inline)) uint8_t vt_requantize(const vt_requantization *r, int32_t acc) {
  return vt_requantize_scaled(r, r->scale, acc);
}

// --- XNNPACK's aarch64 uint8 requantization ("rndnu") --------------------------------------------
// On aarch64 XNNPACK requantizes uint8 (QU8) convolutions in integers, not in float
// (docs/aarch64-xnnpack.md §2–3): a saturating left pre-shift (sqshl), a doubling multiply-high by
// the scale's 24-bit mantissa (sqdmulh), a rounding right post-shift (srshl), then int16 saturation
// (sqxtn), the zero point added with int16 saturation (sqadd), uint8 saturation (sqxtun) and the
// activation's bounds (umax, umin). The parameters come from the float scale alone, as
// xnn_init_qu8_conv_minmax_rndnu_neon_params derives them.
typedef struct {
  int32_t multiplier;  // the mantissa with its leading one, << 7: 0x40000000…0x7FFFFF80
  int32_t pre_shift;   // left, 0…9 (non-zero for scales ≥ 0.5)
  int32_t post_shift;  // right, 1…31
  int16_t zero_point;
  uint8_t min, max;    // the activation's bounds, quantized
} vt_rndnu;

// For a requantization scale in [2^-32, 256) (any other: multiplier 0, which callers refuse), the
// output's zero point and its quantized bounds.
static inline vt_rndnu vt_rndnu_make(float scale, int32_t zero_point, int32_t qmin, int32_t qmax) {
  vt_rndnu r = {0, 0, 1, (int16_t)zero_point, (uint8_t)qmin, (uint8_t)qmax};
  if (!(scale >= 0x1.0p-32f) || !(scale < 256.0f)) return r;
  uint32_t bits;
  memcpy(&bits, &scale, 4);
  r.multiplier = (int32_t)(((bits & 0x007FFFFFu) | 0x00800000u) << 7);
  const int32_t shift = 126 - (int32_t)(bits >> 23);
  r.post_shift = shift > 1 ? shift : 1;
  r.pre_shift = r.post_shift - shift;
  return r;
}

// sqshl by 0…31: x · 2^n saturated to int32.
static inline __attribute__((always_inline)) int32_t vt_sqshl32(int32_t x, int32_t n) {
  const int64_t v = (int64_t)x * ((int64_t)1 << n);
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}
// sqdmulh: the high half of 2·a·b, rounded down, saturated (only INT32_MIN · INT32_MIN saturates).
static inline __attribute__((always_inline)) int32_t vt_sqdmulh32(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  return (int32_t)(((int64_t)a * (int64_t)b * 2) >> 32);
}
// srshl by −n (n ≥ 1): x / 2^n rounded half up, without overflow.
static inline __attribute__((always_inline)) int32_t vt_srshr32(int32_t x, int32_t n) {
  return (int32_t)(((int64_t)x + ((int64_t)1 << (n - 1))) >> n);
}
// sqxtn (int32 → int16) and sqxtun (int16 → uint8) as clamps.
static inline __attribute__((always_inline)) int32_t vt_sat16(int32_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }
static inline __attribute__((always_inline)) int32_t vt_satu8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

// One output byte from an int32 sum, each step as its instruction computes it; the pre-shift saturating
// (sqshl: the GEMM kernels) or, with `wrap`, wrapping (shl: the depthwise kernels).
static inline __attribute__((always_inline)) uint8_t vt_rndnu_requantize_shifted(const vt_rndnu *r, int32_t acc, int wrap) {
  const int32_t shifted = wrap ? (int32_t)((uint32_t)acc << r->pre_shift) : vt_sqshl32(acc, r->pre_shift);
  const int32_t v = vt_srshr32(vt_sqdmulh32(shifted, r->multiplier), r->post_shift);
  const int32_t u = vt_satu8(vt_sat16(vt_sat16(v) + r->zero_point));
  const int32_t low = u > r->min ? u : r->min;
  return (uint8_t)(low < r->max ? low : r->max);
}
static inline __attribute__((always_inline)) uint8_t vt_rndnu_requantize(const vt_rndnu *r, int32_t acc) {
  return vt_rndnu_requantize_shifted(r, acc, 0);
}

// --- XNNPACK's "rndnu16" (its uint8 GEMMs where a Cortex-A53 or A55 comes first) ------------------------
// A rounding pre-shift of the int32 sum by the scale's exponent (sqrshl: left saturating for scales ≥ 0.5,
// else right, rounding half up), int16 saturation (sqxtn), a rounding doubling multiply-high by the
// mantissa rounded to 15 bits (sqrdmulh .8h), the zero point added with int16 saturation (sqadd), uint8
// saturation (sqxtun) and the activation's bounds (umax, umin). The parameters as
// xnn_init_qu8_conv_minmax_rndnu16_scalar_params derives them in the XNNPACK LiteRT 2.3.0 carries: a
// mantissa that rounds to 2^15 becomes 2^14 with the exponent one higher (before 2026-05 XNNPACK kept
// 2^15 − 1; LiteRT's aarch64 library gives the former's results: docs/aarch64-xnnpack.md).
typedef struct {
  int32_t shift;       // sqrshl's: the scale's exponent + 1, −31…9
  int16_t multiplier;  // the 24-bit mantissa (with its leading one) / 2^9, rounded: 2^14…2^15 − 1
  int16_t zero_point;
  uint8_t min, max;    // the activation's bounds, quantized
} vt_rndnu16;

// For a requantization scale in [2^-32, 256) (any other: multiplier 0, which callers refuse).
static inline vt_rndnu16 vt_rndnu16_make(float scale, int32_t zero_point, int32_t qmin, int32_t qmax) {
  vt_rndnu16 r = {0, 0, (int16_t)zero_point, (uint8_t)qmin, (uint8_t)qmax};
  if (!(scale >= 0x1.0p-32f) || !(scale < 256.0f)) return r;
  uint32_t bits;
  memcpy(&bits, &scale, 4);
  const int32_t mantissa = (int32_t)((bits & 0x007FFFFFu) | 0x00800000u);
  const int32_t rounded = (mantissa + 256) >> 9, carry = rounded == 32768;
  r.multiplier = (int16_t)(carry ? 16384 : rounded);
  r.shift = (int32_t)(bits >> 23) - 127 + 1 + carry;
  return r;
}

// One output byte from an int32 sum, each step as its instruction computes it.
static inline __attribute__((always_inline)) uint8_t vt_rndnu16_requantize(const vt_rndnu16 *r, int32_t acc) {
  const int32_t shifted = r->shift >= 0 ? vt_sqshl32(acc, r->shift) : vt_srshr32(acc, -r->shift);
  const int32_t h = vt_sat16(shifted);
  const int32_t product = (h * r->multiplier + (1 << 14)) >> 15;  // sqrdmulh: |h · m| < 2^30, no saturation
  const int32_t u = vt_satu8(vt_sat16(product + r->zero_point));
  const int32_t low = u > r->min ? u : r->min;
  return (uint8_t)(low < r->max ? low : r->max);
}

#endif
