// The custom options of VisionTasks' custom ops, declared once: TFLiteModel's rewrites write them
// (Swift), CKernels' nodes read them (C). Every format begins with its four-byte magic and an int32
// version; a reader refuses any other version, so a model rewritten by one build is never misread by
// another. Values are little endian; "the filter's place" is two uint64 (its distance from the end of
// the model's bytes, and a digest of its bytes), so that big filters are read in place.
#ifndef VISIONTASKS_KERNEL_FORMATS_H
#define VISIONTASKS_KERNEL_FORMATS_H

/// Uint8 or int8 1×1 CONV_2D: version, six int32 (input channels K, output channels N, activation, input /
/// filter / output zero points), three float32 scales (input, filter, output), the filter's place, the
/// int32 bias, an int32 flag (1: int8 input, filter and output), and for int8 the filter's N
/// per-channel float32 scales.
#define VT_OPTIONS_QC_MAGIC "VTQC"
enum { VT_OPTIONS_QC_VERSION = 3 };

/// Uint8 or int8 CONV_2D of other sizes (im2col, then the 1×1 kernel's GEMM): version, fifteen int32 (K =
/// kh·kw·in, N, activation, the three zero points, kh, kw, input channels, strides h/w, dilations h/w,
/// padding), the three scales, the filter's place, the int32 bias, then the flag and scales of VTQC.
#define VT_OPTIONS_QK_MAGIC "VTQK"
enum { VT_OPTIONS_QK_VERSION = 2 };

/// Hybrid 1×1 CONV_2D (float input, int8 filter): version, three int32 (K, N, activation), the filter's
/// place, the per-channel float32 scales, the float32 bias.
#define VT_OPTIONS_HC_MAGIC "VTHC"
enum { VT_OPTIONS_HC_VERSION = 2 };

/// Hybrid DEPTHWISE_CONV_2D: version, ten int32 (kernel h/w, input channels, depth multiplier, strides
/// h/w, dilations h/w, padding, activation), the int8 filter padded to 4 bytes, the per-channel
/// float32 scales, the float32 bias.
#define VT_OPTIONS_HD_MAGIC "VTHD"
enum { VT_OPTIONS_HD_VERSION = 1 };

/// Uint8 / int8 DEPTHWISE_CONV_2D: the kind in the version's place (1: uint8, per-tensor filter scale;
/// 2: int8 with per-channel filter scales — one layout), nine int32 (kernel h/w, channels, strides,
/// dilations, padding, activation), the three zero points, the three scales, then the constants
/// (TFLiteModel/Rewrites/ModelFile+QuantizedDepthwise.swift).
#define VT_OPTIONS_QD_MAGIC "VTQD"
enum { VT_OPTIONS_QD_UNSIGNED = 1, VT_OPTIONS_QD_SIGNED = 2 };

/// TFLite_Detection_PostProcess: version, nine int32 and nine float32 parameters, then the anchors
/// (TFLiteModel/Rewrites/ModelFile+DetectionPostProcess.swift).
#define VT_OPTIONS_DP_MAGIC "VTDP"
enum { VT_OPTIONS_DP_VERSION = 1 };

/// A hybrid 1×1 convolution fused into the float depthwise op that alone reads it: version, nine int32
/// (the depthwise window and channels), its filter, scales and bias, then an int32 size and the
/// convolution's VTHC options, padded to 4 bytes.
#define VT_OPTIONS_CD_MAGIC "VTCD"
enum { VT_OPTIONS_CD_VERSION = 1 };

/// SSD heads' hybrid 1×1 convolutions written in place of their concatenation: version, the count
/// (1…64), the depth D, then per convolution an int32 size and its VTHC options, padded to 4 bytes.
#define VT_OPTIONS_CG_MAGIC "VTCG"
enum { VT_OPTIONS_CG_VERSION = 1 };

/// QUANTIZE between 8-bit types at one scale: version, four int32 (input zero point, input signed 0/1,
/// output zero point, output signed 0/1).
#define VT_OPTIONS_RQ_MAGIC "VTRQ"
enum { VT_OPTIONS_RQ_VERSION = 1 };

/// A prefix to a node's options linking a hybrid 1×1 convolution's output range to the hybrid
/// depthwise ops that read it: version, role (1: the producer, 2: a reader), the slot they share.
#define VT_OPTIONS_LK_MAGIC "VTLK"
enum { VT_OPTIONS_LK_VERSION = 1 };

#endif
