// VisionTasks' own exact kernels, run by LiteRT as custom ops:
// - hybrid DEPTHWISE_CONV_2D (float32 input, int8 per-channel filter, float32 bias and output),
//   bit-identical to LiteRT 2.3.0's x86 built-in kernel (docs/hybrid-depthwise.md), with a scalar
//   path and AVX2 / AVX-512 paths chosen at run time;
// - 1×1 CONV_2D, uint8, int8 or hybrid, bit-identical to XNNPACK's (docs/conv1x1.md), with a scalar
//   path, AVX2 and AVX-512 VNNI paths, and for the 8-bit kinds XNNPACK's aarch64 arithmetic with a
//   NEON dot-product path (docs/aarch64-xnnpack.md);
// - depthwise, spatial (im2col) and SSD post-processing kernels (below).
#ifndef VISIONTASKS_CKERNELS_H
#define VISIONTASKS_CKERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A kernel's CPU path. Each kernel's `*_path()` gives the one its plain run takes on this CPU, and
/// `*_run_path` / `*_run_ranged` run a given one (tests compare them); every path gives the same bytes.
typedef enum vt_path {
  /// The path the kernel's plain run takes on this CPU.
  VT_PATH_DEFAULT = -1,
  /// Portable C: the reference the vector paths are tested against.
  VT_PATH_SCALAR = 0,
  /// The VNNI path's kernel source with each instruction emulated in portable C (runs everywhere).
  VT_PATH_VNNI_PORTABLE = 1,
  /// AVX2 (and FMA3).
  VT_PATH_AVX2 = 2,
  /// AVX-512 (F, BW and VL).
  VT_PATH_AVX512 = 3,
  /// AVX-512 VNNI dot products.
  VT_PATH_VNNI = 4,
  /// aarch64 NEON with the dot-product extension (udot: Cortex-A76, Neoverse-N1 and later).
  VT_PATH_NEON_DOT = 5,
  /// The NEON dot-product path's kernel source with each instruction emulated in portable C (runs
  /// where NEON is not: x86-64).
  VT_PATH_NEON_DOT_PORTABLE = 6,
  /// aarch64 NEON (every aarch64 CPU: a Cortex-A72 too).
  VT_PATH_NEON = 7,
  /// The NEON path's kernel source with each instruction emulated in portable C (runs where NEON is not).
  VT_PATH_NEON_PORTABLE = 8,
} vt_path;

/// The path's name: "default", "scalar", "vnni-portable", "avx2", "avx512", "vnni", "neon-dot",
/// "neon-dot-portable", "neon" or "neon-portable".
const char *vt_path_name(vt_path path);

/// Whether `path` runs on this machine — built for its architecture (a NEON path's portable form where
/// the NEON one is not: off aarch64) and the CPU has its instructions (AVX2: AVX2 and FMA3; AVX512: F,
/// BW and VL; VNNI: those and VNNI; NEON_DOT: the dot product) — as a kernel's run answers it: 0 when it
/// does, -2 when it does not, -1 for what is no path (VT_PATH_DEFAULT too). The one place that decides it:
/// each kernel's `*_run_path` answers this for its paths, and its `*_path()` picks the fastest that runs.
int vt_path_status(vt_path path);

/// The CPU features the kernels' paths use, probed once per process: x86-64's (all 0 elsewhere) and
/// aarch64's dot-product extension (`asimddp`, the kernel's HWCAP_ASIMDDP; 0 elsewhere); and whether
/// XNNPACK's uint8 GEMM requantizes by "rndnu16" here rather than "rndnu" (`qu8_rndnu16`:
/// `vt_cpu_qu8_rndnu16` of /proc/cpuinfo on aarch64 Linux; 0 elsewhere), which makes this CPU's
/// arithmetic VT_ARITHMETIC_AARCH64_RNDNU16.
typedef struct vt_cpu {
  int avx2, fma, avx512f, avx512bw, avx512vl, avx512vnni;
  int asimddp;
  int qu8_rndnu16;
} vt_cpu;

