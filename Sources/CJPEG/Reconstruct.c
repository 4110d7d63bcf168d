// The pixels of a JPEG from its coefficients, exactly as MediaPipe's decoder makes them
// (the Compatibility article): MediaPipe 1.2.2's x86-64 wheel builds stb_image with its SSE2 kernels, so
// the inverse DCT here has their arithmetic — dequantization with a 16-bit product, 12-bit constants
// combined in pairs, the sums r0±r4, r1+r7, r3+r5 wrapped to 16 bits and each pass's output saturated
// to 16 bits — then stb's chroma upsampling (triangle filter, +2/+8 rounding; nearest neighbour for
// unusual factors) and its YCbCr→RGB conversion (20-bit fixed point, equal for every input to its
// 16-bit SIMD form), CMYK and YCCK with its x·y/255.
//
// Every step is written in portable C (the definition, run on any CPU and by the tests), with SSE2
// (x86-64's baseline) and with NEON (aarch64's baseline), each SIMD form the same arithmetic lane by
// lane. The tests check them bit for bit against the portable C: every 8×8 block kind, random and
// extreme coefficient blocks, all 2^24 colours, and whole pictures of every sampling (the NEON form
// under qemu-aarch64, `make arm64`).
#include "CJPEG.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define VT_JPEG_SSE2 1
#else
#define VT_JPEG_SSE2 0
#endif
#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define VT_JPEG_NEON 1
#else
#define VT_JPEG_NEON 0
#endif
#define VT_JPEG_SIMD (VT_JPEG_SSE2 || VT_JPEG_NEON)

typedef struct {
  uint8_t* pixels;
  int stride, width, height;  // stride = blocks × 8; width/height of the component's samples
  int hs, vs;                 // upsampling factors to full size
} plane;

static inline int16_t wrap16(uint32_t x) { return (int16_t)(uint16_t)x; }
static inline int16_t sat16(int32_t x) { return (int16_t)(x < -32768 ? -32768 : x > 32767 ? 32767 : x); }
static inline uint8_t clamp8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v; }

// The 12-bit constants (x · 4096 rounded) of the 1-D transform, as the SIMD form pairs them:
// even part (k0, k0+k1), (k0+k2, k0); odd part (k4+k10, k10), (k10, k6+k10), (k5+k11, k11),
// (k11, k7+k11), (k8+k3, k3), (k3, k3+k9).
enum {
  kE1a = 2217, kE1b = -5350, kE2a = 5352, kE2b = 2217,
  kO0a = -6811, kO0b = -8034, kO2a = -8034, kO2b = 4552,
  kO1a = 6813, kO1b = -1597, kO3a = -1597, kO3b = 4552,
  kO4a = 1131, kO4b = 4816, kO5a = 4816, kO5b = -5681,
};
#define BIAS1 512u
#define SHIFT1 10
#define BIAS2 (65536u + (128u << 17))
#define SHIFT2 17

// ---- Inverse DCT, portable ----

// One 1-D pass on s[0…7] (every s[i] at s[i · step]): 32-bit wrapping arithmetic, outputs shifted and
// saturated to 16 bits, written at o[i · step].
static void idct_pass(const int16_t* s, int step, int16_t* o, uint32_t bias, int shift) {
  const int32_t r0 = s[0], r1 = s[step], r2 = s[2 * step], r3 = s[3 * step], r4 = s[4 * step], r5 = s[5 * step], r6 = s[6 * step],
                r7 = s[7 * step];
  const uint32_t t2e = (uint32_t)(r2 * kE1a) + (uint32_t)(r6 * kE1b), t3e = (uint32_t)(r2 * kE2a) + (uint32_t)(r6 * kE2b);
  const uint32_t t0e = (uint32_t)(int32_t)wrap16((uint32_t)(r0 + r4)) * 4096u, t1e = (uint32_t)(int32_t)wrap16((uint32_t)(r0 - r4)) * 4096u;
  const uint32_t x0 = t0e + t3e, x3 = t0e - t3e, x1 = t1e + t2e, x2 = t1e - t2e;
  const int32_t s17 = wrap16((uint32_t)(r1 + r7)), s35 = wrap16((uint32_t)(r3 + r5));
  const uint32_t y0 = (uint32_t)(r7 * kO0a) + (uint32_t)(r3 * kO0b), y2 = (uint32_t)(r7 * kO2a) + (uint32_t)(r3 * kO2b);
  const uint32_t y1 = (uint32_t)(r5 * kO1a) + (uint32_t)(r1 * kO1b), y3 = (uint32_t)(r5 * kO3a) + (uint32_t)(r1 * kO3b);
  const uint32_t y4 = (uint32_t)(s17 * kO4a) + (uint32_t)(s35 * kO4b), y5 = (uint32_t)(s17 * kO5a) + (uint32_t)(s35 * kO5b);
  const uint32_t t0 = y0 + y4, t1 = y1 + y5, t2 = y2 + y5, t3 = y3 + y4;
#define OUT(i, v) o[(i) * step] = sat16((int32_t)(v) >> shift)
  OUT(0, x0 + bias + t3);
  OUT(7, x0 + bias - t3);
  OUT(1, x1 + bias + t2);
  OUT(6, x1 + bias - t2);
  OUT(2, x2 + bias + t1);
  OUT(5, x2 + bias - t1);
  OUT(3, x3 + bias + t0);
  OUT(4, x3 + bias - t0);
#undef OUT
}

static void idct_block_portable(const int16_t* coef, const uint16_t* quant, uint8_t* out, int stride) {
  int16_t d[64], v[64], p[64];
  for (int i = 0; i < 64; i++) d[i] = wrap16((uint32_t)(int32_t)coef[i] * (uint32_t)quant[i]);
  for (int i = 0; i < 8; i++) idct_pass(d + i, 8, v + i, BIAS1, SHIFT1);  // columns
  for (int r = 0; r < 8; r++) idct_pass(v + r * 8, 1, p + r * 8, BIAS2, SHIFT2);  // rows
  for (int r = 0; r < 8; r++)
    for (int x = 0; x < 8; x++) out[(size_t)r * (size_t)stride + (size_t)x] = clamp8(p[r * 8 + x]);
}

