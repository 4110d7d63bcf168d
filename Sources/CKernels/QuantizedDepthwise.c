// The uint8 depthwise convolution, bit-identical to XNNPACK's QU8 DWConv (LiteRT 2.3.0's path for
// it), and the int8 one (per-channel filter scales), bit-identical to its QC8 DWConv: the int32 sums
// of (x − input zero point)·(w − filter zero point) over the taps inside the picture, plus the bias,
// then XNNPACK's fp32 requantization (Requantize.h), per channel for int8. Integer sums are exact in
// any order, so every path gives the same bytes: the plain scalar reference, and one vector kernel
// (QuantizedDepthwiseRows.h) compiled for AVX2, for AVX-512 VNNI and as portable C.
#pragma clang fp contract(off)
#include "CKernels.h"
#include "KernelFormats.h"
#include "Cpu.h"
#include "Parallel.h"
#include "Requantize.h"

#include <stdlib.h>
#include <string.h>

enum { kMaxPairs = 32 };  // the vector kernel takes up to 64 taps (8×8); larger windows run the scalar path

struct vt_qdw {
  int32_t kernel_h, kernel_w, channels, stride_h, stride_w, dilation_h, dilation_w, padding;
  int32_t taps, pairs, blocks;
  int32_t input_zero_point, filter_zero_point, is_signed;
  vt_requantization requantization;  // its scale: the first channel's (per channel below)
  float *channel_scale;              // [channels] each channel's requantization scale
  float *scale_packed;               // [blocks][lo, hi][8] the same in the unpacks' lane order
  uint8_t *filter;         // [taps][channels] as given
  int32_t *bias;           // [channels] as given
  // Per block of 16 channels (a last partial one: the last 16 channels, or fewer from its start when
  // there are fewer than 16), in the unpacks' order:
  int16_t *filter_packed;  // [blocks][pairs][lo, hi][16] w − fzp, 0 past the taps and channels
  int32_t *bias_packed;    // [blocks][lo, hi][8] bias − izp·Σ_t (w − fzp)
  uint8_t *zero_row;       // channels + 64 bytes of the input zero point: what a tap in the padding reads
  // int8 on the dot-product path (QuantizedDepthwiseQuad.h), per block of 64 channels, channel 4i + j in
  // lane i of phase j (0 past the channels):
  int8_t *quad_filter;     // [blocks64][taps][j][64] w in byte j of lane i, the lane's other bytes 0
  int32_t *quad_bias;      // [blocks64][j][16] bias − (izp + 128)·Σ_t w_t
  float *quad_scale;       // [blocks64][j][16] each channel's requantization scale (1 past the channels)
  int32_t quad_pixels;     // pixels per block of 64 bytes: 2 for 32 channels at horizontal stride 1 (the
                           // channels twice), else 1
  // aarch64's arithmetic (vt_qdw_create_for): XNNPACK's aarch64 requantization of a uint8 op, and the NEON
  // kernel's constants (QuantizedDepthwiseNeon.h), per block of 16 channels in channel order.
  vt_arithmetic arithmetic;
  vt_rndnu rndnu;
  int saturating_pre_shift;  // more than 25 taps: XNNPACK's IGEMM (sqshl), else its dwconv kernels (shl)
  int16_t *neon_filter;      // [blocks][taps][16] w − fzp (0 past the channels)
  int32_t *neon_bias;        // [blocks][16] the bias
};

// A stored byte's value: uint8, or int8 (two's complement).
static inline int32_t filter_value(uint8_t b, int sgn) { return sgn ? (int32_t)(int8_t)b : (int32_t)b; }

// Lane j (0…7) of the sums after unpacklo (hi: + 4) holds channel 8·(j / 4) + j % 4 of the block.
static int32_t lane_channel(int32_t j, int hi) { return 8 * (j / 4) + j % 4 + (hi ? 4 : 0); }

