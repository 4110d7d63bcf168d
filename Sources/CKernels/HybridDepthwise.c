// Hybrid depthwise convolution, bit-identical to LiteRT 2.3.0's x86 built-in kernel. Every float
// operation below is written in the order that kernel performs it; contraction into FMA is off
// (an FMA would round once where the reference rounds twice).
#pragma clang fp contract(off)
#include "CKernels.h"
#include "KernelFormats.h"
#include "Cpu.h"
#include "Parallel.h"
#include "Range.h"


#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

int vt_hdw_output_size(const vt_hdw_params *p, int32_t h, int32_t w, int32_t *oh, int32_t *ow, int32_t *pad_h, int32_t *pad_w) {
  if (!p || p->kernel_h < 1 || p->kernel_w < 1 || p->stride_h < 1 || p->stride_w < 1 || p->dilation_h < 1 ||
      p->dilation_w < 1 || h < 1 || w < 1)
    return -1;
  int64_t eff_h = (int64_t)(p->kernel_h - 1) * p->dilation_h + 1, eff_w = (int64_t)(p->kernel_w - 1) * p->dilation_w + 1;
  int64_t out_h, out_w;
  if (p->padding == 0) {
    out_h = (h + p->stride_h - 1) / p->stride_h;
    out_w = (w + p->stride_w - 1) / p->stride_w;
  } else {
    out_h = (h + p->stride_h - eff_h) / p->stride_h;
    out_w = (w + p->stride_w - eff_w) / p->stride_w;
  }
  if (out_h < 1 || out_w < 1 || out_h > INT32_MAX || out_w > INT32_MAX) return -1;
  int64_t total_h = (out_h - 1) * p->stride_h + eff_h - h, total_w = (out_w - 1) * p->stride_w + eff_w - w;
  *oh = (int32_t)out_h;
  *ow = (int32_t)out_w;
  *pad_h = p->padding == 0 && total_h > 0 ? (int32_t)(total_h / 2) : 0;
  *pad_w = p->padding == 0 && total_w > 0 ? (int32_t)(total_w / 2) : 0;
  return 0;
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

// The most taps the paired-tap and dot-product paths take (larger kernels take the plain one).
enum { kMaxTaps = 64 };


// Float to int32 by truncation as x86's cvttps2dq does it: out-of-range and NaN values give INT32_MIN
// (a C cast would be undefined there; such values only come from non-finite activations).
static inline __attribute__((always_inline)) int32_t cvtt(float v) {
  return (v >= -2147483648.0f && v < 2147483648.0f) ? (int32_t)v : INT32_MIN;
}

static inline __attribute__((always_inline)) int8_t saturate8(int64_t v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }

// The per-batch scale and zero point from the range (both capped at 0), and the reciprocal the
// rounding multiplies by. Returns 0 for an empty range: q is zeroed, scale 1, zero point 0.
static inline __attribute__((always_inline)) int quant_params(float rmin, float rmax, int8_t *q, size_t n, float *scale_out,
                                                              int32_t *zp_out, float *inv_out) {
  if (rmin == rmax) {
    memset(q, 0, n);
    *scale_out = 1.0f;
    *zp_out = 0;
    *inv_out = 1.0f;
    return 0;
  }
  const double scale = (double)(rmax - rmin) / 255.0;
  const double zp_from_min = -128.0 - rmin / scale, zp_from_max = 127.0 - rmax / scale;
  const double err_min = 128.0 + fabs(rmin / scale), err_max = 127.0 + fabs(rmax / scale);
  const double zpd = err_min < err_max ? zp_from_min : zp_from_max;
  *zp_out = zpd <= -128.0 ? -128 : zpd >= 127.0 ? 127 : zpd == zpd ? (int32_t)round(zpd) : 0;
  *scale_out = (float)scale;
  *inv_out = (float)(1.0 / (double)*scale_out);
  return 1;
}

// Values [from, to) of a batch of n quantized: those before n/8·8 as the reference's vector loop
// rounds (m ± 0.5f, truncation), the rest with roundf; then the zero point, saturated.
static inline __attribute__((always_inline)) void round_values(const float *x, int8_t *q, size_t from, size_t to, size_t n, int32_t zp,
                                                               float inv) {
  const size_t vec_end = n / 8 * 8 < to ? n / 8 * 8 : to;
  size_t i = from;
  for (; i < vec_end; i++) {
    const float m = x[i] * inv;
    const float t = m + (m < 0.0f ? -0.5f : 0.5f);
    q[i] = saturate8((int64_t)zp + cvtt(t));
  }
  for (; i < to; i++) q[i] = saturate8((int64_t)zp + cvtt(roundf(x[i] * inv)));
}

// The input quantizer (TFLite's NEON AsymmetricQuantizeFloats as compiled for x86) in two passes
// that can be split: the range of values [from, to) (a running min/max from 0: NaNs never enter
// it, so any split gives the same range), then the rounding (round_values).
static inline __attribute__((always_inline)) void range_body(const float *x, size_t from, size_t to, float *min_out, float *max_out) {
  *min_out = 0.0f;
  *max_out = 0.0f;
  vt_range_extend_plain(x + from, to - from, min_out, max_out);
}

// Output rows [oy0, oy1) of one batch from its quantized input `q` (zero point `zp`, scale `s`);
// `acc` holds one int32 per output channel.
// One output pixel from its int32 sums: the reference's 4-wide loop computes (acc·channel)·input,
// its scalar tail (acc·input)·channel; then bias and the activation's clamp.
static inline __attribute__((always_inline)) void pixel_output(const vt_hdw_params *p, const int32_t *acc, float s, float lo, float hi, float *y) {
  const int32_t oc_count = p->in_channels * p->depth_multiplier, vec_c = oc_count / 4 * 4;
  for (int32_t k = 0; k < vec_c; k++) {
    float v = (float)acc[k] * p->channel_scales[k];
    v = v * s;
    v = v + p->bias[k];
    v = v > lo ? v : lo;
    v = v < hi ? v : hi;
    y[k] = v;
  }
  for (int32_t k = vec_c; k < oc_count; k++) {
    float v = (float)acc[k] * s;
    v = v * p->channel_scales[k];
    v = v + p->bias[k];
    v = v < lo ? lo : v;
    v = hi < v ? hi : v;
    y[k] = v;
  }
}

// The fused activation's range.
static inline __attribute__((always_inline)) void activation_range(const vt_hdw_params *p, float *lo, float *hi) {
  *lo = -FLT_MAX;
  *hi = FLT_MAX;
  if (p->activation == 1) *lo = 0.0f;
  else if (p->activation == 2) { *lo = -1.0f; *hi = 1.0f; }
  else if (p->activation == 3) { *lo = 0.0f; *hi = 6.0f; }
}

static inline __attribute__((always_inline)) void rows_body(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h,
                                                            int32_t w, int32_t ow, int32_t pad_h, int32_t pad_w, int32_t oy0,
                                                            int32_t oy1, float *out, int32_t *acc) {
  const int32_t c = p->in_channels, dm = p->depth_multiplier, oc_count = c * dm;
  float lo, hi;
  activation_range(p, &lo, &hi);
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < ow; ox++) {
      memset(acc, 0, (size_t)oc_count * sizeof(int32_t));
      for (int32_t ky = 0; ky < p->kernel_h; ky++) {
        const int32_t iy = oy * p->stride_h - pad_h + ky * p->dilation_h;
        if (iy < 0 || iy >= h) continue;  // taps in the padding are skipped
        for (int32_t kx = 0; kx < p->kernel_w; kx++) {
          const int32_t ix = ox * p->stride_w - pad_w + kx * p->dilation_w;
          if (ix < 0 || ix >= w) continue;
          const int8_t *qrow = q + ((size_t)iy * (size_t)w + (size_t)ix) * (size_t)c;
          const int8_t *f = p->filter + ((size_t)ky * (size_t)p->kernel_w + (size_t)kx) * (size_t)oc_count;
          if (dm == 1) {
            for (int32_t k = 0; k < c; k++) acc[k] += (int32_t)f[k] * ((int32_t)qrow[k] - zp);
          } else {
            for (int32_t ic = 0; ic < c; ic++) {
              const int32_t v = (int32_t)qrow[ic] - zp;
              for (int32_t m = 0; m < dm; m++) acc[ic * dm + m] += (int32_t)f[ic * dm + m] * v;
            }
          }
        }
      }
      pixel_output(p, acc, s, lo, hi, out + ((size_t)oy * (size_t)ow + (size_t)ox) * (size_t)oc_count);
    }
  }
}

