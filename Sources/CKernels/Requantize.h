// Internal: XNNPACK's fp32 requantization of uint8 outputs, shared by the uint8 1×1 (and spatial)
// convolutions and the uint8 depthwise convolution.
#ifndef VISIONTASKS_CKERNELS_REQUANTIZE_H
#define VISIONTASKS_CKERNELS_REQUANTIZE_H

#include "Rounding.h"

#include <math.h>
#include <stdint.h>

// XNNPACK's xnn_qu8_quantize: the float bound divided by the scale, plus the zero point (in float),
// clamped to 0…255, rounded to nearest-even.
static inline int32_t vt_quantize_bound(float v, float scale, int32_t zp) {
  float q = v / scale + (float)zp;
  q = q > 0.0f ? q : 0.0f;
  q = q < 255.0f ? q : 255.0f;
  return vt_round_even(q);
}

// The delegate's float range of a fused activation: NONE −∞…∞, RELU 0…∞, RELU_N1_TO_1 −1…1, RELU6 0…6.
static inline void vt_activation_range(int32_t activation, float *lo, float *hi) {
  *lo = activation == 0 ? -INFINITY : activation == 2 ? -1.0f : 0.0f;
  *hi = activation == 2 ? 1.0f : activation == 3 ? 6.0f : INFINITY;
}

// The requantization of a uint8 op: float(acc) · scale clamped to [low, high] (the activation's
// bounds less the zero point), rounded to nearest-even, plus the zero point.
typedef struct {
  float scale, low, high;
  int32_t zero_point;
} vt_requantization;

// For input/filter/output scales and the output's zero point and activation; the scale is computed
// as XNNPACK computes it (input · filter / output, in float).
static inline vt_requantization vt_requantization_make(float input_scale, float filter_scale, float output_scale,
                                                       int32_t output_zero_point, int32_t activation) {
  vt_requantization r;
  float lo, hi;
  r.scale = input_scale * filter_scale / output_scale;
  vt_activation_range(activation, &lo, &hi);
  r.low = (float)(vt_quantize_bound(lo, output_scale, output_zero_point) - output_zero_point);
  r.high = (float)(vt_quantize_bound(hi, output_scale, output_zero_point) - output_zero_point);
  r.zero_point = output_zero_point;
  return r;
}

static inline __attribute__((always_inline)) uint8_t vt_requantize(const vt_requantization *r, int32_t acc) {
  float f = (float)acc * r->scale;
  f = f < r->low ? r->low : f;
  f = f > r->high ? r->high : f;
  return (uint8_t)(vt_round_even(f) + r->zero_point);
}

#endif
