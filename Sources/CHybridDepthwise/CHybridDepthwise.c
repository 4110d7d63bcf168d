// Hybrid depthwise convolution, bit-identical to LiteRT 2.3.0's x86 built-in kernel. Every float
// operation below is written in the order that kernel performs it; contraction into FMA is off
// (an FMA would round once where the reference rounds twice).
#pragma clang fp contract(off)
#include "CHybridDepthwise.h"

#include <float.h>
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

size_t vt_hdw_scratch_size(const vt_hdw_params *p, int32_t h, int32_t w) {
  if (!p || h < 1 || w < 1 || p->in_channels < 1 || p->depth_multiplier < 1) return 0;
  size_t oc = (size_t)p->in_channels * (size_t)p->depth_multiplier;
  return align64((size_t)h * (size_t)w * (size_t)p->in_channels) + oc * sizeof(int32_t);
}

// The input quantizer (TFLite's NEON AsymmetricQuantizeFloats as compiled for x86).
static inline __attribute__((always_inline)) void quantize_body(const float *x, size_t n, int8_t *q, float *scale_out, int32_t *zp_out) {
  float rmin = 0.0f, rmax = 0.0f;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    rmin = v < rmin ? v : rmin;
    rmax = v > rmax ? v : rmax;
  }
  if (rmin == rmax) {
    memset(q, 0, n);
    *scale_out = 1.0f;
    *zp_out = 0;
    return;
  }
  const double scale = (double)(rmax - rmin) / 255.0;
  const double zp_from_min = -128.0 - rmin / scale, zp_from_max = 127.0 - rmax / scale;
  const double err_min = 128.0 + fabs(rmin / scale), err_max = 127.0 + fabs(rmax / scale);
  const double zpd = err_min < err_max ? zp_from_min : zp_from_max;
  const int32_t zp = zpd <= -128.0 ? -128 : zpd >= 127.0 ? 127 : (int32_t)(int8_t)round(zpd);
  const float s = (float)scale;
  const float inv = (float)(1.0 / (double)s);
  *scale_out = s;
  *zp_out = zp;
  const size_t vec_end = n / 8 * 8;
  for (size_t i = 0; i < vec_end; i++) {
    const float m = x[i] * inv;
    const float t = m + (m < 0.0f ? -0.5f : 0.5f);
    int32_t v = zp + (int32_t)t;
    v = v < -128 ? -128 : v > 127 ? 127 : v;
    q[i] = (int8_t)v;
  }
  for (size_t i = vec_end; i < n; i++) {
    int32_t v = zp + (int32_t)roundf(x[i] * inv);
    v = v < -128 ? -128 : v > 127 ? 127 : v;
    q[i] = (int8_t)v;
  }
}

static inline __attribute__((always_inline)) int run_body(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h, int32_t w,
                                                          float *output, void *scratch, size_t scratch_size) {
  int32_t oh, ow, pad_h, pad_w;
  if (!input || !output || !scratch || batches < 1 || !p->filter || !p->channel_scales || !p->bias ||
      vt_hdw_output_size(p, h, w, &oh, &ow, &pad_h, &pad_w) != 0)
    return -1;
  const int32_t c = p->in_channels, dm = p->depth_multiplier, oc_count = c * dm;
  const size_t n = (size_t)h * (size_t)w * (size_t)c;
  if (scratch_size < vt_hdw_scratch_size(p, h, w)) return -1;
  int8_t *q = (int8_t *)scratch;
  int32_t *acc = (int32_t *)((uint8_t *)scratch + align64(n));
  float lo = -FLT_MAX, hi = FLT_MAX;
  if (p->activation == 1) lo = 0.0f;
  else if (p->activation == 2) { lo = -1.0f; hi = 1.0f; }
  else if (p->activation == 3) { lo = 0.0f; hi = 6.0f; }
  const int32_t vec_c = oc_count / 4 * 4;
  for (int32_t b = 0; b < batches; b++) {
    float s;
    int32_t zp;
    quantize_body(input + (size_t)b * n, n, q, &s, &zp);
    float *out = output + (size_t)b * (size_t)oh * (size_t)ow * (size_t)oc_count;
    for (int32_t oy = 0; oy < oh; oy++) {
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
        float *y = out + ((size_t)oy * (size_t)ow + (size_t)ox) * (size_t)oc_count;
        for (int32_t k = 0; k < vec_c; k++) {  // the reference's 4-wide loop: (acc·channel)·input
          float v = (float)acc[k] * p->channel_scales[k];
          v = v * s;
          v = v + p->bias[k];
          v = v > lo ? v : lo;
          v = v < hi ? v : hi;
          y[k] = v;
        }
        for (int32_t k = vec_c; k < oc_count; k++) {  // its scalar tail: (acc·input)·channel
          float v = (float)acc[k] * s;
          v = v * p->channel_scales[k];
          v = v + p->bias[k];
          v = v < lo ? lo : v;
          v = hi < v ? hi : v;
          y[k] = v;
        }
      }
    }
  }
  return 0;
}

int vt_hdw_run_scalar(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h, int32_t w,
                      float *output, void *scratch, size_t scratch_size) {
  if (!p) return -1;
  return run_body(p, input, batches, h, w, output, scratch, scratch_size);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) static int run_avx2(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h,
                                                    int32_t w, float *output, void *scratch, size_t scratch_size) {
  return run_body(p, input, batches, h, w, output, scratch, scratch_size);
}
__attribute__((target("avx512f,avx512bw,avx512vl"))) static int run_avx512(const vt_hdw_params *p, const float *input,
                                                                            int32_t batches, int32_t h, int32_t w, float *output,
                                                                            void *scratch, size_t scratch_size) {
  return run_body(p, input, batches, h, w, output, scratch, scratch_size);
}
#endif

const char *vt_hdw_path(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")) return "avx512";
  if (__builtin_cpu_supports("avx2")) return "avx2";
#endif
  return "scalar";
}

int vt_hdw_run(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h, int32_t w,
               float *output, void *scratch, size_t scratch_size) {
  if (!p) return -1;
#if defined(__x86_64__) || defined(__i386__)
  const char *path = vt_hdw_path();
  if (path[0] == 'a' && path[3] == '5') return run_avx512(p, input, batches, h, w, output, scratch, scratch_size);
  if (path[0] == 'a') return run_avx2(p, input, batches, h, w, output, scratch, scratch_size);
#endif
  return run_body(p, input, batches, h, w, output, scratch, scratch_size);
}
