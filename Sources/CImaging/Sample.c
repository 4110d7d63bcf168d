// The preprocessor's separable bilinear sampler, eight output pixels at a time (AVX2): the same
// integers as ImagePreprocessor's per-pixel path (its tests compare the two), then the same float
// normalization (a multiply, then an add: no contraction into FMA).
#pragma clang fp contract(off)
#include "CImaging.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// One channel of eight pixels from their four samples' 32-bit words (the channel at byte `shift`/8).
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i channel(__m256i a, __m256i b, __m256i c, __m256i d,
                                                                                            __m128i shift, __m256i gx, __m256i fx,
                                                                                            __m256i gy, __m256i fy) {
  const __m256i byte = _mm256_set1_epi32(0xFF);
  const __m256i va = _mm256_and_si256(_mm256_srl_epi32(a, shift), byte), vb = _mm256_and_si256(_mm256_srl_epi32(b, shift), byte);
  const __m256i vc = _mm256_and_si256(_mm256_srl_epi32(c, shift), byte), vd = _mm256_and_si256(_mm256_srl_epi32(d, shift), byte);
  const __m256i top = _mm256_add_epi32(_mm256_mullo_epi32(va, gx), _mm256_mullo_epi32(vb, fx));
  const __m256i bottom = _mm256_add_epi32(_mm256_mullo_epi32(vc, gx), _mm256_mullo_epi32(vd, fx));
  const __m256i sum = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(top, gy), _mm256_mullo_epi32(bottom, fy)), _mm256_set1_epi32(512));
  return _mm256_srli_epi32(sum, 10);
}

