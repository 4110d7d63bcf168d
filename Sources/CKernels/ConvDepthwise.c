// A hybrid 1×1 convolution and the float depthwise convolution that reads its output, as one op
// ("VTCD", docs/conv1x1.md): the convolution's output rows are made a few at a time into a ring
// that stays in cache, and the depthwise rows are computed from the ring, so the convolution's
// output (9.8 MB in FPNLite's first block) is never written out and read back.
//
// Exactness. The ring's rows are the 1×1 kernel's own outputs (its results do not depend on how
// pixels are grouped). The depthwise arithmetic is XNNPACK's f32 unipass kernel's (the 9p16c kernels
// for AVX-512F and FMA3, alike per lane): the accumulator starts at the bias,
// takes one fused multiply-add per tap in XNNPACK's tap order — kernel columns outer, rows inner
// (its indirection buffer's index (x·kernel_h + y)) — padding taps included (they read its zero
// buffer: fma(0, w, acc)), then max(min, acc) and min(max, ·) as maxps/minps compute them. Every path
// here (AVX-512, AVX2 + FMA, scalar fmaf) computes exactly that, so all give the same bytes.
#include "CKernels.h"
#include "KernelFormats.h"
#include "Cpu.h"

#include "Parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

struct vt_cdw {
  vt_conv1x1 *conv;
  vt_hdw_params geometry;  // the window (its filter pointers unused)
  int32_t channels;
  float min, max;  // XNNPACK's output range for the fused activation
  float *taps;     // [kernel_w · kernel_h][channels], XNNPACK's tap order
  float *bias;     // [channels]
};

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

void vt_cdw_free(vt_cdw *op) {
  if (!op) return;
  vt_conv1x1_free(op->conv);
  free(op->taps);
  free(op->bias);
  free(op);
}

int32_t vt_cdw_in_channels(const vt_cdw *op) { return op ? vt_conv1x1_in_channels(op->conv) : 0; }
int32_t vt_cdw_channels(const vt_cdw *op) { return op ? op->channels : 0; }

// x86-64 only: the op's convolution part is the hybrid 1×1 kernel, a copy of x86-64 XNNPACK's
// dynamically quantized arithmetic (on AArch64 XNNPACK's differs and LiteRT's own kernels run).
int vt_cdw_exact(void) {
#if defined(__x86_64__) || defined(__i386__)
  return vt_cpu_features()->fma || vt_cpu_features()->avx512f;
#else
  return 0;
#endif
}

vt_path vt_cdw_path(void) {
  static const vt_path fastest[] = {VT_PATH_AVX512, VT_PATH_AVX2};
  return vt_path_first(fastest, sizeof fastest / sizeof fastest[0]);
}

enum { kHeader = 4 + 4 + 9 * 4, kPixels = 4, kMaxTaps = 64 };

