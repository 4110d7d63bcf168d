// The dot-product (VNNI) depthwise kernel's body (depth multiplier 1), included twice by
// HybridDepthwise.c: once with AVX-512 VNNI instructions on 256-bit vectors, once with portable C
// that computes exactly what each instruction computes — the same kernel source, so that the tests
// run its arithmetic bit for bit on any CPU. The includer defines DQ(name) (the variant's names),
// DQ_TARGET (the functions' attributes) and:
//   dv (32 bytes: 8 int32 lanes in two 128-bit halves), dv_load(const void *), dv_store(void *, dv),
//   dv_xor80(dv) (each byte ^ 0x80), dv_unpacklo8 / dv_unpackhi8 / dv_unpacklo16 / dv_unpackhi16
//   (vpunpck[lh]bw / [lh]wd: within each half, the low or high elements of a and b interleaved),
//   dv_dpbusd(acc, a, b) (vpdpbusd: each lane adds the four products of a's unsigned and b's signed
//   bytes, int32 wrap-around), dv_perm_lo / dv_perm_hi (vperm2i128 0x20 / 0x31: the low or high
//   halves of a and b).
//
// Arithmetic: the sum for a channel is Σ_t f_t·(q_t − zp) over the taps (a tap in the padding reads a
// row of zero points and adds 0). With u = q + 128 (q ^ 0x80, unsigned) it is Σ_t f_t·u_t − (128 +
// zp)·Σ_t f_t: four taps per vpdpbusd lane, the filters arranged once per call as signed-byte quads
// in the order the unpacks leave the channels, the second term a per-channel start value. Every
// product and sum is an exact integer (|f·u| ≤ 127·255), so the sums equal the plain path's.

// Rows oy0..<oy1 of one batch from its quantized input `q` (zp, scale s); `acc` is the thread's
// scratch (see thread_bytes).
static DQ_TARGET void DQ(rows)(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h, int32_t w, int32_t ow,
                               int32_t pad_h, int32_t pad_w, int32_t oy0, int32_t oy1, float *out, int32_t *acc) {
  const int32_t c = p->in_channels, blocks = (c + 31) / 32, cp = blocks * 32;
  const int32_t taps = p->kernel_h * p->kernel_w, groups = (taps + 3) / 4;
  uint8_t *extra = (uint8_t *)acc + align64((size_t)c * sizeof(int32_t) + 2 * (size_t)c);
  int32_t *start = (int32_t *)extra;
  uint8_t *quads = extra + align64((size_t)cp * sizeof(int32_t));
  int8_t *zp_row = (int8_t *)(quads + align64((size_t)groups * (size_t)cp * 4));
  memset(zp_row, (int8_t)zp, (size_t)cp + 32);
  // Quads and start values in the unpacks' channel order: vector r of block b, lane l holds channel
  // b·32 + (l < 4 ? 0 : 16) + 4r + l % 4.
  for (int32_t b = 0; b < blocks; b++) {
    for (int r = 0; r < 4; r++) {
      for (int l = 0; l < 8; l++) {
        const int32_t ch = b * 32 + (l < 4 ? 0 : 16) + 4 * r + l % 4;
        uint32_t sum = 0;
        for (int32_t g = 0; g < groups; g++) {
          for (int j = 0; j < 4; j++) {
            const int32_t t = g * 4 + j;
            const int8_t f = (t < taps && ch < c) ? p->filter[(size_t)t * (size_t)c + (size_t)ch] : 0;
            quads[(((size_t)b * (size_t)groups + (size_t)g) * 4 + (size_t)r) * 32 + (size_t)l * 4 + (size_t)j] = (uint8_t)f;
            sum += (uint32_t)(int32_t)f;
          }
        }
        start[(b * 4 + r) * 8 + l] = (int32_t)(0u - (uint32_t)(128 + zp) * sum);
      }
    }
  }
  float lo, hi;
  activation_range(p, &lo, &hi);
  const int8_t *src[kMaxTaps + 4];
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < ow; ox++) {
      int n = tap_sources(p, q, zp_row, h, w, pad_h, pad_w, oy, ox, src);
      while (n < groups * 4) src[n++] = zp_row;
      for (int32_t b = 0; b < blocks; b++) {
        const int32_t k = b * 32;
        dv a0 = dv_load(start + b * 32), a1 = dv_load(start + b * 32 + 8), a2 = dv_load(start + b * 32 + 16), a3 = dv_load(start + b * 32 + 24);
        const uint8_t *fq = quads + (size_t)b * (size_t)groups * 128;
        for (int32_t g = 0; g < groups; g++, fq += 128) {
          const dv t0 = dv_xor80(dv_load(src[4 * g] + k)), t1 = dv_xor80(dv_load(src[4 * g + 1] + k));
          const dv t2 = dv_xor80(dv_load(src[4 * g + 2] + k)), t3 = dv_xor80(dv_load(src[4 * g + 3] + k));
          const dv lo01 = dv_unpacklo8(t0, t1), hi01 = dv_unpackhi8(t0, t1), lo23 = dv_unpacklo8(t2, t3), hi23 = dv_unpackhi8(t2, t3);
          a0 = dv_dpbusd(a0, dv_unpacklo16(lo01, lo23), dv_load(fq));
          a1 = dv_dpbusd(a1, dv_unpackhi16(lo01, lo23), dv_load(fq + 32));
          a2 = dv_dpbusd(a2, dv_unpacklo16(hi01, hi23), dv_load(fq + 64));
          a3 = dv_dpbusd(a3, dv_unpackhi16(hi01, hi23), dv_load(fq + 96));
        }
        int32_t tail[32];
        int32_t *to = k + 32 <= c ? acc + k : tail;
        dv_store(to, dv_perm_lo(a0, a1));
        dv_store(to + 8, dv_perm_lo(a2, a3));
        dv_store(to + 16, dv_perm_hi(a0, a1));
        dv_store(to + 24, dv_perm_hi(a2, a3));
        if (to == tail) memcpy(acc + k, tail, (size_t)(c - k) * sizeof(int32_t));
      }
      pixel_output(p, acc, s, lo, hi, out + ((size_t)oy * (size_t)ow + (size_t)ox) * (size_t)c);
    }
  }
}