/// Whether XNNPACK chooses its "rndnu16" uint8 GEMM kernels on the CPU that `cpuinfo` (the text of
/// /proc/cpuinfo) describes: when its first microarchitecture — the best core, ranked as the cpuinfo
/// library ranks them — is a Cortex-A53, a Cortex-A55 (Qualcomm's Kryo Silver cores of those designs
/// included) or the original Kryo. 1 or 0; 0 when no core is described. Among cores of the best rank,
/// one of those makes it 1 (cpuinfo breaks such a tie by frequency, not read here; no known SoC has one).
int vt_cpu_qu8_rndnu16(const char *cpuinfo);

/// Whose arithmetic an 8-bit kernel reproduces: XNNPACK's on x86-64 or on aarch64 (they differ in how
/// uint8 sums are requantized: in float on x86-64, in integers — "rndnu" — on aarch64).
typedef enum vt_arithmetic {
  /// The arithmetic of the CPU the kernel runs on.
  VT_ARITHMETIC_NATIVE = 0,
  VT_ARITHMETIC_X86_64 = 1,
  VT_ARITHMETIC_AARCH64 = 2,
  /// aarch64's where XNNPACK's uint8 GEMM requantizes by "rndnu16" (`vt_cpu.qu8_rndnu16`: a Cortex-A53 or
  /// A55 first): uint8 1×1 and spatial convolutions so; everything else as VT_ARITHMETIC_AARCH64 (its
  /// depthwise kernels take rndnu on every CPU).
  VT_ARITHMETIC_AARCH64_RNDNU16 = 3,
} vt_arithmetic;
/// This CPU's features.
const vt_cpu *vt_cpu_features(void);

/// Worker threads kept for the parallel parts of a model's ops (parts 1… of each op; the calling
/// thread takes part 0). Workers spin briefly between ops, then sleep.
typedef struct vt_pool vt_pool;
/// A pool for `threads` threads in all (`threads` − 1 workers); NULL for fewer than 2 or when no
/// thread can start.
vt_pool *vt_pool_create(int32_t threads);
void vt_pool_free(vt_pool *pool);

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



/// The op on `batches` NHWC inputs on `path` (VT_PATH_DEFAULT: the fastest this CPU has): scalar, AVX2,
/// AVX-512, VNNI (AVX-512 VNNI dot products) or
/// "vnni-portable" (the same dot-product kernel in portable C, exactly as the instructions compute);
/// all give the same bytes. Returns 0, -1 for bad sizes or an unknown path, -2 when this CPU lacks
/// the path's instructions.
int vt_hdw_run_path(const vt_hdw_params *p, vt_path path, const float *input, int32_t batches, int32_t h, int32_t w, float *output,
                    void *scratch, size_t scratch_size, int32_t threads, vt_pool *pool);
/// vt_hdw_run_path for one batch whose range is known:
/// `range` (NULL: taken here) holds its minimum and maximum, each from 0, as the quantizer takes them
/// (both start at 0, NaNs left out: vt_conv1x1_run_ranged gives them for the outputs it makes).
int vt_hdw_run_ranged(const vt_hdw_params *p, vt_path path, const float *input, int32_t batches, int32_t h, int32_t w, float *output,
                      void *scratch, size_t scratch_size, int32_t threads, vt_pool *pool, const float range[2]);
/// The path VT_PATH_DEFAULT takes here: VNNI, AVX-512, AVX2 or scalar.
vt_path vt_hdw_path(void);

/// Whether this module was compiled with optimization (`__OPTIMIZE__`: SwiftPM's release
/// configuration). Unoptimized, the kernels are exact but slow, so LiteRT's own kernels (which ours
/// equal bit for bit) are the better default there.
int vt_kernels_optimized(void);

/// Reads custom options; the params' pointers point into `data`. Returns 0, or -1 when malformed.
/// Custom options: "VTHD", version 1, ten int32 parameters (kernel h/w, input channels, depth
/// multiplier, strides, dilations, padding, activation), the int8 filter padded to 4 bytes, the
/// per-channel scales and the bias (little endian), as TFLiteModel's hybrid depthwise rewrite writes them.
int vt_hdw_decode_options(const uint8_t *data, size_t size, vt_hdw_params *p);