// ---- Inverse DCT, SSE2: eight lanes of the pass above at once ----
#if VT_JPEG_SSE2
// a·ka + b·kb per lane, in 32 bits: the low and the high four lanes.
static inline void madd_pair(__m128i a, __m128i b, int16_t ka, int16_t kb, __m128i* lo, __m128i* hi) {
  const __m128i k = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)kb << 16) | (uint16_t)ka));
  *lo = _mm_madd_epi16(_mm_unpacklo_epi16(a, b), k);
  *hi = _mm_madd_epi16(_mm_unpackhi_epi16(a, b), k);
}

// x · 4096 in 32 bits, sign extended.
static inline void times4096(__m128i x, __m128i* lo, __m128i* hi) {
  *lo = _mm_srai_epi32(_mm_unpacklo_epi16(_mm_setzero_si128(), x), 4);
  *hi = _mm_srai_epi32(_mm_unpackhi_epi16(_mm_setzero_si128(), x), 4);
}

static inline void idct_pass_sse2(__m128i r[8], uint32_t bias, int shift) {
  const __m128i b = _mm_set1_epi32((int32_t)bias), count = _mm_cvtsi32_si128(shift);
  __m128i t2l, t2h, t3l, t3h, t0l, t0h, t1l, t1h;
  madd_pair(r[2], r[6], kE1a, kE1b, &t2l, &t2h);
  madd_pair(r[2], r[6], kE2a, kE2b, &t3l, &t3h);
  times4096(_mm_add_epi16(r[0], r[4]), &t0l, &t0h);
  times4096(_mm_sub_epi16(r[0], r[4]), &t1l, &t1h);
  __m128i xl[4] = {_mm_add_epi32(t0l, t3l), _mm_add_epi32(t1l, t2l), _mm_sub_epi32(t1l, t2l), _mm_sub_epi32(t0l, t3l)};
  __m128i xh[4] = {_mm_add_epi32(t0h, t3h), _mm_add_epi32(t1h, t2h), _mm_sub_epi32(t1h, t2h), _mm_sub_epi32(t0h, t3h)};
  const __m128i s17 = _mm_add_epi16(r[1], r[7]), s35 = _mm_add_epi16(r[3], r[5]);
  __m128i y0l, y0h, y1l, y1h, y2l, y2h, y3l, y3h, y4l, y4h, y5l, y5h;
  madd_pair(r[7], r[3], kO0a, kO0b, &y0l, &y0h);
  madd_pair(r[7], r[3], kO2a, kO2b, &y2l, &y2h);
  madd_pair(r[5], r[1], kO1a, kO1b, &y1l, &y1h);
  madd_pair(r[5], r[1], kO3a, kO3b, &y3l, &y3h);
  madd_pair(s17, s35, kO4a, kO4b, &y4l, &y4h);
  madd_pair(s17, s35, kO5a, kO5b, &y5l, &y5h);
  // t3, t2, t1, t0 — the odd term paired with x0, x1, x2, x3.
  const __m128i tl[4] = {_mm_add_epi32(y3l, y4l), _mm_add_epi32(y2l, y5l), _mm_add_epi32(y1l, y5l), _mm_add_epi32(y0l, y4l)};
  const __m128i th[4] = {_mm_add_epi32(y3h, y4h), _mm_add_epi32(y2h, y5h), _mm_add_epi32(y1h, y5h), _mm_add_epi32(y0h, y4h)};
  for (int i = 0; i < 4; i++) {
    const __m128i al = _mm_add_epi32(xl[i], b), ah = _mm_add_epi32(xh[i], b);
    r[i] = _mm_packs_epi32(_mm_sra_epi32(_mm_add_epi32(al, tl[i]), count), _mm_sra_epi32(_mm_add_epi32(ah, th[i]), count));
    r[7 - i] = _mm_packs_epi32(_mm_sra_epi32(_mm_sub_epi32(al, tl[i]), count), _mm_sra_epi32(_mm_sub_epi32(ah, th[i]), count));
  }
}

static inline void transpose8x16(__m128i r[8]) {
  const __m128i a0 = _mm_unpacklo_epi16(r[0], r[1]), a1 = _mm_unpackhi_epi16(r[0], r[1]);
  const __m128i a2 = _mm_unpacklo_epi16(r[2], r[3]), a3 = _mm_unpackhi_epi16(r[2], r[3]);
  const __m128i a4 = _mm_unpacklo_epi16(r[4], r[5]), a5 = _mm_unpackhi_epi16(r[4], r[5]);
  const __m128i a6 = _mm_unpacklo_epi16(r[6], r[7]), a7 = _mm_unpackhi_epi16(r[6], r[7]);
  const __m128i b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2);
  const __m128i b2 = _mm_unpacklo_epi32(a1, a3), b3 = _mm_unpackhi_epi32(a1, a3);
  const __m128i b4 = _mm_unpacklo_epi32(a4, a6), b5 = _mm_unpackhi_epi32(a4, a6);
  const __m128i b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7);
  r[0] = _mm_unpacklo_epi64(b0, b4);
  r[1] = _mm_unpackhi_epi64(b0, b4);
  r[2] = _mm_unpacklo_epi64(b1, b5);
  r[3] = _mm_unpackhi_epi64(b1, b5);
  r[4] = _mm_unpacklo_epi64(b2, b6);
  r[5] = _mm_unpackhi_epi64(b2, b6);
  r[6] = _mm_unpacklo_epi64(b3, b7);
  r[7] = _mm_unpackhi_epi64(b3, b7);
}

