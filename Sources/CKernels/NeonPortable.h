// Internal: the aarch64 NEON intrinsics the NEON kernels use, each computed in portable C exactly as
// its instruction computes it (Arm's pseudocode: lanes, wrap-around, saturation, rounding), so that
// a NEON kernel's source compiles and runs on x86-64 and its arithmetic is tested there bit for bit.
// Included only where <arm_neon.h> is not; the names and types are arm_neon.h's.
#ifndef VISIONTASKS_CKERNELS_NEON_PORTABLE_H
#define VISIONTASKS_CKERNELS_NEON_PORTABLE_H

#if defined(__aarch64__)
#error "NeonPortable.h stands in for <arm_neon.h> where NEON is not: include <arm_neon.h> on aarch64"
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct { uint8_t v[16]; } uint8x16_t;
typedef struct { int8_t v[16]; } int8x16_t;
typedef struct { uint8_t v[8]; } uint8x8_t;
typedef struct { int8_t v[8]; } int8x8_t;
typedef struct { int16_t v[8]; } int16x8_t;
typedef struct { int16_t v[4]; } int16x4_t;
typedef struct { uint32_t v[2]; } uint32x2_t;
typedef struct { uint32_t v[4]; } uint32x4_t;
typedef struct { int32_t v[4]; } int32x4_t;
typedef struct { float v[4]; } float32x4_t;
typedef struct { uint16_t v[8]; } uint16x8_t;

#define VTN_INLINE static inline __attribute__((always_inline))

// Loads, stores, broadcasts, reinterpretations.
VTN_INLINE uint8x16_t vld1q_u8(const uint8_t *p) { uint8x16_t r; memcpy(r.v, p, 16); return r; }
VTN_INLINE uint8x8_t vld1_u8(const uint8_t *p) { uint8x8_t r; memcpy(r.v, p, 8); return r; }
VTN_INLINE uint32x4_t vld1q_u32(const uint32_t *p) { uint32x4_t r; memcpy(r.v, p, 16); return r; }
VTN_INLINE float32x4_t vld1q_f32(const float *p) { float32x4_t r; memcpy(r.v, p, 16); return r; }
VTN_INLINE void vst1q_u8(uint8_t *p, uint8x16_t a) { memcpy(p, a.v, 16); }
VTN_INLINE void vst1q_s8(int8_t *p, int8x16_t a) { memcpy(p, a.v, 16); }
VTN_INLINE uint8x16_t vdupq_n_u8(uint8_t x) { uint8x16_t r; for (int i = 0; i < 16; i++) r.v[i] = x; return r; }
VTN_INLINE int8x16_t vdupq_n_s8(int8_t x) { int8x16_t r; for (int i = 0; i < 16; i++) r.v[i] = x; return r; }
VTN_INLINE int16x8_t vdupq_n_s16(int16_t x) { int16x8_t r; for (int i = 0; i < 8; i++) r.v[i] = x; return r; }
VTN_INLINE uint32x4_t vdupq_n_u32(uint32_t x) { uint32x4_t r; for (int i = 0; i < 4; i++) r.v[i] = x; return r; }
VTN_INLINE int32x4_t vdupq_n_s32(int32_t x) { int32x4_t r; for (int i = 0; i < 4; i++) r.v[i] = x; return r; }
VTN_INLINE int32x4_t vreinterpretq_s32_u32(uint32x4_t a) { int32x4_t r; memcpy(r.v, a.v, 16); return r; }
VTN_INLINE uint8x16_t vreinterpretq_u8_u32(uint32x4_t a) { uint8x16_t r; memcpy(r.v, a.v, 16); return r; }
VTN_INLINE uint32x2_t vdup_n_u32(uint32_t x) { uint32x2_t r = {{x, x}}; return r; }
VTN_INLINE uint8x8_t vreinterpret_u8_u32(uint32x2_t a) { uint8x8_t r; memcpy(r.v, a.v, 8); return r; }