// --- 1×1 convolutions ------------------------------------------------------------------------
// Two kinds, bit-identical to XNNPACK's (LiteRT's path for them), both on one int16 GEMM core:
// - uint8 (per-tensor asymmetric) CONV_2D, XNNPACK's QU8 GEMM with fp32 requantization;
// - hybrid CONV_2D (float32 input, int8 per-channel filter, float32 bias and output), XNNPACK's
//   dynamically quantized path: each input pixel quantized to int8 on its own (asymmetric), the
//   QD8 × QC8W GEMM, a float epilogue with one fused multiply-add.

/// A uint8 1×1, stride-1 CONV_2D: output[p][n] = requantize(bias[n] + Σk (input[p][k] − izp)·(filter[n][k] − fzp)).
/// With `is_signed`, an int8 one (XNNPACK's QS8 × QC8W GEMM): int8 input and output (zero points
/// −128…127), an int8 filter with zero point 0 and, when `filter_scales` is given, a scale per output
/// channel (requantization scale input · filter[n] / output, in float, as XNNPACK computes it).
typedef struct {
  int32_t in_channels, out_channels;
  /// 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6 (TFLite's ActivationFunctionType).
  int32_t activation;
  int32_t input_zero_point, filter_zero_point, output_zero_point;
  float input_scale, filter_scale, output_scale;
  /// [out_channels][in_channels] (int8 bytes when `is_signed`).
  const uint8_t *filter;
  /// Per output channel.
  const int32_t *bias;
  int32_t is_signed;
  /// NULL (the filter's one scale), or one per output channel.
  const float *filter_scales;
} vt_qconv_params;

/// A hybrid 1×1, stride-1 CONV_2D (float32 in and out, int8 symmetric per-channel filter).
typedef struct {
  int32_t in_channels, out_channels;
  /// 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6.
  int32_t activation;
  /// [out_channels][in_channels].
  const int8_t *filter;
  /// Per output channel.
  const float *channel_scales;
  const float *bias;
} vt_hconv_params;

/// An op ready to run: its weights packed for the kernel, its output arithmetic prepared.
typedef struct vt_conv1x1 vt_conv1x1;

/// NULL for invalid parameters (sizes, zero points outside 0…255, scales not positive and finite, a
/// requantization scale ≥ 256) or when out of memory. The op computes this CPU's XNNPACK arithmetic.
vt_conv1x1 *vt_qconv_create(const vt_qconv_params *p);
/// vt_qconv_create for XNNPACK's arithmetic on `arithmetic`'s CPU (the tests run aarch64's on x86-64).
/// Its paths: x86-64's — scalar, AVX2, VNNI, VNNI-portable; aarch64's — scalar, NEON dot product,
/// NEON-dot-portable (a path of the other arithmetic refuses the op: -1). NULL also for aarch64's
/// arithmetic with a requantization scale below 2^-32.
vt_conv1x1 *vt_qconv_create_for(const vt_qconv_params *p, vt_arithmetic arithmetic);
/// NULL for invalid parameters (sizes, scales not positive and finite) or when out of memory.
vt_conv1x1 *vt_hconv_create(const vt_hconv_params *p);
void vt_conv1x1_free(vt_conv1x1 *op);
int32_t vt_conv1x1_in_channels(const vt_conv1x1 *op);
int32_t vt_conv1x1_out_channels(const vt_conv1x1 *op);
/// Whether the op is the hybrid kind (float32 tensors) rather than uint8.
int vt_conv1x1_is_hybrid(const vt_conv1x1 *op);
/// Whether the op takes and gives int8 tensors (a signed quantized op).
int vt_conv1x1_is_signed(const vt_conv1x1 *op);
/// Bytes of scratch for a run on `threads` threads (1…64), whatever the number of pixels.
size_t vt_conv1x1_scratch_size(const vt_conv1x1 *op, int32_t threads);
/// The op on `pixels` input pixels ([pixels][in_channels] → [pixels][out_channels], uint8 or float32
/// by kind) with the fastest path this CPU has, pixels split over `threads` threads (results do not
/// depend on it) — `pool`'s, or threads started for the call when it is NULL. 0, or -1.
int vt_conv1x1_run(const vt_conv1x1 *op, const void *input, int64_t pixels, void *output, void *scratch, size_t scratch_size,
                   int32_t threads, vt_pool *pool);
