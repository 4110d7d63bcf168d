// 1×1 convolutions bit-identical to XNNPACK's (the path LiteRT 2.3.0 takes for them; the arithmetic
// is in docs/conv1x1.md). Both kinds share one exact int16 GEMM core — pairs of input channels
// multiplied and added by vpmaddwd into int32, |a·b| ≤ 255² so nothing saturates — and differ in how
// the input becomes int16 and how the int32 sums become outputs:
// - uint8: a = x − input zero point; out = XNNPACK's fp32 requantization of bias + Σ a·(w − fzp);
//   int8 (QS8 × QC8W) runs as the uint8 kind on the bytes with their top bit flipped (x + 128, zero point
//   izp + 128; w + 128, zero point 128 — the same Σ (x − izp)·w), with a requantization scale per
//   output channel and the signed zero point, so the output's low byte is the int8 value;
// - hybrid: each pixel quantized to int8 as XNNPACK's dynamic quantization does, a = q − its zero
//   point; out = clamp(fma(float(Σ a·w) · pixel scale, channel scale, bias)).
#pragma clang fp contract(off)
#include "CKernels.h"
#include "Cpu.h"
#include "KernelFormats.h"
#include "Parallel.h"
#include "Range.h"
#include "Requantize.h"
#include "Rounding.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { kNR = 16, kMR = 6, kQuadMR = 12 };
#define kStreamBytes ((uint64_t)4 << 20)
enum { kUInt8, kHybrid };

struct vt_conv1x1 {
  int kind;
  int32_t k, n, kp, nb;       // input channels, output channels, input channel pairs, 16-column blocks
  uint8_t *packed;            // [nb][kp][16][2] filter bytes (uint8 or int8 by kind), zero-padded
  int32_t filter_zero_point;  // uint8: subtracted through each row's sum (see prepare)
  int32_t *bias;              // uint8: [nb · 16] int32 bias, zero-padded
  // uint8 (and int8, flipped: see the top)
  int32_t input_zero_point, output_zero_point;
  float low, high;            // clamp bounds (qmin − zp, qmax − zp)
  float *scales;              // [nb · 16] the requantization scale of each output channel
  vt_arithmetic arithmetic;   // XNNPACK's on x86-64 (fp32 requantization) or on aarch64 (uint8: rndnu)
  vt_rndnu rndnu;             // uint8 with aarch64's arithmetic: the integer requantization
  int rndnu16;                // uint8 with VT_ARITHMETIC_AARCH64_RNDNU16: requantized by `r16` instead
  vt_rndnu16 r16;
  uint8_t input_flip;         // 0x80 for int8 inputs (x + 128), else 0
  int is_signed;              // int8 input and output
  // hybrid
  float *channel_scales;      // [nb · 16]
  float *fbias;               // [nb · 16]
  float min, max;             // the activation's range
  // the dot-product (VNNI) path, made on its first run (runs of one op are serialized) or by
  // vt_conv1x1_prepare (an op run from several threads at once: the fused depthwise op's bands)
  int32_t kq;                 // input channel quads
  int32_t quad_offset;        // 128: VNNI's signed filter bytes (uint8 kind: w − 128); 0: NEON's udot, w as is
  uint8_t *quads;             // [nb][kq][16][4] filter bytes less quad_offset, zero-padded
  int32_t *quad_terms;        // [nb · 16] uint8: bias − izp·Σw + K·izp·fzp; hybrid: Σw
};

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static vt_conv1x1 *alloc_op(int kind, int32_t k, int32_t n) {
  vt_conv1x1 *op = calloc(1, sizeof *op);
  if (!op) return NULL;
  op->kind = kind;
  op->k = k;
  op->n = n;
  op->kp = (k + 1) / 2;
  op->kq = (k + 3) / 4;
  op->nb = (n + kNR - 1) / kNR;
  const size_t packed = (size_t)op->nb * (size_t)op->kp * kNR * 2;
  op->packed = aligned_alloc(64, align64(packed));
  op->bias = calloc((size_t)op->nb * kNR, sizeof(int32_t));
  if (!op->packed || !op->bias) {
    vt_conv1x1_free(op);
    return NULL;
  }
  memset(op->packed, 0, packed);
  return op;
}

static uint8_t *packed_at(const vt_conv1x1 *op, int32_t n, int32_t k) {
  return op->packed + (((size_t)(n / kNR) * (size_t)op->kp + (size_t)(k / 2)) * kNR + (size_t)(n % kNR)) * 2 + (size_t)(k % 2);
}

vt_conv1x1 *vt_qconv_create(const vt_qconv_params *p) { return vt_qconv_create_for(p, VT_ARITHMETIC_NATIVE); }

vt_conv1x1 *vt_qconv_create_for(const vt_qconv_params *p, vt_arithmetic arithmetic) {
  if (!vt_arithmetic_valid(arithmetic)) return NULL;
  if (!p || !p->filter || !p->bias || p->in_channels < 1 || p->out_channels < 1 || p->in_channels > (1 << 16) ||
      p->out_channels > (1 << 16) || p->activation < 0 || p->activation > 3)
    return NULL;
  const int s = p->is_signed != 0;
  const int32_t zps[3] = {p->input_zero_point, p->filter_zero_point, p->output_zero_point};
  for (int i = 0; i < 3; i++)
    if (s ? zps[i] < -128 || zps[i] > 127 || (i == 1 && zps[i] != 0) : zps[i] < 0 || zps[i] > 255) return NULL;
  if (p->filter_scales && !s) return NULL;
  const float scales[3] = {p->input_scale, p->filter_scale, p->output_scale};
  for (int i = 0; i < 3; i++)
    if (!(scales[i] > 0.0f) || !isfinite(scales[i])) return NULL;
  vt_conv1x1 *op = alloc_op(kUInt8, p->in_channels, p->out_channels);
  if (!op) return NULL;
  op->scales = calloc((size_t)op->nb * kNR, sizeof(float));
  if (!op->scales) {
    vt_conv1x1_free(op);
    return NULL;
  }
  // Each channel's scale as XNNPACK computes it: input · filter / output, in float.
  for (int32_t n = 0; n < op->n; n++) {
    const float filter_scale = p->filter_scales ? p->filter_scales[n] : p->filter_scale;
    const float scale = p->input_scale * filter_scale / p->output_scale;
    if (!(filter_scale > 0.0f) || !isfinite(filter_scale) || !(scale > 0.0f) || !(scale < 256.0f)) {
      vt_conv1x1_free(op);
      return NULL;
    }
    op->scales[n] = scale;
  }
  op->is_signed = s;
  op->input_flip = s ? 0x80 : 0;
  op->input_zero_point = p->input_zero_point + (s ? 128 : 0);
  op->output_zero_point = p->output_zero_point;
  op->filter_zero_point = s ? 128 : p->filter_zero_point;
  const vt_requantization r = vt_requantization_make_typed(p->input_scale, p->filter_scale, p->output_scale,
                                                           p->output_zero_point, p->activation, s);
  op->low = r.low;
  op->high = r.high;
  const vt_arithmetic resolved = vt_arithmetic_resolved(arithmetic);
  // rndnu16 is aarch64's arithmetic but for the uint8 requantization.
  op->arithmetic = resolved == VT_ARITHMETIC_AARCH64_RNDNU16 ? VT_ARITHMETIC_AARCH64 : resolved;
  op->quad_offset = op->arithmetic == VT_ARITHMETIC_AARCH64 ? 0 : 128;
  if (op->arithmetic == VT_ARITHMETIC_AARCH64 && !s) {
    const int32_t qmin = (int32_t)r.low + p->output_zero_point, qmax = (int32_t)r.high + p->output_zero_point;
    op->rndnu = vt_rndnu_make(op->scales[0], p->output_zero_point, qmin, qmax);
    op->rndnu16 = resolved == VT_ARITHMETIC_AARCH64_RNDNU16;
    if (op->rndnu16) op->r16 = vt_rndnu16_make(op->scales[0], p->output_zero_point, qmin, qmax);
    // (Both refuse the same scales: XNNPACK's, below 2^-32 or from 256.)
    if (op->rndnu.multiplier == 0 || (op->rndnu16 && op->r16.multiplier == 0)) {
      vt_conv1x1_free(op);
      return NULL;
    }
  }
  memcpy(op->bias, p->bias, (size_t)op->n * sizeof(int32_t));
  for (int32_t n = 0; n < op->n; n++)
    for (int32_t k = 0; k < op->k; k++)
      *packed_at(op, n, k) = (uint8_t)(p->filter[(size_t)n * (size_t)op->k + (size_t)k] ^ op->input_flip);

  return op;
}