static void idct_block_sse2(const int16_t* coef, const uint16_t* quant, uint8_t* out, int stride) {
  __m128i r[8];
  for (int i = 0; i < 8; i++)
    r[i] = _mm_mullo_epi16(_mm_loadu_si128((const __m128i*)(coef + i * 8)), _mm_loadu_si128((const __m128i*)(quant + i * 8)));
  idct_pass_sse2(r, BIAS1, SHIFT1);
  transpose8x16(r);
  idct_pass_sse2(r, BIAS2, SHIFT2);
  transpose8x16(r);
  for (int i = 0; i < 8; i++) _mm_storel_epi64((__m128i*)(out + (size_t)i * (size_t)stride), _mm_packus_epi16(r[i], r[i]));
}
#endif

// ---- Inverse DCT, AVX2: two blocks at once, one in each 128-bit half ----
// Every AVX2 instruction used works within each half exactly as its SSE2 form above, so each half is
// that block's SSE2 computation, bit for bit.
#if VT_JPEG_SSE2 && defined(__x86_64__)
#include <immintrin.h>
#define VT_AVX2 __attribute__((target("avx2")))
VT_AVX2 static inline void madd_pair2(__m256i a, __m256i b, int16_t ka, int16_t kb, __m256i* lo, __m256i* hi) {
  const __m256i k = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)kb << 16) | (uint16_t)ka));
  *lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), k);
  *hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), k);
}

VT_AVX2 static inline void times4096_2(__m256i x, __m256i* lo, __m256i* hi) {
  *lo = _mm256_srai_epi32(_mm256_unpacklo_epi16(_mm256_setzero_si256(), x), 4);
  *hi = _mm256_srai_epi32(_mm256_unpackhi_epi16(_mm256_setzero_si256(), x), 4);
}

VT_AVX2 static inline void idct_pass_avx2(__m256i r[8], uint32_t bias, int shift) {
  const __m256i b = _mm256_set1_epi32((int32_t)bias);
  const __m128i count = _mm_cvtsi32_si128(shift);
  __m256i t2l, t2h, t3l, t3h, t0l, t0h, t1l, t1h;
  madd_pair2(r[2], r[6], kE1a, kE1b, &t2l, &t2h);
  madd_pair2(r[2], r[6], kE2a, kE2b, &t3l, &t3h);
  times4096_2(_mm256_add_epi16(r[0], r[4]), &t0l, &t0h);
  times4096_2(_mm256_sub_epi16(r[0], r[4]), &t1l, &t1h);
  __m256i xl[4] = {_mm256_add_epi32(t0l, t3l), _mm256_add_epi32(t1l, t2l), _mm256_sub_epi32(t1l, t2l), _mm256_sub_epi32(t0l, t3l)};
  __m256i xh[4] = {_mm256_add_epi32(t0h, t3h), _mm256_add_epi32(t1h, t2h), _mm256_sub_epi32(t1h, t2h), _mm256_sub_epi32(t0h, t3h)};
  const __m256i s17 = _mm256_add_epi16(r[1], r[7]), s35 = _mm256_add_epi16(r[3], r[5]);
  __m256i y0l, y0h, y1l, y1h, y2l, y2h, y3l, y3h, y4l, y4h, y5l, y5h;
  madd_pair2(r[7], r[3], kO0a, kO0b, &y0l, &y0h);
  madd_pair2(r[7], r[3], kO2a, kO2b, &y2l, &y2h);
  madd_pair2(r[5], r[1], kO1a, kO1b, &y1l, &y1h);
  madd_pair2(r[5], r[1], kO3a, kO3b, &y3l, &y3h);
  madd_pair2(s17, s35, kO4a, kO4b, &y4l, &y4h);
  madd_pair2(s17, s35, kO5a, kO5b, &y5l, &y5h);
  const __m256i tl[4] = {_mm256_add_epi32(y3l, y4l), _mm256_add_epi32(y2l, y5l), _mm256_add_epi32(y1l, y5l), _mm256_add_epi32(y0l, y4l)};
  const __m256i th[4] = {_mm256_add_epi32(y3h, y4h), _mm256_add_epi32(y2h, y5h), _mm256_add_epi32(y1h, y5h), _mm256_add_epi32(y0h, y4h)};
  for (int i = 0; i < 4; i++) {
    const __m256i al = _mm256_add_epi32(xl[i], b), ah = _mm256_add_epi32(xh[i], b);
    r[i] = _mm256_packs_epi32(_mm256_sra_epi32(_mm256_add_epi32(al, tl[i]), count), _mm256_sra_epi32(_mm256_add_epi32(ah, th[i]), count));
    r[7 - i] = _mm256_packs_epi32(_mm256_sra_epi32(_mm256_sub_epi32(al, tl[i]), count), _mm256_sra_epi32(_mm256_sub_epi32(ah, th[i]), count));
  }
}

VT_AVX2 static inline void transpose8x16_2(__m256i r[8]) {
  const __m256i a0 = _mm256_unpacklo_epi16(r[0], r[1]), a1 = _mm256_unpackhi_epi16(r[0], r[1]);
  const __m256i a2 = _mm256_unpacklo_epi16(r[2], r[3]), a3 = _mm256_unpackhi_epi16(r[2], r[3]);
  const __m256i a4 = _mm256_unpacklo_epi16(r[4], r[5]), a5 = _mm256_unpackhi_epi16(r[4], r[5]);
  const __m256i a6 = _mm256_unpacklo_epi16(r[6], r[7]), a7 = _mm256_unpackhi_epi16(r[6], r[7]);
  const __m256i b0 = _mm256_unpacklo_epi32(a0, a2), b1 = _mm256_unpackhi_epi32(a0, a2);
  const __m256i b2 = _mm256_unpacklo_epi32(a1, a3), b3 = _mm256_unpackhi_epi32(a1, a3);
  const __m256i b4 = _mm256_unpacklo_epi32(a4, a6), b5 = _mm256_unpackhi_epi32(a4, a6);
  const __m256i b6 = _mm256_unpacklo_epi32(a5, a7), b7 = _mm256_unpackhi_epi32(a5, a7);
  r[0] = _mm256_unpacklo_epi64(b0, b4);
  r[1] = _mm256_unpackhi_epi64(b0, b4);
  r[2] = _mm256_unpacklo_epi64(b1, b5);
  r[3] = _mm256_unpackhi_epi64(b1, b5);
  r[4] = _mm256_unpacklo_epi64(b2, b6);
  r[5] = _mm256_unpackhi_epi64(b2, b6);
  r[6] = _mm256_unpacklo_epi64(b3, b7);
  r[7] = _mm256_unpackhi_epi64(b3, b7);
}