/// The same on `path` (VT_PATH_DEFAULT: vt_conv1x1_path()): scalar, AVX2 (vpmaddwd, two bytes per lane), VNNI (AVX-512 vpdpbusd,
/// four bytes per lane), or VNNI-portable (the vnni path's kernel source with each instruction
/// computed in portable C: the same results on any CPU). 0; -1 on bad arguments; -2 when this CPU
/// lacks the path's instructions.
int vt_conv1x1_run_path(const vt_conv1x1 *op, vt_path path, const void *input, int64_t pixels, void *output, void *scratch,
                        size_t scratch_size, int32_t threads, vt_pool *pool);
/// vt_conv1x1_run_path that also gives, for the hybrid
/// kind, its outputs' range as a hybrid depthwise op's quantizer takes it (minimum and maximum, each
/// from 0, NaNs left out) in `range` (NULL: none; -1 for the uint8 kind).
int vt_conv1x1_run_ranged(const vt_conv1x1 *op, vt_path path, const void *input, int64_t pixels, void *output, void *scratch,
                          size_t scratch_size, int32_t threads, vt_pool *pool, float range[2]);
/// Makes the dot-product paths' packed filters now; otherwise the first run on such a path makes them
/// (a write to the op). A caller that runs the op from several threads at once calls it first. 0, or
/// -1 when out of memory.
int vt_conv1x1_prepare(vt_conv1x1 *op);
/// The path `vt_conv1x1_run` takes here for the 8-bit kinds: on x86-64 VNNI, AVX2 or scalar; on aarch64
/// NEON with the dot product ("neon-dot") or without it ("neon": umull + uadalp). The hybrid kind, x86-64's
/// arithmetic only, takes the scalar path on aarch64.
vt_path vt_conv1x1_path(void);
/// Whether the kernel is the default for optimized builds on this CPU: where its path is avx2, vnni or
/// neon-dot (the plain "neon" path is not: LiteRT's kernels stay a Cortex-A72's default).
int vt_conv1x1_preferred(void);
/// Whether the hybrid kind equals LiteRT's kernel on this CPU: x86-64 only (its dynamic quantization
/// and float epilogue are XNNPACK's x86-64 ones).
int vt_hconv_exact(void);

/// Custom options of the uint8 kind: "VTQC", version 2, six int32 (in/out channels, activation,
/// input/filter/output zero points), three float32 scales (input, filter, output), the filter's
/// place as a uint64 — how many bytes before the end of the model's bytes its [out][in] bytes
/// start (the filter stays in the model, which a rewrite keeps at the end of the rewritten bytes) —
/// and its `vt_filter_digest`, then the int32 bias (little endian). Reads them with the model's
/// bytes `model`; the params' pointers point into `data` and `model`. Returns 0, or -1 when
/// malformed, or when the filter is not inside `model` or its bytes there do not match the digest.
int vt_qconv_decode_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size, vt_qconv_params *p);
/// A 64-bit digest of `n` bytes (a filter's, in the 1×1 kinds' options): h = 0x9E3779B97F4A7C15 ^ n;
/// for each 8-byte little-endian word w (the last one zero-padded), h = (h ^ w) · 0xFF51AFD7ED558CCD
/// (mod 2^64), then h ^= h >> 32.
uint64_t vt_filter_digest(const uint8_t *data, size_t n);
/// Custom options of the hybrid kind: "VTHC", version 2, three int32 (in/out channels, activation),
/// the int8 filter's place and digest (as the uint8 kind's), the per-channel scales, the bias (little endian).
int vt_hconv_decode_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size, vt_hconv_params *p);

// --- A hybrid 1×1 convolution into a float depthwise convolution --------------------------------
// One op for a hybrid 1×1 CONV_2D whose output only a float32 DEPTHWISE_CONV_2D reads (depth
// multiplier 1): the convolution's output rows are made into a ring that stays in cache as the
// depthwise window reaches them, never written out whole. Bit-identical to the two ops under LiteRT:
// the 1×1 kernel's rows, then XNNPACK's f32 unipass depthwise arithmetic (bias, one fused
// multiply-add per tap in XNNPACK's tap order, padding taps reading zeros, its min/max clamp) — what
// XNNPACK computes on x86-64 CPUs with fused multiply-adds (`vt_cdw_exact`).