vt_conv1x1 *vt_hconv_create(const vt_hconv_params *p) {
  if (!p || !p->filter || !p->channel_scales || !p->bias || p->in_channels < 1 || p->out_channels < 1 || p->in_channels > (1 << 16) ||
      p->out_channels > (1 << 16) || p->activation < 0 || p->activation > 3)
    return NULL;
  for (int32_t n = 0; n < p->out_channels; n++)
    if (!(p->channel_scales[n] > 0.0f) || !isfinite(p->channel_scales[n])) return NULL;
  vt_conv1x1 *op = alloc_op(kHybrid, p->in_channels, p->out_channels);
  if (!op) return NULL;
  op->arithmetic = VT_ARITHMETIC_X86_64;
  op->quad_offset = 128;
  op->channel_scales = calloc((size_t)op->nb * kNR, sizeof(float));
  op->fbias = calloc((size_t)op->nb * kNR, sizeof(float));
  if (!op->channel_scales || !op->fbias) {
    vt_conv1x1_free(op);
    return NULL;
  }
  memcpy(op->channel_scales, p->channel_scales, (size_t)op->n * sizeof(float));
  memcpy(op->fbias, p->bias, (size_t)op->n * sizeof(float));
  vt_activation_range(p->activation, &op->min, &op->max);
  for (int32_t n = 0; n < op->n; n++)
    for (int32_t k = 0; k < op->k; k++) *packed_at(op, n, k) = (uint8_t)p->filter[(size_t)n * (size_t)op->k + (size_t)k];
  return op;
}

void vt_conv1x1_free(vt_conv1x1 *op) {
  if (!op) return;
  free(op->packed);
  free(op->bias);
  free(op->channel_scales);
  free(op->fbias);
  free(op->scales);
  free(op->quads);
  free(op->quad_terms);
  free(op);
}

int32_t vt_conv1x1_in_channels(const vt_conv1x1 *op) { return op ? op->k : 0; }
int32_t vt_conv1x1_out_channels(const vt_conv1x1 *op) { return op ? op->n : 0; }
int vt_conv1x1_is_hybrid(const vt_conv1x1 *op) { return op && op->kind == kHybrid; }
int vt_conv1x1_is_signed(const vt_conv1x1 *op) { return op && op->is_signed; }

enum { kChunk = 16 * kMR };  // rows prepared and multiplied together (their int16 input stays in L1/L2)

// Each thread's scratch: a chunk's int16 input rows, then (hybrid) their float dequantization scales.
// (The dot-product path also keeps the chunk's rows as bytes and two int32 per row after these.)
static size_t quad_bytes(const vt_conv1x1 *op) { return align64((size_t)kChunk * (size_t)op->kq * 4) + align64(2 * kChunk * sizeof(int32_t)); }
static size_t part_bytes(const vt_conv1x1 *op) {
  return align64((size_t)kChunk * (size_t)op->kp * 4) + align64(kChunk * sizeof(float)) + quad_bytes(op);
}

size_t vt_conv1x1_scratch_size(const vt_conv1x1 *op, int32_t threads) {
  if (!op || threads < 1 || threads > 64) return 0;
  return (size_t)threads * part_bytes(op) + 64;
}

// --- Input preparation ---------------------------------------------------------------------------

// Float to int32 by rounding to nearest-even as x86's cvtps2dq does it: out-of-range and NaN give INT32_MIN.
static inline __attribute__((always_inline)) int32_t cvt_rne(float v) {
  return (v >= -2147483648.0f && v < 2147483648.0f) ? vt_round_even(v) : INT32_MIN;
}
static inline __attribute__((always_inline)) int32_t sat16(int32_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : v; }

// XNNPACK's per-pixel asymmetric int8 quantization parameters from the pixel's range (both ends
// taken to include 0): the quantization multiplier 255 / (rmax − rmin), the zero point, and the
// dequantization scale 1 / multiplier.
static inline __attribute__((always_inline)) void pixel_params(float lo, float hi, float *multiplier, int32_t *zp, float *dequant) {
  const float rmin = lo < 0.0f ? lo : 0.0f, rmax = hi > 0.0f ? hi : 0.0f;
  const float qmin = -128.0f, qmax = 127.0f;
  const float scale = rmin == rmax ? 1.0f : (qmax - qmin) / (rmax - rmin);
  const float descaled_min = rmin * scale, descaled_max = rmax * scale;
  const float from_min = qmin + descaled_min, from_max = qmax + descaled_max;
  float z = from_min + from_max > 0.0f ? qmin - descaled_min : qmax - descaled_max;
  z = z < qmin ? qmin : z > qmax ? qmax : z;
  *zp = (int32_t)(int8_t)vt_round_even(z);
  *multiplier = scale;
  *dequant = 1.0f / scale;
}

// One value of XNNPACK's f32 → int8 convert: x · multiplier, capped at 32767 (minps), rounded to
// nearest-even, saturated to int16, plus the zero point with int16 saturation, saturated to int8;
// returned less the zero point (what the GEMM multiplies).
static inline __attribute__((always_inline)) int16_t quantize_value(float x, float multiplier, int32_t zp) {
  float v = x * multiplier;
  v = v < 32767.0f ? v : 32767.0f;
  int32_t q = sat16(sat16(cvt_rne(v)) + zp);
  q = q < -128 ? -128 : q > 127 ? 127 : q;
  return (int16_t)(q - zp);
}

// Σ a·(w − fzp) = Σ a·w − fzp·Σ a: the uint8 kind multiplies by the stored bytes and starts each
// row's sums at −fzp·Σ a (kept, like the hybrid kind's pixel scales, in the row's 4-byte slot).
static inline __attribute__((always_inline)) void store_row_correction(const vt_conv1x1 *op, const int16_t *row, float *slot) {
  int32_t sum = 0;
  for (int32_t c = 0; c < op->k; c++) sum += row[c];
  const int32_t correction = (int32_t)(0u - (uint32_t)op->filter_zero_point * (uint32_t)sum);  // int32 wrap-around, as the vectors do
  memcpy(slot, &correction, 4);
}

// Rows m0..<m1 of the input as int16 (scalar), into a[0…] and dequant[0…].
static void prepare_plain(const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, int16_t *a, float *dequant, int32_t *zps) {
  const int32_t k = op->k, k2 = op->kp * 2;
  for (int64_t m = m0; m < m1; m++) {
    int16_t *row = a + (size_t)(m - m0) * (size_t)k2;
    if (op->kind == kUInt8) {
      const uint8_t *x = (const uint8_t *)input + (size_t)m * (size_t)k;
      for (int32_t c = 0; c < k; c++) row[c] = (int16_t)((int32_t)(x[c] ^ op->input_flip) - op->input_zero_point);
      store_row_correction(op, row, &dequant[m - m0]);
    } else {
      const float *x = (const float *)input + (size_t)m * (size_t)k;
      float lo = x[0], hi = x[0];
      for (int32_t c = 1; c < k; c++) {
        lo = x[c] < lo ? x[c] : lo;
        hi = x[c] > hi ? x[c] : hi;
      }
      float multiplier;
      int32_t zp;
      pixel_params(lo, hi, &multiplier, &zp, &dequant[m - m0]);
      if (zps) zps[m - m0] = zp;
      for (int32_t c = 0; c < k; c++) row[c] = quantize_value(x[c], multiplier, zp);
    }
    if (k2 > k) row[k] = 0;
  }
}

// --- Outputs -----------------------------------------------------------------------------------

// XNNPACK's fp32 requantization: float(acc) · the channel's scale, clamped to the activation's bounds
// (less the zero point), rounded to nearest-even, plus the zero point (an int8 output: its low byte);
// a uint8 op of aarch64's arithmetic: its integer ("rndnu", or "rndnu16") requantization.
static inline __attribute__((always_inline)) uint8_t requantize(const vt_conv1x1 *op, int32_t n, int32_t acc) {
  if (op->arithmetic == VT_ARITHMETIC_AARCH64 && !op->is_signed)
    return op->rndnu16 ? vt_rndnu16_requantize(&op->r16, acc) : vt_rndnu_requantize(&op->rndnu, acc);
  float f = (float)acc * op->scales[n];
  f = f < op->low ? op->low : f;
  f = f > op->high ? op->high : f;
  return (uint8_t)(vt_round_even(f) + op->output_zero_point);
}

// The hybrid epilogue: float(acc) · the pixel's scale, then one fused multiply-add with the channel's
// scale and bias, then maxps with the minimum and minps with the maximum.
static inline __attribute__((always_inline)) float dequantize(const vt_conv1x1 *op, int32_t acc, float pixel_scale, int32_t n) {
  float v = fmaf((float)acc * pixel_scale, op->channel_scales[n], op->fbias[n]);
  v = v > op->min ? v : op->min;
  return v < op->max ? v : op->max;
}

