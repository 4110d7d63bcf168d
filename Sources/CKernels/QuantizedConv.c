// Uint8 1×1 convolution, bit-identical to XNNPACK's QU8 convolution with fp32 requantization (the
// path LiteRT 2.3.0 takes for per-tensor uint8 CONV_2D): the integer sum is exact in any order, and
// the requantization is done as XNNPACK does it (docs/quantized-conv.md).
#pragma clang fp contract(off)
#include "CKernels.h"
#include "Parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { kNR = 16, kMR = 6 };

struct vt_qconv {
  int32_t k, n, kp, nb;          // input channels, output channels, input channel pairs, 16-column blocks
  int32_t input_zero_point, output_zero_point;
  float scale, low, high;        // requantization scale; clamp bounds (qmin − zp, qmax − zp)
  int16_t *packed;               // [nb][kp][16][2] filter − filter zero point, zero-padded
  int32_t *bias;                 // [nb · 16], zero-padded
};

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

// XNNPACK's xnn_qu8_quantize: the float bound divided by the scale, plus the zero point (in float),
// clamped to 0…255, rounded to nearest-even.
static int32_t quantize_bound(float v, float scale, int32_t zp) {
  float q = v / scale + (float)zp;
  q = q > 0.0f ? q : 0.0f;
  q = q < 255.0f ? q : 255.0f;
  return (int32_t)lrintf(q);
}

// The quantized bounds of a fused activation: the delegate's float range (NONE −∞…∞, RELU 0…∞,
// RELU_N1_TO_1 −1…1, RELU6 0…6) quantized as XNNPACK does it.
static void activation_bounds(int32_t activation, float scale, int32_t zp, int32_t *qmin, int32_t *qmax) {
  const float lo = activation == 0 ? -INFINITY : activation == 2 ? -1.0f : 0.0f;
  const float hi = activation == 2 ? 1.0f : activation == 3 ? 6.0f : INFINITY;
  *qmin = quantize_bound(lo, scale, zp);
  *qmax = quantize_bound(hi, scale, zp);
}

vt_qconv *vt_qconv_create(const vt_qconv_params *p) {
  if (!p || !p->filter || !p->bias || p->in_channels < 1 || p->out_channels < 1 || p->in_channels > (1 << 16) ||
      p->out_channels > (1 << 16) || p->activation < 0 || p->activation > 3)
    return NULL;
  const int32_t zps[3] = {p->input_zero_point, p->filter_zero_point, p->output_zero_point};
  for (int i = 0; i < 3; i++)
    if (zps[i] < 0 || zps[i] > 255) return NULL;
  const float scales[3] = {p->input_scale, p->filter_scale, p->output_scale};
  for (int i = 0; i < 3; i++)
    if (!(scales[i] > 0.0f) || !isfinite(scales[i])) return NULL;
  const float scale = p->input_scale * p->filter_scale / p->output_scale;
  if (!(scale > 0.0f) || !(scale < 256.0f)) return NULL;
  vt_qconv *op = calloc(1, sizeof *op);
  if (!op) return NULL;
  op->k = p->in_channels;
  op->n = p->out_channels;
  op->kp = (p->in_channels + 1) / 2;
  op->nb = (p->out_channels + kNR - 1) / kNR;
  op->input_zero_point = p->input_zero_point;
  op->output_zero_point = p->output_zero_point;
  op->scale = scale;
  int32_t qmin, qmax;
  activation_bounds(p->activation, p->output_scale, p->output_zero_point, &qmin, &qmax);
  if (qmin > qmax) {  // XNNPACK refuses such a range
    vt_qconv_free(op);
    return NULL;
  }
  op->low = (float)(qmin - p->output_zero_point);
  op->high = (float)(qmax - p->output_zero_point);
  const size_t packed = (size_t)op->nb * (size_t)op->kp * kNR * 2 * sizeof(int16_t);
  op->packed = aligned_alloc(64, align64(packed));
  op->bias = calloc((size_t)op->nb * kNR, sizeof(int32_t));
  if (!op->packed || !op->bias) {
    vt_qconv_free(op);
    return NULL;
  }
  memcpy(op->bias, p->bias, (size_t)op->n * sizeof(int32_t));
  memset(op->packed, 0, packed);
  for (int32_t n = 0; n < op->n; n++) {
    for (int32_t k = 0; k < op->k; k++) {
      const size_t at = (((size_t)(n / kNR) * (size_t)op->kp + (size_t)(k / 2)) * kNR + (size_t)(n % kNR)) * 2 + (size_t)(k % 2);
      op->packed[at] = (int16_t)((int32_t)p->filter[(size_t)n * (size_t)op->k + (size_t)k] - p->filter_zero_point);
    }
  }
  return op;
}

void vt_qconv_free(vt_qconv *op) {
  if (!op) return;
  free(op->packed);
  free(op->bias);
  free(op);
}

int32_t vt_qconv_in_channels(const vt_qconv *op) { return op ? op->k : 0; }
int32_t vt_qconv_out_channels(const vt_qconv *op) { return op ? op->n : 0; }