typedef struct vt_cdw vt_cdw;

/// Custom options: "VTCD", version 1, nine int32 (kernel h/w, channels, strides h/w, dilations h/w,
/// padding 0 SAME / 1 VALID, activation 0 NONE / 1 RELU / 2 RELU_N1_TO_1 / 3 RELU6), the float32
/// filter [kernel_h][kernel_w][channels], the float32 bias [channels], then an int32 size and the
/// convolution's "VTHC" options (padded to 4 bytes), read with the model's bytes. NULL when malformed
/// (a window of more than 64 taps included),
/// when the convolution's outputs are not the depthwise channels, or when out of memory.
vt_cdw *vt_cdw_create_from_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size);
void vt_cdw_free(vt_cdw *op);
/// The convolution's input channels; the depthwise channels (the op's output channels).
int32_t vt_cdw_in_channels(const vt_cdw *op);
int32_t vt_cdw_channels(const vt_cdw *op);
/// The output's height and width for an input of `h`×`w`. 0, or -1 when there is no output.
int vt_cdw_output_size(const vt_cdw *op, int32_t h, int32_t w, int32_t *oh, int32_t *ow);
/// Bytes of scratch for an input `w` pixels wide on `threads` threads (1…64); 0 for bad sizes.
size_t vt_cdw_scratch_size(const vt_cdw *op, int32_t h, int32_t w, int32_t threads);
/// The op on `batches` NHWC inputs ([h][w][in channels] each) with the fastest path this CPU has,
/// output rows split in bands over `threads` threads (results do not depend on it). 0, or -1.
int vt_cdw_run(const vt_cdw *op, const float *input, int32_t batches, int32_t h, int32_t w, float *output, void *scratch,
               size_t scratch_size, int32_t threads, vt_pool *pool);
/// The same with the depthwise part on `path` (VT_PATH_DEFAULT: vt_cdw_path()): scalar (fmaf), AVX2 (AVX2 + FMA) or
/// AVX-512; all give the same bytes. 0; -1 on bad arguments; -2 when this CPU lacks the path's
/// instructions.
int vt_cdw_run_path(const vt_cdw *op, vt_path path, const float *input, int32_t batches, int32_t h, int32_t w, float *output,
                    void *scratch, size_t scratch_size, int32_t threads, vt_pool *pool);
/// The path `vt_cdw_run` takes here: AVX-512, AVX2 or scalar.
vt_path vt_cdw_path(void);
/// Whether this op equals LiteRT's two ops on this CPU: x86-64 with FMA3 or AVX-512F (XNNPACK's float
/// depthwise kernels there use fused multiply-adds, and the hybrid 1×1 kernel is a copy of its x86-64
/// arithmetic); 0 elsewhere.
int vt_cdw_exact(void);

// --- Spatial uint8 convolutions ----------------------------------------------------------------
// A uint8 CONV_2D of any kernel size, stride and dilation (SAME or VALID) runs as im2col — each output
// pixel's window gathered into a row of kernel_h·kernel_w·in_channels bytes, taps in the padding
// reading the input's zero point, as XNNPACK's indirection reads its zero buffer — followed by the 1×1
// kernel's exact GEMM on those rows (K = kernel_h·kernel_w·in_channels): the integer sums are XNNPACK's,
// and so is the fp32 requantization, so the output is bit-identical to XNNPACK's IGEMM.

/// A spatial convolution's window.
typedef struct {
  int32_t kernel_h, kernel_w, in_channels;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  /// 0 SAME, 1 VALID.
  int32_t padding;
  /// The byte a tap in the padding reads (the input's zero point).
  int32_t input_zero_point;
  /// Bytes per im2col row: 0 for kernel_h·kernel_w·in_channels, or more (the rest set to the input's
  /// zero point; the GEMM's filter is padded to match).
  int32_t row_bytes;
} vt_window;

