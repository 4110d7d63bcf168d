// Bit-exact re-implementation of LiteRT 2.3.0 x86 (PyPI wheel) hybrid DEPTHWISE_CONV_2D:
// float32 input, int8 per-channel symmetric filter [1,KH,KW,OC], float32 bias, float32 output.
// Path: kernels/depthwise_conv.cc EvalHybridPerChannel<kGenericOptimized/kNeonOptimized>
//   -> tensor_utils::AsymmetricQuantizeFloats == NeonAsymmetricQuantizeFloats (via NEON_2_SSE)
//   -> optimized_integer_ops::DepthwiseConvHybridGeneral (no 3x3 path on x86).
#pragma STDC FP_CONTRACT OFF
#include <math.h>
#include <stdint.h>
#include <string.h>

static int32_t tfl_round_i(float v) { return (int32_t)roundf(v); }  // TfLiteRound = half away from zero

// NeonAsymmetricQuantizeFloats as compiled for x86 (NEON_2_SSE, __ARM_ARCH undefined).
void hdw_quantize(const float* x, int n, int8_t* q, float* scale_out, int32_t* zp_out) {
  float rmin = 0.0f, rmax = 0.0f;                  // NeonMinMax: both capped at 0
  for (int i = 0; i < n; i++) { if (x[i] < rmin) rmin = x[i]; if (x[i] > rmax) rmax = x[i]; }
  if (rmin == rmax) { memset(q, 0, (size_t)n); *scale_out = 1.0f; *zp_out = 0; return; }
  const double qmin = -128.0, qmax = 127.0;
  const double scale = (double)(rmax - rmin) / (qmax - qmin);   // FLOAT subtraction, double division
  const double zp_from_min = qmin - rmin / scale;
  const double zp_from_max = qmax - rmax / scale;
  const double err_min = fabs(qmin) + fabs(rmin / scale);
  const double err_max = fabs(qmax) + fabs(rmax / scale);
  const double zpd = err_min < err_max ? zp_from_min : zp_from_max;
  int32_t zp;
  if (zpd <= qmin) zp = -128; else if (zpd >= qmax) zp = 127; else zp = (int8_t)round(zpd);
  const float s = (float)scale;
  *scale_out = s; *zp_out = zp;
  const float inv = (float)(1.0 / (double)s);      // s == 0 impossible here
  const int vec_end = n / 8 * 8;                   // 2 x float32x4 per iteration
  for (int i = 0; i < n; i++) {
    const float m = x[i] * inv;
    int32_t r;
    if (i < vec_end) {                             // RoundToNearest emulation: trunc(m +/- 0.5f) in float
      const float half = (m < 0.0f) ? -0.5f : 0.5f;
      const float t = m + half;
      r = (int32_t)t;                              // cvttps2dq (truncation)
    } else {
      r = tfl_round_i(m);                          // postamble: TfLiteRound
    }
    int32_t v = zp + r;
    if (v < -128) v = -128; if (v > 127) v = 127;
    q[i] = (int8_t)v;
  }
}

// act: 0 none, 1 relu, 2 relu_n1_to_1, 3 relu6. pad_h/pad_w as computed by ComputePaddingHeightWidth.
void hdw_depthwise(const float* input, int batches, int H, int W, int C,
                   const int8_t* filt, int KH, int KW, int dm,
                   const float* bias, const float* ch_scale,
                   int stride_h, int stride_w, int dil_h, int dil_w, int pad_h, int pad_w,
                   int OH, int OW, int act, float* out, int8_t* qbuf /* H*W*C scratch */) {
  const int OC = C * dm;
  float lo = -INFINITY, hi = INFINITY;   // kNone: lowest()/max(); equivalent for finite outputs
  if (act == 1) lo = 0.0f; else if (act == 2) { lo = -1.0f; hi = 1.0f; } else if (act == 3) { lo = 0.0f; hi = 6.0f; }
  const int vec_c = OC / 4 * 4;          // channels [0,vec_c) use the 4-wide (NEON_2_SSE) epilogue
  for (int b = 0; b < batches; b++) {
    float s; int32_t zp;
    hdw_quantize(input + (size_t)b * H * W * C, H * W * C, qbuf, &s, &zp);
    for (int oy = 0; oy < OH; oy++)
      for (int ox = 0; ox < OW; ox++)
        for (int ic = 0; ic < C; ic++)
          for (int m = 0; m < dm; m++) {
            const int oc = ic * dm + m;
            int32_t acc = 0;
            for (int ky = 0; ky < KH; ky++) {
              const int iy = oy * stride_h - pad_h + ky * dil_h;
              if (iy < 0 || iy >= H) continue;          // padded taps contribute nothing
              for (int kx = 0; kx < KW; kx++) {
                const int ix = ox * stride_w - pad_w + kx * dil_w;
                if (ix < 0 || ix >= W) continue;
                acc += (int32_t)filt[(ky * KW + kx) * OC + oc] * ((int32_t)qbuf[(iy * W + ix) * C + ic] - zp);
              }
            }
            float f = (float)acc, y;
            if (oc < vec_c) { f = f * ch_scale[oc]; f = f * s; }   // vmulq(acc, ch_scale); vmulq(., input_scale)
            else            { f = f * s; f = f * ch_scale[oc]; }   // scalar tail: acc * input_scale * ch_scale
            y = f + bias[oc];
            // vmaxq/vminq == _mm_max_ps(y, lo)/_mm_min_ps(y, hi): return 2nd operand on ties/zeros
            if (oc < vec_c) { y = (y > lo) ? y : lo; y = (y < hi) ? y : hi; }
            else            { y = (y < lo) ? lo : y; y = (hi < y) ? hi : y; }  // std::max / std::min
            out[(((size_t)b * OH + oy) * OW + ox) * OC + oc] = y;
          }
  }
}