// The int8 op's filter, bias and scales for the dot-product path (see the struct); 0, or -1 when out of
// memory.
static int make_quads(vt_qdw *op) {
  const size_t c = (size_t)op->channels, taps = (size_t)op->taps, blocks = (c + 63) / 64;
  op->quad_pixels = c == 32 && op->stride_w == 1 ? 2 : 1;
  const size_t width = op->quad_pixels * c;  // lanes holding a channel (its channel: lane % c)
  op->quad_filter = aligned_alloc(64, blocks * taps * 256);
  op->quad_bias = aligned_alloc(64, blocks * 64 * sizeof(int32_t));
  op->quad_scale = aligned_alloc(64, blocks * 64 * sizeof(float));
  if (!op->quad_filter || !op->quad_bias || !op->quad_scale) return -1;
  memset(op->quad_filter, 0, blocks * taps * 256);
  for (size_t b = 0; b < blocks; b++)
    for (size_t j = 0; j < 4; j++)
      for (size_t i = 0; i < 16; i++) {
        const size_t at = b * 64 + 4 * i + j, ch = at % c, lane = b * 64 + j * 16 + i;
        const int inside = at < width;
        uint32_t sum = 0;  // int32 wrap-around, as the vectors do
        for (size_t t = 0; inside && t < taps; t++) {
          const int8_t v = (int8_t)op->filter[t * c + ch];
          sum += (uint32_t)(int32_t)v;
          op->quad_filter[((b * taps + t) * 4 + j) * 64 + 4 * i + j] = v;
        }
        op->quad_bias[lane] = inside ? (int32_t)((uint32_t)op->bias[ch] - (uint32_t)(op->input_zero_point + 128) * sum) : 0;
        op->quad_scale[lane] = inside ? op->channel_scale[ch] : 1.0f;
      }
  return 0;
}

// The NEON kernel's filter and bias (see the struct); 0, or -1 when out of memory.
static int make_neon(vt_qdw *op) {
  const size_t c = (size_t)op->channels, taps = (size_t)op->taps, blocks = (size_t)op->blocks;
  op->neon_filter = aligned_alloc(16, blocks * taps * 16 * sizeof(int16_t));
  op->neon_bias = aligned_alloc(16, blocks * 16 * sizeof(int32_t));
  if (!op->neon_filter || !op->neon_bias) return -1;
  for (size_t b = 0; b < blocks; b++) {
    const size_t base = c < 16 ? 0 : b * 16 + 16 > c ? c - 16 : b * 16;
    for (size_t i = 0; i < 16; i++) {
      const size_t ch = base + i;
      op->neon_bias[b * 16 + i] = ch < c ? op->bias[ch] : 0;
      for (size_t t = 0; t < taps; t++)
        op->neon_filter[(b * taps + t) * 16 + i] =
            ch < c ? (int16_t)(filter_value(op->filter[t * c + ch], op->is_signed) - op->filter_zero_point) : 0;
    }
  }
  return 0;
}

vt_qdw *vt_qdw_create(const vt_qdw_params *p) { return vt_qdw_create_for(p, VT_ARITHMETIC_NATIVE); }

