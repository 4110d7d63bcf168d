// VisionTasks' image preprocessing kernels in C, where the vector instructions need intrinsics: the
// preprocessor's separable bilinear sampler (Imaging's ImagePreprocessor owns the plan and the
// fallback; this computes the same integers, eight pixels at a time).
#ifndef VISIONTASKS_CIMAGING_H
#define VISIONTASKS_CIMAGING_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Output rows y0 ..< y1 of the separable bilinear sampler, OpenCV's fixed-point arithmetic with
/// weights in 1/32: for output (x, y) with gx = 32 − fx, gy = 32 − fy, each channel is
/// (gy·(gx·a + fx·b) + fy·(gx·c + fx·d) + 512) >> 10 of the samples a = src[row_first[y] +
/// col_first[x]], b = src[row_first[y] + col_second[x]], c = src[row_second[y] + col_first[x]],
/// d = src[row_second[y] + col_second[x]] (plus the channel's byte offset c0, c1 or c2, each 0…3).
/// `col_largest`: the largest column offset, or ≤ 0 to have it found here (the rows' 4-byte reads are
/// checked against src_size with it).
/// Writes three values per pixel at out + (y · width + x) · 3: bytes, or with `as_float` the floats
/// v · scale[c] + offset[c] (a multiply, then an add). Returns the first row it did not do: y1, or
/// an earlier row when this CPU lacks AVX2 or a row's taps could read past src_size (the caller does
/// the rest).
int32_t vt_sample_rows(const uint8_t *src, size_t src_size, const int32_t *col_first, const int32_t *col_second,
                       const int32_t *col_fraction, int32_t width, int32_t col_largest, const int64_t *row_first, const int64_t *row_second,
                       const int32_t *row_fraction, int32_t y0, int32_t y1, int32_t c0, int32_t c1, int32_t c2, int as_float,
                       const float scale[3], const float offset[3], void *out);

#ifdef __cplusplus
}
#endif
#endif