vt_cdw *vt_cdw_create_from_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size) {
  if (!data || size < kHeader || memcmp(data, VT_OPTIONS_CD_MAGIC, 4) != 0) return NULL;
  int32_t v[10];
  memcpy(v, data + 4, sizeof v);
  const int32_t kh = v[1], kw = v[2], c = v[3];
  if (v[0] != VT_OPTIONS_CD_VERSION || kh < 1 || kw < 1 || kh * kw > kMaxTaps || c < 1 || c > (1 << 16) || v[4] < 1 || v[5] < 1 || v[6] < 1 || v[7] < 1 ||
      v[4] > 65536 || v[5] > 65536 || v[6] > 65536 || v[7] > 65536 || v[8] < 0 || v[8] > 1 || v[9] < 0 || v[9] > 3)
    return NULL;
  const size_t taps = (size_t)kh * (size_t)kw, floats = (taps + 1) * (size_t)c * sizeof(float);
  if (size - kHeader < floats + 4) return NULL;
  int32_t blob;
  memcpy(&blob, data + kHeader + floats, 4);
  const size_t at = kHeader + floats + 4, padded = ((size_t)(uint32_t)blob + 3) & ~(size_t)3;
  if (blob < 1 || padded != size - at) return NULL;
  vt_hconv_params h;
  if (vt_hconv_decode_options(data + at, (size_t)blob, model, model_size, &h) != 0 || h.out_channels != c) return NULL;
  vt_cdw *op = calloc(1, sizeof *op);
  if (!op) return NULL;
  op->conv = vt_hconv_create(&h);
  op->taps = malloc(taps * (size_t)c * sizeof(float));
  op->bias = malloc((size_t)c * sizeof(float));
  // The bands run the convolution from several threads at once: its packed filters are made here.
  if (!op->conv || vt_conv1x1_prepare(op->conv) != 0 || !op->taps || !op->bias) {
    vt_cdw_free(op);
    return NULL;
  }
  op->geometry = (vt_hdw_params){kh, kw, c, 1, v[4], v[5], v[6], v[7], v[8], v[9], NULL, NULL, NULL};
  op->channels = c;
  // TFLite's [1][kernel_h][kernel_w][channels] filter, in XNNPACK's tap order.
  const uint8_t *filter = data + kHeader;
  for (int32_t y = 0; y < kh; y++)
    for (int32_t x = 0; x < kw; x++)
      memcpy(op->taps + ((size_t)x * (size_t)kh + (size_t)y) * (size_t)c, filter + ((size_t)y * (size_t)kw + (size_t)x) * (size_t)c * 4,
             (size_t)c * sizeof(float));
  memcpy(op->bias, filter + taps * (size_t)c * 4, (size_t)c * sizeof(float));
  // The XNNPACK delegate's output range for each fused activation.
  op->min = v[9] == 0 ? -INFINITY : v[9] == 2 ? -1.0f : 0.0f;
  op->max = v[9] == 0 || v[9] == 1 ? INFINITY : v[9] == 2 ? 1.0f : 6.0f;
  return op;
}

int vt_cdw_output_size(const vt_cdw *op, int32_t h, int32_t w, int32_t *oh, int32_t *ow) {
  int32_t ph, pw;
  return op ? vt_hdw_output_size(&op->geometry, h, w, oh, ow, &ph, &pw) : -1;
}

// The rows of the 1×1 convolution's output a band needs at once: the window's height.
static int32_t ring_rows(const vt_cdw *op) { return (op->geometry.kernel_h - 1) * op->geometry.dilation_h + 1; }

// Each thread's part of the scratch: the 1×1 kernel's scratch (one thread), the ring of its rows, a
// row of zeros (the padding taps' input).
static size_t conv_bytes(const vt_cdw *op) { return align64(vt_conv1x1_scratch_size(op->conv, 1)); }
static size_t ring_bytes(const vt_cdw *op, int32_t w) { return align64((size_t)ring_rows(op) * (size_t)w * (size_t)op->channels * sizeof(float)); }
static size_t part_bytes(const vt_cdw *op, int32_t w) { return conv_bytes(op) + ring_bytes(op, w) + align64((size_t)op->channels * sizeof(float)); }

size_t vt_cdw_scratch_size(const vt_cdw *op, int32_t h, int32_t w, int32_t threads) {
  if (!op || h < 1 || w < 1 || (uint64_t)w * (uint64_t)op->channels > ((uint64_t)1 << 32)) return 0;
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  return (size_t)threads * part_bytes(op, w) + 64;
}

// Up to kPixels output pixels side by side: pixel p's tap t reads in[p][t] (a pixel of the ring, or
// the zeros), writes out + p·channels. Each output's chain of multiply-adds is the same whatever
// its neighbours; several pixels and channel blocks at once keep the chains apart (each tap's
// multiply-add waits for the last) and share each tap's weights.
typedef const float *tap_ptrs[kMaxTaps];

// Channels c0..<c of `count` pixels, one value at a time.
static inline __attribute__((always_inline)) void pixels_scalar(const vt_cdw *op, int32_t taps, int32_t count, const tap_ptrs *in, int32_t c0,
                                                                float *out) {
  const int32_t c = op->channels;
  for (int32_t p = 0; p < count; p++)
    for (int32_t ch = c0; ch < c; ch++) {
      float acc = op->bias[ch];
      for (int32_t t = 0; t < taps; t++) acc = fmaf(in[p][t][ch], op->taps[(size_t)t * (size_t)c + (size_t)ch], acc);
      acc = op->min > acc ? op->min : acc;
      out[(size_t)p * (size_t)c + (size_t)ch] = op->max < acc ? op->max : acc;
    }
}