vt_qdw *vt_qdw_create_for(const vt_qdw_params *p, vt_arithmetic arithmetic) {
  if (!vt_arithmetic_valid(arithmetic)) return NULL;
  if (!p || !p->filter || !p->bias || p->kernel_h < 1 || p->kernel_w < 1 || p->channels < 1 || p->channels > (1 << 20) ||
      p->stride_h < 1 || p->stride_w < 1 || p->dilation_h < 1 || p->dilation_w < 1 || p->padding < 0 || p->padding > 1 ||
      p->activation < 0 || p->activation > 3 || p->kernel_h > 65536 || p->kernel_w > 65536 ||
      (int64_t)p->kernel_h * p->kernel_w > 65536)
    return NULL;
  const int sgn = p->is_signed != 0;
  if (p->is_signed < 0 || p->is_signed > 1 || (!sgn && p->filter_scales) || (sgn && p->filter_zero_point != 0)) return NULL;
  const int32_t zps[3] = {p->input_zero_point, p->filter_zero_point, p->output_zero_point};
  for (int i = 0; i < 3; i++)
    if (zps[i] < (sgn ? -128 : 0) || zps[i] > (sgn ? 127 : 255)) return NULL;
  const float scales[3] = {p->input_scale, sgn && p->filter_scales ? 1.0f : p->filter_scale, p->output_scale};
  for (int i = 0; i < 3; i++)
    if (!(scales[i] > 0.0f) || !isfinite(scales[i])) return NULL;
  const vt_requantization r = vt_requantization_make_typed(p->input_scale, scales[1], p->output_scale, p->output_zero_point,
                                                           p->activation, sgn);
  vt_qdw *op = calloc(1, sizeof *op);
  if (!op) return NULL;
  op->channel_scale = malloc((size_t)p->channels * sizeof(float));
  if (!op->channel_scale) {
    free(op);
    return NULL;
  }
  // Each channel's scale as XNNPACK computes it (input · filter / output, in float), below 256.
  for (int32_t ch = 0; ch < p->channels; ch++) {
    const float fs = sgn && p->filter_scales ? p->filter_scales[ch] : p->filter_scale;
    const float scale = p->input_scale * fs / p->output_scale;
    if (!(fs > 0.0f) || !isfinite(fs) || !(scale > 0.0f) || !(scale < 256.0f)) {
      free(op->channel_scale);
      free(op);
      return NULL;
    }
    op->channel_scale[ch] = scale;
  }
  op->kernel_h = p->kernel_h;
  op->kernel_w = p->kernel_w;
  op->channels = p->channels;
  op->stride_h = p->stride_h;
  op->stride_w = p->stride_w;
  op->dilation_h = p->dilation_h;
  op->dilation_w = p->dilation_w;
  op->padding = p->padding;
  op->taps = p->kernel_h * p->kernel_w;
  op->pairs = (op->taps + 1) / 2;
  op->blocks = (p->channels + 15) / 16;
  op->input_zero_point = p->input_zero_point;
  op->filter_zero_point = p->filter_zero_point;
  op->is_signed = sgn;
  op->requantization = r;
  op->requantization.scale = op->channel_scale[0];
  const size_t c = (size_t)p->channels, taps = (size_t)op->taps, blocks = (size_t)op->blocks, pairs = (size_t)op->pairs;
  op->filter = malloc(taps * c);
  op->bias = malloc(c * sizeof(int32_t));
  op->zero_row = malloc(c + 64);
  op->filter_packed = op->pairs <= kMaxPairs ? aligned_alloc(32, blocks * pairs * 32 * sizeof(int16_t)) : NULL;
  op->bias_packed = aligned_alloc(32, blocks * 16 * sizeof(int32_t));
  op->scale_packed = aligned_alloc(32, blocks * 16 * sizeof(float));
  if (!op->filter || !op->bias || !op->zero_row || !op->bias_packed || !op->scale_packed ||
      (op->pairs <= kMaxPairs && !op->filter_packed)) {
    vt_qdw_free(op);
    return NULL;
  }
  memcpy(op->filter, p->filter, taps * c);
  memcpy(op->bias, p->bias, c * sizeof(int32_t));
  memset(op->zero_row, (uint8_t)p->input_zero_point, c + 64);
  // XNNPACK's uint8 depthwise kernels take rndnu on every aarch64 CPU, rndnu16's included.
  op->arithmetic = vt_arithmetic_resolved(arithmetic);
  if (op->arithmetic == VT_ARITHMETIC_AARCH64_RNDNU16) op->arithmetic = VT_ARITHMETIC_AARCH64;
  if (op->arithmetic == VT_ARITHMETIC_AARCH64) {
    if (!sgn) {
      op->rndnu = vt_rndnu_make(op->channel_scale[0], p->output_zero_point, (int32_t)r.low + p->output_zero_point,
                                (int32_t)r.high + p->output_zero_point);
      op->saturating_pre_shift = op->taps > 25;
    }
    if ((!sgn && op->rndnu.multiplier == 0) || (op->pairs <= kMaxPairs && make_neon(op) != 0)) {
      vt_qdw_free(op);
      return NULL;
    }
  }
  // (Fewer than 32 channels, or 32 at a horizontal stride of 2, fill at most half of the dot-product
  // path's 64 lanes: the pairs kernel is the faster there.)
  if (sgn && (c > 32 || (c == 32 && p->stride_w == 1)) && op->pairs <= kMaxPairs && make_quads(op) != 0) {
    vt_qdw_free(op);
    return NULL;
  }
  for (size_t b = 0; b < blocks; b++) {
    // A last partial block covers the last 16 channels when there are 16 or more (the kernel recomputes
    // a few channels rather than gather the rest), else the channels from its start.
    const size_t base = b * 16 + 16 > c && c >= 16 ? c - 16 : b * 16;
    for (int hi = 0; hi < 2; hi++) {
      for (int32_t j = 0; j < 8; j++) {
        const size_t ch = base + (size_t)lane_channel(j, hi);
        uint32_t sum = 0;
        for (size_t t = 0; ch < c && t < taps; t++) sum += (uint32_t)(filter_value(p->filter[t * c + ch], sgn) - p->filter_zero_point);
        const uint32_t bias = ch < c ? (uint32_t)p->bias[ch] - (uint32_t)p->input_zero_point * sum : 0;
        op->bias_packed[b * 16 + (size_t)hi * 8 + (size_t)j] = (int32_t)bias;
        op->scale_packed[b * 16 + (size_t)hi * 8 + (size_t)j] = ch < c ? op->channel_scale[ch] : 1.0f;
        for (size_t q = 0; op->filter_packed && q < pairs; q++) {
          for (int e = 0; e < 2; e++) {
            const size_t t = 2 * q + (size_t)e;
            const int32_t v = ch < c && t < taps ? filter_value(p->filter[t * c + ch], sgn) - p->filter_zero_point : 0;
            op->filter_packed[((b * pairs + q) * 2 + (size_t)hi) * 16 + 2 * (size_t)j + (size_t)e] = (int16_t)v;
          }
        }
      }
    }
  }
  return op;
}