/// The output's height and width for an `h`×`w` input, and the top/left padding (TensorFlow's SAME:
/// the smaller half on top and left). 0, or -1 when the window gives no output.
int vt_window_output_size(const vt_window *g, int32_t h, int32_t w, int32_t *oh, int32_t *ow, int32_t *pad_h, int32_t *pad_w);
/// Writes the windows of output rows first..<first + count (numbered batch · oh + oy over `batches` NHWC
/// inputs) as rows of kernel_h·kernel_w·in_channels bytes (or row_bytes), one per output pixel in NHWC
/// order (count·ow rows), output rows split over `threads` threads. 0, or -1.
int vt_im2col(const vt_window *g, const uint8_t *input, int32_t batches, int32_t h, int32_t w, int64_t first, int64_t count,
              uint8_t *rows, int32_t threads, vt_pool *pool);
/// Custom options of the spatial uint8 kind: "VTQK", version 1, fifteen int32 (K = kernel_h·kernel_w·in
/// channels, output channels, activation, input/filter/output zero points, kernel h/w, input channels,
/// strides h/w, dilations h/w, padding), three float32 scales (input, filter, output), the filter's place
/// and digest (as the 1×1 kinds': its [out][kh][kw][in] bytes in the model), the int32 bias. `p` gets the
/// GEMM's parameters (in_channels = K), `g` the window.
int vt_qconvk_decode_options(const uint8_t *data, size_t size, const uint8_t *model, size_t model_size, vt_qconv_params *p,
                             vt_window *g);

// --- uint8 and int8 depthwise convolutions --------------------------------------------------------
// DEPTHWISE_CONV_2D with uint8 (per-tensor asymmetric) input, filter and output, depth multiplier 1,
// bit-identical to XNNPACK's QU8 DWConv: int32 sums of (x − izp)·(w − fzp) over the taps inside the
// picture plus the bias, then the fp32 requantization of the 1×1 kind; or int8 input and output with
// a symmetric int8 filter quantized per channel (or per tensor), bit-identical to XNNPACK's QC8 (QS8)
// DWConv: the same sums, each channel requantized with its own scale. Paths: "scalar", "avx2"
// (vpmaddwd on tap pairs), "vnni" (AVX-512 VNNI vpdpwssd on 256-bit vectors) and "vnni-portable" (the
// vector kernel's source with each instruction computed in portable C). An op of aarch64's arithmetic
// requantizes a uint8 one as XNNPACK's aarch64 QU8 DWConv does ("rndnu", its pre-shift wrapping where
// a dwconv microkernel takes the window — up to 25 taps — and saturating beyond, where XNNPACK takes
// the IGEMM), on the "scalar" path and on "neon" (16 channels at a time, smlal of int16 differences) or
// "neon-portable" (that kernel's source in portable C); its int8 kind is x86-64's arithmetic.

typedef struct {
  int32_t kernel_h, kernel_w, channels;
  int32_t stride_h, stride_w, dilation_h, dilation_w;
  /// 0 SAME, 1 VALID.
  int32_t padding;
  /// 0 NONE, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6.
  int32_t activation;
  int32_t input_zero_point, filter_zero_point, output_zero_point;
  float input_scale, filter_scale, output_scale;
  /// [kernel_h][kernel_w][channels].
  const uint8_t *filter;
  /// Per channel.
  const int32_t *bias;
  /// 1: int8 input, filter and output (XNNPACK's QS8/QC8 DWConv: zero points −128…127, the filter's 0),
  /// the bytes read and written as two's complement; 0: uint8.
  int32_t is_signed;
  /// Per channel (int8 only; NULL: `filter_scale` for every channel).
  const float *filter_scales;
} vt_qdw_params;