#if defined(__x86_64__) || defined(__i386__)
// AVX2: kPixels pixels × 16 channels (eight chains), then 8-channel blocks, then the scalar tail.
__attribute__((target("avx2,fma"))) static inline __attribute__((always_inline)) void pixels_avx2_taps(const vt_cdw *op, int32_t taps,
                                                                                                    int32_t count, const tap_ptrs *in,
                                                                                                    float *out) {
  const int32_t c = op->channels;
  const __m256 lo = _mm256_set1_ps(op->min), hi = _mm256_set1_ps(op->max);
  int32_t ch = 0;
  if (count == kPixels) {
    for (; ch + 16 <= c; ch += 16) {
      __m256 a[kPixels][2];
      for (int p = 0; p < kPixels; p++) {
        a[p][0] = _mm256_loadu_ps(op->bias + ch);
        a[p][1] = _mm256_loadu_ps(op->bias + ch + 8);
      }
      for (int32_t t = 0; t < taps; t++) {
        const float *k = op->taps + (size_t)t * (size_t)c + (size_t)ch;
        const __m256 k0 = _mm256_loadu_ps(k), k1 = _mm256_loadu_ps(k + 8);
        for (int p = 0; p < kPixels; p++) {
          a[p][0] = _mm256_fmadd_ps(_mm256_loadu_ps(in[p][t] + ch), k0, a[p][0]);
          a[p][1] = _mm256_fmadd_ps(_mm256_loadu_ps(in[p][t] + ch + 8), k1, a[p][1]);
        }
      }
      for (int p = 0; p < kPixels; p++) {
        _mm256_storeu_ps(out + (size_t)p * (size_t)c + ch, _mm256_min_ps(hi, _mm256_max_ps(lo, a[p][0])));
        _mm256_storeu_ps(out + (size_t)p * (size_t)c + ch + 8, _mm256_min_ps(hi, _mm256_max_ps(lo, a[p][1])));
      }
    }
  }
  for (; ch + 8 <= c; ch += 8)
    for (int32_t p = 0; p < count; p++) {
      __m256 a = _mm256_loadu_ps(op->bias + ch);
      for (int32_t t = 0; t < taps; t++)
        a = _mm256_fmadd_ps(_mm256_loadu_ps(in[p][t] + ch), _mm256_loadu_ps(op->taps + (size_t)t * (size_t)c + (size_t)ch), a);
      _mm256_storeu_ps(out + (size_t)p * (size_t)c + ch, _mm256_min_ps(hi, _mm256_max_ps(lo, a)));
    }
  pixels_scalar(op, taps, count, in, ch, out);
}

__attribute__((target("avx2,fma"))) static inline __attribute__((always_inline)) void pixels_avx2(const vt_cdw *op, int32_t taps, int32_t count,
                                                                                               const tap_ptrs *in, float *out) {
  if (taps == 9) pixels_avx2_taps(op, 9, count, in, out);
  else pixels_avx2_taps(op, taps, count, in, out);
}

// AVX-512: kPixels pixels × 16 channels (four chains; Zen 4 and Intel run one or two 512-bit FMAs a
// cycle at latency 4), the last block masked.
__attribute__((target("avx512f"))) static inline __attribute__((always_inline)) void pixels_avx512_taps(const vt_cdw *op, int32_t taps,
                                                                                                      int32_t count, const tap_ptrs *in,
                                                                                                      float *out) {
  const int32_t c = op->channels;
  const __m512 lo = _mm512_set1_ps(op->min), hi = _mm512_set1_ps(op->max);
  for (int32_t ch = 0; ch < c; ch += 16) {
    const __mmask16 m = c - ch >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (c - ch)) - 1u);
    const __m512 b = _mm512_maskz_loadu_ps(m, op->bias + ch);
    if (count == kPixels) {
      __m512 a[kPixels];
      for (int p = 0; p < kPixels; p++) a[p] = b;
      for (int32_t t = 0; t < taps; t++) {
        const __m512 k = _mm512_maskz_loadu_ps(m, op->taps + (size_t)t * (size_t)c + (size_t)ch);
        for (int p = 0; p < kPixels; p++) a[p] = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, in[p][t] + ch), k, a[p]);
      }
      for (int p = 0; p < kPixels; p++) _mm512_mask_storeu_ps(out + (size_t)p * (size_t)c + ch, m, _mm512_min_ps(hi, _mm512_max_ps(lo, a[p])));
    } else {
      for (int32_t p = 0; p < count; p++) {
        __m512 a = b;
        for (int32_t t = 0; t < taps; t++)
          a = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, in[p][t] + ch), _mm512_maskz_loadu_ps(m, op->taps + (size_t)t * (size_t)c + (size_t)ch), a);
        _mm512_mask_storeu_ps(out + (size_t)p * (size_t)c + ch, m, _mm512_min_ps(hi, _mm512_max_ps(lo, a)));
      }
    }
  }
}