void vt_qdw_free(vt_qdw *op) {
  if (!op) return;
  free(op->filter);
  free(op->bias);
  free(op->zero_row);
  free(op->filter_packed);
  free(op->quad_filter);
  free(op->quad_bias);
  free(op->quad_scale);
  free(op->bias_packed);
  free(op->scale_packed);
  free(op->channel_scale);
  free(op->neon_filter);
  free(op->neon_bias);
  free(op);
}

int32_t vt_qdw_channels(const vt_qdw *op) { return op ? op->channels : 0; }
int vt_qdw_is_signed(const vt_qdw *op) { return op ? op->is_signed : 0; }

int vt_qdw_output_size(const vt_qdw *op, int32_t h, int32_t w, int32_t *oh, int32_t *ow) {
  if (!op || !oh || !ow) return -1;
  const vt_window g = {op->kernel_h, op->kernel_w, op->channels, op->stride_h, op->stride_w, op->dilation_h, op->dilation_w,
                       op->padding, op->input_zero_point, 0};
  int32_t ph, pw;
  return vt_window_output_size(&g, h, w, oh, ow, &ph, &pw);
}

// The rows each tap of output pixel (oy, ox) reads: the input pixel, or the zero row for a tap in the
// padding; an odd last pair gets the zero row (its filter is 0).
static inline __attribute__((always_inline)) void tap_sources(const vt_qdw *op, const uint8_t *in, int32_t h, int32_t w, int32_t pad_h,
                                                              int32_t pad_w, int32_t oy, int32_t ox, const uint8_t **src) {
  int n = 0;
  for (int32_t ky = 0; ky < op->kernel_h; ky++) {
    const int32_t iy = oy * op->stride_h - pad_h + ky * op->dilation_h;
    for (int32_t kx = 0; kx < op->kernel_w; kx++) {
      const int32_t ix = ox * op->stride_w - pad_w + kx * op->dilation_w;
      src[n++] = iy >= 0 && iy < h && ix >= 0 && ix < w ? in + ((size_t)iy * (size_t)w + (size_t)ix) * (size_t)op->channels
                                                        : op->zero_row;
    }
  }
  if (n % 2) src[n] = op->zero_row;
}

// The plain reference: each channel's sum over the taps inside the picture, in uint32 (XNNPACK's
// int32 sums wrap the same way), then the requantization.
static void rows_scalar(const vt_qdw *op, const uint8_t *in, int32_t h, int32_t w, int32_t ow, int32_t pad_h, int32_t pad_w,
                        int32_t oy0, int32_t oy1, uint8_t *out) {
  const size_t c = (size_t)op->channels;
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < ow; ox++) {
      uint8_t *dst = out + ((size_t)oy * (size_t)ow + (size_t)ox) * c;
      for (size_t ch = 0; ch < c; ch++) {
        uint32_t acc = (uint32_t)op->bias[ch];
        for (int32_t ky = 0; ky < op->kernel_h; ky++) {
          const int32_t iy = oy * op->stride_h - pad_h + ky * op->dilation_h;
          if (iy < 0 || iy >= h) continue;
          for (int32_t kx = 0; kx < op->kernel_w; kx++) {
            const int32_t ix = ox * op->stride_w - pad_w + kx * op->dilation_w;
            if (ix < 0 || ix >= w) continue;
            const int32_t x = filter_value(in[((size_t)iy * (size_t)w + (size_t)ix) * c + ch], op->is_signed) - op->input_zero_point;
            const int32_t f =
                filter_value(op->filter[((size_t)ky * (size_t)op->kernel_w + (size_t)kx) * c + ch], op->is_signed) - op->filter_zero_point;
            acc += (uint32_t)(x * f);
          }
        }
        dst[ch] = op->arithmetic == VT_ARITHMETIC_AARCH64 && !op->is_signed
                      ? vt_rndnu_requantize_shifted(&op->rndnu, (int32_t)acc, !op->saturating_pre_shift)
                      : vt_requantize_scaled(&op->requantization, op->channel_scale[ch], (int32_t)acc);
      }
    }
  }
}