// The triple path (kernel width 3, dilations 1, depth multiplier 1: triple_fits in HybridDepthwise.c).
// Each input row is laid out once as triples: for pixel ix and channel ch, the four bytes u(ix − 1),
// u(ix), u(ix + 1), 0 (u = q + 128; a neighbour outside the picture reads zp + 128, adding 0), so
// that one vpdpbusd takes a whole kernel row of 8 channels: for output (oy, ox) the taps of kernel
// row ky are the triple of input pixel ox·stride − pad + 1 in row oy·stride − pad + ky, against the
// filter's row as quads (f0, f1, f2, 0). The rows a thread needs are kept in a ring of kernel_h rows
// (kernel row ky's input row in slot iy mod kernel_h), each laid out once per thread.
static DQ_TARGET inline void DQ(triple_row)(uint8_t *dst, const int8_t *row, const int8_t *zp_row, const uint8_t *zeros, int32_t w, int32_t c,
                                            int32_t cp) {
  const dv z = dv_load(zeros);
  for (int32_t ix = 0; ix < w; ix++) {
    const int8_t *l = ix > 0 ? row + (size_t)(ix - 1) * (size_t)c : zp_row, *m = row + (size_t)ix * (size_t)c;
    const int8_t *r = ix + 1 < w ? row + (size_t)(ix + 1) * (size_t)c : zp_row;
    uint8_t *d = dst + (size_t)ix * (size_t)cp * 4;
    for (int32_t k = 0; k < cp; k += 32) {
      const dv a = dv_xor80(dv_load(l + k)), b = dv_xor80(dv_load(m + k)), cc = dv_xor80(dv_load(r + k));
      const dv lo_ab = dv_unpacklo8(a, b), hi_ab = dv_unpackhi8(a, b), lo_c = dv_unpacklo8(cc, z), hi_c = dv_unpackhi8(cc, z);
      const dv q0 = dv_unpacklo16(lo_ab, lo_c), q1 = dv_unpackhi16(lo_ab, lo_c);  // channels 0-3 | 16-19, 4-7 | 20-23
      const dv q2 = dv_unpacklo16(hi_ab, hi_c), q3 = dv_unpackhi16(hi_ab, hi_c);  // 8-11 | 24-27, 12-15 | 28-31
      dv_store(d + (size_t)k * 4, dv_perm_lo(q0, q1));
      dv_store(d + (size_t)k * 4 + 32, dv_perm_lo(q2, q3));
      dv_store(d + (size_t)k * 4 + 64, dv_perm_hi(q0, q1));
      dv_store(d + (size_t)k * 4 + 96, dv_perm_hi(q2, q3));
    }
  }
}