/// An op ready to run (its filter packed, its requantization prepared).
typedef struct vt_qdw vt_qdw;
/// NULL for invalid parameters (sizes, zero points outside 0…255 (int8: −128…127, the filter's not 0),
/// scales not positive and finite, a requantization scale ≥ 256) or when out of memory. The
/// parameters' arrays are copied.
vt_qdw *vt_qdw_create(const vt_qdw_params *p);
/// vt_qdw_create for XNNPACK's arithmetic on `arithmetic`'s CPU (the tests run aarch64's on x86-64). A
/// path that does not compute the op's arithmetic refuses it (-1): x86-64's vector paths a uint8 op of
/// aarch64's. NULL also for aarch64's arithmetic with a requantization scale below 2^-32.
vt_qdw *vt_qdw_create_for(const vt_qdw_params *p, vt_arithmetic arithmetic);
void vt_qdw_free(vt_qdw *op);
int32_t vt_qdw_channels(const vt_qdw *op);
/// 1 for the int8 kind.
int vt_qdw_is_signed(const vt_qdw *op);
/// The output's height and width for an `h`×`w` input: 0, or -1.
int vt_qdw_output_size(const vt_qdw *op, int32_t h, int32_t w, int32_t *oh, int32_t *ow);
/// The op on `batches` NHWC inputs with the fastest path this CPU has, output rows split over `threads`
/// threads (results do not depend on it) — `pool`'s, or threads started for the call when it is NULL.
/// Needs no scratch. 0, or -1 for bad sizes.
int vt_qdw_run(const vt_qdw *op, const uint8_t *input, int32_t batches, int32_t h, int32_t w, uint8_t *output, int32_t threads,
               vt_pool *pool);
/// The same on `path` (VT_PATH_DEFAULT: vt_qdw_path(); scalar, AVX2, VNNI, VNNI-portable, NEON, NEON-portable): 0; -1
/// for bad sizes, an unknown path or one of another arithmetic; -2 when this CPU lacks the path's instructions.
int vt_qdw_run_path(const vt_qdw *op, vt_path path, const uint8_t *input, int32_t batches, int32_t h, int32_t w, uint8_t *output,
                    int32_t threads, vt_pool *pool);
/// The path `vt_qdw_run` takes here: VNNI, AVX2, NEON or scalar.
vt_path vt_qdw_path(void);
/// Whether the kernel is faster than XNNPACK's here, and so the default for optimized builds: on x86-64
/// with AVX2 or VNNI. Not on aarch64: its NEON path (exact, tested) costs more instructions than XNNPACK's
/// 9p16c kernel (SSD MobileNet v1: 167.4 M per photo against 131.6 M with LiteRT's, under qemu).
int vt_qdw_preferred(void);
/// Custom options "VTQD": version 1 (uint8): thirteen int32 (kernel h/w, channels, strides h/w,
/// dilations h/w, padding, activation, input/filter/output zero points), three float32 scales (input,
/// filter, output), the filter padded to 4 bytes, the int32 bias (little endian); version 2 (int8): the
/// same thirteen int32, then three float32 scales (input, 0, output), the per-channel filter scales,
/// the filter padded to 4 bytes, the bias. The params' pointers point into `data`. 0, or -1 when
/// malformed.
int vt_qdw_decode_options(const uint8_t *data, size_t size, vt_qdw_params *p);

// --- Requantization between 8-bit types at one scale ------------------------------------------
// QUANTIZE from uint8 or int8 to uint8 or int8 with the input's scale (TF2 post-training quantized
// models' first op: uint8 pixels to int8), as LiteRT's built-in kernel computes it: the input less its
// zero point plus the output's, clamped to the output type.

typedef struct {
  int32_t input_zero_point, input_signed, output_zero_point, output_signed;
} vt_requant8_params;

/// 1 when the zero points are in their types' ranges (and the flags 0 or 1), else 0.
int vt_requant8_valid(const vt_requant8_params *p);
/// `count` bytes from `input` to `output`: 0, or -1 for invalid parameters.
int vt_requant8_run(const vt_requant8_params *p, const uint8_t *input, size_t count, uint8_t *output);
/// Custom options "VTRQ": version 1, four int32 (input zero point, input signed, output zero point,
/// output signed). 0, or -1 when malformed or invalid.
int vt_requant8_decode_options(const uint8_t *data, size_t size, vt_requant8_params *p);

// --- Detection post-processing -----------------------------------------------------------------
// TFLite_Detection_PostProcess with fast NMS and one class per detection (use_regular_nms false,
// max_classes_per_detection 1), with the outputs of LiteRT 2.3.0's built-in kernel bit for bit:
// boxes decoded from the encodings and anchors in its arithmetic, each anchor's best class (its first
// maximum), candidates at or above the score threshold in decreasing score order (equal scores in
// anchor order), greedy suppression of boxes overlapping a kept one by more than the IoU threshold.