static void rows_plain(const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, void *output, int16_t *a, float *dequant,
                       int stream) {
  (void)stream;
  const int32_t k2 = op->kp * 2;
  for (int64_t m = m0; m < m1; m++) {
    const int64_t c0 = m0 + (m - m0) / kChunk * kChunk;
    if (m == c0) prepare_plain(op, input, c0, c0 + kChunk < m1 ? c0 + kChunk : m1, a, dequant, NULL);
    const int16_t *x = a + (size_t)(m - c0) * (size_t)k2;
    int32_t correction = 0;
    if (op->kind == kUInt8) memcpy(&correction, &dequant[m - c0], 4);
    for (int32_t n = 0; n < op->n; n++) {
      const uint8_t *w = packed_at(op, n, 0);
      uint32_t sum = (uint32_t)op->bias[n] + (uint32_t)correction;  // int32 wrap-around, as the vectors do
      for (int32_t k = 0; k < op->k; k++) {
        const uint8_t b = w[(size_t)(k / 2) * kNR * 2 + (size_t)(k % 2)];
        sum += (uint32_t)((int32_t)x[k] * (op->kind == kUInt8 ? (int32_t)b : (int32_t)(int8_t)b));
      }
      const int32_t acc = (int32_t)sum;
      const size_t at = (size_t)m * (size_t)op->n + (size_t)n;
      if (op->kind == kUInt8) ((uint8_t *)output)[at] = requantize(op, n, acc);
      else ((float *)output)[at] = dequantize(op, acc, dequant[m - c0], n);
    }
  }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// An 8×8 transpose: r[i]'s lane j becomes r[j]'s lane i.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void transpose8_avx2(__m256 r[8]) {
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]), t2 = _mm256_unpacklo_ps(r[2], r[3]),
               t3 = _mm256_unpackhi_ps(r[2], r[3]), t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]),
               t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE), s2 = _mm256_shuffle_ps(t1, t3, 0x44),
               s3 = _mm256_shuffle_ps(t1, t3, 0xEE), s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE),
               s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
  r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
  r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
  r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
  r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
  r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
  r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
  r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

// The quantization parameters of `count` (1…8) pixels of k floats from `x`, eight pixels in the
// lanes at once. Each pixel's range is taken with the comparisons of the per-pixel vector path, in
// its order: eight-lane minima and maxima over whole groups of eight (minps/maxps), their lanes in
// order, then the tail one value at a time (fewer than eight values: all of them, from the first).
// Then pixel_params' arithmetic lane by lane (minps/maxps for its selections, the same divisions):
// the same values as pixel_params, NaNs and signed zeros included.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void pixel_params_x8(const float *x, int32_t k, int32_t count,
                                                                                                  float *multiplier, int32_t *zps,
                                                                                                  float *dequant) {
  const float *px[8];
  for (int p = 0; p < 8; p++) px[p] = x + (size_t)(p < count ? p : count - 1) * (size_t)k;
  __m256 lo, hi;
  int32_t c = 0;
  if (k >= 8) {
    __m256 l[8], h[8];
    for (int p = 0; p < 8; p++) {
      l[p] = h[p] = _mm256_loadu_ps(px[p]);
      for (int32_t i = 8; i + 8 <= k; i += 8) {
        const __m256 v = _mm256_loadu_ps(px[p] + i);
        l[p] = _mm256_min_ps(l[p], v);
        h[p] = _mm256_max_ps(h[p], v);
      }
    }
    transpose8_avx2(l);
    transpose8_avx2(h);
    lo = l[0];
    hi = h[0];
    for (int i = 1; i < 8; i++) {
      lo = _mm256_min_ps(l[i], lo);
      hi = _mm256_max_ps(h[i], hi);
    }
    c = k / 8 * 8;
  } else {
    lo = hi = _mm256_setr_ps(px[0][0], px[1][0], px[2][0], px[3][0], px[4][0], px[5][0], px[6][0], px[7][0]);
  }
  for (; c < k; c++) {
    const __m256 v = _mm256_setr_ps(px[0][c], px[1][c], px[2][c], px[3][c], px[4][c], px[5][c], px[6][c], px[7][c]);
    lo = _mm256_min_ps(v, lo);
    hi = _mm256_max_ps(v, hi);
  }
  const __m256 zero = _mm256_setzero_ps(), qmin = _mm256_set1_ps(-128.0f), qmax = _mm256_set1_ps(127.0f);
  const __m256 rmin = _mm256_min_ps(lo, zero), rmax = _mm256_max_ps(hi, zero);
  const __m256 scale = _mm256_blendv_ps(_mm256_div_ps(_mm256_set1_ps(255.0f), _mm256_sub_ps(rmax, rmin)), _mm256_set1_ps(1.0f),
                                        _mm256_cmp_ps(rmin, rmax, _CMP_EQ_OQ));
  const __m256 dmin = _mm256_mul_ps(rmin, scale), dmax = _mm256_mul_ps(rmax, scale);
  const __m256 above = _mm256_cmp_ps(_mm256_add_ps(_mm256_add_ps(qmin, dmin), _mm256_add_ps(qmax, dmax)), zero, _CMP_GT_OQ);
  const __m256 z = _mm256_max_ps(qmin, _mm256_min_ps(qmax, _mm256_blendv_ps(_mm256_sub_ps(qmax, dmax), _mm256_sub_ps(qmin, dmin), above)));
  const __m256i zp = _mm256_srai_epi32(_mm256_slli_epi32(_mm256_cvtps_epi32(z), 24), 24);
  float m[8], d[8];
  int32_t q[8];
  _mm256_storeu_ps(m, scale);
  _mm256_storeu_ps(d, _mm256_div_ps(_mm256_set1_ps(1.0f), scale));
  _mm256_storeu_si256((__m256i *)(void *)q, zp);
  memcpy(multiplier, m, (size_t)count * sizeof(float));
  memcpy(dequant, d, (size_t)count * sizeof(float));
  memcpy(zps, q, (size_t)count * sizeof(int32_t));
}

// Pixels m0..<m1's quantization parameters (at most kChunk), eight at a time.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void chunk_params_avx2(const float *x, int32_t k, int64_t m0,
                                                                                                    int64_t m1, float *multiplier,
                                                                                                    int32_t *zps, float *dequant) {
  for (int64_t m = m0; m < m1; m += 8) {
    const int32_t count = m1 - m < 8 ? (int32_t)(m1 - m) : 8;
    pixel_params_x8(x + (size_t)m * (size_t)k, k, count, multiplier + (m - m0), zps + (m - m0), dequant + (m - m0));
  }
}

__attribute__((target("avx2"))) static void prepare_avx2(const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, int16_t *a,
                                                         float *dequant, int32_t *zps) {
  const int32_t k = op->k, k2 = op->kp * 2;
  float multipliers[kChunk];
  int32_t zero_points[kChunk];
  if (op->kind == kHybrid) chunk_params_avx2((const float *)input, k, m0, m1, multipliers, zero_points, dequant);
  for (int64_t m = m0; m < m1; m++) {
    int16_t *row = a + (size_t)(m - m0) * (size_t)k2;
    int32_t c = 0;
    if (op->kind == kUInt8) {
      const uint8_t *x = (const uint8_t *)input + (size_t)m * (size_t)k;
      const __m256i izp = _mm256_set1_epi16((int16_t)op->input_zero_point);
      const __m128i flip = _mm_set1_epi8((char)op->input_flip);
      for (; c + 16 <= k; c += 16)
        _mm256_storeu_si256((__m256i *)(row + c),
                            _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(x + c)), flip)), izp));
      for (; c < k; c++) row[c] = (int16_t)((int32_t)(x[c] ^ op->input_flip) - op->input_zero_point);
      store_row_correction(op, row, &dequant[m - m0]);
    } else {
      const float *x = (const float *)input + (size_t)m * (size_t)k;
      const float multiplier = multipliers[m - m0];
      const int32_t zp = zero_points[m - m0];
      if (zps) zps[m - m0] = zp;
      const __m256 vm = _mm256_set1_ps(multiplier), vcap = _mm256_set1_ps(32767.0f);
      const __m256i vzp = _mm256_set1_epi16((int16_t)zp);
      for (c = 0; c + 16 <= k; c += 16) {
        const __m256i i0 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_loadu_ps(x + c), vm), vcap));
        const __m256i i1 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_loadu_ps(x + c + 8), vm), vcap));
        const __m256i s = _mm256_adds_epi16(_mm256_permute4x64_epi64(_mm256_packs_epi32(i0, i1), 0xD8), vzp);
        const __m256i q = _mm256_max_epi16(_mm256_min_epi16(s, _mm256_set1_epi16(127)), _mm256_set1_epi16(-128));
        _mm256_storeu_si256((__m256i *)(row + c), _mm256_sub_epi16(q, vzp));
      }
      for (; c + 8 <= k; c += 8) {
        const __m256i i0 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_loadu_ps(x + c), vm), vcap));
        const __m128i s16 = _mm_adds_epi16(_mm_packs_epi32(_mm256_castsi256_si128(i0), _mm256_extracti128_si256(i0, 1)), _mm256_castsi256_si128(vzp));
        const __m128i q = _mm_max_epi16(_mm_min_epi16(s16, _mm_set1_epi16(127)), _mm_set1_epi16(-128));
        _mm_storeu_si128((__m128i *)(row + c), _mm_sub_epi16(q, _mm256_castsi256_si128(vzp)));
      }
      for (; c < k; c++) row[c] = quantize_value(x[c], multiplier, zp);
    }
    if (k2 > k) row[k] = 0;
  }
}

