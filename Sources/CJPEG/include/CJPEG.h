// A small, safe C layer over libjpeg (libjpeg62-turbo): libjpeg reports errors by longjmp,
// which Swift cannot catch, so every call that may fail goes through these functions, which
// catch the error and return it as a message. VisionTasks does the inverse DCT, chroma
// upsampling and colour conversion itself (the way MediaPipe's decoder, stb_image, does them),
// so it only needs the quantized DCT coefficients from libjpeg.
#ifndef VISIONTASKS_CJPEG_H
#define VISIONTASKS_CJPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VT_JPEG_MAX_COMPONENTS 4

typedef struct {
  int width;
  int height;
  int num_components;
  /// libjpeg's J_COLOR_SPACE guess for the file (1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK).
  int color_space;
  int progressive;
  /// 1 when a JFIF (APP0) marker was seen.
  int jfif;
  /// The Adobe (APP14) marker's transform flag, or -1 when there is none.
  int adobe_transform;
  /// Each component's identifier byte (e.g. 'R', 'G', 'B').
  int component_id[VT_JPEG_MAX_COMPONENTS];
  int h_samp[VT_JPEG_MAX_COMPONENTS];
  int v_samp[VT_JPEG_MAX_COMPONENTS];
  int width_in_blocks[VT_JPEG_MAX_COMPONENTS];
  int height_in_blocks[VT_JPEG_MAX_COMPONENTS];
  /// Quantization table of each component, natural order.
  uint16_t quant[VT_JPEG_MAX_COMPONENTS][64];
  /// Quantized coefficients: height_in_blocks × width_in_blocks blocks of 64, natural order.
  int16_t* coefficients[VT_JPEG_MAX_COMPONENTS];
  /// Non-fatal warnings libjpeg emitted (e.g. corrupt data it skipped).
  int warnings;
  char message[200];
} vt_jpeg_coefficients;

/// Limits checked on the header, before anything is sized from it, and libjpeg's memory cap.
typedef struct {
  long long max_pixels;
  int max_side;
  long long max_memory;
} vt_jpeg_limits;

/// Reads the DCT coefficients of a JPEG within `limits`. Returns 0 on success, 1 on a decoding
/// failure and 2 when the picture exceeds the limits; on failure fills `out->message`.
int vt_jpeg_read_coefficients(const uint8_t* data, size_t size, vt_jpeg_limits limits, vt_jpeg_coefficients* out);

/// How the components become pixels.
enum { VT_JPEG_GRAY = 0, VT_JPEG_YCBCR = 1, VT_JPEG_RGB = 2, VT_JPEG_CMYK = 3, VT_JPEG_YCCK = 4 };

/// The pixels from the coefficients, exactly as stb_image (MediaPipe's decoder) makes them:
/// `kind` VT_JPEG_GRAY writes width × height bytes, the others width × height × 3 (RGB). The
/// components' sampling factors must divide the largest ones. Returns 0, or -1 (bad arguments, out
/// of memory).
int vt_jpeg_reconstruct(const vt_jpeg_coefficients* c, int kind, uint8_t* out);

/// vt_jpeg_reconstruct with a chosen path: `simd` 1 takes the SIMD kernels (SSE2 on x86-64, NEON on
/// aarch64), 0 the portable C that defines them. Both give the same bytes.
int vt_jpeg_reconstruct_path(const vt_jpeg_coefficients* c, int kind, uint8_t* out, int simd);
/// 1 when SIMD kernels are compiled in (SSE2 on x86-64, NEON on aarch64).
int vt_jpeg_simd_available(void);
/// One 8×8 block: `coefficients` (natural order) × `quant` → pixels at out[row · stride + column].
void vt_jpeg_idct_block_path(const int16_t* coefficients, const uint16_t* quant, uint8_t* out, int stride, int simd);
/// Blocks `a` and `b` (one quantization table) through the AVX2 inverse DCT that takes two blocks at a
/// time, each the SSE2 form's arithmetic (what reconstruction runs on CPUs with AVX2): 0, or -2 when
/// this CPU or build has no AVX2.
int vt_jpeg_idct_pair_avx2(const int16_t* a, const int16_t* b, const uint16_t* quant, uint8_t* outA, uint8_t* outB, int stride);
/// YCbCr → RGB for `count` pixels, written as RGB triples.
void vt_jpeg_ycc_row_path(const uint8_t* y, const uint8_t* cb, const uint8_t* cr, uint8_t* rgb, int count, int simd);
/// A picture decoded by libjpeg itself, possibly at a reduced DCT scale.
typedef struct {
  int width, height, channels;
  /// The scale's denominator (1, 2, 4 or 8): width ≈ full_width / denom.
  int denom;
  int full_width, full_height;
  int warnings;
  /// malloc'ed, width × height × channels bytes (free it with free()).
  uint8_t* pixels;
  char message[200];
} vt_jpeg_image;

/// Decodes with libjpeg-turbo's own (SIMD) IDCT, upsampling and colour conversion at the smallest
/// DCT scale (1/8, 1/4, 1/2) that keeps at least `min_width` × `min_height` pixels — fast, and not
/// MediaPipe's pixels. Returns 0, 1 on a decoding failure, 2 past the limits, 3 when no scale is
/// small enough or for CMYK/YCCK files (the caller then decodes exactly). With `full_size` set, a
/// file no scale can reduce is decoded by libjpeg-turbo at full size (OpenCV's `imread` pixels:
/// ISLOW IDCT, fancy upsampling) instead of returning 3.
int vt_jpeg_decode_scaled(const uint8_t* data, size_t size, vt_jpeg_limits limits, int min_width, int min_height, int full_size,
                          vt_jpeg_image* out);
/// Frees what vt_jpeg_read_coefficients allocated.
void vt_jpeg_free_coefficients(vt_jpeg_coefficients* c);

/// Encodes packed RGB8 as a baseline JPEG. On success returns 0 and a malloc'ed buffer in *out
/// (free it with free()); on failure returns non-zero with a message.
int vt_jpeg_encode_rgb(const uint8_t* rgb, int width, int height, int stride, int quality,
                       uint8_t** out, unsigned long* out_size, char* message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