size_t vt_qconv_scratch_size(const vt_qconv *op, int64_t pixels) {
  if (!op || pixels < 1 || pixels > ((int64_t)1 << 40) / op->kp) return 0;
  return align64((size_t)pixels * (size_t)op->kp * 4) + 64;
}

// XNNPACK's fp32 requantization: float(acc) · scale, clamped to the activation's bounds (less the
// zero point), rounded to nearest-even, plus the zero point.
static inline __attribute__((always_inline)) uint8_t requantize(const vt_qconv *op, int32_t acc) {
  float f = (float)acc * op->scale;
  f = f < op->low ? op->low : f;
  f = f > op->high ? op->high : f;
  return (uint8_t)((int32_t)lrintf(f) + op->output_zero_point);
}

int vt_qconv_run_scalar(const vt_qconv *op, const uint8_t *input, int64_t pixels, uint8_t *output) {
  if (!op || !input || !output || pixels < 1) return -1;
  for (int64_t m = 0; m < pixels; m++) {
    const uint8_t *x = input + (size_t)m * (size_t)op->k;
    for (int32_t n = 0; n < op->n; n++) {
      const int16_t *w = op->packed + (size_t)(n / kNR) * (size_t)op->kp * kNR * 2 + (size_t)(n % kNR) * 2;
      int32_t acc = op->bias[n];
      for (int32_t k = 0; k < op->k; k++) acc += ((int32_t)x[k] - op->input_zero_point) * w[(size_t)(k / 2) * kNR * 2 + (size_t)(k % 2)];
      output[(size_t)m * (size_t)op->n + (size_t)n] = requantize(op, acc);
    }
  }
  return 0;
}

typedef struct {
  const vt_qconv *op;
  const uint8_t *input;
  int64_t pixels;
  uint8_t *output;
  int16_t *a;  // [pixels][kp · 2] input − input zero point
  void (*rows)(const vt_qconv *, const uint8_t *, int64_t, int64_t, uint8_t *, int16_t *);
} run_job;

// Rows m0..<m1 on the plain path (a portable fallback with the same arithmetic).
static void rows_plain(const vt_qconv *op, const uint8_t *input, int64_t m0, int64_t m1, uint8_t *output, int16_t *a) {
  (void)a;
  vt_qconv_run_scalar(op, input + (size_t)m0 * (size_t)op->k, m1 - m0, output + (size_t)m0 * (size_t)op->n);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// Rows m0..<m1: the input widened to int16 less its zero point, then for each 16-column block, six
// rows at a time, pairs of channels multiplied and added by vpmaddwd into int32 (exact: |x·w| ≤ 255²).
__attribute__((target("avx2"))) static void rows_avx2(const vt_qconv *op, const uint8_t *input, int64_t m0, int64_t m1, uint8_t *output,
                                                      int16_t *a) {
  const int32_t k = op->k, k2 = op->kp * 2;
  const __m256i izp = _mm256_set1_epi16((int16_t)op->input_zero_point);
  for (int64_t m = m0; m < m1; m++) {
    const uint8_t *x = input + (size_t)m * (size_t)k;
    int16_t *row = a + (size_t)m * (size_t)k2;
    int32_t c = 0;
    for (; c + 16 <= k; c += 16)
      _mm256_storeu_si256((__m256i *)(row + c), _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(x + c))), izp));
    for (; c < k; c++) row[c] = (int16_t)((int32_t)x[c] - op->input_zero_point);
    if (k2 > k) row[k] = 0;
  }
  const __m256 vscale = _mm256_set1_ps(op->scale), vlow = _mm256_set1_ps(op->low), vhigh = _mm256_set1_ps(op->high);
  const __m256i vzp = _mm256_set1_epi32(op->output_zero_point);
  for (int32_t nb = 0; nb < op->nb; nb++) {
    const int16_t *w = op->packed + (size_t)nb * (size_t)op->kp * kNR * 2;
    const __m256i bias0 = _mm256_loadu_si256((const __m256i *)(op->bias + nb * kNR));
    const __m256i bias1 = _mm256_loadu_si256((const __m256i *)(op->bias + nb * kNR + 8));
    const int32_t columns = op->n - nb * kNR < kNR ? op->n - nb * kNR : kNR;
    for (int64_t mb = m0; mb < m1; mb += kMR) {
      const int32_t *rows[kMR];
      for (int r = 0; r < kMR; r++) rows[r] = (const int32_t *)(a + (size_t)(mb + r < m1 ? mb + r : m1 - 1) * (size_t)k2);
      __m256i acc[kMR][2];
      for (int r = 0; r < kMR; r++) {
        acc[r][0] = bias0;
        acc[r][1] = bias1;
      }
      for (int32_t p = 0; p < op->kp; p++) {
        const __m256i w0 = _mm256_load_si256((const __m256i *)(w + (size_t)p * 32));
        const __m256i w1 = _mm256_load_si256((const __m256i *)(w + (size_t)p * 32 + 16));
        for (int r = 0; r < kMR; r++) {
          int32_t pair;
          memcpy(&pair, rows[r] + p, 4);
          const __m256i v = _mm256_set1_epi32(pair);
          acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(v, w0));
          acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(v, w1));
        }
      }
      for (int r = 0; r < kMR && mb + r < m1; r++) {
        __m256 f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][0]), vscale), f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][1]), vscale);
        f0 = _mm256_min_ps(_mm256_max_ps(f0, vlow), vhigh);
        f1 = _mm256_min_ps(_mm256_max_ps(f1, vlow), vhigh);
        const __m256i i0 = _mm256_add_epi32(_mm256_cvtps_epi32(f0), vzp), i1 = _mm256_add_epi32(_mm256_cvtps_epi32(f1), vzp);
        const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(i0, i1), 0xD8);
        const __m128i u8 = _mm_packus_epi16(_mm256_castsi256_si128(p16), _mm256_extracti128_si256(p16, 1));
        uint8_t *dst = output + (size_t)(mb + r) * (size_t)op->n + (size_t)nb * kNR;
        if (columns == kNR) {
          _mm_storeu_si128((__m128i *)dst, u8);
        } else {
          uint8_t t[kNR];
          _mm_storeu_si128((__m128i *)t, u8);
          memcpy(dst, t, (size_t)columns);
        }
      }
    }
  }
}
#endif

