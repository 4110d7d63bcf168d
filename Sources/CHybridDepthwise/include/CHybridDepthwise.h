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

/// Bytes of scratch `vt_hdw_run` needs for an input of `h`×`w` on `threads` threads (1…64).
size_t vt_hdw_scratch_size(const vt_hdw_params *p, int32_t h, int32_t w, int32_t threads);

/// The op on `batches` NHWC inputs, with the fastest path this CPU has, output rows split over
/// `threads` threads (results do not depend on it). Returns 0, or -1 for bad sizes.
int vt_hdw_run(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h, int32_t w,
               float *output, void *scratch, size_t scratch_size, int32_t threads);

/// The same with the plain scalar path (the reference the fast paths are tested against).
int vt_hdw_run_scalar(const vt_hdw_params *p, const float *input, int32_t batches, int32_t h, int32_t w,
                      float *output, void *scratch, size_t scratch_size);

/// Which path `vt_hdw_run` takes here: "avx512", "avx2" or "scalar".
const char *vt_hdw_path(void);

// --- The op as a LiteRT custom op kernel -------------------------------------------------------
// Each rewritten node gets a custom code of its own, registered with its own node state (LiteRT's
// user data is per registration). Its only input is the activation; its custom options hold
// "VTHD", version 1, ten int32 parameters (kernel h/w, input channels, depth multiplier, strides,
// dilations, padding, activation), the int8 filter padded to 4 bytes, the per-channel scales and
// the bias (little endian).

/// The LiteRT calls a kernel needs, resolved by the caller from the loaded library:
/// LiteRtGetTensorBufferTensorType, LiteRtLockTensorBuffer and LiteRtUnlockTensorBuffer (kept as
/// untyped pointers so that this header stands alone).
typedef struct {
  const void *get_tensor_type;
  const void *lock;
  const void *unlock;
} vt_hdw_litert_api;

typedef struct vt_hdw_node vt_hdw_node;

/// A node's state, running on `threads` threads; NULL when out of memory. Free it after the compiled
/// model is destroyed.
vt_hdw_node *vt_hdw_node_create(vt_hdw_litert_api api, int32_t threads);
void vt_hdw_node_free(vt_hdw_node *node);
/// 0, or the first error the node met (LiteRT ignores kernel statuses): check it after each run.
int vt_hdw_node_error(const vt_hdw_node *node, char *message, size_t message_size);
/// The kernel to register for every node, a `LiteRtCustomOpKernel` (the same callbacks for every
/// node; the state tells the nodes apart).
const void *vt_hdw_kernel(void);

/// Writes the custom options for `p` into `out` (`capacity` bytes); returns the size needed.
size_t vt_hdw_encode_options(const vt_hdw_params *p, uint8_t *out, size_t capacity);
/// Reads custom options; the params' pointers point into `data`. Returns 0, or -1 when malformed.
int vt_hdw_decode_options(const uint8_t *data, size_t size, vt_hdw_params *p);

#ifdef __cplusplus
}
#endif
#endif