// Blocks a and b (one quantization table) into outA and outB.
VT_AVX2 static void idct_pair_avx2(const int16_t* a, const int16_t* b, const uint16_t* quant, uint8_t* outA, uint8_t* outB, int stride) {
  __m256i r[8];
  for (int i = 0; i < 8; i++) {
    const __m128i q = _mm_loadu_si128((const __m128i*)(quant + i * 8));
    const __m256i c = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i*)(a + i * 8))),
                                              _mm_loadu_si128((const __m128i*)(b + i * 8)), 1);
    r[i] = _mm256_mullo_epi16(c, _mm256_broadcastsi128_si256(q));
  }
  idct_pass_avx2(r, BIAS1, SHIFT1);
  transpose8x16_2(r);
  idct_pass_avx2(r, BIAS2, SHIFT2);
  transpose8x16_2(r);
  for (int i = 0; i < 8; i++) {
    const __m256i p = _mm256_packus_epi16(r[i], r[i]);
    _mm_storel_epi64((__m128i*)(outA + (size_t)i * (size_t)stride), _mm256_castsi256_si128(p));
    _mm_storel_epi64((__m128i*)(outB + (size_t)i * (size_t)stride), _mm256_extracti128_si256(p, 1));
  }
}

static int has_avx2(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
#define VT_JPEG_AVX2 1
#else
#define VT_JPEG_AVX2 0
#endif

// ---- Inverse DCT, NEON: the SSE2 form's lanes, instruction for instruction where they differ ----
#if VT_JPEG_NEON
// a·ka + b·kb per lane in 32 bits (wrapping, as _mm_madd_epi16): the low and the high four lanes.
static inline void madd_pair_neon(int16x8_t a, int16x8_t b, int16_t ka, int16_t kb, int32x4_t* lo, int32x4_t* hi) {
  *lo = vmlal_n_s16(vmull_n_s16(vget_low_s16(a), ka), vget_low_s16(b), kb);
  *hi = vmlal_n_s16(vmull_n_s16(vget_high_s16(a), ka), vget_high_s16(b), kb);
}

static inline void idct_pass_neon(int16x8_t r[8], uint32_t bias, int shift) {
  const int32x4_t b = vdupq_n_s32((int32_t)bias), count = vdupq_n_s32(-shift);  // a negative count shifts right
  int32x4_t t2l, t2h, t3l, t3h;
  madd_pair_neon(r[2], r[6], kE1a, kE1b, &t2l, &t2h);
  madd_pair_neon(r[2], r[6], kE2a, kE2b, &t3l, &t3h);
  const int16x8_t sum04 = vaddq_s16(r[0], r[4]), dif04 = vsubq_s16(r[0], r[4]);
  const int32x4_t t0l = vshll_n_s16(vget_low_s16(sum04), 12), t0h = vshll_n_s16(vget_high_s16(sum04), 12);
  const int32x4_t t1l = vshll_n_s16(vget_low_s16(dif04), 12), t1h = vshll_n_s16(vget_high_s16(dif04), 12);
  const int32x4_t xl[4] = {vaddq_s32(t0l, t3l), vaddq_s32(t1l, t2l), vsubq_s32(t1l, t2l), vsubq_s32(t0l, t3l)};
  const int32x4_t xh[4] = {vaddq_s32(t0h, t3h), vaddq_s32(t1h, t2h), vsubq_s32(t1h, t2h), vsubq_s32(t0h, t3h)};
  const int16x8_t s17 = vaddq_s16(r[1], r[7]), s35 = vaddq_s16(r[3], r[5]);
  int32x4_t y0l, y0h, y1l, y1h, y2l, y2h, y3l, y3h, y4l, y4h, y5l, y5h;
  madd_pair_neon(r[7], r[3], kO0a, kO0b, &y0l, &y0h);
  madd_pair_neon(r[7], r[3], kO2a, kO2b, &y2l, &y2h);
  madd_pair_neon(r[5], r[1], kO1a, kO1b, &y1l, &y1h);
  madd_pair_neon(r[5], r[1], kO3a, kO3b, &y3l, &y3h);
  madd_pair_neon(s17, s35, kO4a, kO4b, &y4l, &y4h);
  madd_pair_neon(s17, s35, kO5a, kO5b, &y5l, &y5h);
  const int32x4_t tl[4] = {vaddq_s32(y3l, y4l), vaddq_s32(y2l, y5l), vaddq_s32(y1l, y5l), vaddq_s32(y0l, y4l)};
  const int32x4_t th[4] = {vaddq_s32(y3h, y4h), vaddq_s32(y2h, y5h), vaddq_s32(y1h, y5h), vaddq_s32(y0h, y4h)};
  for (int i = 0; i < 4; i++) {
    const int32x4_t al = vaddq_s32(xl[i], b), ah = vaddq_s32(xh[i], b);
    // Arithmetic shift, then saturation to 16 bits (_mm_packs_epi32).
    r[i] = vcombine_s16(vqmovn_s32(vshlq_s32(vaddq_s32(al, tl[i]), count)), vqmovn_s32(vshlq_s32(vaddq_s32(ah, th[i]), count)));
    r[7 - i] = vcombine_s16(vqmovn_s32(vshlq_s32(vsubq_s32(al, tl[i]), count)), vqmovn_s32(vshlq_s32(vsubq_s32(ah, th[i]), count)));
  }
}

static inline int16x8_t halves_s16(int32x4_t a, int32x4_t b, int high) {
  return high ? vreinterpretq_s16_s32(vcombine_s32(vget_high_s32(a), vget_high_s32(b)))
              : vreinterpretq_s16_s32(vcombine_s32(vget_low_s32(a), vget_low_s32(b)));
}

static inline void transpose8x8_neon(int16x8_t r[8]) {
  const int16x8x2_t t0 = vtrnq_s16(r[0], r[1]), t1 = vtrnq_s16(r[2], r[3]), t2 = vtrnq_s16(r[4], r[5]), t3 = vtrnq_s16(r[6], r[7]);
  const int32x4x2_t u0 = vtrnq_s32(vreinterpretq_s32_s16(t0.val[0]), vreinterpretq_s32_s16(t1.val[0]));
  const int32x4x2_t u1 = vtrnq_s32(vreinterpretq_s32_s16(t0.val[1]), vreinterpretq_s32_s16(t1.val[1]));
  const int32x4x2_t u2 = vtrnq_s32(vreinterpretq_s32_s16(t2.val[0]), vreinterpretq_s32_s16(t3.val[0]));
  const int32x4x2_t u3 = vtrnq_s32(vreinterpretq_s32_s16(t2.val[1]), vreinterpretq_s32_s16(t3.val[1]));
  r[0] = halves_s16(u0.val[0], u2.val[0], 0);
  r[1] = halves_s16(u1.val[0], u3.val[0], 0);
  r[2] = halves_s16(u0.val[1], u2.val[1], 0);
  r[3] = halves_s16(u1.val[1], u3.val[1], 0);
  r[4] = halves_s16(u0.val[0], u2.val[0], 1);
  r[5] = halves_s16(u1.val[0], u3.val[0], 1);
  r[6] = halves_s16(u0.val[1], u2.val[1], 1);
  r[7] = halves_s16(u1.val[1], u3.val[1], 1);
}

static void idct_block_neon(const int16_t* coef, const uint16_t* quant, uint8_t* out, int stride) {
  int16x8_t r[8];
  // The low 16 bits of the product, as _mm_mullo_epi16.
  for (int i = 0; i < 8; i++) r[i] = vmulq_s16(vld1q_s16(coef + i * 8), vreinterpretq_s16_u16(vld1q_u16(quant + i * 8)));
  idct_pass_neon(r, BIAS1, SHIFT1);
  transpose8x8_neon(r);
  idct_pass_neon(r, BIAS2, SHIFT2);
  transpose8x8_neon(r);
  for (int i = 0; i < 8; i++) vst1_u8(out + (size_t)i * (size_t)stride, vqmovun_s16(r[i]));
}
#endif

// ---- Upsampling: output row y of a plane at full width, into out[0…] ----

static void upsample_row(const plane* p, int y, uint8_t* out, int out_count, int simd) {
  const int w = p->width, h = p->height, hs = p->hs, vs = p->vs;
  int near = y / vs, far = near;
  if (vs == 2) far = (y % 2 == 0) ? (near - 1 > 0 ? near - 1 : 0) : (near + 1 < h - 1 ? near + 1 : h - 1);
  near = near < h - 1 ? near : h - 1;
  far = far < h - 1 ? far : h - 1;
  const uint8_t* n = p->pixels + (size_t)near * (size_t)p->stride;
  const uint8_t* f = p->pixels + (size_t)far * (size_t)p->stride;
  (void)simd;
  if (hs == 1 && vs == 1) {
    memcpy(out, n, (size_t)w);
  } else if (hs == 1 && vs == 2) {
    for (int x = 0; x < w; x++) out[x] = (uint8_t)((3 * n[x] + f[x] + 2) >> 2);
  } else if (hs == 2 && vs == 1) {
    if (w == 1) {
      out[0] = out[1] = n[0];
      return;
    }
    out[0] = n[0];
    out[1] = (uint8_t)((n[0] * 3 + n[1] + 2) >> 2);
    int i = 1;
#if VT_JPEG_SSE2
    if (simd) {
      const __m128i z = _mm_setzero_si128(), two = _mm_set1_epi16(2);
      for (; i + 8 <= w - 1; i += 8) {
        const __m128i prev = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(n + i - 1)), z);
        const __m128i cur = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(n + i)), z);
        const __m128i next = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(n + i + 1)), z);
        const __m128i m = _mm_add_epi16(_mm_add_epi16(_mm_add_epi16(cur, cur), cur), two);
        const __m128i even = _mm_srli_epi16(_mm_add_epi16(m, prev), 2), odd = _mm_srli_epi16(_mm_add_epi16(m, next), 2);
        _mm_storeu_si128((__m128i*)(out + 2 * i), _mm_packus_epi16(_mm_unpacklo_epi16(even, odd), _mm_unpackhi_epi16(even, odd)));
      }
    }
