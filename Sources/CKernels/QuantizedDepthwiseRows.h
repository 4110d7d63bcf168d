// The uint8 depthwise kernel's vector body, included by QuantizedDepthwise.c once per variant: AVX2
// (vpmaddwd + vpaddd), AVX-512 VNNI on 256-bit vectors (vpdpwssd), and portable C computing exactly
// what each of those instructions computes — one kernel source, so the tests run its arithmetic bit
// for bit on any CPU. The includer defines QD(name), QD_TARGET and:
//   qv (32 bytes: 16 int16 or 8 int32 lanes in two 128-bit halves), qv_load(const void *),
//   qv_load_u8(const uint8_t *) (16 bytes zero-extended to 16 int16: vpmovzxbw), qv_load_s8 (the same
//   sign-extended: vpmovsxbw, for int8),
//   qv_unpacklo16 / qv_unpackhi16 (vpunpck[lh]wd: within each half, the low or high four int16 of a and
//   b interleaved), qv_dot(acc, a, b) (vpmaddwd then vpaddd, or vpdpwssd: each int32 lane adds
//   a0·b0 + a1·b1, wrapping), qv_store_u8(dst, lo, hi, r, scales, n, sgn) (the requantization of 16
//   channels whose sums and scales are in the unpacks' order, n ≤ 16 bytes stored; int8 when sgn).
//
// Arithmetic: channel c's sum is bias'[c] + Σ_t x_t[c]·w'_t[c] with w' = w − filter zero point and
// bias' = bias − input zero point · Σ_t w'_t[c] (a tap in the padding reads a row of input zero points,
// so it adds 0, as in XNNPACK). Taps go in pairs: x_{2p} and x_{2p+1} interleaved by the unpacks meet
// the filter pair packed in the same order (QuantizedDepthwise.c's pack), |x·w'| ≤ 255·255, so every
// product and sum is the exact integer. `sgn` (a constant in each instantiation) reads int8 inputs.

// Channel blocks kb[0] (and kb[1] when n = 2) of m output pixels (1 or 2; the second one `next` bytes
// further in the input, its output c bytes further): block i's taps are the 16 bytes at src[t] + x[i]
// (+ next), its output the 16 bytes at dst + x[i] (+ c). Two blocks or two pixels give four or eight
// independent sums, so the dot products' latencies overlap, and the pixels share the filter's loads.
static QD_TARGET inline __attribute__((always_inline)) void QD(blocks)(const vt_qdw *op, const uint8_t *const *src, const size_t x[2],
                                                                        const int32_t kb[2], int n, int m, size_t next,
                                                                        uint8_t *dst, const int sgn) {
  const int32_t pairs = op->pairs;
  qv lo[2][2], hi[2][2];
  const int16_t *wp[2];
#pragma clang loop unroll(full)
  for (int i = 0; i < 2; i++) {
    if (i >= n) break;
    wp[i] = op->filter_packed + (size_t)kb[i] * (size_t)pairs * 32;
#pragma clang loop unroll(full)
    for (int j = 0; j < 2; j++) {
      if (j >= m) break;
      lo[j][i] = qv_load(op->bias_packed + (size_t)kb[i] * 16);
      hi[j][i] = qv_load(op->bias_packed + (size_t)kb[i] * 16 + 8);
    }
  }
  for (int32_t p = 0; p < pairs; p++) {
#pragma clang loop unroll(full)
    for (int i = 0; i < 2; i++) {
      if (i >= n) break;
      const qv w0 = qv_load(wp[i] + (size_t)p * 32), w1 = qv_load(wp[i] + (size_t)p * 32 + 16);
#pragma clang loop unroll(full)
      for (int j = 0; j < 2; j++) {
        if (j >= m) break;
        const size_t at = x[i] + (size_t)j * next;
        const qv x0 = sgn ? qv_load_s8(src[2 * p] + at) : qv_load_u8(src[2 * p] + at);
        const qv x1 = sgn ? qv_load_s8(src[2 * p + 1] + at) : qv_load_u8(src[2 * p + 1] + at);
        lo[j][i] = qv_dot(lo[j][i], qv_unpacklo16(x0, x1), w0);
        hi[j][i] = qv_dot(hi[j][i], qv_unpackhi16(x0, x1), w1);
      }
    }
  }
#pragma clang loop unroll(full)
  for (int i = 0; i < 2; i++) {
    if (i >= n) break;
#pragma clang loop unroll(full)
    for (int j = 0; j < 2; j++) {
      if (j >= m) break;
      qv_store_u8(dst + x[i] + (size_t)j * (size_t)op->channels, lo[j][i], hi[j][i], &op->requantization,
                  op->scale_packed + (size_t)kb[i] * 16, 16, sgn);
    }
  }
}