// The hybrid kind's rows for the dot-product path in one pass: each pixel quantized as prepare_avx2
// quantizes it (the int16 sum with the zero point saturated to int8 by the final pack) and stored as
// the unsigned byte q + 128, the row zero-padded to whole quads; its pixel scale and zero point.
__attribute__((target("avx2"))) static void prepare_bytes_avx2(const vt_conv1x1 *op, const void *input, int64_t c0, int64_t c1, uint8_t *rows,
                                                               float *dequant, int32_t *zps) {
  const int32_t k = op->k, stride = op->kq * 4;
  const __m256i flip = _mm256_set1_epi8((char)0x80);
  float multipliers[kChunk];
  chunk_params_avx2((const float *)input, k, c0, c1, multipliers, zps, dequant);
  for (int64_t m = c0; m < c1; m++) {
    const float *x = (const float *)input + (size_t)m * (size_t)k;
    uint8_t *row = rows + (size_t)(m - c0) * (size_t)stride;
    const float multiplier = multipliers[m - c0];
    const int32_t zp = zps[m - c0];
    const __m256 vm = _mm256_set1_ps(multiplier), vcap = _mm256_set1_ps(32767.0f);
    const __m256i vzp = _mm256_set1_epi16((int16_t)zp);
    int32_t c = 0;
    for (; c + 16 <= k; c += 16) {
      const __m256i i0 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_loadu_ps(x + c), vm), vcap));
      const __m256i i1 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_loadu_ps(x + c + 8), vm), vcap));
      const __m256i s16 = _mm256_adds_epi16(_mm256_permute4x64_epi64(_mm256_packs_epi32(i0, i1), 0xD8), vzp);
      const __m256i b = _mm256_xor_si256(_mm256_permute4x64_epi64(_mm256_packs_epi16(s16, s16), 0x08), flip);
      _mm_storeu_si128((__m128i *)(void *)(row + c), _mm256_castsi256_si128(b));
    }
    for (; c + 8 <= k; c += 8) {
      const __m256i i0 = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_mul_ps(_mm256_loadu_ps(x + c), vm), vcap));
      const __m128i s16 = _mm_adds_epi16(_mm_packs_epi32(_mm256_castsi256_si128(i0), _mm256_extracti128_si256(i0, 1)), _mm256_castsi256_si128(vzp));
      _mm_storel_epi64((__m128i *)(void *)(row + c), _mm_xor_si128(_mm_packs_epi16(s16, s16), _mm256_castsi256_si128(flip)));
    }
    for (; c < k; c++) row[c] = (uint8_t)(quantize_value(x[c], multiplier, zp) + zp + 128);
    for (; c < stride; c++) row[c] = 0;
  }
}

// The GEMM core: for one 16-column block, six rows' int32 sums (initialized with `init`), the
// filter bytes widened as unsigned (uint8 kind) or signed (hybrid kind).
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void tile_avx2(const uint8_t *w, int is_unsigned,
                                                                                           const int32_t *const rows[kMR], int32_t kp,
                                                                                           const __m256i init[kMR][2], __m256i acc[kMR][2]) {
#pragma clang loop unroll(full)
  for (int r = 0; r < kMR; r++) {
    acc[r][0] = init[r][0];
    acc[r][1] = init[r][1];
  }
  for (int32_t p = 0; p < kp; p++) {
    const __m128i b0 = _mm_load_si128((const __m128i *)(w + (size_t)p * 32)), b1 = _mm_load_si128((const __m128i *)(w + (size_t)p * 32 + 16));
    const __m256i w0 = is_unsigned ? _mm256_cvtepu8_epi16(b0) : _mm256_cvtepi8_epi16(b0);
    const __m256i w1 = is_unsigned ? _mm256_cvtepu8_epi16(b1) : _mm256_cvtepi8_epi16(b1);
#pragma clang loop unroll(full)
    for (int r = 0; r < kMR; r++) {
      int32_t pair;
      memcpy(&pair, rows[r] + p, 4);
      const __m256i v = _mm256_set1_epi32(pair);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(v, w0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(v, w1));
    }
  }
}

// The uint8 epilogue for one tile: XNNPACK's fp32 requantization with the columns' scales, 16 bytes
// per row (int8 ones packed with signed saturation: the values are in range either way).
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void store_uint8(const vt_conv1x1 *op, __m256i acc[kMR][2], int valid,
                                                                                             int32_t columns, const float *scales, uint8_t *out,
                                                                                             size_t stride) {
  const __m256 vscale0 = _mm256_loadu_ps(scales), vscale1 = _mm256_loadu_ps(scales + 8);
  const __m256 vlow = _mm256_set1_ps(op->low), vhigh = _mm256_set1_ps(op->high);
  const __m256i vzp = _mm256_set1_epi32(op->output_zero_point);
#pragma clang loop unroll(full)
  for (int r = 0; r < kMR; r++) {
    if (r >= valid) continue;
    __m256 f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][0]), vscale0), f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][1]), vscale1);
    f0 = _mm256_min_ps(_mm256_max_ps(f0, vlow), vhigh);
    f1 = _mm256_min_ps(_mm256_max_ps(f1, vlow), vhigh);
    const __m256i i0 = _mm256_add_epi32(_mm256_cvtps_epi32(f0), vzp), i1 = _mm256_add_epi32(_mm256_cvtps_epi32(f1), vzp);
    const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(i0, i1), 0xD8);
    const __m128i lo16 = _mm256_castsi256_si128(p16), hi16 = _mm256_extracti128_si256(p16, 1);
    const __m128i u8 = op->is_signed ? _mm_packs_epi16(lo16, hi16) : _mm_packus_epi16(lo16, hi16);
    uint8_t *dst = out + (size_t)r * stride;
    if (columns == kNR) {
      _mm_storeu_si128((__m128i *)dst, u8);
    } else {
      uint8_t t[kNR];
      _mm_storeu_si128((__m128i *)t, u8);
      memcpy(dst, t, (size_t)columns);
    }
  }
}

// The hybrid epilogue for one tile: float(acc) · the pixel's scale, one FMA with the channel's scale
// and bias, maxps / minps with the activation's range; 16 floats per row.
__attribute__((target("avx2,fma"))) static inline __attribute__((always_inline)) void store_float(const vt_conv1x1 *op, __m256i acc[kMR][2],
                                                                                                 int valid, int32_t columns, const float *scale,
                                                                                                 const float *bias, const float *pixel_scales,
                                                                                                 float *out, size_t stride, int stream) {
  const __m256 vmin = _mm256_set1_ps(op->min), vmax = _mm256_set1_ps(op->max);
  const __m256 s0 = _mm256_loadu_ps(scale), s1 = _mm256_loadu_ps(scale + 8), b0 = _mm256_loadu_ps(bias), b1 = _mm256_loadu_ps(bias + 8);
#pragma clang loop unroll(full)
  for (int r = 0; r < kMR; r++) {
    if (r >= valid) continue;
    const __m256 ps = _mm256_broadcast_ss(pixel_scales + r);
    __m256 v0 = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][0]), ps), s0, b0);
    __m256 v1 = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][1]), ps), s1, b1);
    v0 = _mm256_min_ps(_mm256_max_ps(v0, vmin), vmax);
    v1 = _mm256_min_ps(_mm256_max_ps(v1, vmin), vmax);
    float *dst = out + (size_t)r * stride;
    if (columns == kNR && stream && ((uintptr_t)dst & 63) == 0) {
      _mm256_stream_ps(dst, v0);
      _mm256_stream_ps(dst + 8, v1);
    } else if (columns == kNR) {
      _mm256_storeu_ps(dst, v0);
      _mm256_storeu_ps(dst + 8, v1);
    } else {
      float t[kNR];
      _mm256_storeu_ps(t, v0);
      _mm256_storeu_ps(t + 8, v1);
      memcpy(dst, t, (size_t)columns * sizeof(float));
    }
  }
}