const char *vt_qconv_path(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
  return "scalar";
}

int vt_qconv_preferred(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && !__builtin_cpu_supports("avx512vnni") && !__builtin_cpu_supports("avxvnni");
#else
  return 0;
#endif
}

// Part t of `parts` takes its share of the rows, in multiples of six.
static void run_part(void *context, int32_t t, int32_t parts) {
  const run_job *j = context;
  const int64_t blocks = (j->pixels + kMR - 1) / kMR;
  const int64_t m0 = blocks * t / parts * kMR, m1 = blocks * (t + 1) / parts * kMR;
  if (m0 < (m1 < j->pixels ? m1 : j->pixels)) j->rows(j->op, j->input, m0, m1 < j->pixels ? m1 : j->pixels, j->output, j->a);
}

int vt_qconv_run(const vt_qconv *op, const uint8_t *input, int64_t pixels, uint8_t *output, void *scratch, size_t scratch_size,
                 int32_t threads) {
  const size_t need = vt_qconv_scratch_size(op, pixels);
  if (!op || !input || !output || need == 0 || !scratch || scratch_size < need) return -1;
  run_job job = {op, input, pixels, output, (int16_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63), rows_plain};
#if defined(__x86_64__) || defined(__i386__)
  if (vt_qconv_path()[0] == 'a') job.rows = rows_avx2;
#endif
  const int64_t blocks = (pixels + kMR - 1) / kMR;
  if (threads < 1) threads = 1;
  if (threads > blocks) threads = (int32_t)blocks;
  vt_parallel(threads, run_part, &job);
  return 0;
}

// --- Custom options ----------------------------------------------------------------------------

static const uint8_t kMagic[4] = {'V', 'T', 'Q', 'C'};
enum { kHeader = 4 + 4 + 6 * 4 + 3 * 4 };  // magic, version, six int32, three float32

size_t vt_qconv_encode_options(const vt_qconv_params *p, uint8_t *out, size_t capacity) {
  if (!p || !p->filter || !p->bias || p->in_channels < 1 || p->out_channels < 1) return 0;
  const size_t fb = ((size_t)p->in_channels * (size_t)p->out_channels + 3) & ~(size_t)3;
  const size_t size = kHeader + fb + (size_t)p->out_channels * 4;
  if (!out || capacity < size) return size;
  memset(out, 0, size);
  memcpy(out, kMagic, 4);
  const int32_t ints[7] = {1, p->in_channels, p->out_channels, p->activation, p->input_zero_point, p->filter_zero_point, p->output_zero_point};
  memcpy(out + 4, ints, sizeof ints);
  const float scales[3] = {p->input_scale, p->filter_scale, p->output_scale};
  memcpy(out + 32, scales, sizeof scales);
  memcpy(out + kHeader, p->filter, (size_t)p->in_channels * (size_t)p->out_channels);
  memcpy(out + kHeader + fb, p->bias, (size_t)p->out_channels * 4);
  return size;
}

int vt_qconv_decode_options(const uint8_t *data, size_t size, vt_qconv_params *p) {
  if (!data || !p || size < kHeader || memcmp(data, kMagic, 4) != 0) return -1;
  int32_t ints[7];
  float scales[3];
  memcpy(ints, data + 4, sizeof ints);
  memcpy(scales, data + 32, sizeof scales);
  if (ints[0] != 1 || ints[1] < 1 || ints[2] < 1 || ints[1] > (1 << 16) || ints[2] > (1 << 16) || ints[3] < 0 || ints[3] > 3) return -1;
  const size_t fb = ((size_t)ints[1] * (size_t)ints[2] + 3) & ~(size_t)3;
  if (size != kHeader + fb + (size_t)ints[2] * 4) return -1;
  *p = (vt_qconv_params){ints[1], ints[2], ints[3], ints[4], ints[5], ints[6], scales[0], scales[1], scales[2],
                         data + kHeader, (const int32_t *)(data + kHeader + fb)};
  return 0;
}
