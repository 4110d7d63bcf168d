// The pixels of a JPEG from its coefficients, exactly as MediaPipe's decoder (stb_image) makes them
// (docs/compatibility.md): dequantization with a 16-bit product, stb's integer inverse DCT (12-bit
// constants; a column whose AC terms are all zero takes the DC shortcut), its chroma upsampling
// (triangle filter, +2/+8 rounding; nearest neighbour for unusual factors) and its YCbCr→RGB
// conversion (20-bit fixed point), CMYK and YCCK with its x·y/255. Integer arithmetic wraps
// (unsigned), as the Swift reference it replaces did with &+ and &*.
#include "CJPEG.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t* pixels;
  int stride, width, height;  // stride = blocks × 8; width/height of the component's samples
  int hs, vs;                 // upsampling factors to full size
} plane;

#define W32(x) ((int32_t)(uint32_t)(x))
static inline int32_t f2f(double x) { return (int32_t)(x * 4096 + 0.5); }
static inline uint8_t clamp8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v; }

typedef struct { int32_t k[12]; } idct_constants;
static idct_constants constants(void) {
  idct_constants c = {{f2f(0.5411961), f2f(-1.847759065), f2f(0.765366865), f2f(1.175875602), f2f(0.298631336), f2f(2.053119869),
                       f2f(3.072711026), f2f(1.501321110), f2f(-0.899976223), f2f(-2.562915447), f2f(-1.961570560), f2f(-0.390180644)}};
  return c;
}

// One 1-D pass: x0…x3 (even part) and t0…t3 (odd part) from s0…s7, wrapping.
static inline void idct1d(const int32_t* k, uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3, uint32_t s4, uint32_t s5, uint32_t s6,
                          uint32_t s7, uint32_t x[4], uint32_t t[4]) {
  uint32_t p1 = (s2 + s6) * (uint32_t)k[0];
  uint32_t t2 = p1 + s6 * (uint32_t)k[1];
  uint32_t t3 = p1 + s2 * (uint32_t)k[2];
  uint32_t t0 = (s0 + s4) * 4096u;
  uint32_t t1 = (s0 - s4) * 4096u;
  x[0] = t0 + t3;
  x[3] = t0 - t3;
  x[1] = t1 + t2;
  x[2] = t1 - t2;
  t0 = s7;
  t1 = s5;
  t2 = s3;
  t3 = s1;
  uint32_t p3 = t0 + t2, p4 = t1 + t3;
  p1 = t0 + t3;
  uint32_t p2 = t1 + t2;
  const uint32_t p5 = (p3 + p4) * (uint32_t)k[3];
  t0 *= (uint32_t)k[4];
  t1 *= (uint32_t)k[5];
  t2 *= (uint32_t)k[6];
  t3 *= (uint32_t)k[7];
  p1 = p5 + p1 * (uint32_t)k[8];
  p2 = p5 + p2 * (uint32_t)k[9];
  p3 *= (uint32_t)k[10];
  p4 *= (uint32_t)k[11];
  t[3] = t3 + p1 + p4;
  t[2] = t2 + p2 + p3;
  t[1] = t1 + p2 + p4;
  t[0] = t0 + p1 + p3;
}