// One tile: rows mb..<mb+6 (the chunk's rows from c0, fewer at its end) × the 16 columns of block nb.
__attribute__((target("avx2,fma"))) static inline __attribute__((always_inline)) void block_avx2(const vt_conv1x1 *op, const int kind, int32_t nb,
                                                                                               int64_t mb, int64_t c0, int64_t c1, const int16_t *a,
                                                                                               const float *row_slot, void *output, int stream) {
  const int32_t k2 = op->kp * 2;
  const uint8_t *w = op->packed + (size_t)nb * (size_t)op->kp * kNR * 2;
  const __m256i bias0 = _mm256_loadu_si256((const __m256i *)(op->bias + nb * kNR));
  const __m256i bias1 = _mm256_loadu_si256((const __m256i *)(op->bias + nb * kNR + 8));
  const int32_t columns = op->n - nb * kNR < kNR ? op->n - nb * kNR : kNR;
  const int valid = c1 - mb < kMR ? (int)(c1 - mb) : kMR;
  const int32_t *rows[kMR];
  __m256i init[kMR][2], acc[kMR][2];
#pragma clang loop unroll(full)
  for (int r = 0; r < kMR; r++) {
    const int64_t row = (r < valid ? mb + r : c1 - 1) - c0;
    rows[r] = (const int32_t *)(a + (size_t)row * (size_t)k2);
    if (kind == kUInt8) {
      int32_t correction;
      memcpy(&correction, &row_slot[row], 4);
      init[r][0] = _mm256_add_epi32(bias0, _mm256_set1_epi32(correction));
      init[r][1] = _mm256_add_epi32(bias1, _mm256_set1_epi32(correction));
    } else {
      init[r][0] = bias0;
      init[r][1] = bias1;
    }
  }
  tile_avx2(w, kind == kUInt8, rows, op->kp, init, acc);
  const size_t at = (size_t)mb * (size_t)op->n + (size_t)nb * kNR;
  if (kind == kUInt8)
    store_uint8(op, acc, valid, columns, op->scales + nb * kNR, (uint8_t *)output + at, (size_t)op->n);
  else
    store_float(op, acc, valid, columns, op->channel_scales + nb * kNR, op->fbias + nb * kNR, row_slot + (mb - c0), (float *)output + at,
                (size_t)op->n, stream);
}

// Rows m0..<m1 for one kind (a constant once inlined, so that each kind's loop has no branch on it).
// Filters that stay in L2 go row tile by row tile, each writing whole output rows (large outputs
// are written faster so); larger ones go block by block, the block's filters staying in L1 while the
// chunk's rows pass.
enum { kRowsOuterFilterBytes = 96 * 1024 };
__attribute__((target("avx2,fma"))) static inline __attribute__((always_inline)) void rows_avx2_body(const vt_conv1x1 *op, const int kind,
                                                                                                   const void *input, int64_t m0, int64_t m1,
                                                                                                   void *output, int16_t *a, float *row_slot, int stream) {
  const int rows_outer = (size_t)op->nb * (size_t)op->kp * kNR * 2 <= kRowsOuterFilterBytes;
  for (int64_t c0 = m0; c0 < m1; c0 += kChunk) {
    const int64_t c1 = c0 + kChunk < m1 ? c0 + kChunk : m1;
    prepare_avx2(op, input, c0, c1, a, row_slot, NULL);
    if (rows_outer) {
      for (int64_t mb = c0; mb < c1; mb += kMR)
        for (int32_t nb = 0; nb < op->nb; nb++) block_avx2(op, kind, nb, mb, c0, c1, a, row_slot, output, stream);
    } else {
      for (int32_t nb = 0; nb < op->nb; nb++)
        for (int64_t mb = c0; mb < c1; mb += kMR) block_avx2(op, kind, nb, mb, c0, c1, a, row_slot, output, stream);
    }
  }
}

__attribute__((target("avx2,fma"))) static void rows_avx2(const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, void *output,
                                                          int16_t *a, float *row_slot, int stream) {
  if (op->kind == kUInt8) rows_avx2_body(op, kUInt8, input, m0, m1, output, a, row_slot, 0);
  else rows_avx2_body(op, kHybrid, input, m0, m1, output, a, row_slot, stream);
  if (stream) _mm_sfence();
}
#endif


// --- The dot-product (VNNI) path -----------------------------------------------------------------

// The filters as signed-byte quads, and the per-column terms (see Conv1x1Quad.h). Made once, on the
// op's first dot-product run; 0, or -1 when out of memory.
static int make_quads(vt_conv1x1 *op) {
  if (op->quads) return 0;
  const size_t bytes = (size_t)op->nb * (size_t)op->kq * 64;
  uint8_t *quads = aligned_alloc(64, align64(bytes));
  int32_t *terms = aligned_alloc(64, align64((size_t)op->nb * kNR * sizeof(int32_t)));
  if (!quads || !terms) {
    free(quads);
    free(terms);
    return -1;
  }
  memset(quads, 0, bytes);
  memset(terms, 0, (size_t)op->nb * kNR * sizeof(int32_t));
  for (int32_t n = 0; n < op->n; n++) {
    uint32_t sum = 0;  // int32 wrap-around, as the vectors do
    for (int32_t k = 0; k < op->k; k++) {
      const uint8_t b = *packed_at(op, n, k);
      const int32_t w = op->kind == kUInt8 ? (int32_t)b : (int32_t)(int8_t)b;
      sum += (uint32_t)w;
      const size_t at = (((size_t)(n / kNR) * (size_t)op->kq + (size_t)(k / 4)) * kNR + (size_t)(n % kNR)) * 4 + (size_t)(k % 4);
      quads[at] = (uint8_t)(op->kind == kUInt8 ? w - op->quad_offset : w);
    }
    if (op->kind == kUInt8) {
      const uint32_t izp = (uint32_t)op->input_zero_point, fzp = (uint32_t)op->filter_zero_point;
      terms[n] = (int32_t)((uint32_t)op->bias[n] - izp * sum + (uint32_t)op->k * izp * fzp);
    } else {
      terms[n] = (int32_t)sum;
    }
  }
  op->quads = quads;
  op->quad_terms = terms;
  return 0;
}

int vt_conv1x1_prepare(vt_conv1x1 *op) { return op ? make_quads(op) : -1; }

// to[i] = from[i] ^ 0x80 for i < n: int8 bytes as unsigned ones (x + 128), 32 at a time in the
// vectors of the function it is inlined into.
static inline __attribute__((always_inline)) void flip_bytes(uint8_t *restrict to, const uint8_t *restrict from, size_t n) {
  typedef uint8_t bytes32 __attribute__((vector_size(32), aligned(1)));
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    bytes32 v;
    memcpy(&v, from + i, 32);
    v ^= (uint8_t)0x80;
    memcpy(to + i, &v, 32);
  }
  for (; i < n; i++) to[i] = from[i] ^ 0x80;
}