// The requantization of 16 channels from sums in the unpacks' lane order (their scales in the same
// order), as the vector stores do it.
static inline void store_lanes(uint8_t *dst, const int32_t lo[8], const int32_t hi[8], const vt_requantization *r, const float *scales,
                               int32_t n) {
  uint8_t bytes[16];
  for (int32_t j = 0; j < 8; j++) {
    bytes[lane_channel(j, 0)] = vt_requantize_scaled(r, scales[j], lo[j]);
    bytes[lane_channel(j, 1)] = vt_requantize_scaled(r, scales[8 + j], hi[j]);
  }
  memcpy(dst, bytes, (size_t)n);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// The AVX2 store: cvtdq2ps, mulps by the lanes' scales, maxps/minps with the bounds, cvtps2dq
// (nearest-even), the zero point added, packssdw (lanes back in channel order), packuswb (int8:
// packsswb; the values are in range either way).
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void store_avx2(uint8_t *dst, __m256i lo, __m256i hi,
                                                                                             const vt_requantization *r, const float *scales,
                                                                                             int32_t n, int sgn) {
  const __m256 low = _mm256_set1_ps(r->low), high = _mm256_set1_ps(r->high);
  const __m256i zp = _mm256_set1_epi32(r->zero_point);
  __m256 f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(lo), _mm256_load_ps(scales)),
         f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(hi), _mm256_load_ps(scales + 8));
  f0 = _mm256_min_ps(_mm256_max_ps(f0, low), high);
  f1 = _mm256_min_ps(_mm256_max_ps(f1, low), high);
  const __m256i i0 = _mm256_add_epi32(_mm256_cvtps_epi32(f0), zp), i1 = _mm256_add_epi32(_mm256_cvtps_epi32(f1), zp);
  const __m256i p16 = _mm256_packs_epi32(i0, i1);  // per half: lo's four channels, then hi's: in order
  const __m128i u8 = sgn ? _mm_packs_epi16(_mm256_castsi256_si128(p16), _mm256_extracti128_si256(p16, 1))
                         : _mm_packus_epi16(_mm256_castsi256_si128(p16), _mm256_extracti128_si256(p16, 1));
  if (n == 16) {
    _mm_storeu_si128((__m128i *)(void *)dst, u8);
  } else {
    uint8_t t[16];
    _mm_storeu_si128((__m128i *)(void *)t, u8);
    memcpy(dst, t, (size_t)n);
  }
}

#define qv __m256i
#define qv_load(p) _mm256_load_si256((const __m256i *)(const void *)(p))
#define qv_load_u8(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define qv_load_s8(p) _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define qv_unpacklo16 _mm256_unpacklo_epi16
#define qv_unpackhi16 _mm256_unpackhi_epi16
#define qv_dot(acc, a, b) _mm256_add_epi32((acc), _mm256_madd_epi16((a), (b)))
#define qv_store_u8 store_avx2
#define QD(name) qd_avx2_##name
#define QD_TARGET __attribute__((target("avx2")))
#include "QuantizedDepthwiseRows.h"
#undef qv_dot
#undef QD
#undef QD_TARGET

#define qv_dot(acc, a, b) _mm256_dpwssd_epi32((acc), (a), (b))
#define QD(name) qd_vnni_##name
#define QD_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2")))
#include "QuantizedDepthwiseRows.h"
#undef qv
#undef qv_load
#undef qv_load_u8
#undef qv_load_s8
#undef qv_unpacklo16
#undef qv_unpackhi16
#undef qv_dot
#undef qv_store_u8
#undef QD
#undef QD_TARGET
#endif

// The same instructions in portable C.
typedef struct {
  uint8_t b[32];
} qv_portable;
static inline qv_portable qvp_load(const void *p) {
  qv_portable r;
  memcpy(r.b, p, 32);
  return r;
}
static inline qv_portable qvp_load_u8(const uint8_t *p) {
  qv_portable r;
  for (int i = 0; i < 16; i++) {
    const int16_t v = p[i];
    memcpy(r.b + 2 * i, &v, 2);
  }
  return r;
}
// vpmovsxbw: 16 bytes sign-extended.
static inline qv_portable qvp_load_s8(const uint8_t *p) {
  qv_portable r;
  for (int i = 0; i < 16; i++) {
    const int16_t v = (int8_t)p[i];
    memcpy(r.b + 2 * i, &v, 2);
  }
  return r;
}
// Within each 16-byte half: the four int16 from offset `from` (0 low, 8 high) of a and b, interleaved.
static inline qv_portable qvp_unpack16(qv_portable a, qv_portable b, int from) {
  qv_portable r;
  for (int half = 0; half < 32; half += 16)
    for (int e = 0; e < 4; e++) {
      memcpy(r.b + half + 4 * e, a.b + half + from + 2 * e, 2);
      memcpy(r.b + half + 4 * e + 2, b.b + half + from + 2 * e, 2);
    }
  return r;
}
static inline qv_portable qvp_unpacklo16(qv_portable a, qv_portable b) { return qvp_unpack16(a, b, 0); }
static inline qv_portable qvp_unpackhi16(qv_portable a, qv_portable b) { return qvp_unpack16(a, b, 8); }
// vpdpwssd: each int32 lane plus a0·b0 + a1·b1 of its two int16 pairs, wrapping.
static inline qv_portable qvp_dot(qv_portable acc, qv_portable a, qv_portable b) {
  for (int l = 0; l < 8; l++) {
    int32_t lane;
    int16_t a0, a1, b0, b1;
    memcpy(&lane, acc.b + 4 * l, 4);
    memcpy(&a0, a.b + 4 * l, 2);
    memcpy(&a1, a.b + 4 * l + 2, 2);
    memcpy(&b0, b.b + 4 * l, 2);
    memcpy(&b1, b.b + 4 * l + 2, 2);
    lane = (int32_t)((uint32_t)lane + (uint32_t)((int32_t)a0 * b0) + (uint32_t)((int32_t)a1 * b1));
    memcpy(acc.b + 4 * l, &lane, 4);
  }
  return acc;
}
static inline void qvp_store_u8(uint8_t *dst, qv_portable lo, qv_portable hi, const vt_requantization *r, const float *scales, int32_t n,
                                int sgn) {
  (void)sgn;  // the requantized values are in the output's range: its bytes either way
  int32_t l[8], h[8];
  memcpy(l, lo.b, 32);
  memcpy(h, hi.b, 32);
  store_lanes(dst, l, h, r, scales, n);
}
#define qv qv_portable
#define qv_load qvp_load
#define qv_load_u8 qvp_load_u8
#define qv_load_s8 qvp_load_s8
#define qv_unpacklo16 qvp_unpacklo16
#define qv_unpackhi16 qvp_unpackhi16
#define qv_dot qvp_dot
#define qv_store_u8 qvp_store_u8
#define QD(name) qd_portable_##name
#define QD_TARGET
#include "QuantizedDepthwiseRows.h"