// One block: coefficients (natural order) × quantization table (16-bit product) → 8×8 pixels.
static void idct_block(const int32_t* k, const int16_t* coef, const uint16_t* quant, uint8_t* out, int stride) {
  int32_t d[64], v[64];
  for (int i = 0; i < 64; i++) d[i] = (int16_t)(uint16_t)((uint32_t)(int32_t)coef[i] * (uint32_t)quant[i]);
  for (int i = 0; i < 8; i++) {
    if (d[8 + i] == 0 && d[16 + i] == 0 && d[24 + i] == 0 && d[32 + i] == 0 && d[40 + i] == 0 && d[48 + i] == 0 && d[56 + i] == 0) {
      const int32_t dc = W32((uint32_t)d[i] * 4u);
      for (int r = 0; r < 8; r++) v[r * 8 + i] = dc;
      continue;
    }
    uint32_t x[4], t[4];
    idct1d(k, (uint32_t)d[i], (uint32_t)d[8 + i], (uint32_t)d[16 + i], (uint32_t)d[24 + i], (uint32_t)d[32 + i], (uint32_t)d[40 + i],
           (uint32_t)d[48 + i], (uint32_t)d[56 + i], x, t);
    for (int j = 0; j < 4; j++) x[j] += 512u;
    v[i] = W32(x[0] + t[3]) >> 10;
    v[56 + i] = W32(x[0] - t[3]) >> 10;
    v[8 + i] = W32(x[1] + t[2]) >> 10;
    v[48 + i] = W32(x[1] - t[2]) >> 10;
    v[16 + i] = W32(x[2] + t[1]) >> 10;
    v[40 + i] = W32(x[2] - t[1]) >> 10;
    v[24 + i] = W32(x[3] + t[0]) >> 10;
    v[32 + i] = W32(x[3] - t[0]) >> 10;
  }
  const uint32_t bias = 65536u + (128u << 17);
  for (int r = 0; r < 8; r++) {
    const int32_t* b = v + r * 8;
    uint32_t x[4], t[4];
    idct1d(k, (uint32_t)b[0], (uint32_t)b[1], (uint32_t)b[2], (uint32_t)b[3], (uint32_t)b[4], (uint32_t)b[5], (uint32_t)b[6], (uint32_t)b[7], x, t);
    for (int j = 0; j < 4; j++) x[j] += bias;
    uint8_t* o = out + (size_t)r * (size_t)stride;
    o[0] = clamp8(W32(x[0] + t[3]) >> 17);
    o[7] = clamp8(W32(x[0] - t[3]) >> 17);
    o[1] = clamp8(W32(x[1] + t[2]) >> 17);
    o[6] = clamp8(W32(x[1] - t[2]) >> 17);
    o[2] = clamp8(W32(x[2] + t[1]) >> 17);
    o[5] = clamp8(W32(x[2] - t[1]) >> 17);
    o[3] = clamp8(W32(x[3] + t[0]) >> 17);
    o[4] = clamp8(W32(x[3] - t[0]) >> 17);
  }
}

// Output row y of a plane, upsampled to full width into out[0…].
static void upsample_row(const plane* p, int y, int32_t* out, int out_count) {
  const int w = p->width, h = p->height, hs = p->hs, vs = p->vs;
  int near = y / vs, far = near;
  if (vs == 2) {
    far = (y % 2 == 0) ? (near - 1 > 0 ? near - 1 : 0) : (near + 1 < h - 1 ? near + 1 : h - 1);
  } else if (vs > 2) {
    near = y / vs < h - 1 ? y / vs : h - 1;
    far = near;
  }
  near = near < h - 1 ? near : h - 1;
  far = far < h - 1 ? far : h - 1;
  const uint8_t* n = p->pixels + (size_t)near * (size_t)p->stride;
  const uint8_t* f = p->pixels + (size_t)far * (size_t)p->stride;
#define V(x) (vs == 2 ? 3 * (int32_t)n[x] + (int32_t)f[x] : (int32_t)n[x])
  if (hs == 1 && vs == 1) {
    for (int x = 0; x < w; x++) out[x] = n[x];
  } else if (hs == 1 && vs == 2) {
    for (int x = 0; x < w; x++) out[x] = (V(x) + 2) >> 2;
  } else if (hs == 2 && vs == 1) {
    if (w == 1) {
      out[0] = out[1] = n[0];
      return;
    }
    out[0] = n[0];
    out[1] = ((int32_t)n[0] * 3 + (int32_t)n[1] + 2) >> 2;
    int i = 1;
    for (; i < w - 1; i++) {
      const int32_t m = 3 * (int32_t)n[i] + 2;
      out[i * 2] = (m + (int32_t)n[i - 1]) >> 2;
      out[i * 2 + 1] = (m + (int32_t)n[i + 1]) >> 2;
    }
    out[i * 2] = ((int32_t)n[w - 2] * 3 + (int32_t)n[w - 1] + 2) >> 2;
    out[i * 2 + 1] = n[w - 1];
  } else if (hs == 2 && vs == 2) {
    if (w == 1) {
      out[0] = out[1] = (V(0) + 2) >> 2;
      return;
    }
    int32_t t1 = V(0);
    out[0] = (t1 + 2) >> 2;
    for (int i = 1; i < w; i++) {
      const int32_t t0 = t1;
      t1 = V(i);
      out[i * 2 - 1] = (3 * t0 + t1 + 8) >> 4;
      out[i * 2] = (3 * t1 + t0 + 8) >> 4;
    }
    out[w * 2 - 1] = (t1 + 2) >> 2;
  } else {
    for (int x = 0; x < w * hs && x < out_count; x++) out[x] = n[x / hs < w - 1 ? x / hs : w - 1];
  }
#undef V
}