// Rows c0..<c1 as unsigned bytes, kq·4 each (zero-padded), and each row's term: uint8 kind
// (128 − fzp)·Σx; hybrid kind −(128 + zp), its pixel scale in `slot` (the int16 rows made by
// `prepare` give q − zp, hence q + 128).
typedef void (*prepare_fn)(const vt_conv1x1 *, const void *, int64_t, int64_t, int16_t *, float *, int32_t *);
// Makes a hybrid chunk's byte rows directly (NULL: through `prepare`'s int16 rows).
typedef void (*prepare_bytes_fn)(const vt_conv1x1 *, const void *, int64_t, int64_t, uint8_t *, float *, int32_t *);
static inline __attribute__((always_inline)) void prepare_quads(const vt_conv1x1 *op, prepare_fn prepare, prepare_bytes_fn prepare_bytes,
                                                                  const void *input, int64_t c0, int64_t c1, int16_t *a, uint8_t *rows,
                                                                  int32_t *row_terms, float *slot) {
  const int32_t k = op->k, stride = op->kq * 4;
  if (op->kind == kUInt8) {
    const uint32_t factor = 128u - (uint32_t)op->filter_zero_point;
    if (op->input_flip) {
      // int8: the filter's zero point is 128 (w + 128), so the row terms are 0 and only the bytes are
      // flipped (rows padded to whole quads with zeros: their filter bytes are 0).
      if (k == stride) {  // whole quads: the chunk's rows are one span
        flip_bytes(rows, (const uint8_t *)input + (size_t)c0 * (size_t)k, (size_t)(c1 - c0) * (size_t)k);
        memset(row_terms, 0, (size_t)(c1 - c0) * sizeof(int32_t));
        return;
      }
      for (int64_t m = c0; m < c1; m++) {
        uint8_t *row = rows + (size_t)(m - c0) * (size_t)stride;
        flip_bytes(row, (const uint8_t *)input + (size_t)m * (size_t)k, (size_t)k);
        for (int32_t c = k; c < stride; c++) row[c] = 0;
        row_terms[m - c0] = 0;
      }
      return;
    }
    for (int64_t m = c0; m < c1; m++) {
      const uint8_t *x = (const uint8_t *)input + (size_t)m * (size_t)k;
      uint32_t sum = 0;
      if (k == stride) {  // whole quads: the tiles read the input rows in place (QUAD(rows))
        for (int32_t c = 0; c < k; c++) sum += x[c];
      } else {
        uint8_t *row = rows + (size_t)(m - c0) * (size_t)stride;
        for (int32_t c = 0; c < k; c++) {
          row[c] = x[c];
          sum += row[c];
        }
        for (int32_t c = k; c < stride; c++) row[c] = 0;
      }
      row_terms[m - c0] = (int32_t)(factor * sum);
    }
  } else {
    int32_t *zps = row_terms + kChunk;
    if (prepare_bytes) {
      prepare_bytes(op, input, c0, c1, rows, slot, zps);
      for (int64_t m = c0; m < c1; m++) row_terms[m - c0] = -(128 + zps[m - c0]);
      return;
    }
    prepare(op, input, c0, c1, a, slot, zps);
    const int32_t k2 = op->kp * 2;
    for (int64_t m = c0; m < c1; m++) {
      const int16_t *q = a + (size_t)(m - c0) * (size_t)k2;
      uint8_t *row = rows + (size_t)(m - c0) * (size_t)stride;
      const int32_t zp = zps[m - c0];
      for (int32_t c = 0; c < k; c++) row[c] = (uint8_t)(q[c] + zp + 128);
      for (int32_t c = k; c < stride; c++) row[c] = 0;
      row_terms[m - c0] = -(128 + zp);
    }
  }
}

// The portable variant: each operation as the instruction computes it, lane by lane.
typedef struct { int32_t v[16]; } qv_portable;
typedef struct { float v[16]; } fv_portable;
static inline qv_portable qvp_load(const int32_t *p) { qv_portable r; memcpy(r.v, p, sizeof r.v); return r; }
static inline qv_portable qvp_set1(int32_t x) { qv_portable r; for (int i = 0; i < 16; i++) r.v[i] = x; return r; }
static inline qv_portable qvp_add(qv_portable a, qv_portable b) {
  for (int i = 0; i < 16; i++) a.v[i] = (int32_t)((uint32_t)a.v[i] + (uint32_t)b.v[i]);
  return a;
}
static inline qv_portable qvp_mullo(qv_portable a, qv_portable b) {
  for (int i = 0; i < 16; i++) a.v[i] = (int32_t)((uint32_t)a.v[i] * (uint32_t)b.v[i]);
  return a;
}
// vpdpbusd: each lane adds the four products of its unsigned bytes of `quad` (broadcast) and its signed
// bytes of `w`, without saturation (int32 wrap-around).
static inline qv_portable qvp_dpbusd(qv_portable acc, int32_t quad, const uint8_t *w) {
  uint8_t u[4];
  memcpy(u, &quad, 4);
  for (int i = 0; i < 16; i++) {
    int32_t sum = 0;
    for (int t = 0; t < 4; t++) sum += (int32_t)u[t] * (int32_t)(int8_t)w[i * 4 + t];
    acc.v[i] = (int32_t)((uint32_t)acc.v[i] + (uint32_t)sum);
  }
  return acc;
}
static inline fv_portable fvp_from(qv_portable a) { fv_portable r; for (int i = 0; i < 16; i++) r.v[i] = (float)a.v[i]; return r; }
static inline fv_portable fvp_load(const float *p) { fv_portable r; memcpy(r.v, p, sizeof r.v); return r; }
static inline fv_portable fvp_set1(float x) { fv_portable r; for (int i = 0; i < 16; i++) r.v[i] = x; return r; }
static inline fv_portable fvp_mul(fv_portable a, fv_portable b) { for (int i = 0; i < 16; i++) a.v[i] = a.v[i] * b.v[i]; return a; }
static inline fv_portable fvp_fmadd(fv_portable a, fv_portable b, fv_portable c) {
  for (int i = 0; i < 16; i++) a.v[i] = fmaf(a.v[i], b.v[i], c.v[i]);
  return a;
}
static inline fv_portable fvp_max(fv_portable a, fv_portable b) { for (int i = 0; i < 16; i++) a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i]; return a; }
static inline fv_portable fvp_min(fv_portable a, fv_portable b) { for (int i = 0; i < 16; i++) a.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i]; return a; }
static inline qv_portable qvp_round(fv_portable a) { qv_portable r; for (int i = 0; i < 16; i++) r.v[i] = cvt_rne(a.v[i]); return r; }
static inline void qvp_store_u8(uint8_t *p, qv_portable a, int32_t n) { for (int i = 0; i < n; i++) p[i] = (uint8_t)a.v[i]; }
static inline void fvp_store(float *p, fv_portable a, int32_t n) { memcpy(p, a.v, (size_t)n * sizeof(float)); }
static inline void qvp_store4_u8(uint8_t *to, size_t stride, const qv_portable q[4], int32_t zp, int32_t qmin, int is_signed, int32_t n) {
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < n; i++) to[(size_t)j * stride + (size_t)i] = vt_pack_saturated(q[j].v[i], zp, qmin, is_signed);
}

#define qv qv_portable
#define fv fv_portable
#define qv_load qvp_load
#define qv_set1 qvp_set1
#define qv_add qvp_add
#define qv_mullo qvp_mullo
#define qv_dpbusd qvp_dpbusd
#define fv_from fvp_from
#define fv_load fvp_load
#define fv_set1 fvp_set1
#define fv_mul fvp_mul
#define fv_fmadd fvp_fmadd
#define fv_max fvp_max
#define fv_min fvp_min
#define qv_round qvp_round
#define qv_store_u8 qvp_store_u8
#define qv_store4_u8 qvp_store4_u8
#define fv_store fvp_store
#define fv_stream fvp_store
#define QUAD_FENCE()
#define QUAD(name) quad_portable_##name
#define QUAD_TARGET
#define QUAD_PREPARE prepare_plain
#define QUAD_PREPARE_BYTES NULL
#include "Conv1x1Quad.h"

// The NEON dot-product kernel (aarch64's arithmetic): with the instructions on aarch64, in portable C
// elsewhere.
#if defined(__aarch64__)
#include <arm_neon.h>
#define DOT(name) dot_neon_##name
#define DOT_TARGET __attribute__((target("dotprod")))
#else
#include "NeonPortable.h"
#define DOT(name) dot_portable_##name
#define DOT_TARGET
#endif
// With VT_MCA (scripts/arm64/mca.sh compiles this file so, to assembly), the main loop is marked for llvm-mca.
#if defined(VT_MCA)
#define DOT_MCA_BEGIN(name) __asm__ volatile("# LLVM-MCA-BEGIN " name ::: "memory")
#define DOT_MCA_END() __asm__ volatile("# LLVM-MCA-END" ::: "memory")
#else
#define DOT_MCA_BEGIN(name)
#define DOT_MCA_END()
#endif
#include "Conv1x1Dot.h"

#if defined(__x86_64__) || defined(__i386__)
// The hardware variant: the same operations as AVX-512 (VNNI) instructions.
#define VT_AVX512VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2,fma")))