// The int8 dot-product kernel (QuantizedDepthwiseQuad.h) in portable C: each instruction lane by lane.
typedef struct {
  uint8_t b[64];
} zv_portable;
static inline zv_portable zvp_load_flipped(const uint8_t *p, int32_t n) {
  zv_portable r;
  memset(r.b, 0, 64);
  for (int32_t i = 0; i < n; i++) r.b[i] = p[i] ^ 0x80;
  return r;
}
static inline zv_portable zvp_load32(const int32_t *p) {
  zv_portable r;
  memcpy(r.b, p, 64);
  return r;
}
// vpdpbusd: each int32 lane plus the four products of its unsigned bytes of x and signed bytes of w.
static inline zv_portable zvp_dpbusd(zv_portable acc, zv_portable x, const int8_t *w) {
  for (int l = 0; l < 16; l++) {
    int32_t lane, sum = 0;
    memcpy(&lane, acc.b + 4 * l, 4);
    for (int k = 0; k < 4; k++) sum += (int32_t)x.b[4 * l + k] * (int32_t)w[4 * l + k];
    lane = (int32_t)((uint32_t)lane + (uint32_t)sum);
    memcpy(acc.b + 4 * l, &lane, 4);
  }
  return acc;
}
// Channel 4i + j from lane i of acc[j]: float(sum) · scale, minps with `high`, cvtps2dq (nearest-even;
// INT32_MIN out of range), then vpackssdw's, vpaddsw's, vpacksswb's saturations and vpmaxsb with qmin.
static inline void zvp_store_requantized(uint8_t *dst, const zv_portable acc[4], const float *scales, float high, int32_t zp, int32_t qmin,
                                         int32_t n) {
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 16; i++) {
      const int32_t ch = 4 * i + j;
      if (ch >= n) continue;
      int32_t a;
      memcpy(&a, acc[j].b + 4 * i, 4);
      float f = (float)a * scales[16 * j + i];
      f = f < high ? f : high;
      const int32_t q = f >= -2147483648.0f ? vt_round_even(f) : INT32_MIN;
      dst[ch] = vt_pack_saturated(q, zp, qmin, 1);
    }
}
#define zv zv_portable
#define zv_load_flipped zvp_load_flipped
#define zv_load32 zvp_load32
#define zv_dpbusd zvp_dpbusd
#define zv_store_requantized zvp_store_requantized
#define QDQ(name) qdq_portable_##name
#define QDQ_TARGET
#include "QuantizedDepthwiseQuad.h"