// The input row each tap of output pixel (oy, ox) reads, in src[0…]: the pixel's channels in `q`,
// or `zp_row` for a tap in the padding (it adds 0). Returns the number of taps (kernel_h · kernel_w).
static inline __attribute__((always_inline)) int tap_sources(const vt_hdw_params *p, const int8_t *q, const int8_t *zp_row, int32_t h,
                                                             int32_t w, int32_t pad_h, int32_t pad_w, int32_t oy, int32_t ox,
                                                             const int8_t **src) {
  int n = 0;
  for (int32_t ky = 0; ky < p->kernel_h; ky++) {
    const int32_t iy = oy * p->stride_h - pad_h + ky * p->dilation_h;
    for (int32_t kx = 0; kx < p->kernel_w; kx++) {
      const int32_t ix = ox * p->stride_w - pad_w + kx * p->dilation_w;
      const int inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
      src[n++] = inside ? q + ((size_t)iy * (size_t)w + (size_t)ix) * (size_t)p->in_channels : zp_row;
    }
  }
  return n;
}

typedef void (*range_fn)(const float *, size_t, size_t, float *, float *);
typedef void (*round_fn)(const float *, int8_t *, size_t, size_t, size_t, int32_t, float);
typedef void (*rows_fn)(const vt_hdw_params *, const int8_t *, int32_t, float, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t,
                        int32_t, float *, int32_t *);

