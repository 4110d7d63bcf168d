// The multiply-add roofline of one core for the exact kernels' inner loops (scripts/bench/roofline.sh):
// each loop is the kernel's own form — twelve (VNNI) or six × two (AVX2) accumulators, the input
// broadcast from memory, one filter vector loaded per step — with nothing else in it, so its rate is the
// most the kernel's loop can reach on this core. Prints multiply-adds per second per path.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// Conv1x1Quad.h's tile: per step 12 broadcast quads × one 64-byte filter vector, vpdpbusd (64
// multiply-adds each).
__attribute__((target("avx512f,avx512bw,avx512vnni"), noinline)) static int32_t vnni_loop(const int32_t *rows, const int8_t *w, long steps) {
  __m512i acc[12];
  for (int r = 0; r < 12; r++) acc[r] = _mm512_setzero_si512();
  for (long s = 0; s < steps; s++) {
    const __m512i wv = _mm512_loadu_si512((const void *)(w + (s & 63) * 64));
    for (int r = 0; r < 12; r++) acc[r] = _mm512_dpbusd_epi32(acc[r], _mm512_set1_epi32(rows[r * 16 + (s & 15)]), wv);
  }
  __m512i sum = acc[0];
  for (int r = 1; r < 12; r++) sum = _mm512_add_epi32(sum, acc[r]);
  return _mm512_reduce_add_epi32(sum);
}

// The AVX2 tile: per step 6 broadcast int16 pairs × two 16-lane filter vectors, vpmaddwd + vpaddd (16
// multiply-adds each).
__attribute__((target("avx2"), noinline)) static int32_t avx2_loop(const int32_t *rows, const int16_t *w, long steps) {
  __m256i acc[6][2];
  for (int r = 0; r < 6; r++) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  for (long s = 0; s < steps; s++) {
    const __m256i w0 = _mm256_loadu_si256((const __m256i *)(w + (s & 63) * 32));
    const __m256i w1 = _mm256_loadu_si256((const __m256i *)(w + (s & 63) * 32 + 16));
    for (int r = 0; r < 6; r++) {
      const __m256i v = _mm256_set1_epi32(rows[r * 16 + (s & 15)]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(v, w0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(v, w1));
    }
  }
  __m256i sum = _mm256_setzero_si256();
  for (int r = 0; r < 6; r++) sum = _mm256_add_epi32(sum, _mm256_add_epi32(acc[r][0], acc[r][1]));
  int32_t lanes[8];
  _mm256_storeu_si256((__m256i *)lanes, sum);
  return lanes[0] + lanes[7];
}

static int has_vnni(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  return (b & (1u << 16)) && (b & (1u << 30)) && (c & (1u << 11));  // AVX-512F, BW, VNNI
}

// The median of 9 timed runs of `steps` steps, as multiply-adds per second.
static double rate(int vnni, const int32_t *rows, const void *w, long steps, double macs_per_step) {
  double best[9];
  int32_t sink = 0;
  for (int i = 0; i < 9; i++) {
    const double t0 = now();
    sink += vnni ? vnni_loop(rows, w, steps) : avx2_loop(rows, w, steps);
    best[i] = (double)steps * macs_per_step / (now() - t0);
  }
  for (int i = 1; i < 9; i++)
    for (int j = i; j > 0 && best[j] < best[j - 1]; j--) {
      const double t = best[j];
      best[j] = best[j - 1];
      best[j - 1] = t;
    }
  if (sink == 12345) printf(" ");
  return best[4];
}

int main(void) {
  static int32_t rows[12 * 16];
  static int8_t w8[64 * 64];
  static int16_t w16[64 * 32];
  for (int i = 0; i < 12 * 16; i++) rows[i] = i * 0x01010101;
  for (int i = 0; i < 64 * 64; i++) w8[i] = (int8_t)(i * 7);
  for (int i = 0; i < 64 * 32; i++) w16[i] = (int16_t)(i * 5 - 300);
  const long steps = 4000000;
  if (has_vnni()) printf("vnni  %.1f G multiply-adds/s  (vpdpbusd zmm, 12 rows × 16 columns × 4)\n", rate(1, rows, w8, steps, 12.0 * 64) / 1e9);
  if (__builtin_cpu_supports("avx2")) printf("avx2  %.1f G multiply-adds/s  (vpmaddwd ymm, 6 rows × 16 columns × 2)\n", rate(0, rows, w16, steps, 6.0 * 32) / 1e9);
  return 0;
}
#else
int main(void) {
  printf("no x86-64 kernels on this CPU\n");
  return 0;
}
#endif