typedef struct {
  int32_t max_detections, num_classes, anchor_count;
  /// Element types (LiteRT's: 1 float32, 3 uint8) of the box encodings and of the class scores; uint8
  /// box encodings come with uint8 anchors.
  int32_t box_type, score_type;
  int32_t box_zero_point, score_zero_point, anchor_zero_point;
  float box_scale, score_scale, anchor_scale;
  float score_threshold, iou_threshold;
  float y_scale, x_scale, h_scale, w_scale;
  /// [anchor_count][4] (y, x, h, w): float32, or uint8 when the box encodings are.
  const void *anchors;
} vt_dpp_params;

typedef struct vt_dpp vt_dpp;
/// NULL for invalid parameters (sizes, types, quantization, an IoU threshold outside (0, 1], an anchor
/// of negative height or width) or when out of memory. The anchors are copied.
vt_dpp *vt_dpp_create(const vt_dpp_params *p);
void vt_dpp_free(vt_dpp *op);
int32_t vt_dpp_max_detections(const vt_dpp *op);
int32_t vt_dpp_anchor_count(const vt_dpp *op);
/// The op on box encodings [anchors][box_len] and scores [anchors][classes] (num_classes, plus the
/// background class first when one more): detection boxes [max_detections][4] (ymin, xmin, ymax,
/// xmax), classes and scores [max_detections], the count [1]; slots past the count are zero. 0, or -1
/// for sizes or types the op was not made for.
int vt_dpp_run(vt_dpp *op, const void *boxes, int32_t box_type, int32_t anchors, int32_t box_len, const void *scores, int32_t score_type,
               int32_t classes, float *out_boxes, float *out_classes, float *out_scores, float *out_count);
/// Custom options "VTDP", version 1: nine int32 (version, max detections, classes, anchors, box type,
/// box zero point, score type, score zero point, anchor zero point), nine float32 (score threshold,
/// IoU threshold, y/x/h/w scales, box, score and anchor scales), the anchors padded to 4 bytes (little
/// endian). The anchors pointer points into `data`. 0, or -1 when malformed.
int vt_dpp_decode_options(const uint8_t *data, size_t size, vt_dpp_params *p);

// --- The kernels as LiteRT custom op kernels -----------------------------------------------------
// Each rewritten node gets a custom code of its own, registered with its own node state (LiteRT's
// user data is per registration). Its only input is the activation; its custom options (above)
// hold the op's parameters and constants (or, for the 1×1 kinds' filters, where they are in the
// model) and say which kernel it is.

/// The LiteRT calls a kernel needs, resolved by the caller from the loaded library:
/// LiteRtGetTensorBufferTensorType, LiteRtLockTensorBuffer and LiteRtUnlockTensorBuffer (kept as
/// untyped pointers so that this header stands alone).
typedef struct {
  const void *get_tensor_type;
  const void *lock;
  const void *unlock;
} vt_litert_api;

typedef struct vt_node vt_node;

/// What the nodes of one compiled model share (LiteRT runs them one at a time): scratch memory grown
/// to the largest need, and a pool of `threads` threads.
typedef struct vt_context vt_context;
/// NULL when out of memory. `model` (`model_size` bytes) is the model LiteRT runs, where the 1×1
/// kinds' filters are (it must outlive the nodes); NULL when unknown (those nodes then fail).
vt_context *vt_context_create(int32_t threads, const uint8_t *model, size_t model_size);
void vt_context_free(vt_context *context);

/// A node's state in `context` (whose nodes must not run concurrently); NULL when out of memory. Free
/// it after the compiled model is destroyed, and the context after its nodes.
vt_node *vt_node_create(vt_litert_api api, vt_context *context);
void vt_node_free(vt_node *node);
/// 0, or the first error the node met (LiteRT ignores kernel statuses): check it after each run.
int vt_node_error(const vt_node *node, char *message, size_t message_size);
/// The kernel to register for every node, a `LiteRtCustomOpKernel` (the same callbacks for every
/// node; the state tells the nodes and their kinds apart).
const void *vt_kernel(void);

#ifdef __cplusplus
}
#endif
#endif
