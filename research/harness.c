#include "CHybridDepthwise.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
void hdw_depthwise(const float* input, int batches, int H, int W, int C, const int8_t* filt, int KH, int KW, int dm,
                   const float* bias, const float* ch_scale, int stride_h, int stride_w, int dil_h, int dil_w, int pad_h, int pad_w,
                   int OH, int OW, int act, float* out, int8_t* qbuf);
static unsigned long long st = 88172645463325252ULL;
static unsigned long long rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }
static float frand(float a, float b) { return a + (b - a) * (float)((rnd() >> 11) * (1.0 / 9007199254740992.0)); }
int main(void) {
  int cases[][12] = { // H W C dm KH KW sh sw dh dw pad act
    {20,20,32,1,3,3,1,1,1,1,0,3},{21,17,32,1,3,3,2,2,1,1,0,0},{16,16,7,1,3,3,1,1,1,1,0,1},{12,12,5,3,3,3,1,1,2,2,0,2},
    {15,13,13,2,5,5,2,1,1,1,1,3},{40,40,128,1,3,3,1,1,1,1,0,3},{9,9,10,8,3,3,1,1,1,1,1,0},{1,1,1,1,1,1,1,1,1,1,0,0},
  };
  int total_bad = 0;
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    int *k = cases[ci];
    vt_hdw_params p = {k[4], k[5], k[2], k[3], k[6], k[7], k[8], k[9], k[10], k[11], 0, 0, 0};
    int oc = k[2] * k[3], batches = 2, H = k[0], W = k[1];
    int8_t *f = malloc((size_t)k[4] * k[5] * oc); float *cs = malloc(oc * 4), *bias = malloc(oc * 4);
    for (int i = 0; i < k[4] * k[5] * oc; i++) f[i] = (int8_t)(rnd() % 255 - 127);
    for (int i = 0; i < oc; i++) { cs[i] = frand(1e-4f, 2e-2f); bias[i] = frand(-1, 1); }
    p.filter = f; p.channel_scales = cs; p.bias = bias;
    int32_t oh, ow, ph, pw; if (vt_hdw_output_size(&p, H, W, &oh, &ow, &ph, &pw)) { printf("size fail\n"); return 1; }
    size_t n = (size_t)H * W * k[2], on = (size_t)oh * ow * oc * batches;
    float *in = malloc(n * batches * 4), *a = malloc(on * 4), *b = malloc(on * 4), *r = malloc(on * 4);
    for (int trial = 0; trial < 5; trial++) {
      for (size_t i = 0; i < n * batches; i++) in[i] = trial == 4 ? 0.0f : frand(trial == 1 ? 0.0f : -3.0f, trial == 2 ? 0.5f : 6.0f);
      size_t ss = vt_hdw_scratch_size(&p, H, W, 3); void *scr = aligned_alloc(64, (ss + 63) / 64 * 64);
      vt_hdw_run(&p, in, batches, H, W, a, scr, ss, 1 + trial % 3);
      vt_hdw_run_scalar(&p, in, batches, H, W, b, scr, ss);
      int8_t *qb = malloc(n);
      for (int bb = 0; bb < batches; bb++)
        hdw_depthwise(in + bb * n, 1, H, W, k[2], f, k[4], k[5], k[3], bias, cs, k[6], k[7], k[8], k[9], ph, pw, oh, ow, k[11], r + bb * (on / batches), qb);
      int bad = 0;
      for (size_t i = 0; i < on; i++) if (memcmp(&a[i], &r[i], 4) || memcmp(&b[i], &r[i], 4)) bad++;
      total_bad += bad;
      free(qb); free(scr);
    }
    free(f); free(cs); free(bias); free(in); free(a); free(b); free(r);
  }
  // speed: an FPNLite-like op
  vt_hdw_params p = {3, 3, 128, 1, 1, 1, 1, 1, 0, 3, 0, 0, 0};
  int8_t *f = malloc(9 * 128); float *cs = malloc(512), *bias = malloc(512);
  for (int i = 0; i < 9 * 128; i++) f[i] = (int8_t)(rnd() % 255 - 127);
  for (int i = 0; i < 128; i++) { cs[i] = 0.01f; bias[i] = 0.1f; }
  p.filter = f; p.channel_scales = cs; p.bias = bias;
  float *in = malloc(80 * 80 * 128 * 4), *o = malloc(80 * 80 * 128 * 4);
  for (int i = 0; i < 80 * 80 * 128; i++) in[i] = frand(-1, 5);
  size_t ss = vt_hdw_scratch_size(&p, 80, 80, 2); void *scr = aligned_alloc(64, (ss + 63) / 64 * 64);
  struct timespec t0, t1; double best_fast = 1e9, best_scalar = 1e9;
  for (int it = 0; it < 20; it++) {
    clock_gettime(CLOCK_MONOTONIC, &t0); vt_hdw_run(&p, in, 1, 80, 80, o, scr, ss, 1); clock_gettime(CLOCK_MONOTONIC, &t1);
    double d = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6; if (d < best_fast) best_fast = d;
    clock_gettime(CLOCK_MONOTONIC, &t0); vt_hdw_run_scalar(&p, in, 1, 80, 80, o, scr, ss); clock_gettime(CLOCK_MONOTONIC, &t1);
    d = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6; if (d < best_scalar) best_scalar = d;
  }
  double best2 = 1e9;
  for (int it = 0; it < 20; it++) {
    clock_gettime(CLOCK_MONOTONIC, &t0); vt_hdw_run(&p, in, 1, 80, 80, o, scr, ss, 2); clock_gettime(CLOCK_MONOTONIC, &t1);
    double d = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6; if (d < best2) best2 = d;
  }
  printf("2 threads: %.3f ms\n", best2);
  printf("path %s; mismatching values vs reference: %d; 80x80x128 3x3: fast %.3f ms, scalar %.3f ms\n", vt_hdw_path(), total_bad, best_fast, best_scalar);
  return total_bad != 0;
}