__attribute__((target("avx2"))) static int32_t sample_rows_avx2(const uint8_t *src, size_t src_size, const int32_t *col_first,
                                                               const int32_t *col_second, const int32_t *col_fraction, int32_t width,
                                                               int32_t col_largest, const int64_t *row_first, const int64_t *row_second,
                                                               const int32_t *row_fraction, int32_t y0, int32_t y1, int32_t c0,
                                                               int32_t c1, int32_t c2, int as_float, const float scale[3],
                                                               const float offset[3], void *out) {
  // The largest column offset: a row is done here only when every 4-byte read stays inside src.
  int64_t col_max = col_largest;
  if (col_max <= 0) {
    for (int32_t x = 0; x < width; x++) {
      if (col_first[x] < 0 || col_second[x] < 0) return y0;
      col_max = col_first[x] > col_max ? col_first[x] : col_max;
      col_max = col_second[x] > col_max ? col_second[x] : col_max;
    }
  }
  const __m128i s0 = _mm_cvtsi32_si128(8 * c0), s1 = _mm_cvtsi32_si128(8 * c1), s2 = _mm_cvtsi32_si128(8 * c2);
  const __m256 sc0 = _mm256_set1_ps(scale[0]), sc1 = _mm256_set1_ps(scale[1]), sc2 = _mm256_set1_ps(scale[2]);
  const __m256 of0 = _mm256_set1_ps(offset[0]), of1 = _mm256_set1_ps(offset[1]), of2 = _mm256_set1_ps(offset[2]);
  const __m256i thirty_two = _mm256_set1_epi32(32);
  for (int32_t y = y0; y < y1; y++) {
    const int64_t rf = row_first[y], rs = row_second[y], r_max = rf > rs ? rf : rs;
    if (rf < 0 || rs < 0 || (uint64_t)r_max + (uint64_t)col_max + 4 > (uint64_t)src_size) return y;
    const int *top = (const int *)(const void *)(src + rf), *bottom = (const int *)(const void *)(src + rs);
    const __m256i fy = _mm256_set1_epi32(row_fraction[y]), gy = _mm256_sub_epi32(thirty_two, fy);
    uint8_t *bytes = (uint8_t *)out + (size_t)y * (size_t)width * 3;
    float *floats = (float *)out + (size_t)y * (size_t)width * 3;
    int32_t x = 0;
    for (; x + 8 <= width; x += 8) {
      const __m256i first = _mm256_loadu_si256((const __m256i *)(const void *)(col_first + x));
      const __m256i second = _mm256_loadu_si256((const __m256i *)(const void *)(col_second + x));
      const __m256i fx = _mm256_loadu_si256((const __m256i *)(const void *)(col_fraction + x)), gx = _mm256_sub_epi32(thirty_two, fx);
      const __m256i a = _mm256_i32gather_epi32(top, first, 1), b = _mm256_i32gather_epi32(top, second, 1);
      const __m256i c = _mm256_i32gather_epi32(bottom, first, 1), d = _mm256_i32gather_epi32(bottom, second, 1);
      const __m256i r = channel(a, b, c, d, s0, gx, fx, gy, fy), g = channel(a, b, c, d, s1, gx, fx, gy, fy);
      const __m256i bl = channel(a, b, c, d, s2, gx, fx, gy, fy);
      int32_t v[3][8];
      if (as_float) {
        float f[3][8];
        _mm256_storeu_ps(f[0], _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(r), sc0), of0));
        _mm256_storeu_ps(f[1], _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(g), sc1), of1));
        _mm256_storeu_ps(f[2], _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(bl), sc2), of2));
        float *o = floats + (size_t)x * 3;
        for (int i = 0; i < 8; i++) {
          o[3 * i] = f[0][i];
          o[3 * i + 1] = f[1][i];
          o[3 * i + 2] = f[2][i];
        }
      } else {
        _mm256_storeu_si256((__m256i *)(void *)v[0], r);
        _mm256_storeu_si256((__m256i *)(void *)v[1], g);
        _mm256_storeu_si256((__m256i *)(void *)v[2], bl);
        uint8_t *o = bytes + (size_t)x * 3;
        for (int i = 0; i < 8; i++) {
          o[3 * i] = (uint8_t)v[0][i];
          o[3 * i + 1] = (uint8_t)v[1][i];
          o[3 * i + 2] = (uint8_t)v[2][i];
        }
      }
    }
    for (; x < width; x++) {  // the last few columns, one at a time
      const int32_t fx = col_fraction[x], gx = 32 - fx, fyv = row_fraction[y], gyv = 32 - fyv;
      const uint8_t *pa = src + rf + col_first[x], *pb = src + rf + col_second[x], *pc = src + rs + col_first[x],
                    *pd = src + rs + col_second[x];
      const int32_t ch[3] = {c0, c1, c2};
      for (int k = 0; k < 3; k++) {
        const int32_t t = pa[ch[k]] * gx + pb[ch[k]] * fx, u = pc[ch[k]] * gx + pd[ch[k]] * fx;
        const int32_t value = (t * gyv + u * fyv + 512) >> 10;
        if (as_float) floats[(size_t)x * 3 + (size_t)k] = (float)value * scale[k] + offset[k];
        else bytes[(size_t)x * 3 + (size_t)k] = (uint8_t)value;
      }
    }
  }
  return y1;
}
#endif

int32_t vt_sample_rows(const uint8_t *src, size_t src_size, const int32_t *col_first, const int32_t *col_second,
                       const int32_t *col_fraction, int32_t width, int32_t col_largest, const int64_t *row_first,
                       const int64_t *row_second, const int32_t *row_fraction, int32_t y0, int32_t y1, int32_t c0, int32_t c1,
                       int32_t c2, int as_float, const float scale[3], const float offset[3], void *out) {
  if (!src || !col_first || !col_second || !col_fraction || !row_first || !row_second || !row_fraction || !scale || !offset || !out ||
      width < 1 || y0 < 0 || y1 < y0 || c0 < 0 || c0 > 3 || c1 < 0 || c1 > 3 || c2 < 0 || c2 > 3)
    return y0;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2"))
    return sample_rows_avx2(src, src_size, col_first, col_second, col_fraction, width, col_largest, row_first, row_second, row_fraction, y0, y1, c0,
                            c1, c2, as_float, scale, offset, out);
#endif
  return y0;
}