#endif
#if VT_JPEG_NEON
    if (simd) {
      for (; i + 8 <= w - 1; i += 8) {
        const uint16x8_t prev = vmovl_u8(vld1_u8(n + i - 1)), cur = vmovl_u8(vld1_u8(n + i)), next = vmovl_u8(vld1_u8(n + i + 1));
        const uint16x8_t m = vaddq_u16(vmulq_n_u16(cur, 3), vdupq_n_u16(2));
        uint8x8x2_t pair;
        pair.val[0] = vmovn_u16(vshrq_n_u16(vaddq_u16(m, prev), 2));
        pair.val[1] = vmovn_u16(vshrq_n_u16(vaddq_u16(m, next), 2));
        vst2_u8(out + 2 * i, pair);  // even, odd interleaved
      }
    }
#endif
    for (; i < w - 1; i++) {
      const int m = 3 * n[i] + 2;
      out[i * 2] = (uint8_t)((m + n[i - 1]) >> 2);
      out[i * 2 + 1] = (uint8_t)((m + n[i + 1]) >> 2);
    }
    out[i * 2] = (uint8_t)((n[w - 2] * 3 + n[w - 1] + 2) >> 2);
    out[i * 2 + 1] = n[w - 1];
  } else if (hs == 2 && vs == 2) {
    if (w == 1) {
      out[0] = out[1] = (uint8_t)((3 * n[0] + f[0] + 2) >> 2);
      return;
    }
    out[0] = (uint8_t)((3 * n[0] + f[0] + 2) >> 2);
    int i = 1;
#if VT_JPEG_SSE2
    if (simd) {
      const __m128i z = _mm_setzero_si128(), eight = _mm_set1_epi16(8);
      for (; i + 8 <= w; i += 8) {
        const __m128i np = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(n + i - 1)), z);
        const __m128i fp = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(f + i - 1)), z);
        const __m128i nc = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(n + i)), z);
        const __m128i fc = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(f + i)), z);
        const __m128i tp = _mm_add_epi16(_mm_add_epi16(_mm_add_epi16(np, np), np), fp);
        const __m128i tc = _mm_add_epi16(_mm_add_epi16(_mm_add_epi16(nc, nc), nc), fc);
        const __m128i a = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_add_epi16(_mm_add_epi16(tp, tp), tp), tc), eight), 4);
        const __m128i c = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_add_epi16(_mm_add_epi16(tc, tc), tc), tp), eight), 4);
        _mm_storeu_si128((__m128i*)(out + 2 * i - 1), _mm_packus_epi16(_mm_unpacklo_epi16(a, c), _mm_unpackhi_epi16(a, c)));
      }
    }