// Output rows oy0..<oy1 of one image `in` (h×w) into `out` (its first output pixel).
static QD_TARGET inline __attribute__((always_inline)) void QD(rows_of)(const vt_qdw *op, const uint8_t *in, int32_t h, int32_t w,
                                                                         int32_t ow, int32_t pad_h, int32_t pad_w, int32_t oy0, int32_t oy1,
                                                                         uint8_t *out, const int sgn) {
  const int32_t c = op->channels, pairs = op->pairs, full = c / 16, rest = c % 16;
  const uint8_t *src[2 * kMaxPairs];
  uint8_t tail[2 * kMaxPairs][16];
  const uint8_t *tails[2 * kMaxPairs];
  memset(tail, 0, sizeof tail);
  for (int32_t t = 0; t < 2 * pairs; t++) tails[t] = tail[t];
  // An interior pixel's taps: fixed offsets from its window's first input pixel.
  size_t offsets[2 * kMaxPairs];
  for (int32_t t = 0; t < op->taps; t++)
    offsets[t] = ((size_t)(t / op->kernel_w) * (size_t)op->dilation_h * (size_t)w + (size_t)(t % op->kernel_w) * (size_t)op->dilation_w) *
                 (size_t)c;
  const int32_t span_h = (op->kernel_h - 1) * op->dilation_h, span_w = (op->kernel_w - 1) * op->dilation_w;
  for (int32_t oy = oy0; oy < oy1; oy++) {
    const int32_t iy = oy * op->stride_h - pad_h;
    for (int32_t ox = 0; ox < ow; ox++) {
      const int32_t ix = ox * op->stride_w - pad_w;
      const int interior = iy >= 0 && iy + span_h < h && ix >= 0 && ix + span_w < w;
      if (interior) {
        const uint8_t *base = in + ((size_t)iy * (size_t)w + (size_t)ix) * (size_t)c;
        for (int32_t t = 0; t < op->taps; t++) src[t] = base + offsets[t];
        if (op->taps % 2) src[op->taps] = src[0];  // an odd last pair's other tap: any input bytes (its filter is 0)
      } else {
        tap_sources(op, in, h, w, pad_h, pad_w, oy, ox, src);
      }
      uint8_t *dst = out + ((size_t)oy * (size_t)ow + (size_t)ox) * (size_t)c;
      // Blocks of 16 channels two at a time; with 16 or more channels a last partial block is the last
      // 16 channels again, with that block's filter (the same bytes where they overlap). With one or two
      // blocks, two interior pixels side by side at a time.
      const int32_t blocks = full + (rest && full ? 1 : 0);
      const int pair = blocks <= 2 && blocks > 0 && interior && ox + 1 < ow && ix + op->stride_w + span_w < w;
      const size_t next = (size_t)op->stride_w * (size_t)c;
      for (int32_t b = 0; b < blocks; b += 2) {
        const size_t x[2] = {b < full ? (size_t)b * 16 : (size_t)(c - 16), b + 1 < full ? (size_t)(b + 1) * 16 : (size_t)(c - 16)};
        const int32_t kb[2] = {b, b + 1};
        // n and m constants in each call: the sums stay in registers
        if (b + 1 < blocks) {
          if (pair) QD(blocks)(op, src, x, kb, 2, 2, next, dst, sgn);
          else QD(blocks)(op, src, x, kb, 2, 1, next, dst, sgn);
        } else {
          if (pair) QD(blocks)(op, src, x, kb, 1, 2, next, dst, sgn);
          else QD(blocks)(op, src, x, kb, 1, 1, next, dst, sgn);
        }
      }
      if (pair) ox++;
      if (rest && !full) {  // fewer than 16 channels: gathered into 16-byte rows (the filter is 0 beyond them)
        for (int32_t t = 0; t < 2 * pairs; t++)
          for (int32_t i = 0; i < rest; i++) tail[t][i] = src[t][i];
        uint8_t last[16];
        const size_t x[2] = {0, 0};
        const int32_t kb[2] = {0, 0};
        QD(blocks)(op, tails, x, kb, 1, 1, 0, last, sgn);
        for (int32_t i = 0; i < rest; i++) dst[i] = last[i];
      }
    }
  }
}

static QD_TARGET void QD(rows)(const vt_qdw *op, const uint8_t *in, int32_t h, int32_t w, int32_t ow, int32_t pad_h, int32_t pad_w,
                               int32_t oy0, int32_t oy1, uint8_t *out) {
  if (op->is_signed) QD(rows_of)(op, in, h, w, ow, pad_h, pad_w, oy0, oy1, out, 1);
  else QD(rows_of)(op, in, h, w, ow, pad_h, pad_w, oy0, oy1, out, 0);
}