static inline uint8_t blinn(int32_t x, int32_t y) {
  const int32_t t = x * y + 128;
  return (uint8_t)((t + (t >> 8)) >> 8);
}

int vt_jpeg_reconstruct(const vt_jpeg_coefficients* c, int kind, uint8_t* out) {
  if (!c || !out || c->num_components < 1 || c->num_components > VT_JPEG_MAX_COMPONENTS) return -1;
  const int n = c->num_components, width = c->width, height = c->height;
  int hmax = 1, vmax = 1;
  for (int k = 0; k < n; k++) {
    if (c->h_samp[k] > hmax) hmax = c->h_samp[k];
    if (c->v_samp[k] > vmax) vmax = c->v_samp[k];
  }
  plane planes[VT_JPEG_MAX_COMPONENTS];
  memset(planes, 0, sizeof planes);
  const idct_constants k12 = constants();
  int status = 0;
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
    for (int by = 0; by < c->height_in_blocks[k]; by++)
      for (int bx = 0; bx < c->width_in_blocks[k]; bx++)
        idct_block(k12.k, c->coefficients[k] + ((size_t)by * (size_t)c->width_in_blocks[k] + (size_t)bx) * 64, c->quant[k],
                   p->pixels + (size_t)by * 8 * (size_t)p->stride + (size_t)bx * 8, p->stride);
  }
  const int32_t cr_r = 1470208, cr_g = 748800, cb_g = 360960, cb_b = 1858048;  // (int)(x·4096 + 0.5f) << 8, Float arithmetic
  int32_t* rows = NULL;
  const int row_count = width + 16;
  if (status == 0 && kind != VT_JPEG_GRAY) {
    rows = (int32_t*)malloc((size_t)n * (size_t)row_count * sizeof(int32_t));
    if (!rows) status = -1;
  }
  if (status == 0 && kind == VT_JPEG_GRAY) {
    for (int y = 0; y < height; y++) memcpy(out + (size_t)y * (size_t)width, planes[0].pixels + (size_t)y * (size_t)planes[0].stride, (size_t)width);
  } else if (status == 0) {
    for (int y = 0; y < height; y++) {
      for (int k = 0; k < n; k++) upsample_row(&planes[k], y, rows + (size_t)k * (size_t)row_count, row_count);
      const int32_t *r0 = rows, *r1 = rows + row_count, *r2 = rows + 2 * (size_t)row_count, *r3 = rows + 3 * (size_t)row_count;
      uint8_t* o = out + (size_t)y * (size_t)width * 3;
      switch (kind) {
        case VT_JPEG_RGB:
          for (int x = 0; x < width; x++) {
            o[x * 3] = clamp8(r0[x]);
            o[x * 3 + 1] = clamp8(r1[x]);
            o[x * 3 + 2] = clamp8(r2[x]);
          }
          break;
        case VT_JPEG_CMYK:
          for (int x = 0; x < width; x++) {
            o[x * 3] = blinn(clamp8(r0[x]), r3[x]);
            o[x * 3 + 1] = blinn(clamp8(r1[x]), r3[x]);
            o[x * 3 + 2] = blinn(clamp8(r2[x]), r3[x]);
          }
          break;
        default:  // YCbCr, and YCCK (then inverted and multiplied by K)
          for (int x = 0; x < width; x++) {
            const int32_t yf = (r0[x] << 20) + (1 << 19), cr = r2[x] - 128, cb = r1[x] - 128;
            uint8_t r = clamp8((yf + cr * cr_r) >> 20);
            uint8_t g = clamp8((yf + cr * -cr_g + ((cb * -cb_g) & ~0xffff)) >> 20);
            uint8_t b = clamp8((yf + cb * cb_b) >> 20);
            if (kind == VT_JPEG_YCCK) {
              r = blinn(255 - r, r3[x]);
              g = blinn(255 - g, r3[x]);
              b = blinn(255 - b, r3[x]);
            }
            o[x * 3] = r;
            o[x * 3 + 1] = g;
            o[x * 3 + 2] = b;
          }
          break;
      }
    }
  }
  free(rows);
  for (int k = 0; k < n; k++) free(planes[k].pixels);
  return status;
}