static void range_plain(const float *x, size_t from, size_t to, float *lo, float *hi) { range_body(x, from, to, lo, hi); }
static void round_plain(const float *x, int8_t *q, size_t from, size_t to, size_t n, int32_t zp, float inv) {
  round_values(x, q, from, to, n, zp, inv);
}
static void rows_plain(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h, int32_t w, int32_t ow, int32_t ph,
                       int32_t pw, int32_t oy0, int32_t oy1, float *out, int32_t *acc) {
  rows_body(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
}
// Whether an op takes the triple path (HybridDepthwiseQuad.h): kernel width 3, both dilations 1,
// depth multiplier 1 and at most kMaxTaps / 3 kernel rows. (With a width of 3, SAME padding puts at
// most one column on each side, so every output's middle tap is inside the picture.)
static int triple_fits(const vt_hdw_params *p) {
  return p->kernel_w == 3 && p->dilation_w == 1 && p->dilation_h == 1 && p->depth_multiplier == 1 && p->kernel_h <= kMaxTaps / 3;
}

// The triple path's part of a thread's scratch, after the sums and the two rows of c bytes.
typedef struct {
  int32_t *start;       // [cp] per-channel start values
  uint8_t *filter;      // [kernel_h][cp][4] the filter's rows as quads
  int8_t *zp_row;       // cp + 32 zero points
  uint8_t *zp_triples;  // [cp][4] a row outside the picture
  uint8_t *zeros;       // 32 zero bytes
  int32_t *tags;        // [kernel_h] the input row each ring slot holds (-1: none)
  uint8_t *ring;        // [kernel_h][w][cp][4]
} triple_scratch;

static size_t triple_bytes(const vt_hdw_params *p, int32_t w, triple_scratch *t, uint8_t *base) {
  const size_t cp = ((size_t)p->in_channels + 31) / 32 * 32, kh = (size_t)p->kernel_h;
  size_t at = 0;
  const size_t start = at;
  at += align64(cp * 4);
  const size_t filter = at;
  at += align64(kh * cp * 4);
  const size_t zp_row = at;
  at += align64(cp + 32);
  const size_t zp_triples = at;
  at += align64(cp * 4);
  const size_t zeros = at;
  at += 64;
  const size_t tags = at;
  at += align64(kh * 4);
  const size_t ring = at;
  at += kh * (size_t)w * cp * 4;
  if (t && base)
    *t = (triple_scratch){(int32_t *)(void *)(base + start), base + filter, (int8_t *)(base + zp_row), base + zp_triples, base + zeros,
                          (int32_t *)(void *)(base + tags), base + ring};
  return align64(at);
}

static inline triple_scratch triple_layout(const vt_hdw_params *p, int32_t *acc, int32_t w) {
  triple_scratch t;
  triple_bytes(p, w, &t, (uint8_t *)acc + align64((size_t)p->in_channels * sizeof(int32_t) + 2 * (size_t)p->in_channels));
  return t;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// The quantizer's passes with AVX2 intrinsics: the same range (min/max are order-free), the same
// float rounding of the values before n/8·8 (m ± 0.5f, truncation), and the same saturation (packs
// saturate to int16, then to int8: the clamp to [-128, 127]). `from` is a multiple of 32.
__attribute__((target("avx2"))) static void range_avx2(const float *x, size_t from, size_t to, float *min_out, float *max_out) {
  *min_out = 0.0f;
  *max_out = 0.0f;
  vt_range_extend_avx2(x + from, to - from, min_out, max_out);
}

__attribute__((target("avx2"))) static void round_avx2(const float *x, int8_t *q, size_t from, size_t to, size_t n, int32_t zp, float inv) {
  const size_t vec_end = n / 8 * 8 < to ? n / 8 * 8 : to;
  const __m256 vinv = _mm256_set1_ps(inv), half = _mm256_set1_ps(0.5f), mhalf = _mm256_set1_ps(-0.5f), zero = _mm256_setzero_ps();
  const __m256i vzp = _mm256_set1_epi32(zp);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  size_t i = from;
  for (; i + 32 <= vec_end; i += 32) {
    __m256i r[4];
    for (int k = 0; k < 4; k++) {
      const __m256 m = _mm256_mul_ps(_mm256_loadu_ps(x + i + 8 * k), vinv);
      const __m256 t = _mm256_add_ps(m, _mm256_blendv_ps(half, mhalf, _mm256_cmp_ps(m, zero, _CMP_LT_OQ)));
      r[k] = _mm256_add_epi32(_mm256_cvttps_epi32(t), vzp);
    }
    const __m256i p16a = _mm256_packs_epi32(r[0], r[1]), p16b = _mm256_packs_epi32(r[2], r[3]);
    const __m256i p8 = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(p16a, p16b), order);
    _mm256_storeu_si256((__m256i *)(q + i), p8);
  }
  round_values(x, q, i, to, n, zp, inv);
}

__attribute__((target("avx512f"))) static void range_avx512(const float *x, size_t from, size_t to, float *min_out, float *max_out) {
  *min_out = 0.0f;
  *max_out = 0.0f;
  vt_range_extend_avx512(x + from, to - from, min_out, max_out);
}

// round_avx2's arithmetic sixteen lanes at a time; vpmovsdb's saturation to int8 is the two packs'.
__attribute__((target("avx512f"))) static void round_avx512(const float *x, int8_t *q, size_t from, size_t to, size_t n, int32_t zp, float inv) {
  const size_t vec_end = n / 8 * 8 < to ? n / 8 * 8 : to;
  const __m512 vinv = _mm512_set1_ps(inv), half = _mm512_set1_ps(0.5f), mhalf = _mm512_set1_ps(-0.5f), zero = _mm512_setzero_ps();
  const __m512i vzp = _mm512_set1_epi32(zp);
  size_t i = from;
  for (; i + 16 <= vec_end; i += 16) {
    const __m512 m = _mm512_mul_ps(_mm512_loadu_ps(x + i), vinv);
    const __m512 t = _mm512_add_ps(m, _mm512_mask_blend_ps(_mm512_cmp_ps_mask(m, zero, _CMP_LT_OQ), half, mhalf));
    _mm_storeu_si128((__m128i *)(void *)(q + i), _mm512_cvtsepi32_epi8(_mm512_add_epi32(_mm512_cvttps_epi32(t), vzp)));
  }
  round_values(x, q, i, to, n, zp, inv);
}

// Depth multiplier 1 (every depthwise op of the MobileNets): 16 channels at a time, their int32 sums
// kept in registers over all taps, taps taken in pairs so that vpmaddwd multiplies and adds two
// taps per channel at once ((q − zp) and the filter as int16: |product| ≤ 255·127, exact). A tap in
// the padding reads a row of zero points (it adds 0, as skipping it does); an odd last tap is paired
// with a zero filter. Then the same output arithmetic as the plain path.
__attribute__((target("avx2"))) static void rows_dm1_avx2(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h, int32_t w,
                                                          int32_t ow, int32_t pad_h, int32_t pad_w, int32_t oy0, int32_t oy1, float *out,
                                                          int32_t *acc) {
  const int32_t c = p->in_channels;
  int8_t *zp_row = (int8_t *)(acc + c), *zero_filter = zp_row + c;  // the scratch's 2·c extra bytes
  memset(zp_row, (int8_t)zp, (size_t)c);
  memset(zero_filter, 0, (size_t)c);
  float lo, hi;
  activation_range(p, &lo, &hi);
  const __m256i vzp = _mm256_set1_epi16((int16_t)zp);
  const int8_t *src[kMaxTaps + 1], *flt[kMaxTaps + 1];
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < ow; ox++) {
      int n = tap_sources(p, q, zp_row, h, w, pad_h, pad_w, oy, ox, src);
      for (int t = 0; t < n; t++) flt[t] = p->filter + (size_t)t * (size_t)c;
      if (n % 2) {
        src[n] = zp_row;
        flt[n] = zero_filter;
        n++;
      }
      int32_t k = 0;
      for (; k + 16 <= c; k += 16) {
        __m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
        for (int t = 0; t < n; t += 2) {
          const __m256i x0 = _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(src[t] + k))), vzp);
          const __m256i x1 = _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(src[t + 1] + k))), vzp);
          const __m256i f0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(flt[t] + k)));
          const __m256i f1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(flt[t + 1] + k)));
          a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1), _mm256_unpacklo_epi16(f0, f1)));  // channels 0-3, 8-11
          a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1), _mm256_unpackhi_epi16(f0, f1)));  // 4-7, 12-15
        }
        _mm256_storeu_si256((__m256i *)(acc + k), _mm256_permute2x128_si256(a0, a1, 0x20));
        _mm256_storeu_si256((__m256i *)(acc + k + 8), _mm256_permute2x128_si256(a0, a1, 0x31));
      }
      for (; k < c; k++) {
        int32_t sum = 0;
        for (int t = 0; t < n; t++) sum += (int32_t)flt[t][k] * ((int32_t)src[t][k] - zp);
        acc[k] = sum;
      }
      pixel_output(p, acc, s, lo, hi, out + ((size_t)oy * (size_t)ow + (size_t)ox) * (size_t)c);
    }
  }
}