// Four rows of 16 int32 lanes to bytes (see qv_store4_u8 in Conv1x1Quad.h): the packs interleave the
// rows by 128-bit lane (lane L holds columns 4L…4L + 3 of rows 0, 1, 2, 3), a dword permutation
// gathers each row's 16 bytes into one lane.
static VT_AVX512VNNI inline __attribute__((always_inline)) void vnni_store4_u8(uint8_t *to, size_t stride, const __m512i q[4], int32_t zp,
                                                                                int32_t qmin, int is_signed, int32_t n) {
  const __m512i bytes = vt_pack4_saturated_avx512(q, zp, qmin, is_signed);
  const __m512i rows = _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), bytes);
  if (n == 16) {
    _mm_storeu_si128((__m128i *)(void *)to, _mm512_castsi512_si128(rows));
    _mm_storeu_si128((__m128i *)(void *)(to + stride), _mm512_extracti32x4_epi32(rows, 1));
    _mm_storeu_si128((__m128i *)(void *)(to + 2 * stride), _mm512_extracti32x4_epi32(rows, 2));
    _mm_storeu_si128((__m128i *)(void *)(to + 3 * stride), _mm512_extracti32x4_epi32(rows, 3));
  } else {
    const __mmask16 m = (__mmask16)((1u << n) - 1u);
    _mm_mask_storeu_epi8((void *)to, m, _mm512_castsi512_si128(rows));
    _mm_mask_storeu_epi8((void *)(to + stride), m, _mm512_extracti32x4_epi32(rows, 1));
    _mm_mask_storeu_epi8((void *)(to + 2 * stride), m, _mm512_extracti32x4_epi32(rows, 2));
    _mm_mask_storeu_epi8((void *)(to + 3 * stride), m, _mm512_extracti32x4_epi32(rows, 3));
  }
}
#define qv __m512i
#define fv __m512
#define qv_load(p) _mm512_loadu_si512((const void *)(p))
#define qv_set1 _mm512_set1_epi32
#define qv_add _mm512_add_epi32
#define qv_mullo _mm512_mullo_epi32
#define qv_dpbusd(acc, quad, w) _mm512_dpbusd_epi32((acc), _mm512_set1_epi32(quad), _mm512_loadu_si512((const void *)(w)))
#define fv_from _mm512_cvtepi32_ps
#define fv_load _mm512_loadu_ps
#define fv_set1 _mm512_set1_ps
#define fv_mul _mm512_mul_ps
#define fv_fmadd _mm512_fmadd_ps
#define fv_max _mm512_max_ps
#define fv_min _mm512_min_ps
#define qv_round _mm512_cvtps_epi32
#define qv_store_u8(p, a, n) _mm_mask_storeu_epi8((void *)(p), (__mmask16)((1u << (n)) - 1u), _mm512_cvtepi32_epi8(a))
#define qv_store4_u8 vnni_store4_u8
#define fv_store(p, a, n) _mm512_mask_storeu_ps((void *)(p), (__mmask16)((1u << (n)) - 1u), (a))
#define fv_stream(p, a, n) (((n) == 16 && ((uintptr_t)(p) & 63) == 0) ? _mm512_stream_ps((void *)(p), (a)) : fv_store((p), (a), (n)))
#define QUAD_FENCE() _mm_sfence()
#define QUAD(name) quad_vnni_##name
#define QUAD_TARGET VT_AVX512VNNI
#define QUAD_PREPARE prepare_avx2
#define QUAD_PREPARE_BYTES prepare_bytes_avx2
#include "Conv1x1Quad.h"
#endif

vt_path vt_conv1x1_path(void) {
  static const vt_path fastest[] = {VT_PATH_VNNI, VT_PATH_AVX2, VT_PATH_NEON_DOT, VT_PATH_NEON};
  return vt_path_first(fastest, sizeof fastest / sizeof fastest[0]);
}

// On aarch64 without the dot product (`neon`, Cortex-A72) LiteRT's kernels stay the default: see
// Performance.md's arm64 section for the counts that decide it.
int vt_conv1x1_preferred(void) {
  const vt_path path = vt_conv1x1_path();
  return path == VT_PATH_VNNI || path == VT_PATH_AVX2 || path == VT_PATH_NEON_DOT;
}

int vt_hconv_exact(void) {
#if defined(__x86_64__) || defined(__i386__)
  return 1;
#else
  return 0;
#endif
}

// Whether `path` computes the op's arithmetic: x86-64's paths XNNPACK's x86-64 one, the NEON paths
// aarch64's for the 8-bit kinds; the scalar path either.
static int computes(const vt_conv1x1 *op, vt_path path) {
  switch (path) {
  case VT_PATH_SCALAR: return 1;
  case VT_PATH_NEON_DOT:
  case VT_PATH_NEON_DOT_PORTABLE:
  case VT_PATH_NEON:
  case VT_PATH_NEON_PORTABLE: return op->arithmetic == VT_ARITHMETIC_AARCH64 && op->kind == kUInt8;
  default: return op->arithmetic == VT_ARITHMETIC_X86_64;
  }
}

// `stream`: the hybrid outputs bypass the caches where the path can (non-temporal stores of whole,
// aligned 64-byte lines): outputs larger than kStreamBytes, which the caches could not keep anyway
// and would first have to read in. The values are the same.
typedef void (*rows_fn)(const vt_conv1x1 *, const void *, int64_t, int64_t, void *, int16_t *, float *, int);

typedef void (*range_fn)(const float *, size_t, float *, float *);

typedef struct {
  const vt_conv1x1 *op;
  const void *input;
  int64_t pixels, rows_per_chunk;
  void *output;
  uint8_t *scratch;  // thread t's buffers at t · part_bytes
  rows_fn rows;
  int stream;
  range_fn range;    // NULL, or the outputs' range is taken: thread t's in ranges[t]
  float (*ranges)[2];
} run_job;

static void range_plain(const float *x, size_t n, float *lo, float *hi) { vt_range_extend_plain(x, n, lo, hi); }
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) static void range_avx2(const float *x, size_t n, float *lo, float *hi) { vt_range_extend_avx2(x, n, lo, hi); }
__attribute__((target("avx512f"))) static void range_avx512(const float *x, size_t n, float *lo, float *hi) {
  vt_range_extend_avx512(x, n, lo, hi);
}
#endif

// Chunk c: rows c · rows_per_chunk ..< (c + 1) · rows_per_chunk, with thread t's scratch. With a
// range to take, kChunk rows at a time, each piece's outputs read back while they are in cache.
static void run_chunk(void *context, int32_t t, int64_t c) {
  const run_job *j = context;
  const int64_t m0 = c * j->rows_per_chunk, end = m0 + j->rows_per_chunk, m1 = end < j->pixels ? end : j->pixels;
  uint8_t *mine = j->scratch + (size_t)t * part_bytes(j->op);
  int16_t *a = (int16_t *)mine;
  float *slot = (float *)(mine + align64((size_t)kChunk * (size_t)j->op->kp * 4));
  if (!j->range) {
    j->rows(j->op, j->input, m0, m1, j->output, a, slot, j->stream);
    return;
  }
  for (int64_t p0 = m0; p0 < m1; p0 += kChunk) {
    const int64_t p1 = p0 + kChunk < m1 ? p0 + kChunk : m1;
    j->rows(j->op, j->input, p0, p1, j->output, a, slot, j->stream);
    const size_t n = (size_t)j->op->n;
    j->range((const float *)j->output + (size_t)p0 * n, (size_t)(p1 - p0) * n, &j->ranges[t][0], &j->ranges[t][1]);
  }
}

// One thread runs all rows in one go (chunked inside by kChunk); several share chunks of whole
// tiles, about eight per thread (at most kChunk rows each), so that a late worker evens out.
// `range`: the outputs' range is taken too (the hybrid kind's), into range[0…1].
static int run_with(rows_fn rows, const vt_conv1x1 *op, const void *input, int64_t pixels, void *output, void *scratch, size_t scratch_size,
                    int32_t threads, vt_pool *pool, float *range) {
  if (!op || !input || !output || pixels < 1 || !scratch || (range && op->kind != kHybrid)) return -1;
  const int64_t blocks = (pixels + kMR - 1) / kMR;
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  if (threads > blocks) threads = (int32_t)blocks;
  const size_t need = vt_conv1x1_scratch_size(op, threads);
  if (need == 0 || scratch_size < need) return -1;
  int64_t per = threads == 1 ? pixels : (blocks + threads * 8 - 1) / (threads * 8) * kMR;
  if (threads > 1 && per > kChunk) per = kChunk;
  float ranges[64][2] = {{0.0f, 0.0f}};
  range_fn extend = NULL;
  if (range) {
    extend = range_plain;
#if defined(__x86_64__) || defined(__i386__)
    if (vt_cpu_features()->avx2) extend = range_avx2;
    if (vt_cpu_features()->avx512f) extend = range_avx512;
#endif
  }
  // (Not when the outputs' range is taken: that reads them back.)
  const int stream = op->kind == kHybrid && !range && op->n % 16 == 0 && (uint64_t)pixels * (uint64_t)op->n * sizeof(float) > kStreamBytes;
  run_job job = {op, input, pixels, per, output, (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63), rows, stream, extend, ranges};
  vt_parallel_chunks(pool, threads, (pixels + per - 1) / per, run_chunk, &job);
  if (range) {
    float lo = 0.0f, hi = 0.0f;
    for (int32_t t = 0; t < threads; t++) {
      lo = ranges[t][0] < lo ? ranges[t][0] : lo;
      hi = ranges[t][1] > hi ? ranges[t][1] : hi;
    }
    range[0] = lo;
    range[1] = hi;
  }
  return 0;
}

