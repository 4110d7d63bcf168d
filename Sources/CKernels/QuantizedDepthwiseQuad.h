// The int8 depthwise kernel's dot-product (VNNI) body, included by QuantizedDepthwise.c twice: once
// with AVX-512 VNNI instructions, once in portable C computing exactly what each instruction computes,
// so that the tests run its arithmetic bit for bit on any CPU. The includer defines QDQ(name),
// QDQ_TARGET and:
//   zv (64 bytes: 64 unsigned bytes or 16 int32 lanes), zv_load_flipped(const uint8_t *, n) (the first n
//   ≤ 64 bytes with their top bits flipped — x + 128 for int8 x — the rest 0), zv_load32(const int32_t *)
//   (16 int32), zv_dpbusd(acc, zv bytes, const int8_t *64 signed bytes) (vpdpbusd: each int32 lane plus
//   the four products of its unsigned and signed bytes, wrapping), zv_store_requantized(uint8_t *dst,
//   const zv acc[4], const float *scales, high, zp, qmin, n) (64 channels' sums, channel 4i + j in lane i
//   of acc[j], to the first n int8 bytes: XNNPACK's fp32 requantization as the 1×1 kernel's four-row
//   store computes it, clamped above in float, saturated, clamped below).
//
// Arithmetic (docs/uint8-depthwise.md): vpdpbusd multiplies unsigned bytes by signed ones and adds
// four products per lane. The input's 64 channels are its unsigned bytes x + 128 as loaded, with no
// shuffle; the filter holds, for tap t and phase j, the signed weight of channel 4i + j in byte j of
// lane i and 0 in the lane's three other bytes, so four dot products give each channel its product
// in the lane of its phase. Σ (x + 128)·w = Σ x·w + 128·Σ w, and Σ (x − izp)·w = Σ (x + 128)·w −
// (izp + 128)·Σ w: the accumulators start at bias − (izp + 128)·Σ_t w_t, and a tap in the padding reads
// the input's zero point (it adds 0, as in XNNPACK). Every sum is the exact int32 one.

// Block b of `m` output pixels (1 or 3, a constant where inlined): pixel d's taps are src[t] + d·next.
// Three pixels give twelve independent sums (a dot product's latency is several cycles; one pixel's
// four phases alone would wait on it) and share each tap's filter loads.
// `n`: the block's bytes (64, or fewer in a last block).
static QDQ_TARGET inline __attribute__((always_inline)) void QDQ(block)(const vt_qdw *op, const uint8_t *const *src, size_t next, int32_t b,
                                                                         int32_t n, const int m, uint8_t *dst, size_t dst_next, float high,
                                                                         int32_t zp, int32_t qmin) {
  const int32_t taps = op->taps;
  const int32_t *bias = op->quad_bias + (size_t)b * 64;
  zv acc[3][4];
#pragma clang loop unroll(full)
  for (int d = 0; d < m; d++)
#pragma clang loop unroll(full)
    for (int j = 0; j < 4; j++) acc[d][j] = zv_load32(bias + 16 * j);
  const int8_t *f = op->quad_filter + (size_t)b * (size_t)taps * 256;
  for (int32_t t = 0; t < taps; t++, f += 256) {
#pragma clang loop unroll(full)
    for (int d = 0; d < m; d++) {
      const zv x = zv_load_flipped(src[t] + (size_t)b * 64 + (size_t)d * next, n);
#pragma clang loop unroll(full)
      for (int j = 0; j < 4; j++) acc[d][j] = zv_dpbusd(acc[d][j], x, f + 64 * j);
    }
  }
#pragma clang loop unroll(full)
  for (int d = 0; d < m; d++)
    zv_store_requantized(dst + (size_t)b * 64 + (size_t)d * dst_next, acc[d], op->quad_scale + (size_t)b * 64, high, zp, qmin, n);
}

// Output rows oy0..<oy1 of one image `in` (h×w) into `out`: interior pixels three at a time. With 32
// channels and a horizontal stride of 1 (op->quad_pixels 2), a block's 64 bytes are two neighbouring
// pixels' channels — for each tap, the two output pixels' inputs side by side — and the filter holds the
// 32 channels twice: interior pixels go six at a time, a pixel by the border alone (its 32 bytes).
static QDQ_TARGET void QDQ(rows)(const vt_qdw *op, const uint8_t *in, int32_t h, int32_t w, int32_t ow, int32_t pad_h, int32_t pad_w,
                                 int32_t oy0, int32_t oy1, uint8_t *out) {
  const int32_t c = op->channels, taps = op->taps, blocks = (c + 63) / 64, per = op->quad_pixels;
  const uint8_t *src[2 * kMaxPairs];
  size_t offsets[2 * kMaxPairs];
  for (int32_t t = 0; t < taps; t++)
    offsets[t] = ((size_t)(t / op->kernel_w) * (size_t)op->dilation_h * (size_t)w + (size_t)(t % op->kernel_w) * (size_t)op->dilation_w) *
                 (size_t)c;
  const int32_t span_h = (op->kernel_h - 1) * op->dilation_h, span_w = (op->kernel_w - 1) * op->dilation_w;
  const float high = op->requantization.high;
  const int32_t zp = op->requantization.zero_point, qmin = (int32_t)op->requantization.low + zp;
  const size_t next = (size_t)per * (size_t)op->stride_w * (size_t)c, dst_next = (size_t)per * (size_t)c;
  const int32_t group = 3 * per;  // output pixels of a three-block step
  for (int32_t oy = oy0; oy < oy1; oy++) {
    const int32_t iy = oy * op->stride_h - pad_h;
    const int rows_inside = iy >= 0 && iy + span_h < h;
    for (int32_t ox = 0; ox < ow;) {
      const int32_t ix = ox * op->stride_w - pad_w;
      uint8_t *dst = out + ((size_t)oy * (size_t)ow + (size_t)ox) * (size_t)c;
      const int interior = rows_inside && ix >= 0 && ix + span_w < w;
      if (interior) {
        const uint8_t *base = in + ((size_t)iy * (size_t)w + (size_t)ix) * (size_t)c;
        for (int32_t t = 0; t < taps; t++) src[t] = base + offsets[t];
      } else {
        tap_sources(op, in, h, w, pad_h, pad_w, oy, ox, src);
      }
      // A whole group when its last pixel's window is inside the picture too.
      const int whole = interior && ox + group - 1 < ow && ix + (group - 1) * op->stride_w + span_w < w;
      for (int32_t b = 0; b < blocks; b++) {
        // A block's bytes: 64, fewer in a last block, all 64 when it holds two pixels of a whole group.
        const int32_t n = (whole && per > 1) || c - b * 64 >= 64 ? 64 : c - b * 64;
        if (whole) QDQ(block)(op, src, next, b, n, 3, dst, dst_next, high, zp, qmin);
        else QDQ(block)(op, src, next, b, n, 1, dst, dst_next, high, zp, qmin);
      }
      ox += whole ? group : 1;
    }
  }
}

// The names the includer defined, undefined for the next variant.
#undef zv
#undef zv_load_flipped
#undef zv_load32
#undef zv_dpbusd
#undef zv_store_requantized
#undef QDQ
#undef QDQ_TARGET