#endif
#if VT_JPEG_NEON
    if (simd) {
      for (; i + 8 <= w; i += 8) {
        const uint16x8_t tp = vaddq_u16(vmulq_n_u16(vmovl_u8(vld1_u8(n + i - 1)), 3), vmovl_u8(vld1_u8(f + i - 1)));
        const uint16x8_t tc = vaddq_u16(vmulq_n_u16(vmovl_u8(vld1_u8(n + i)), 3), vmovl_u8(vld1_u8(f + i)));
        const uint16x8_t eight = vdupq_n_u16(8);
        uint8x8x2_t pair;
        pair.val[0] = vmovn_u16(vshrq_n_u16(vaddq_u16(vaddq_u16(vmulq_n_u16(tp, 3), tc), eight), 4));
        pair.val[1] = vmovn_u16(vshrq_n_u16(vaddq_u16(vaddq_u16(vmulq_n_u16(tc, 3), tp), eight), 4));
        vst2_u8(out + 2 * i - 1, pair);
      }
    }
#endif
    int t1 = 3 * n[i - 1] + f[i - 1];
    for (; i < w; i++) {
      const int t0 = t1;
      t1 = 3 * n[i] + f[i];
      out[i * 2 - 1] = (uint8_t)((3 * t0 + t1 + 8) >> 4);
      out[i * 2] = (uint8_t)((3 * t1 + t0 + 8) >> 4);
    }
    out[w * 2 - 1] = (uint8_t)((t1 + 2) >> 2);
  } else {
    for (int x = 0; x < w * hs && x < out_count; x++) out[x] = n[x / hs < w - 1 ? x / hs : w - 1];
  }
}

// ---- Colour ----

static const int32_t cr_r = 1470208, cr_g = 748800, cb_g = 360960, cb_b = 1858048;  // (int)(x·4096 + 0.5f) << 8

static inline void ycc_pixel(int32_t Y, int32_t Cb, int32_t Cr, uint8_t* o) {
  const int32_t yf = (Y << 20) + (1 << 19), cr = Cr - 128, cb = Cb - 128;
  o[0] = clamp8((yf + cr * cr_r) >> 20);
  o[1] = clamp8((yf + cr * -cr_g + ((cb * -cb_g) & ~0xffff)) >> 20);
  o[2] = clamp8((yf + cb * cb_b) >> 20);
}

// YCbCr → RGB for `count` pixels; the SSE2 and NEON forms are the 16-bit one (equal for every input).
#if VT_JPEG_SSE2
// 16 pixels' R, G and B bytes interleaved into 48 bytes of RGB with three byte shuffles per output
// vector (SSSE3: every x86-64 CPU with AVX2 has it).
// For output vector part (bytes 16·part…) and channel k: which of the channel's 16 bytes goes to each
// byte (−128: none); byte p of the row is channel p % 3 of pixel p / 3.
static const int8_t kInterleave[3][3][16] = {
    {{0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128, 5}, {-128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128}, {-128, -128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128}},
    {{-128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10, -128}, {5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10}, {-128, 5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128}},
    {{-128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128, -128}, {-128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128}, {10, -128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15}}};
__attribute__((target("ssse3"))) static void interleave16_ssse3(const uint8_t t[3][16], uint8_t* d) {
  const __m128i c[3] = {_mm_loadu_si128((const __m128i*)t[0]), _mm_loadu_si128((const __m128i*)t[1]), _mm_loadu_si128((const __m128i*)t[2])};
  for (int part = 0; part < 3; part++) {
    __m128i v = _mm_setzero_si128();
    for (int k = 0; k < 3; k++) v = _mm_or_si128(v, _mm_shuffle_epi8(c[k], _mm_loadu_si128((const __m128i*)kInterleave[part][k])));
    _mm_storeu_si128((__m128i*)(d + part * 16), v);
  }
}

static int has_ssse3(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("ssse3");
}
#endif

