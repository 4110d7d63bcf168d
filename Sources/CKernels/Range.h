// Internal: the range a hybrid depthwise op's input quantizer takes (TFLite's AsymmetricQuantizeFloats:
// a running minimum and maximum that start at 0), shared by that kernel and by the 1×1 kernel when it
// produces such an op's input. `v < lo ? v : lo` never lets a NaN in and an equal value (±0) never
// replaces the running one, so every split of the values, in any order, gives the same two floats.
#ifndef VISIONTASKS_CKERNELS_RANGE_H
#define VISIONTASKS_CKERNELS_RANGE_H

#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/// Extends [*lo, *hi] (start both at 0) with the n values at x.
static inline __attribute__((always_inline)) void vt_range_extend_plain(const float *x, size_t n, float *lo, float *hi) {
  float rmin = *lo, rmax = *hi;
  for (size_t i = 0; i < n; i++) {
    const float v = x[i];
    rmin = v < rmin ? v : rmin;
    rmax = v > rmax ? v : rmax;
  }
  *lo = rmin;
  *hi = rmax;
}

#if defined(__x86_64__) || defined(__i386__)
/// The same, eight lanes at a time in four independent pairs of running vectors (vminps/vmaxps with
/// the running value second: a NaN lane keeps it), so that the loop is not bound by their latency.
__attribute__((target("avx2"))) static inline void vt_range_extend_avx2(const float *x, size_t n, float *lo, float *hi) {
  const size_t vec_end = n / 32 * 32;
  __m256 vmin[4], vmax[4];
  for (int k = 0; k < 4; k++) {
    vmin[k] = _mm256_set1_ps(*lo);
    vmax[k] = _mm256_set1_ps(*hi);
  }
  for (size_t i = 0; i < vec_end; i += 32)
    for (int k = 0; k < 4; k++) {
      const __m256 v = _mm256_loadu_ps(x + i + 8 * k);
      vmin[k] = _mm256_min_ps(v, vmin[k]);
      vmax[k] = _mm256_max_ps(v, vmax[k]);
    }
  float mins[32], maxs[32];
  for (int k = 0; k < 4; k++) {
    _mm256_storeu_ps(mins + 8 * k, vmin[k]);
    _mm256_storeu_ps(maxs + 8 * k, vmax[k]);
  }
  float rmin = *lo, rmax = *hi;
  for (int k = 0; k < 32; k++) {
    rmin = mins[k] < rmin ? mins[k] : rmin;
    rmax = maxs[k] > rmax ? maxs[k] : rmax;
  }
  vt_range_extend_plain(x + vec_end, n - vec_end, &rmin, &rmax);
  *lo = rmin;
  *hi = rmax;
}

/// The same with sixteen lanes (AVX-512F).
__attribute__((target("avx512f"))) static inline void vt_range_extend_avx512(const float *x, size_t n, float *lo, float *hi) {
  const size_t vec_end = n / 64 * 64;
  __m512 vmin[4], vmax[4];
  for (int k = 0; k < 4; k++) {
    vmin[k] = _mm512_set1_ps(*lo);
    vmax[k] = _mm512_set1_ps(*hi);
  }
  for (size_t i = 0; i < vec_end; i += 64)
    for (int k = 0; k < 4; k++) {
      const __m512 v = _mm512_loadu_ps(x + i + 16 * k);
      vmin[k] = _mm512_min_ps(v, vmin[k]);
      vmax[k] = _mm512_max_ps(v, vmax[k]);
    }
  float mins[64], maxs[64];
  for (int k = 0; k < 4; k++) {
    _mm512_storeu_ps(mins + 16 * k, vmin[k]);
    _mm512_storeu_ps(maxs + 16 * k, vmax[k]);
  }
  float rmin = *lo, rmax = *hi;
  for (int k = 0; k < 64; k++) {
    rmin = mins[k] < rmin ? mins[k] : rmin;
    rmax = maxs[k] > rmax ? maxs[k] : rmax;
  }
  vt_range_extend_plain(x + vec_end, n - vec_end, &rmin, &rmax);
  *lo = rmin;
  *hi = rmax;
}
#endif

#endif