__attribute__((target("avx512f"))) static inline __attribute__((always_inline)) void pixels_avx512(const vt_cdw *op, int32_t taps,
                                                                                                 int32_t count, const tap_ptrs *in,
                                                                                                 float *out) {
  if (taps == 9) pixels_avx512_taps(op, 9, count, in, out);
  else pixels_avx512_taps(op, taps, count, in, out);
}
#endif

// One output row, kPixels pixels at a time: each pixel's taps pointed at the ring's rows (NULL: above
// or below the input) or at the zeros, as XNNPACK's indirection buffer points them; then
// `PIXELS(op, taps, count, in, out)`.
#define ROW_FUNCTION(NAME, TARGET, PIXELS)                                                                                                    \
  TARGET static void NAME(const vt_cdw *op, const float *const *rows, const float *zeros, int32_t w, int32_t ow, int32_t pad_w, float *out) { \
    const vt_hdw_params *g = &op->geometry;                                                                                                  \
    const int32_t c = op->channels, taps = g->kernel_h * g->kernel_w;                                                                        \
    tap_ptrs in[kPixels];                                                                                                                    \
    for (int32_t ox0 = 0; ox0 < ow; ox0 += kPixels) {                                                                                        \
      const int32_t count = ow - ox0 < kPixels ? ow - ox0 : kPixels;                                                                         \
      for (int32_t p = 0; p < count; p++)                                                                                                    \
        for (int32_t x = 0; x < g->kernel_w; x++) {                                                                                          \
          const int64_t ix = (int64_t)(ox0 + p) * g->stride_w - pad_w + (int64_t)x * g->dilation_w;                                         \
          const int inside = ix >= 0 && ix < w;                                                                                              \
          for (int32_t y = 0; y < g->kernel_h; y++)                                                                                          \
            in[p][x * g->kernel_h + y] = inside && rows[y] ? rows[y] + (size_t)ix * (size_t)c : zeros;                                       \
        }                                                                                                                                    \
      PIXELS(op, taps, count, (const tap_ptrs *)in, out + (size_t)ox0 * (size_t)c);                                                          \
    }                                                                                                                                        \
  }

typedef void (*row_fn)(const vt_cdw *, const float *const *, const float *, int32_t, int32_t, int32_t, float *);

#define PIXELS_PLAIN(op, taps, count, in, out) pixels_scalar((op), (taps), (count), (in), 0, (out))
ROW_FUNCTION(row_plain, , PIXELS_PLAIN)
#if defined(__x86_64__) || defined(__i386__)
ROW_FUNCTION(row_avx2, __attribute__((target("avx2,fma"))), pixels_avx2)
ROW_FUNCTION(row_avx512, __attribute__((target("avx512f"))), pixels_avx512)
#endif

typedef struct {
  const vt_cdw *op;
  row_fn row;
  vt_path conv_path;  // the 1×1 kernel's path, resolved once for the run's rows
  const float *input;  // one batch: [h][w][K]
  float *output;       // [oh][ow][channels]
  int32_t h, w, oh, ow, pad_h, pad_w, bands;
  uint8_t *scratch;  // thread t's part at t · part_bytes
  _Atomic int failed;
} band_job;

