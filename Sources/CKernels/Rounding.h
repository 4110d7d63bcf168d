// Internal: float → int32 rounding to nearest-even, inline (no libm call, no errno), as x86's
// cvtss2si does it in the default rounding mode: callers keep the value within int32's range.
#ifndef VISIONTASKS_CKERNELS_ROUNDING_H
#define VISIONTASKS_CKERNELS_ROUNDING_H

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
static inline __attribute__((always_inline)) int32_t vt_round_even(float v) { return _mm_cvtss_si32(_mm_set_ss(v)); }
#else
static inline __attribute__((always_inline)) int32_t vt_round_even(float v) { return (int32_t)__builtin_rintf(v); }
#endif

#endif