#if defined(__x86_64__) || defined(__i386__)
#define VT_QDQ_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
static VT_QDQ_VNNI inline __attribute__((always_inline)) __mmask64 qdq_mask(int32_t n) {
  return n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1);
}
static VT_QDQ_VNNI inline __attribute__((always_inline)) __m512i qdq_load_flipped(const uint8_t *p, int32_t n) {
  const __m512i flip = _mm512_set1_epi8((char)0x80);
  if (n >= 64) return _mm512_xor_si512(_mm512_loadu_si512((const void *)p), flip);
  const __mmask64 m = qdq_mask(n);
  return _mm512_maskz_mov_epi8(m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, (const void *)p), flip));
}
// The four phases' sums requantized, packed with saturation (lane L of the packs then holds channel
// 16L + 4k + j at byte 4j + k) and put in channel order by one byte shuffle per lane.
static VT_QDQ_VNNI inline __attribute__((always_inline)) void qdq_store(uint8_t *dst, const __m512i acc[4], const float *scales, float high,
                                                                         int32_t zp, int32_t qmin, int32_t n) {
  const __m512 vhigh = _mm512_set1_ps(high);
  __m512i q[4];
  for (int j = 0; j < 4; j++)
    q[j] = _mm512_cvtps_epi32(_mm512_min_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(acc[j]), _mm512_load_ps(scales + 16 * j)), vhigh));
  const __m512i bytes = vt_pack4_saturated_avx512(q, zp, qmin, 1);
  const __m512i order = _mm512_set4_epi32(0x0F0B0703, 0x0E0A0602, 0x0D090501, 0x0C080400);
  const __m512i channels = _mm512_shuffle_epi8(bytes, order);
  if (n >= 64) _mm512_storeu_si512((void *)dst, channels);
  else _mm512_mask_storeu_epi8((void *)dst, qdq_mask(n), channels);
}
#define zv __m512i
#define zv_load_flipped qdq_load_flipped
#define zv_load32(p) _mm512_load_si512((const void *)(p))
#define zv_dpbusd(acc, x, w) _mm512_dpbusd_epi32((acc), (x), _mm512_load_si512((const void *)(w)))
#define zv_store_requantized qdq_store
#define QDQ(name) qdq_vnni_##name
#define QDQ_TARGET VT_QDQ_VNNI
#include "QuantizedDepthwiseQuad.h"
#endif

// The NEON kernel (aarch64's arithmetic): with the instructions on aarch64, in portable C elsewhere.
#if defined(__aarch64__)
#include <arm_neon.h>
#define NDW(name) ndw_neon_##name
#define NDW_TARGET
#else
#include "NeonPortable.h"
#define NDW(name) ndw_portable_##name
#define NDW_TARGET
#endif
#include "QuantizedDepthwiseNeon.h"

typedef void (*qdw_rows_fn)(const vt_qdw *, const uint8_t *, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, uint8_t *);

typedef struct {
  qdw_rows_fn rows;
  const vt_qdw *op;
  const uint8_t *input;
  uint8_t *output;
  int32_t h, w, oh, ow, pad_h, pad_w, per;
} qdw_job;

// Chunk `c`: rows c·per… of batch c / chunks-per-batch.
static void qdw_chunk(void *context, int32_t t, int64_t c) {
  (void)t;
  const qdw_job *j = context;
  const int64_t per_batch = (j->oh + j->per - 1) / j->per, batch = c / per_batch;
  const int32_t oy0 = (int32_t)(c % per_batch) * j->per, oy1 = oy0 + j->per < j->oh ? oy0 + j->per : j->oh;
  const size_t in_size = (size_t)j->h * (size_t)j->w * (size_t)j->op->channels;
  const size_t out_size = (size_t)j->oh * (size_t)j->ow * (size_t)j->op->channels;
  j->rows(j->op, j->input + (size_t)batch * in_size, j->h, j->w, j->ow, j->pad_h, j->pad_w, oy0, oy1,
          j->output + (size_t)batch * out_size);
}

static int run_rows(qdw_rows_fn rows, const vt_qdw *op, const uint8_t *input, int32_t batches, int32_t h, int32_t w, uint8_t *output,
                    int32_t threads, vt_pool *pool) {
  int32_t oh, ow, pad_h, pad_w;
  const vt_window g = {op ? op->kernel_h : 0, op ? op->kernel_w : 0, op ? op->channels : 0, op ? op->stride_h : 0,
                       op ? op->stride_w : 0, op ? op->dilation_h : 0, op ? op->dilation_w : 0, op ? op->padding : 0, 0, 0};
  if (!op || !input || !output || batches < 1 || vt_window_output_size(&g, h, w, &oh, &ow, &pad_h, &pad_w) != 0) return -1;
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  if (!op->filter_packed) rows = rows_scalar;  // a window beyond the vector kernels' taps
  // One thread: all rows at once; several: about four chunks of rows per thread.
  const int32_t per = threads == 1 ? oh : (oh + threads * 4 - 1) / (threads * 4);
  qdw_job job = {rows, op, input, output, h, w, oh, ow, pad_h, pad_w, per};
  vt_parallel_chunks(pool, threads, (int64_t)batches * ((oh + per - 1) / per), qdw_chunk, &job);
  return 0;
}

vt_path vt_qdw_path(void) {
  static const vt_path fastest[] = {VT_PATH_VNNI, VT_PATH_AVX2, VT_PATH_NEON};
  return vt_path_first(fastest, sizeof fastest / sizeof fastest[0]);
}