int vt_conv1x1_run_path(const vt_conv1x1 *op, vt_path path, const void *input, int64_t pixels, void *output, void *scratch,
                        size_t scratch_size, int32_t threads, vt_pool *pool) {
  return vt_conv1x1_run_ranged(op, path, input, pixels, output, scratch, scratch_size, threads, pool, NULL);
}

// Each path's rows, where this build has them (NULL for a path of another architecture, or none of this
// kernel's); `quads`: whether they read the packed quads (made on first use).
static rows_fn path_rows(vt_path path, int *quads) {
  *quads = path != VT_PATH_SCALAR && path != VT_PATH_AVX2;
  switch (path) {
  case VT_PATH_SCALAR: return rows_plain;
  case VT_PATH_VNNI_PORTABLE: return quad_portable_rows;
#if defined(__x86_64__) || defined(__i386__)
  case VT_PATH_AVX2: return rows_avx2;
  case VT_PATH_VNNI: return quad_vnni_rows;
#endif
#if defined(__aarch64__)
  case VT_PATH_NEON_DOT: return dot_neon_rows;
  case VT_PATH_NEON: return dot_neon_rows_mull;
#else
  case VT_PATH_NEON_DOT_PORTABLE: return dot_portable_rows;
  case VT_PATH_NEON_PORTABLE: return dot_portable_rows_mull;
#endif
  default: return NULL;
  }
}

int vt_conv1x1_run_ranged(const vt_conv1x1 *op, vt_path path, const void *input, int64_t pixels, void *output, void *scratch,
                          size_t scratch_size, int32_t threads, vt_pool *pool, float range[2]) {
  if (!op) return -1;
  if (path == VT_PATH_DEFAULT) path = computes(op, vt_conv1x1_path()) ? vt_conv1x1_path() : VT_PATH_SCALAR;
  if (!computes(op, path)) return -1;
  const int status = vt_path_status(path);
  if (status != 0) return status;
  int quads = 0;
  const rows_fn rows = path_rows(path, &quads);
  if (!rows || (quads && make_quads((vt_conv1x1 *)op) != 0)) return -1;
  return run_with(rows, op, input, pixels, output, scratch, scratch_size, threads, pool, range);
}

int vt_conv1x1_run(const vt_conv1x1 *op, const void *input, int64_t pixels, void *output, void *scratch, size_t scratch_size,
                   int32_t threads, vt_pool *pool) {
  return vt_conv1x1_run_path(op, VT_PATH_DEFAULT, input, pixels, output, scratch, scratch_size, threads, pool);
}

// --- Custom options ----------------------------------------------------------------------------

enum { kQHeader = 4 + 4 + 6 * 4 + 3 * 4, kHHeader = 4 + 4 + 3 * 4 };

uint64_t vt_filter_digest(const uint8_t *data, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t w = 0;
    memcpy(&w, data + i, n - i < 8 ? n - i : 8);  // little endian; the last word zero-padded
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  return h;
}

// The filter referenced by `from_end` and `digest` (8 bytes each, little endian, at `at`): its K·N
// bytes start that many bytes before the end of the model's bytes and hash to the digest. NULL when
// the reference falls outside the model or the bytes there are not the filter the options were made for.
static const uint8_t *referenced_filter(const uint8_t *data, size_t at, const uint8_t *model, size_t model_size, int32_t k, int32_t n) {
  uint64_t from_end, digest;
  memcpy(&from_end, data + at, 8);
  memcpy(&digest, data + at + 8, 8);
  const uint64_t bytes = (uint64_t)k * (uint64_t)n;
  if (!model || from_end == 0 || from_end > model_size || bytes > from_end) return NULL;
  const uint8_t *filter = model + (model_size - from_end);
  return vt_filter_digest(filter, (size_t)bytes) == digest ? filter : NULL;
}

// After the bias, both uint8 formats end with an int32 flag, 1 for an int8 op (else 0), and for an int8
// op the filter's N per-channel scales: the signedness and scales `p` gets, or -1.
static int decode_signed_tail(const uint8_t *data, size_t size, size_t at, int32_t n, vt_qconv_params *p) {
  int32_t is_signed;
  if (size < at + 4) return -1;
  memcpy(&is_signed, data + at, 4);
  if (is_signed != 0 && is_signed != 1) return -1;
  if (size != at + 4 + (is_signed ? (size_t)n * 4 : 0)) return -1;
  p->is_signed = is_signed;
  p->filter_scales = is_signed ? (const float *)(data + at + 4) : NULL;
  return 0;
}

int vt_qconv_decode_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size, vt_qconv_params *p) {
  if (!data || !p || size < kQHeader + 16 || memcmp(data, VT_OPTIONS_QC_MAGIC, 4) != 0) return -1;
  int32_t ints[7];
  float scales[3];
  memcpy(ints, data + 4, sizeof ints);
  memcpy(scales, data + 32, sizeof scales);
  if (ints[0] != VT_OPTIONS_QC_VERSION || ints[1] < 1 || ints[2] < 1 || ints[1] > (1 << 16) || ints[2] > (1 << 16) || ints[3] < 0 ||
      ints[3] > 3)
    return -1;
  if (size < kQHeader + 16 + (size_t)ints[2] * 4) return -1;
  const uint8_t *filter = referenced_filter(data, kQHeader, model, model_size, ints[1], ints[2]);
  if (!filter) return -1;
  *p = (vt_qconv_params){ints[1], ints[2], ints[3], ints[4], ints[5], ints[6], scales[0], scales[1], scales[2], filter,
                         (const int32_t *)(data + kQHeader + 16), 0, NULL};
  return decode_signed_tail(data, size, kQHeader + 16 + (size_t)ints[2] * 4, ints[2], p);
}

int vt_qconvk_decode_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size, vt_qconv_params *p,
                             vt_window *g) {
  enum { kInts = 15, kHeader = 4 + 4 * kInts + 3 * 4 };
  if (!data || !p || !g || size < kHeader + 16 || memcmp(data, VT_OPTIONS_QK_MAGIC, 4) != 0) return -1;
  int32_t v[kInts];
  float scales[3];
  memcpy(v, data + 4, sizeof v);
  memcpy(scales, data + 4 + sizeof v, sizeof scales);
  // version, K, N, activation, izp, fzp, ozp, kh, kw, cin, sh, sw, dh, dw, padding
  if (v[0] != VT_OPTIONS_QK_VERSION || v[1] < 1 || v[2] < 1 || v[1] > (1 << 16) || v[2] > (1 << 16) || v[3] < 0 || v[3] > 3) return -1;
  for (int i = 7; i <= 13; i++)
    if (v[i] < 1 || v[i] > 65536) return -1;
  if (v[14] < 0 || v[14] > 1 || (int64_t)v[7] * v[8] * v[9] != v[1] || v[4] < -128 || v[4] > 255) return -1;
  if (size < kHeader + 16 + (size_t)v[2] * 4) return -1;
  const uint8_t *filter = referenced_filter(data, kHeader, model, model_size, v[1], v[2]);
  if (!filter) return -1;
  *p = (vt_qconv_params){v[1], v[2], v[3], v[4], v[5], v[6], scales[0], scales[1], scales[2], filter,
                         (const int32_t *)(data + kHeader + 16), 0, NULL};
  if (decode_signed_tail(data, size, kHeader + 16 + (size_t)v[2] * 4, v[2], p) != 0) return -1;
  if (p->is_signed ? v[4] > 127 : v[4] < 0) return -1;
  // Padding taps read the input's zero point: its byte as stored (an int8 one's two's complement).
  *g = (vt_window){v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], (int32_t)(uint8_t)v[4], 0};
  return 0;
}

int vt_hconv_decode_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size, vt_hconv_params *p) {
  if (!data || !p || size < kHHeader + 16 || memcmp(data, VT_OPTIONS_HC_MAGIC, 4) != 0) return -1;
  int32_t ints[4];
  memcpy(ints, data + 4, sizeof ints);
  if (ints[0] != VT_OPTIONS_HC_VERSION || ints[1] < 1 || ints[2] < 1 || ints[1] > (1 << 16) || ints[2] > (1 << 16) || ints[3] < 0 ||
      ints[3] > 3)
    return -1;
  if (size != kHHeader + 16 + 2 * (size_t)ints[2] * 4) return -1;
  const int8_t *filter = (const int8_t *)referenced_filter(data, kHHeader, model, model_size, ints[1], ints[2]);
  if (!filter) return -1;
  *p = (vt_hconv_params){ints[1], ints[2], ints[3], filter, (const float *)(data + kHHeader + 16),
                         (const float *)(data + kHHeader + 16 + (size_t)ints[2] * 4)};
  return 0;
}