static void ycc_row(const uint8_t* y, const uint8_t* cb, const uint8_t* cr, uint8_t* o, int count, int simd) {
  int x = 0;
  (void)simd;
#if VT_JPEG_SSE2
  if (simd) {
    const int shuffle = has_ssse3();
    const __m128i z = _mm_setzero_si128(), flip = _mm_set1_epi8((char)0x80), eight = _mm_set1_epi16(8);
    const __m128i kcr0 = _mm_set1_epi16(5743), kcr1 = _mm_set1_epi16(-2925), kcb0 = _mm_set1_epi16(-1410), kcb1 = _mm_set1_epi16(7258);
    uint8_t t[3][16];
    for (; x + 16 <= count; x += 16) {
      const __m128i yv = _mm_loadu_si128((const __m128i*)(y + x));
      const __m128i cbv = _mm_xor_si128(_mm_loadu_si128((const __m128i*)(cb + x)), flip);
      const __m128i crv = _mm_xor_si128(_mm_loadu_si128((const __m128i*)(cr + x)), flip);
      __m128i rgb[3][2];
      for (int half = 0; half < 2; half++) {
        const __m128i yw = half ? _mm_unpackhi_epi8(yv, z) : _mm_unpacklo_epi8(yv, z);
        const __m128i cbw = half ? _mm_unpackhi_epi8(z, cbv) : _mm_unpacklo_epi8(z, cbv);  // (Cb − 128) << 8
        const __m128i crw = half ? _mm_unpackhi_epi8(z, crv) : _mm_unpacklo_epi8(z, crv);
        const __m128i yws = _mm_add_epi16(_mm_slli_epi16(yw, 4), eight);
        const __m128i cr0 = _mm_mulhi_epi16(kcr0, crw), cr1 = _mm_mulhi_epi16(crw, kcr1);
        const __m128i cb0 = _mm_mulhi_epi16(kcb0, cbw), cb1 = _mm_mulhi_epi16(cbw, kcb1);
        rgb[0][half] = _mm_srai_epi16(_mm_add_epi16(yws, cr0), 4);
        rgb[1][half] = _mm_srai_epi16(_mm_add_epi16(_mm_add_epi16(yws, cb0), cr1), 4);
        rgb[2][half] = _mm_srai_epi16(_mm_add_epi16(yws, cb1), 4);
      }
      for (int k = 0; k < 3; k++) _mm_storeu_si128((__m128i*)t[k], _mm_packus_epi16(rgb[k][0], rgb[k][1]));
      uint8_t* d = o + (size_t)x * 3;
      if (shuffle) {
        interleave16_ssse3((const uint8_t(*)[16])t, d);
        continue;
      }
      for (int i = 0; i < 16; i++) {
        d[i * 3] = t[0][i];
        d[i * 3 + 1] = t[1][i];
        d[i * 3 + 2] = t[2][i];
      }
    }
  }
#endif
#if VT_JPEG_NEON
  if (simd) {
    const int16x8_t eight = vdupq_n_s16(8);
    const int16x8_t kcr0 = vdupq_n_s16(5743), kcr1 = vdupq_n_s16(-2925), kcb0 = vdupq_n_s16(-1410), kcb1 = vdupq_n_s16(7258);
    const uint8x16_t flip = vdupq_n_u8(0x80);
    for (; x + 16 <= count; x += 16) {
      const uint8x16_t yv = vld1q_u8(y + x);
      const int8x16_t cbv = vreinterpretq_s8_u8(veorq_u8(vld1q_u8(cb + x), flip));
      const int8x16_t crv = vreinterpretq_s8_u8(veorq_u8(vld1q_u8(cr + x), flip));
      int16x8_t rgb[3][2];
      for (int half = 0; half < 2; half++) {
        const int16x8_t yw = vreinterpretq_s16_u16(vmovl_u8(half ? vget_high_u8(yv) : vget_low_u8(yv)));
        const int16x8_t cbw = vshlq_n_s16(vmovl_s8(half ? vget_high_s8(cbv) : vget_low_s8(cbv)), 8);  // (Cb − 128) << 8
        const int16x8_t crw = vshlq_n_s16(vmovl_s8(half ? vget_high_s8(crv) : vget_low_s8(crv)), 8);
        const int16x8_t yws = vaddq_s16(vshlq_n_s16(yw, 4), eight);
        // The high 16 bits of the 32-bit product (_mm_mulhi_epi16).
#define MULHI(a, b) vcombine_s16(vshrn_n_s32(vmull_s16(vget_low_s16(a), vget_low_s16(b)), 16), \
                                 vshrn_n_s32(vmull_s16(vget_high_s16(a), vget_high_s16(b)), 16))
        const int16x8_t cr0 = MULHI(kcr0, crw), cr1 = MULHI(crw, kcr1), cb0 = MULHI(kcb0, cbw), cb1 = MULHI(cbw, kcb1);
#undef MULHI
        rgb[0][half] = vshrq_n_s16(vaddq_s16(yws, cr0), 4);
        rgb[1][half] = vshrq_n_s16(vaddq_s16(vaddq_s16(yws, cb0), cr1), 4);
        rgb[2][half] = vshrq_n_s16(vaddq_s16(yws, cb1), 4);
      }
      uint8x16x3_t px;
      for (int k = 0; k < 3; k++) px.val[k] = vcombine_u8(vqmovun_s16(rgb[k][0]), vqmovun_s16(rgb[k][1]));
      vst3q_u8(o + (size_t)x * 3, px);  // R, G, B interleaved
    }
  }
#endif
  for (; x < count; x++) ycc_pixel(y[x], cb[x], cr[x], o + (size_t)x * 3);
}

static inline uint8_t blinn(int32_t x, int32_t y) {
  const int32_t t = x * y + 128;
  return (uint8_t)((t + (t >> 8)) >> 8);
}

// ---- The picture ----

