// im2col for the spatial uint8 convolutions (CKernels.h): each output pixel's window as one row of
// kernel_h·kernel_w·in_channels bytes in the filter's [kh][kw][in] order, padding taps set to the
// input's zero point.
#include "CKernels.h"
#include "Parallel.h"

#include <string.h>

int vt_window_output_size(const vt_window *g, int32_t h, int32_t w, int32_t *oh, int32_t *ow, int32_t *pad_h, int32_t *pad_w) {
  if (!g) return -1;
  const vt_hdw_params p = {g->kernel_h, g->kernel_w, g->in_channels, 1, g->stride_h, g->stride_w, g->dilation_h, g->dilation_w,
                           g->padding, 0, NULL, NULL, NULL};
  return vt_hdw_output_size(&p, h, w, oh, ow, pad_h, pad_w);
}

// memcpy of a window row's few bytes, inline: two overlapping 8- or 16-byte moves (n ≤ 32), else memcpy.
static inline __attribute__((always_inline)) void copy_run(uint8_t *dst, const uint8_t *src, size_t n) {
  uint64_t a, b;
  if (n >= 8 && n <= 16) {
    memcpy(&a, src, 8);
    memcpy(&b, src + n - 8, 8);
    memcpy(dst, &a, 8);
    memcpy(dst + n - 8, &b, 8);
  } else if (n > 16 && n <= 32) {
    uint64_t c, d;
    memcpy(&a, src, 8);
    memcpy(&b, src + 8, 8);
    memcpy(&c, src + n - 16, 8);
    memcpy(&d, src + n - 8, 8);
    memcpy(dst, &a, 8);
    memcpy(dst + 8, &b, 8);
    memcpy(dst + n - 16, &c, 8);
    memcpy(dst + n - 8, &d, 8);
  } else {
    memcpy(dst, src, n);
  }
}

typedef struct {
  const vt_window *g;
  const uint8_t *input;
  int32_t h, w, oh, ow, pad_h, pad_w;
  int64_t first;
  uint8_t *rows;
} im2col_job;

// Output row first + i (batch · oh + oy).
static void im2col_row(void *context, int32_t t, int64_t i) {
  (void)t;
  const im2col_job *j = context;
  const int64_t c = j->first + i;
  const vt_window *g = j->g;
  const int64_t batch = c / j->oh;
  const int32_t oy = (int32_t)(c % j->oh), cin = g->in_channels;
  const size_t window = (size_t)g->kernel_h * (size_t)g->kernel_w * (size_t)cin, pixel = (size_t)cin;
  const size_t k = (size_t)g->row_bytes > window ? (size_t)g->row_bytes : window;
  const uint8_t *image = j->input + (size_t)batch * (size_t)j->h * (size_t)j->w * pixel;
  uint8_t *out = j->rows + (size_t)i * (size_t)j->ow * k;
  // With dilation 1 a window row's taps are contiguous: kernel_w · in_channels bytes in one copy.
  const size_t run = (size_t)g->kernel_w * pixel;
  // A window of up to 4 rows of 8…16 bytes all inside the picture (the first layer's 3×3 on 3 channels):
  // every row loaded before any is stored (the stores cannot then hold the loads up).
  const int32_t iy0 = oy * g->stride_h - j->pad_h;
  const int rows_inside = iy0 >= 0 && iy0 + (g->kernel_h - 1) * g->dilation_h < j->h;
  const int small = rows_inside && g->dilation_w == 1 && run >= 8 && run <= 16 && g->kernel_h <= 4;
  const uint8_t *lines[4] = {image, image, image, image};
  for (int32_t ky = 0; small && ky < g->kernel_h; ky++) lines[ky] = image + (size_t)(iy0 + ky * g->dilation_h) * (size_t)j->w * pixel;
  for (int32_t ox = 0; ox < j->ow; ox++, out += k) {
    const int32_t x0 = ox * g->stride_w - j->pad_w;
    const int inside_x = g->dilation_w == 1 && x0 >= 0 && x0 + g->kernel_w <= j->w;
    if (small && inside_x) {
      uint64_t a[4], b[4];
      const size_t from = (size_t)x0 * pixel;
      for (int32_t ky = 0; ky < g->kernel_h; ky++) {
        memcpy(&a[ky], lines[ky] + from, 8);
        memcpy(&b[ky], lines[ky] + from + run - 8, 8);
      }
      for (int32_t ky = 0; ky < g->kernel_h; ky++) {
        memcpy(out + (size_t)ky * run, &a[ky], 8);
        memcpy(out + (size_t)ky * run + run - 8, &b[ky], 8);
      }
      for (size_t i = window; i < k; i++) out[i] = (uint8_t)g->input_zero_point;
      continue;
    }
    uint8_t *dst = out;
    for (int32_t ky = 0; ky < g->kernel_h; ky++) {
      const int32_t iy = oy * g->stride_h - j->pad_h + ky * g->dilation_h;
      if (iy < 0 || iy >= j->h) {
        memset(dst, g->input_zero_point, run);
        dst += run;
        continue;
      }
      const uint8_t *line = image + (size_t)iy * (size_t)j->w * pixel;
      if (inside_x) {
        copy_run(dst, line + (size_t)x0 * pixel, run);
        dst += run;
        continue;
      }
      for (int32_t kx = 0; kx < g->kernel_w; kx++, dst += pixel) {
        const int32_t ix = x0 + kx * g->dilation_w;
        if (ix < 0 || ix >= j->w) memset(dst, g->input_zero_point, pixel);
        else memcpy(dst, line + (size_t)ix * pixel, pixel);
      }
    }
    for (size_t i = window; i < k; i++) out[i] = (uint8_t)g->input_zero_point;  // a few bytes: no call
  }
}

int vt_im2col(const vt_window *g, const uint8_t *input, int32_t batches, int32_t h, int32_t w, int64_t first, int64_t count,
              uint8_t *rows, int32_t threads, vt_pool *pool) {
  int32_t oh, ow, pad_h, pad_w;
  if (!g || !input || !rows || batches < 1 || g->in_channels < 1 || g->input_zero_point < 0 || g->input_zero_point > 255 ||
      vt_window_output_size(g, h, w, &oh, &ow, &pad_h, &pad_w) != 0 || first < 0 || count < 1 || first + count > (int64_t)batches * oh)
    return -1;
  im2col_job job = {g, input, h, w, oh, ow, pad_h, pad_w, first, rows};
  vt_parallel_chunks(pool, threads < 1 ? 1 : threads, count, im2col_row, &job);
  return 0;
}