// Band b of output rows, [b·oh/bands, (b+1)·oh/bands), on thread t's scratch: the convolution's rows
// made as the window reaches them.
static void band(void *context, int32_t t, int64_t b) {
  band_job *j = context;
  const vt_cdw *op = j->op;
  const vt_hdw_params *g = &op->geometry;
  const int32_t c = op->channels, k = vt_cdw_in_channels(op), span = ring_rows(op);
  const size_t scratch_bytes = conv_bytes(op), row_floats = (size_t)j->w * (size_t)c;
  uint8_t *mine = j->scratch + (size_t)t * part_bytes(op, j->w);
  float *ring = (float *)(mine + scratch_bytes), *zeros = (float *)(mine + scratch_bytes + ring_bytes(op, j->w));
  memset(zeros, 0, (size_t)c * sizeof(float));
  int64_t slots[64];  // the input row each ring slot holds (-1: none); span ≤ 64 (vt_cdw_run_path)
  for (int32_t s = 0; s < span; s++) slots[s] = -1;
  const int32_t oy0 = (int32_t)(j->oh * b / j->bands), oy1 = (int32_t)(j->oh * (b + 1) / j->bands);
  const float *rows[64];
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t y = 0; y < g->kernel_h; y++) {
      const int64_t iy = (int64_t)oy * g->stride_h - j->pad_h + (int64_t)y * g->dilation_h;
      rows[y] = NULL;
      if (iy < 0 || iy >= j->h) continue;
      const int32_t s = (int32_t)(iy % span);
      float *row = ring + (size_t)s * row_floats;
      if (slots[s] != iy) {
        slots[s] = -1;
        if (vt_conv1x1_run_path(op->conv, j->conv_path, j->input + (size_t)iy * (size_t)j->w * (size_t)k, j->w, row, mine, scratch_bytes, 1,
                                NULL) != 0) {
          j->failed = 1;
          return;
        }
        slots[s] = iy;
      }
      rows[y] = row;
    }
    j->row(op, rows, zeros, j->w, j->ow, j->pad_w, j->output + (size_t)oy * (size_t)j->ow * (size_t)c);
  }
}

// Each path's row, where this build has it (NULL for a path of another architecture, or none of this
// kernel's).
static row_fn path_row(vt_path path) {
  switch (path) {
  case VT_PATH_SCALAR: return row_plain;
#if defined(__x86_64__) || defined(__i386__)
  case VT_PATH_AVX2: return row_avx2;
  case VT_PATH_AVX512: return row_avx512;
#endif
  default: return NULL;
  }
}

int vt_cdw_run_path(const vt_cdw *op, vt_path path, const float *input, int32_t batches, int32_t h, int32_t w, float *output,
                    void *scratch, size_t scratch_size, int32_t threads, vt_pool *pool) {
  int32_t oh, ow, pad_h, pad_w;
  if (!op || !input || !output || !scratch || batches < 1 || vt_hdw_output_size(&op->geometry, h, w, &oh, &ow, &pad_h, &pad_w) != 0)
    return -1;
  if (path == VT_PATH_DEFAULT) path = vt_cdw_path();
  const int status = vt_path_status(path);
  if (status != 0) return status;
  const row_fn row = path_row(path);
  if (!row || ring_rows(op) > 64) return -1;
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  if (threads > oh) threads = oh;
  const size_t need = vt_cdw_scratch_size(op, h, w, threads);
  if (need == 0 || scratch_size < need) return -1;
  const int32_t k = vt_cdw_in_channels(op);
  const vt_path conv_path = vt_conv1x1_path();
  for (int32_t b = 0; b < batches; b++) {
    band_job job = {op, row, conv_path, input + (size_t)b * (size_t)h * (size_t)w * (size_t)k,
                    output + (size_t)b * (size_t)oh * (size_t)ow * (size_t)op->channels, h, w, oh, ow, pad_h, pad_w, threads,
                    (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63), 0};
    // One band a thread: each band makes the convolution rows its window needs (the rows two bands
    // share are made by both).
    vt_parallel_chunks(pool, threads, threads, band, &job);
    if (job.failed) return -1;
  }
  return 0;
}

int vt_cdw_run(const vt_cdw *op, const float *input, int32_t batches, int32_t h, int32_t w, float *output, void *scratch, size_t scratch_size,
               int32_t threads, vt_pool *pool) {
  return vt_cdw_run_path(op, VT_PATH_DEFAULT, input, batches, h, w, output, scratch, scratch_size, threads, pool);
}