int vt_jpeg_reconstruct_path(const vt_jpeg_coefficients* c, int kind, uint8_t* out, int simd) {
  if (!c || !out || c->num_components < 1 || c->num_components > VT_JPEG_MAX_COMPONENTS) return -1;
  simd = simd && VT_JPEG_SIMD;
  const int n = c->num_components, width = c->width, height = c->height;
  int hmax = 1, vmax = 1;
  for (int k = 0; k < n; k++) {
    if (c->h_samp[k] > hmax) hmax = c->h_samp[k];
    if (c->v_samp[k] > vmax) vmax = c->v_samp[k];
  }
  plane planes[VT_JPEG_MAX_COMPONENTS];
  memset(planes, 0, sizeof planes);
  int status = 0, row_count = width + 16;
  for (int k = 0; k < n && status == 0; k++) {
    if (!c->coefficients[k] || c->h_samp[k] < 1 || c->v_samp[k] < 1 || hmax % c->h_samp[k] || vmax % c->v_samp[k]) {
      status = -1;
      break;
    }
    plane* p = &planes[k];
    p->stride = c->width_in_blocks[k] * 8;
    p->pixels = (uint8_t*)malloc((size_t)p->stride * (size_t)c->height_in_blocks[k] * 8 + 1);
    if (!p->pixels) {
      status = -1;
      break;
    }
    p->width = (width * c->h_samp[k] + hmax - 1) / hmax;
    p->height = (height * c->v_samp[k] + vmax - 1) / vmax;
    p->hs = hmax / c->h_samp[k];
    p->vs = vmax / c->v_samp[k];
    if (p->width * p->hs + 16 > row_count) row_count = p->width * p->hs + 16;
    const int16_t* coef = c->coefficients[k];
#if VT_JPEG_AVX2
    const int pairs = simd && has_avx2();
#endif
    for (int by = 0; by < c->height_in_blocks[k]; by++) {
      uint8_t* row = p->pixels + (size_t)by * 8 * (size_t)p->stride;
      int bx = 0;
#if VT_JPEG_AVX2
      // Two blocks at a time (each the SSE2 form's arithmetic in its half of the registers).
      for (; pairs && bx + 2 <= c->width_in_blocks[k]; bx += 2, coef += 128)
        idct_pair_avx2(coef, coef + 64, c->quant[k], row + (size_t)bx * 8, row + (size_t)bx * 8 + 8, p->stride);
#endif
      for (; bx < c->width_in_blocks[k]; bx++, coef += 64) {
#if VT_JPEG_SSE2
        if (simd) {
          idct_block_sse2(coef, c->quant[k], row + (size_t)bx * 8, p->stride);
          continue;
        }
#endif
#if VT_JPEG_NEON
        if (simd) {
          idct_block_neon(coef, c->quant[k], row + (size_t)bx * 8, p->stride);
          continue;
        }
#endif
        idct_block_portable(coef, c->quant[k], row + (size_t)bx * 8, p->stride);
      }
    }
  }
  uint8_t* rows = NULL;
  if (status == 0 && kind != VT_JPEG_GRAY) {
    rows = (uint8_t*)malloc((size_t)n * (size_t)row_count);
    if (!rows) status = -1;
  }
  if (status == 0 && kind == VT_JPEG_GRAY) {
    for (int y = 0; y < height; y++) memcpy(out + (size_t)y * (size_t)width, planes[0].pixels + (size_t)y * (size_t)planes[0].stride, (size_t)width);
  } else if (status == 0) {
    const uint8_t* r[VT_JPEG_MAX_COMPONENTS] = {NULL, NULL, NULL, NULL};
    for (int y = 0; y < height; y++) {
      for (int k = 0; k < n; k++) {
        const plane* p = &planes[k];
        if (p->hs == 1 && p->vs == 1 && y < p->height) {
          r[k] = p->pixels + (size_t)y * (size_t)p->stride;  // full size: the plane's own row
        } else {
          uint8_t* buffer = rows + (size_t)k * (size_t)row_count;
          upsample_row(p, y, buffer, row_count, simd);
          r[k] = buffer;
        }
      }
      uint8_t* o = out + (size_t)y * (size_t)width * 3;
      switch (kind) {
        case VT_JPEG_RGB:
          for (int x = 0; x < width; x++) {
            o[x * 3] = r[0][x];
            o[x * 3 + 1] = r[1][x];
            o[x * 3 + 2] = r[2][x];
          }
          break;
        case VT_JPEG_CMYK:
          for (int x = 0; x < width; x++) {
            o[x * 3] = blinn(r[0][x], r[3][x]);
            o[x * 3 + 1] = blinn(r[1][x], r[3][x]);
            o[x * 3 + 2] = blinn(r[2][x], r[3][x]);
          }
          break;
        case VT_JPEG_YCCK:
          for (int x = 0; x < width; x++) {
            uint8_t px[3];
            ycc_pixel(r[0][x], r[1][x], r[2][x], px);
            for (int j = 0; j < 3; j++) o[x * 3 + j] = blinn(255 - px[j], r[3][x]);
          }
          break;
        default:
          ycc_row(r[0], r[1], r[2], o, width, simd);
          break;
      }
    }
  }
  free(rows);
  for (int k = 0; k < n; k++) free(planes[k].pixels);
  return status;
}

int vt_jpeg_reconstruct(const vt_jpeg_coefficients* c, int kind, uint8_t* out) { return vt_jpeg_reconstruct_path(c, kind, out, 1); }

int vt_jpeg_simd_available(void) { return VT_JPEG_SIMD; }

void vt_jpeg_idct_block_path(const int16_t* coefficients, const uint16_t* quant, uint8_t* out, int stride, int simd) {
#if VT_JPEG_SSE2
  if (simd) {
    idct_block_sse2(coefficients, quant, out, stride);
    return;
  }
#endif
#if VT_JPEG_NEON
  if (simd) {
    idct_block_neon(coefficients, quant, out, stride);
    return;
  }
#endif
  (void)simd;
  idct_block_portable(coefficients, quant, out, stride);
}

int vt_jpeg_idct_pair_avx2(const int16_t* a, const int16_t* b, const uint16_t* quant, uint8_t* outA, uint8_t* outB, int stride) {
#if VT_JPEG_AVX2
  if (!has_avx2()) return -2;
  idct_pair_avx2(a, b, quant, outA, outB, stride);
  return 0;
#else
  (void)a, (void)b, (void)quant, (void)outA, (void)outB, (void)stride;
  return -2;
#endif
}

void vt_jpeg_ycc_row_path(const uint8_t* y, const uint8_t* cb, const uint8_t* cr, uint8_t* rgb, int count, int simd) {
  ycc_row(y, cb, cr, rgb, count, simd && VT_JPEG_SIMD);
}