static DQ_TARGET void DQ(triple_rows)(const vt_hdw_params *p, const int8_t *q, int32_t zp, float s, int32_t h, int32_t w, int32_t ow,
                                      int32_t pad_h, int32_t pad_w, int32_t oy0, int32_t oy1, float *out, int32_t *acc) {
  const int32_t c = p->in_channels, cp = (c + 31) / 32 * 32, kh = p->kernel_h;
  triple_scratch t = triple_layout(p, acc, w);
  memset(t.zp_row, (int8_t)zp, (size_t)cp + 32);
  memset(t.zeros, 0, 32);
  for (int32_t ch = 0; ch < cp; ch++) {
    uint32_t sum = 0;
    for (int32_t ky = 0; ky < kh; ky++) {
      for (int32_t kx = 0; kx < 3; kx++) {
        const int8_t f = ch < c ? p->filter[((size_t)ky * 3 + (size_t)kx) * (size_t)c + (size_t)ch] : 0;
        t.filter[((size_t)ky * (size_t)cp + (size_t)ch) * 4 + (size_t)kx] = (uint8_t)f;
        sum += (uint32_t)(int32_t)f;
      }
      t.filter[((size_t)ky * (size_t)cp + (size_t)ch) * 4 + 3] = 0;
    }
    t.start[ch] = (int32_t)(0u - (uint32_t)(128 + zp) * sum);
    for (int j = 0; j < 3; j++) t.zp_triples[(size_t)ch * 4 + (size_t)j] = (uint8_t)(zp + 128);
    t.zp_triples[(size_t)ch * 4 + 3] = 0;
  }
  for (int32_t r = 0; r < kh; r++) t.tags[r] = -1;
  float lo, hi;
  activation_range(p, &lo, &hi);
  const size_t row_bytes = (size_t)w * (size_t)cp * 4;
  const uint8_t *rows[kMaxTaps / 3];
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ky = 0; ky < kh; ky++) {
      const int32_t iy = oy * p->stride_h - pad_h + ky;
      if (iy < 0 || iy >= h) {
        rows[ky] = NULL;
        continue;
      }
      const int32_t slot = iy % kh;
      uint8_t *ring = t.ring + (size_t)slot * row_bytes;
      if (t.tags[slot] != iy) {
        DQ(triple_row)(ring, q + (size_t)iy * (size_t)w * (size_t)c, t.zp_row, t.zeros, w, c, cp);
        t.tags[slot] = iy;
      }
      rows[ky] = ring;
    }
    for (int32_t ox = 0; ox < ow; ox++) {
      // Each kernel row's triples for this output (a row outside the picture: the zero points').
      const size_t at = (size_t)(ox * p->stride_w - pad_w + 1) * (size_t)cp * 4;
      const uint8_t *u[kMaxTaps / 3];
      for (int32_t ky = 0; ky < kh; ky++) u[ky] = rows[ky] ? rows[ky] + at : t.zp_triples;
      int32_t k = 0;
      if (kh == 3) {  // the MobileNets' 3×3: sixteen channels a step, two independent sums
        const uint8_t *f0 = t.filter, *f1 = f0 + (size_t)cp * 4, *f2 = f1 + (size_t)cp * 4;
        for (; k + 16 <= c; k += 16) {
          const size_t o = (size_t)k * 4;
          dv a = dv_load(t.start + k), b = dv_load(t.start + k + 8);
          a = dv_dpbusd(a, dv_load(u[0] + o), dv_load(f0 + o));
          b = dv_dpbusd(b, dv_load(u[0] + o + 32), dv_load(f0 + o + 32));
          a = dv_dpbusd(a, dv_load(u[1] + o), dv_load(f1 + o));
          b = dv_dpbusd(b, dv_load(u[1] + o + 32), dv_load(f1 + o + 32));
          a = dv_dpbusd(a, dv_load(u[2] + o), dv_load(f2 + o));
          b = dv_dpbusd(b, dv_load(u[2] + o + 32), dv_load(f2 + o + 32));
          dv_store(acc + k, a);
          dv_store(acc + k + 8, b);
        }
      }
      for (; k < c; k += 8) {
        dv a = dv_load(t.start + k);
        for (int32_t ky = 0; ky < kh; ky++)
          a = dv_dpbusd(a, dv_load(u[ky] + (size_t)k * 4), dv_load(t.filter + ((size_t)ky * (size_t)cp + (size_t)k) * 4));
        if (k + 8 <= c) {
          dv_store(acc + k, a);
        } else {
          int32_t tail[8];
          dv_store(tail, a);
          memcpy(acc + k, tail, (size_t)(c - k) * sizeof(int32_t));
        }
      }
      pixel_output(p, acc, s, lo, hi, out + ((size_t)oy * (size_t)ow + (size_t)ox) * (size_t)c);
    }
  }
}

// The names the includer defined, undefined for the next variant.
#undef dv
#undef dv_load
#undef dv_store
#undef dv_xor80
#undef dv_unpacklo8
#undef dv_unpackhi8
#undef dv_unpacklo16
#undef dv_unpackhi16
#undef dv_dpbusd
#undef dv_perm_lo
#undef dv_perm_hi
#undef DQ
#undef DQ_TARGET