VTN_INLINE int32x4_t vld1q_s32(const int32_t *p) { int32x4_t r; memcpy(r.v, p, 16); return r; }
VTN_INLINE int16x8_t vld1q_s16(const int16_t *p) { int16x8_t r; memcpy(r.v, p, 16); return r; }
VTN_INLINE int8x16_t vld1q_s8(const int8_t *p) { int8x16_t r; memcpy(r.v, p, 16); return r; }
VTN_INLINE uint8x8_t vdup_n_u8(uint8_t x) { uint8x8_t r; for (int i = 0; i < 8; i++) r.v[i] = x; return r; }
VTN_INLINE int8x8_t vdup_n_s8(int8_t x) { int8x8_t r; for (int i = 0; i < 8; i++) r.v[i] = x; return r; }
VTN_INLINE uint8x8_t vget_low_u8(uint8x16_t a) { uint8x8_t r; memcpy(r.v, a.v, 8); return r; }
VTN_INLINE int8x8_t vget_low_s8(int8x16_t a) { int8x8_t r; memcpy(r.v, a.v, 8); return r; }
VTN_INLINE int16x4_t vget_low_s16(int16x8_t a) { int16x4_t r; memcpy(r.v, a.v, 8); return r; }
VTN_INLINE int16x8_t vreinterpretq_s16_u16(uint16x8_t a) { int16x8_t r; memcpy(r.v, a.v, 16); return r; }
VTN_INLINE int8x16_t vreinterpretq_s8_u8(uint8x16_t a) { int8x16_t r; memcpy(r.v, a.v, 16); return r; }
VTN_INLINE uint8x16_t vreinterpretq_u8_s8(int8x16_t a) { uint8x16_t r; memcpy(r.v, a.v, 16); return r; }

// Integer arithmetic.
// usubl / usubl2: u8 − u8 widened to u16 (wrapping mod 2^16); ssubl / ssubl2: s8 − s8 widened to s16.
VTN_INLINE uint16x8_t vsubl_u8(uint8x8_t a, uint8x8_t b) { uint16x8_t r; for (int i = 0; i < 8; i++) r.v[i] = (uint16_t)(a.v[i] - b.v[i]); return r; }
VTN_INLINE uint16x8_t vsubl_high_u8(uint8x16_t a, uint8x16_t b) {
  uint16x8_t r;
  for (int i = 0; i < 8; i++) r.v[i] = (uint16_t)(a.v[8 + i] - b.v[8 + i]);
  return r;
}
VTN_INLINE int16x8_t vsubl_s8(int8x8_t a, int8x8_t b) { int16x8_t r; for (int i = 0; i < 8; i++) r.v[i] = (int16_t)(a.v[i] - b.v[i]); return r; }
VTN_INLINE int16x8_t vsubl_high_s8(int8x16_t a, int8x16_t b) {
  int16x8_t r;
  for (int i = 0; i < 8; i++) r.v[i] = (int16_t)(a.v[8 + i] - b.v[8 + i]);
  return r;
}
// smlal / smlal2: int16 products added to int32 lanes, wrapping.
VTN_INLINE int32x4_t vmlal_s16(int32x4_t acc, int16x4_t a, int16x4_t b) {
  for (int i = 0; i < 4; i++) acc.v[i] = (int32_t)((uint32_t)acc.v[i] + (uint32_t)((int32_t)a.v[i] * b.v[i]));
  return acc;
}
VTN_INLINE int32x4_t vmlal_high_s16(int32x4_t acc, int16x8_t a, int16x8_t b) {
  for (int i = 0; i < 4; i++) acc.v[i] = (int32_t)((uint32_t)acc.v[i] + (uint32_t)((int32_t)a.v[4 + i] * b.v[4 + i]));
  return acc;
}
// sshl (register): each lane shifted by the signed low byte of b's lane, left wrapping, right truncating.
VTN_INLINE int32x4_t vshlq_s32(int32x4_t a, int32x4_t b) {
  for (int i = 0; i < 4; i++) {
    const int n = (int8_t)(b.v[i] & 0xFF);
    if (n >= 0) a.v[i] = n >= 32 ? 0 : (int32_t)((uint32_t)a.v[i] << n);
    else a.v[i] = (int32_t)((int64_t)a.v[i] >> (-n > 63 ? 63 : -n));
  }
  return a;
}
VTN_INLINE uint32x4_t vaddq_u32(uint32x4_t a, uint32x4_t b) { for (int i = 0; i < 4; i++) a.v[i] += b.v[i]; return a; }
VTN_INLINE uint32_t vaddvq_u32(uint32x4_t a) { return a.v[0] + a.v[1] + a.v[2] + a.v[3]; }
// udot (by element): b's bytes 4·lane…4·lane+3 for every lane of a.
VTN_INLINE uint32x4_t vtn_udot_lane(uint32x4_t acc, uint8x16_t a, uint8x16_t b, int lane) {
  for (int i = 0; i < 4; i++)
    for (int t = 0; t < 4; t++) acc.v[i] += (uint32_t)a.v[4 * i + t] * (uint32_t)b.v[4 * lane + t];
  return acc;
}
#define vdotq_laneq_u32(acc, a, b, lane) vtn_udot_lane((acc), (a), (b), (lane))

