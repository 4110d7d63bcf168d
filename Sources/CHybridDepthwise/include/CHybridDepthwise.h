// Our exact kernel for TFLite's hybrid DEPTHWISE_CONV_2D (float32 input, int8 per-channel filter,
// float32 bias and output), bit-identical to LiteRT 2.3.0's x86 built-in kernel (the arithmetic is
// in docs/hybrid-depthwise.md), with a scalar path and AVX2 / AVX-512 paths chosen at run time.
#ifndef VISIONTASKS_CHYBRIDDEPTHWISE_H
#define VISIONTASKS_CHYBRIDDEPTHWISE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One op's parameters and constants (the pointers stay owned by the caller).
typedef struct {
  int32_t kernel_h, kernel_w;
  int32_t in_channels, depth_multiplier;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  /// 0 SAME, 1 VALID (TFLite's Padding enum).
  int32_t padding;
  /// 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6 (TFLite's ActivationFunctionType).
  int32_t activation;
  /// [kernel_h][kernel_w][in_channels * depth_multiplier].
  const int8_t *filter;
  /// Per output channel.
  const float *channel_scales;
  const float *bias;
} vt_hdw_params;

/// The output's height and width for an input of `h`×`w`, and the top/left padding. Returns 0, or -1
/// for parameters that give no output.
int vt_hdw_output_size(const vt_hdw_params *p, int32_t h, int32_t w, int32_t *oh, int32_t *ow, int32_t *pad_h, int32_t *pad_w);

/// Bytes of scratch `vt_hdw_run` needs for an input of `h`×`w`.
size_t vt_hdw_scratch_size(const vt_hdw_params *p, int32_t h, int32_t w);

/// The op on `batches` NHWC inputs, with the fastest path this CPU has. Returns 0, or -1 for bad sizes.
int vt_hdw_run(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h, int32_t w,
               float *output, void *scratch, size_t scratch_size);

/// The same with the plain scalar path (the reference the fast paths are tested against).
int vt_hdw_run_scalar(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h, int32_t w,
                      float *output, void *scratch, size_t scratch_size);

/// Which path `vt_hdw_run` takes here: "avx512", "avx2" or "scalar".
const char *vt_hdw_path(void);

#ifdef __cplusplus
}
#endif
#endif