int vt_qdw_preferred(void) { return vt_qdw_path() == VT_PATH_VNNI || vt_qdw_path() == VT_PATH_AVX2; }

// Whether `path` computes the op's arithmetic: the scalar path either; the NEON paths aarch64's; x86-64's
// paths x86-64's (and an int8 op's of aarch64's, which is the same).
static int qdw_computes(const vt_qdw *op, vt_path path) {
  switch (path) {
  case VT_PATH_SCALAR: return 1;
  case VT_PATH_NEON:
  case VT_PATH_NEON_PORTABLE: return op->arithmetic == VT_ARITHMETIC_AARCH64;
  default: return op->arithmetic == VT_ARITHMETIC_X86_64 || op->is_signed;
  }
}

// Each path's rows for `op`, where this build has them (NULL for a path of another architecture, or none
// of this kernel's).
static qdw_rows_fn path_rows(const vt_qdw *op, vt_path path) {
  switch (path) {
  case VT_PATH_SCALAR: return rows_scalar;
  case VT_PATH_VNNI_PORTABLE: return op->quad_filter ? qdq_portable_rows : qd_portable_rows;
#if defined(__x86_64__) || defined(__i386__)
  case VT_PATH_AVX2: return qd_avx2_rows;
  case VT_PATH_VNNI: return op->quad_filter ? qdq_vnni_rows : qd_vnni_rows;
#endif
#if defined(__aarch64__)
  case VT_PATH_NEON: return ndw_neon_rows;
#else
  case VT_PATH_NEON_PORTABLE: return ndw_portable_rows;
#endif
  default: return NULL;
  }
}

int vt_qdw_run_path(const vt_qdw *op, vt_path path, const uint8_t *input, int32_t batches, int32_t h, int32_t w, uint8_t *output,
                    int32_t threads, vt_pool *pool) {
  if (!op) return -1;
  if (path == VT_PATH_DEFAULT) path = qdw_computes(op, vt_qdw_path()) ? vt_qdw_path() : VT_PATH_SCALAR;
  if (!qdw_computes(op, path)) return -1;
  const int status = vt_path_status(path);
  if (status != 0) return status;
  const qdw_rows_fn rows = path_rows(op, path);
  return rows ? run_rows(rows, op, input, batches, h, w, output, threads, pool) : -1;
}

int vt_qdw_run(const vt_qdw *op, const uint8_t *input, int32_t batches, int32_t h, int32_t w, uint8_t *output, int32_t threads,
               vt_pool *pool) {
  return vt_qdw_run_path(op, VT_PATH_DEFAULT, input, batches, h, w, output, threads, pool);
}

// --- Custom options ------------------------------------------------------------------------------

enum { kQDInts = 13, kQDHeader = 4 + 4 * kQDInts + 3 * 4 };

int vt_qdw_decode_options(const uint8_t *data, size_t size, vt_qdw_params *p) {
  if (!data || !p || size < kQDHeader || memcmp(data, VT_OPTIONS_QD_MAGIC, 4) != 0) return -1;
  int32_t v[kQDInts];
  float scales[3];
  memcpy(v, data + 4, sizeof v);
  memcpy(scales, data + 4 + sizeof v, sizeof scales);
  // version (1 uint8, 2 int8 with per-channel filter scales), kh, kw, channels, sh, sw, dh, dw, padding,
  // activation, izp, fzp, ozp
  if (v[0] != VT_OPTIONS_QD_UNSIGNED && v[0] != VT_OPTIONS_QD_SIGNED) return -1;
  const int sgn = v[0] == VT_OPTIONS_QD_SIGNED;
  for (int i = 1; i <= 7; i++)
    if (v[i] < 1 || v[i] > 65536) return -1;
  if (v[3] > (1 << 20) || v[8] < 0 || v[8] > 1 || v[9] < 0 || v[9] > 3) return -1;
  for (int i = 10; i <= 12; i++)
    if (v[i] < (sgn ? -128 : 0) || v[i] > (sgn ? 127 : 255)) return -1;
  const uint64_t filter = (uint64_t)v[1] * (uint64_t)v[2] * (uint64_t)v[3], padded = (filter + 3) & ~(uint64_t)3;
  const uint64_t channel_scales = sgn ? (uint64_t)v[3] * 4 : 0;
  if (filter > ((uint64_t)1 << 28) || size != kQDHeader + channel_scales + padded + (uint64_t)v[3] * 4) return -1;
  const uint8_t *filter_at = data + kQDHeader + channel_scales;
  *p = (vt_qdw_params){v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], scales[0], scales[1], scales[2],
                       filter_at, (const int32_t *)(const void *)(filter_at + padded), sgn,
                       sgn ? (const float *)(const void *)(data + kQDHeader) : NULL};
  return 0;
}