VTN_INLINE int32_t vtn_sat32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }
VTN_INLINE int16_t vtn_sat16(int32_t v) { return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }
// uaddlp: adjacent u8 lanes added into u16.
VTN_INLINE uint16x8_t vpaddlq_u8(uint8x16_t a) {
  uint16x8_t r;
  for (int i = 0; i < 8; i++) r.v[i] = (uint16_t)(a.v[2 * i] + a.v[2 * i + 1]);
  return r;
}
// umull / umull2: u8 × u8 products widened to u16 (exact: at most 65,025).
VTN_INLINE uint16x8_t vmull_u8(uint8x8_t a, uint8x8_t b) {
  uint16x8_t r;
  for (int i = 0; i < 8; i++) r.v[i] = (uint16_t)(a.v[i] * b.v[i]);
  return r;
}
// uadalp: each u32 lane plus the two u16 lanes of b it covers, wrapping.
VTN_INLINE uint32x4_t vpadalq_u16(uint32x4_t acc, uint16x8_t b) {
  for (int i = 0; i < 4; i++) acc.v[i] += (uint32_t)b.v[2 * i] + (uint32_t)b.v[2 * i + 1];
  return acc;
}
// addp: adjacent lanes of a, then of b, added.
VTN_INLINE uint32x4_t vpaddq_u32(uint32x4_t a, uint32x4_t b) {
  uint32x4_t r = {{a.v[0] + a.v[1], a.v[2] + a.v[3], b.v[0] + b.v[1], b.v[2] + b.v[3]}};
  return r;
}
// sqrshl (register): each lane shifted by the signed low byte of b's lane, left with saturation, right
// (negative) rounding half up.
VTN_INLINE int32x4_t vqrshlq_s32(int32x4_t a, int32x4_t b) {
  for (int i = 0; i < 4; i++) {
    const int n = (int8_t)(b.v[i] & 0xFF);
    if (n >= 0) a.v[i] = vtn_sat32((int64_t)a.v[i] * ((int64_t)1 << (n > 32 ? 32 : n)));
    else a.v[i] = (int32_t)(((int64_t)a.v[i] + ((int64_t)1 << (-n - 1 > 62 ? 62 : -n - 1))) >> (-n > 63 ? 63 : -n));
  }
  return a;
}
// sqrdmulh (.8h): the high half of 2·a·b + 2^15, saturated (only −2^15 · −2^15 saturates).
VTN_INLINE int16x8_t vqrdmulhq_s16(int16x8_t a, int16x8_t b) {
  for (int i = 0; i < 8; i++) a.v[i] = vtn_sat16((int32_t)((2 * (int64_t)a.v[i] * b.v[i] + (1 << 15)) >> 16));
  return a;
}
// sqshl (register): each lane shifted by the signed low byte of b's lane, left with saturation,
// right (negative) truncating.
VTN_INLINE int32x4_t vqshlq_s32(int32x4_t a, int32x4_t b) {
  for (int i = 0; i < 4; i++) {
    const int n = (int8_t)(b.v[i] & 0xFF);
    if (n >= 0) a.v[i] = n >= 32 ? (a.v[i] == 0 ? 0 : a.v[i] > 0 ? INT32_MAX : INT32_MIN) : vtn_sat32((int64_t)a.v[i] * ((int64_t)1 << n));
    else a.v[i] = (int32_t)((int64_t)a.v[i] >> (-n > 63 ? 63 : -n));
  }
  return a;
}
// sqdmulh: the high half of 2·a·b (rounded down), saturated.
VTN_INLINE int32x4_t vqdmulhq_s32(int32x4_t a, int32x4_t b) {
  for (int i = 0; i < 4; i++)
    a.v[i] = (a.v[i] == INT32_MIN && b.v[i] == INT32_MIN) ? INT32_MAX : (int32_t)(((int64_t)a.v[i] * (int64_t)b.v[i] * 2) >> 32);
  return a;
}
// srshl: each lane shifted by the signed low byte of b's lane, left wrapping, right (negative) with
// rounding half up, without overflow.
VTN_INLINE int32x4_t vrshlq_s32(int32x4_t a, int32x4_t b) {
  for (int i = 0; i < 4; i++) {
    const int n = (int8_t)(b.v[i] & 0xFF);
    if (n >= 0) a.v[i] = n >= 32 ? 0 : (int32_t)((uint32_t)a.v[i] << n);
    else {
      const int s = -n > 64 ? 64 : -n;
      const __int128 x = (__int128)a.v[i] + ((__int128)1 << (s - 1));
      a.v[i] = (int32_t)(x >> s);
    }
  }
  return a;
}
// sqxtn / sqxtn2: int32 lanes to int16 with saturation (the high form fills the upper half).
VTN_INLINE int16x4_t vqmovn_s32(int32x4_t a) { int16x4_t r; for (int i = 0; i < 4; i++) r.v[i] = vtn_sat16(a.v[i]); return r; }
VTN_INLINE int16x8_t vqmovn_high_s32(int16x4_t low, int32x4_t a) {
  int16x8_t r;
  for (int i = 0; i < 4; i++) r.v[i] = low.v[i], r.v[4 + i] = vtn_sat16(a.v[i]);
  return r;
}
// sqadd: int16 lanes added with saturation.
VTN_INLINE int16x8_t vqaddq_s16(int16x8_t a, int16x8_t b) { for (int i = 0; i < 8; i++) a.v[i] = vtn_sat16(a.v[i] + b.v[i]); return a; }
// sqxtun / sqxtun2: int16 lanes to uint8 with saturation.
VTN_INLINE uint8_t vtn_satu8(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
VTN_INLINE uint8x8_t vqmovun_s16(int16x8_t a) { uint8x8_t r; for (int i = 0; i < 8; i++) r.v[i] = vtn_satu8(a.v[i]); return r; }
VTN_INLINE uint8x16_t vqmovun_high_s16(uint8x8_t low, int16x8_t a) {
  uint8x16_t r;
  for (int i = 0; i < 8; i++) r.v[i] = low.v[i], r.v[8 + i] = vtn_satu8(a.v[i]);
  return r;
}
// sqxtn / sqxtn2: int16 lanes to int8 with saturation.
VTN_INLINE int8_t vtn_sat8(int32_t v) { return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v); }
VTN_INLINE int8x8_t vqmovn_s16(int16x8_t a) { int8x8_t r; for (int i = 0; i < 8; i++) r.v[i] = vtn_sat8(a.v[i]); return r; }
VTN_INLINE int8x16_t vqmovn_high_s16(int8x8_t low, int16x8_t a) {
  int8x16_t r;
  for (int i = 0; i < 8; i++) r.v[i] = low.v[i], r.v[8 + i] = vtn_sat8(a.v[i]);
  return r;
}
VTN_INLINE uint8x16_t vmaxq_u8(uint8x16_t a, uint8x16_t b) { for (int i = 0; i < 16; i++) a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i]; return a; }
VTN_INLINE uint8x16_t vminq_u8(uint8x16_t a, uint8x16_t b) { for (int i = 0; i < 16; i++) a.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i]; return a; }
VTN_INLINE int8x16_t vmaxq_s8(int8x16_t a, int8x16_t b) { for (int i = 0; i < 16; i++) a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i]; return a; }
VTN_INLINE int8x16_t vminq_s8(int8x16_t a, int8x16_t b) { for (int i = 0; i < 16; i++) a.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i]; return a; }

// Float: scvtf (round to nearest-even), fmul, fcvtns (round to nearest, ties to even, saturating;
// NaN gives 0).
VTN_INLINE float32x4_t vcvtq_f32_s32(int32x4_t a) { float32x4_t r; for (int i = 0; i < 4; i++) r.v[i] = (float)a.v[i]; return r; }
VTN_INLINE float32x4_t vmulq_f32(float32x4_t a, float32x4_t b) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] * b.v[i]; return a; }
VTN_INLINE int32x4_t vcvtnq_s32_f32(float32x4_t a) {
  int32x4_t r;
  for (int i = 0; i < 4; i++) {
    const float x = a.v[i];
    r.v[i] = x != x ? 0 : x >= 2147483648.0f ? INT32_MAX : x < -2147483648.0f ? INT32_MIN : (int32_t)nearbyintf(x);
  }
  return r;
}

#undef VTN_INLINE

#endif