__attribute__((target("avx2"))) static void rows_avx2(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h, int32_t w,
                                                      int32_t ow, int32_t ph, int32_t pw, int32_t oy0, int32_t oy1, float *out, int32_t *acc) {
  if (p->depth_multiplier == 1 && p->kernel_h * p->kernel_w <= kMaxTaps) rows_dm1_avx2(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
  else rows_body(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
}
__attribute__((target("avx512f,avx512bw,avx512vl"))) static void rows_avx512(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s,
                                                                             int32_t h, int32_t w, int32_t ow, int32_t ph, int32_t pw,
                                                                             int32_t oy0, int32_t oy1, float *out, int32_t *acc) {
  rows_body(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
}

// The dot-product kernel's operations as AVX-512 VNNI instructions on 256-bit vectors.
#define VT_HDW_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2")))
#define dv __m256i
#define dv_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define dv_store(p, a) _mm256_storeu_si256((__m256i *)(void *)(p), (a))
#define dv_xor80(a) _mm256_xor_si256((a), _mm256_set1_epi8((char)0x80))
#define dv_unpacklo8 _mm256_unpacklo_epi8
#define dv_unpackhi8 _mm256_unpackhi_epi8
#define dv_unpacklo16 _mm256_unpacklo_epi16
#define dv_unpackhi16 _mm256_unpackhi_epi16
#define dv_dpbusd _mm256_dpbusd_epi32
#define dv_perm_lo(a, b) _mm256_permute2x128_si256((a), (b), 0x20)
#define dv_perm_hi(a, b) _mm256_permute2x128_si256((a), (b), 0x31)
#define DQ(name) dq_vnni_##name
#define DQ_TARGET VT_HDW_VNNI
#include "HybridDepthwiseQuad.h"

VT_HDW_VNNI static void rows_vnni(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h, int32_t w, int32_t ow, int32_t ph,
                                  int32_t pw, int32_t oy0, int32_t oy1, float *out, int32_t *acc) {
  if (triple_fits(p)) dq_vnni_triple_rows(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
  else if (p->depth_multiplier == 1 && p->kernel_h * p->kernel_w <= kMaxTaps) dq_vnni_rows(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
  else rows_body(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
}
#endif

// The same operations in portable C, each computing exactly what its instruction computes.
typedef struct {
  uint8_t b[32];
} dv_portable;
static inline dv_portable dvp_load(const void *p) {
  dv_portable r;
  memcpy(r.b, p, 32);
  return r;
}
static inline void dvp_store(void *p, dv_portable a) { memcpy(p, a.b, 32); }
static inline dv_portable dvp_xor80(dv_portable a) {
  for (int i = 0; i < 32; i++) a.b[i] ^= 0x80;
  return a;
}
// Within each 16-byte half: elements of `size` bytes from offset `from` (0 low, 8 high) of a and b, interleaved.
static inline dv_portable dvp_unpack(dv_portable a, dv_portable b, int size, int from) {
  dv_portable r;
  for (int half = 0; half < 32; half += 16)
    for (int e = 0; e < 8 / size; e++) {
      memcpy(r.b + half + 2 * e * size, a.b + half + from + e * size, (size_t)size);
      memcpy(r.b + half + (2 * e + 1) * size, b.b + half + from + e * size, (size_t)size);
    }
  return r;
}
static inline dv_portable dvp_unpacklo8(dv_portable a, dv_portable b) { return dvp_unpack(a, b, 1, 0); }
static inline dv_portable dvp_unpackhi8(dv_portable a, dv_portable b) { return dvp_unpack(a, b, 1, 8); }
static inline dv_portable dvp_unpacklo16(dv_portable a, dv_portable b) { return dvp_unpack(a, b, 2, 0); }
static inline dv_portable dvp_unpackhi16(dv_portable a, dv_portable b) { return dvp_unpack(a, b, 2, 8); }
static inline dv_portable dvp_dpbusd(dv_portable acc, dv_portable a, dv_portable b) {
  for (int l = 0; l < 8; l++) {
    int32_t lane, sum = 0;
    memcpy(&lane, acc.b + 4 * l, 4);
    for (int j = 0; j < 4; j++) sum += (int32_t)a.b[4 * l + j] * (int32_t)(int8_t)b.b[4 * l + j];
    lane = (int32_t)((uint32_t)lane + (uint32_t)sum);
    memcpy(acc.b + 4 * l, &lane, 4);
  }
  return acc;
}
static inline dv_portable dvp_perm(dv_portable a, dv_portable b, int from) {
  dv_portable r;
  memcpy(r.b, a.b + from, 16);
  memcpy(r.b + 16, b.b + from, 16);
  return r;
}
#define dv dv_portable
#define dv_load dvp_load
#define dv_store dvp_store
#define dv_xor80 dvp_xor80
#define dv_unpacklo8 dvp_unpacklo8
#define dv_unpackhi8 dvp_unpackhi8
#define dv_unpacklo16 dvp_unpacklo16
#define dv_unpackhi16 dvp_unpackhi16
#define dv_dpbusd dvp_dpbusd
#define dv_perm_lo(a, b) dvp_perm((a), (b), 0)
#define dv_perm_hi(a, b) dvp_perm((a), (b), 16)
#define DQ(name) dq_portable_##name
#define DQ_TARGET
#include "HybridDepthwiseQuad.h"

static void rows_vnni_portable(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h, int32_t w, int32_t ow, int32_t ph,
                               int32_t pw, int32_t oy0, int32_t oy1, float *out, int32_t *acc) {
  if (triple_fits(p)) dq_portable_triple_rows(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
  else if (p->depth_multiplier == 1 && p->kernel_h * p->kernel_w <= kMaxTaps) dq_portable_rows(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
  else rows_body(p, q, zp, s, h, w, ow, ph, pw, oy0, oy1, out, acc);
}

int vt_kernels_optimized(void) {
#if defined(__OPTIMIZE__)
  return 1;
#else
  return 0;
#endif
}

vt_path vt_hdw_path(void) {
  static const vt_path fastest[] = {VT_PATH_VNNI, VT_PATH_AVX512, VT_PATH_AVX2};
  return vt_path_first(fastest, sizeof fastest / sizeof fastest[0]);
}

// One thread's scratch: the sums, then (depth multiplier 1) a row of zero points and a zero filter
// row; for the dot-product path also the per-channel start values, the filter quads and a padded row
// of zero points (HybridDepthwiseQuad.h).
// The triple path's instead (triple_bytes), when the op takes it, whichever is the larger.
static size_t thread_bytes(const vt_hdw_params *p, int32_t w) {
  const size_t oc = (size_t)p->in_channels * (size_t)p->depth_multiplier;
  const size_t head = align64(oc * sizeof(int32_t) + 2 * oc);
  size_t extra = 0;
  if (p->depth_multiplier == 1 && p->kernel_h * p->kernel_w <= kMaxTaps) {
    const size_t cp = ((size_t)p->in_channels + 31) / 32 * 32, groups = ((size_t)p->kernel_h * (size_t)p->kernel_w + 3) / 4;
    extra = align64(cp * sizeof(int32_t)) + align64(groups * cp * 4) + align64(cp + 32);
  }
  if (triple_fits(p)) {
    const size_t triple = triple_bytes(p, w, NULL, NULL);
    extra = triple > extra ? triple : extra;
  }
  return head + extra;
}

size_t vt_hdw_scratch_size(const vt_hdw_params *p, int32_t h, int32_t w, int32_t threads) {
  if (!p || h < 1 || w < 1 || p->in_channels < 1 || p->depth_multiplier < 1 || threads < 1 || threads > 64) return 0;
  // The quantized input (with 32 bytes after it, which the 32-byte loads of the last pixel may touch),
  // then each thread's part.
  return align64((size_t)h * (size_t)w * (size_t)p->in_channels + 32) + (size_t)threads * thread_bytes(p, w);
}

typedef struct {
  rows_fn rows;
  const vt_hdw_params *p;
  const int8_t *q;
  int32_t zp, h, w, oh, ow, pad_h, pad_w, rows_per_chunk;
  float s;
  float *out;
  uint8_t *accs;
  size_t acc_stride;
} rows_job;

// Chunk c of the output rows, with thread t's sums.
static void rows_chunk(void *context, int32_t t, int64_t c) {
  const rows_job *j = context;
  const int32_t oy0 = (int32_t)c * j->rows_per_chunk, end = oy0 + j->rows_per_chunk, oy1 = end < j->oh ? end : j->oh;
  j->rows(j->p, j->q, j->zp, j->s, j->h, j->w, j->ow, j->pad_h, j->pad_w, oy0, oy1, j->out, (int32_t *)(j->accs + (size_t)t * j->acc_stride));
}

// The quantization's passes over chunks of kQuantizeChunk values (a multiple of 32), each chunk's
// range kept apart and combined afterwards.
enum { kQuantizeChunk = 1 << 15, kMaxQuantizeChunks = 4096 };
typedef struct {
  range_fn range;
  round_fn round;
  const float *x;
  int8_t *q;
  size_t n, per;
  float *mins, *maxs;
  int32_t zp;
  float inv;
} quantize_job;

static void range_chunk(void *context, int32_t t, int64_t c) {
  (void)t;
  const quantize_job *j = context;
  const size_t from = (size_t)c * j->per, to = from + j->per < j->n ? from + j->per : j->n;
  j->range(j->x, from, to, &j->mins[c], &j->maxs[c]);
}

static void round_chunk(void *context, int32_t t, int64_t c) {
  (void)t;
  const quantize_job *j = context;
  const size_t from = (size_t)c * j->per, to = from + j->per < j->n ? from + j->per : j->n;
  j->round(j->x, j->q, from, to, j->n, j->zp, j->inv);
}

// One batch's n values quantized into q: its scale and zero point.
// `known`: the batch's range as range_fn gives it, already taken (by the op that made the input).
static void quantize(range_fn range, round_fn round, const float *x, size_t n, int8_t *q, float *scale_out, int32_t *zp_out, int32_t threads,
                     vt_pool *pool, const float *known) {
  float mins[kMaxQuantizeChunks], maxs[kMaxQuantizeChunks];
  size_t per = kQuantizeChunk;
  while ((n + per - 1) / per > kMaxQuantizeChunks) per *= 2;
  const int64_t chunks = (int64_t)((n + per - 1) / per);
  quantize_job job = {range, round, x, q, n, per, mins, maxs, 0, 0.0f};
  float rmin = 0.0f, rmax = 0.0f;
  if (known) {
    rmin = known[0];
    rmax = known[1];
  } else {
    vt_parallel_chunks(pool, threads, chunks, range_chunk, &job);
    for (int64_t c = 0; c < chunks; c++) {
      rmin = mins[c] < rmin ? mins[c] : rmin;
      rmax = maxs[c] > rmax ? maxs[c] : rmax;
    }
  }
  if (!quant_params(rmin, rmax, q, n, scale_out, zp_out, &job.inv)) return;
  job.zp = *zp_out;
  vt_parallel_chunks(pool, threads, chunks, round_chunk, &job);
}

static int run_with(range_fn range, round_fn round, rows_fn rows, const vt_hdw_params *p, const float *input, int32_t batches, int32_t h,
                    int32_t w, float *output, void *scratch, size_t scratch_size, int32_t threads, vt_pool *pool, const float *known) {
  int32_t oh, ow, pad_h, pad_w;
  if (!p || !input || !output || !scratch || batches < 1 || (known && batches != 1) || !p->filter || !p->channel_scales || !p->bias ||
      vt_hdw_output_size(p, h, w, &oh, &ow, &pad_h, &pad_w) != 0)
    return -1;
  if (threads < 1) threads = 1;
  if (threads > oh) threads = oh;
  const size_t need = vt_hdw_scratch_size(p, h, w, threads);
  if (need == 0 || scratch_size < need) return -1;
  const int32_t oc_count = p->in_channels * p->depth_multiplier;
  const size_t n = (size_t)h * (size_t)w * (size_t)p->in_channels;
  // One thread: all rows at once; several: about four chunks of rows per thread.
  const int32_t per = threads == 1 ? oh : (oh + threads * 4 - 1) / (threads * 4);
  int8_t *q = (int8_t *)scratch;
  for (int32_t b = 0; b < batches; b++) {
    rows_job job = {rows, p, q, 0, h, w, oh, ow, pad_h, pad_w, per, 0, output + (size_t)b * (size_t)oh * (size_t)ow * (size_t)oc_count,
                    (uint8_t *)scratch + align64(n + 32), thread_bytes(p, w)};
    quantize(range, round, input + (size_t)b * n, n, q, &job.s, &job.zp, threads, pool, known);
    vt_parallel_chunks(pool, threads, (oh + per - 1) / per, rows_chunk, &job);
  }
  return 0;
}

int vt_hdw_run_path(const vt_hdw_params *p, vt_path path, const float *input, int32_t batches, int32_t h, int32_t w, float *output,
                    void *scratch, size_t scratch_size, int32_t threads, vt_pool *pool) {
  return vt_hdw_run_ranged(p, path, input, batches, h, w, output, scratch, scratch_size, threads, pool, NULL);
}

// A path's three steps: the input's range, its rounding to int8, the rows.
typedef struct {
  range_fn range;
  round_fn round;
  rows_fn rows;
} path_steps;

// Each path's steps, where this build has them (rows NULL for a path of another architecture, or none of
// this kernel's).
static path_steps steps_for(vt_path path) {
  switch (path) {
  case VT_PATH_SCALAR: return (path_steps){range_plain, round_plain, rows_plain};
  case VT_PATH_VNNI_PORTABLE: return (path_steps){range_plain, round_plain, rows_vnni_portable};
#if defined(__x86_64__) || defined(__i386__)
  case VT_PATH_AVX2: return (path_steps){range_avx2, round_avx2, rows_avx2};
  case VT_PATH_AVX512: return (path_steps){range_avx512, round_avx512, rows_avx512};
  case VT_PATH_VNNI: return (path_steps){range_avx512, round_avx512, rows_vnni};
#endif
  default: return (path_steps){NULL, NULL, NULL};
  }
}

int vt_hdw_run_ranged(const vt_hdw_params *p, vt_path path, const float *input, int32_t batches, int32_t h, int32_t w, float *output,
                      void *scratch, size_t scratch_size, int32_t threads, vt_pool *pool, const float range[2]) {
  if (path == VT_PATH_DEFAULT) path = vt_hdw_path();
  const int status = vt_path_status(path);
  if (status != 0) return status;
  const path_steps steps = steps_for(path);
  if (!steps.rows) return -1;
  return run_with(steps.range, steps.round, steps.rows, p, input, batches, h, w, output, scratch, scratch_size, threads, pool, range);
}

// --- Custom options --------------------------------------------------------------------------

enum { kHeaderInts = 12 };  // magic, version, 10 parameters

static size_t filter_bytes(const vt_hdw_params *p) {
  return (size_t)p->kernel_h * (size_t)p->kernel_w * (size_t)p->in_channels * (size_t)p->depth_multiplier;
}

int vt_hdw_decode_options(const uint8_t *data, size_t size, vt_hdw_params *p) {
  if (!data || !p || size < kHeaderInts * 4 || memcmp(data, VT_OPTIONS_HD_MAGIC, 4) != 0) return -1;
  int32_t h[kHeaderInts - 1];
  memcpy(h, data + 4, sizeof h);
  if (h[0] != VT_OPTIONS_HD_VERSION) return -1;
  for (int i = 1; i <= 8; i++)
    if (h[i] < 1 || h[i] > 65536) return -1;
  if (h[9] < 0 || h[9] > 1 || h[10] < 0 || h[10] > 3) return -1;
  vt_hdw_params q = {h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], 0, 0, 0};
  const size_t oc = (size_t)q.in_channels * (size_t)q.depth_multiplier;
  const size_t fb = (filter_bytes(&q) + 3) & ~(size_t)3;
  if (oc > (1u << 20) || fb > (1u << 28) || size != kHeaderInts * 4 + fb + 2 * oc * 4) return -1;
  q.filter = (const int8_t *)(data + kHeaderInts * 4);
  q.channel_scales = (const float *)(data + kHeaderInts * 4 + fb);
  q.bias = (const float *)(data + kHeaderInts * 4 + fb + oc * 4);
  *p = q;
  return 0;
}
