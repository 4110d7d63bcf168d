// The dot-product (VNNI) 1×1 kernel's body, included twice by Conv1x1.c: once with the AVX-512 VNNI
// instructions, once with portable C that computes exactly what each instruction computes — the
// same kernel source, so that the tests run its arithmetic bit for bit on any CPU. The includer
// defines QUAD(name) (the variant's names), QUAD_TARGET (the functions' attributes), QUAD_PREPARE (the
// input quantizer for the hybrid kind), QUAD_PREPARE_BYTES (one that writes the byte rows directly, or
// NULL), and:
//   qv (16 int32 lanes), fv (16 float lanes) and
//   qv_load(const int32_t *), qv_set1(int32_t), qv_add(qv, qv), qv_mullo(qv, qv),
//   qv_dpbusd(qv acc, int32_t four unsigned bytes, const uint8_t *64 signed bytes)  (vpdpbusd),
//   fv_from(qv) (vcvtdq2ps), fv_load(const float *), fv_set1(float), fv_mul, fv_fmadd(a, b, c) (a·b + c,
//   one rounding), fv_max(a, b) (vmaxps: b unless a > b), fv_min(a, b) (vminps: b unless a < b),
//   qv_round(fv) (vcvtps2dq, nearest-even), qv_store_u8(uint8_t *, qv, n) (the low byte of the first n
//   lanes, values already 0…255, or −128…127 for int8), fv_store(float *, fv, n) (the first n lanes),
//   qv_store4_u8(uint8_t *to, size_t stride, qv q[4], zp, qmin, is_signed, n) (four rows' first n lanes
//   at to + j·stride: each lane saturated to int16 (vpackssdw), plus zp saturated (vpaddsw), saturated
//   to int8 or uint8 (vpacksswb / vpackuswb), at least qmin (vpmaxsb / vpmaxub)).
//
// Arithmetic (docs/conv1x1.md): filters are packed as signed bytes in quads of input channels, the
// uint8 kind's as w − 128; activations as unsigned bytes (the uint8 kind's x as is, the hybrid kind's
// int8 q as q + 128). vpdpbusd's exact int32 sums then give XNNPACK's Σ (x − izp)(w − fzp) through a
// per-row term (128 − fzp)·Σx and a per-column term (bias − izp·Σw + K·izp·fzp), and the hybrid
// Σ (q − zp)·w through − (128 + zp)·Σw.

// One tile: the `mr` rows from mb (of the chunk starting at row c0) × the 16 columns of block nb. `mr`
// is a constant where the tile is inlined, so each row count has its own code, accumulators in
// registers and no guards.
static QUAD_TARGET inline __attribute__((always_inline)) void QUAD(tile)(const vt_conv1x1 *op, int32_t nb, int64_t mb, int64_t c0, const int mr,
                                                                          const uint8_t *rows, const int32_t *row_terms, const float *pixel_scales,
                                                                          void *output, int stream) {
  const int32_t kq = op->kq, stride = kq * 4;
  const uint8_t *w = op->quads + (size_t)nb * (size_t)kq * 64;
  const uint8_t *x = rows + (size_t)(mb - c0) * (size_t)stride;
  const qv column = qv_load(op->quad_terms + (size_t)nb * 16);
  qv acc[kQuadMR];
#pragma clang loop unroll(full)
  for (int r = 0; r < mr; r++) {
    const int32_t term = row_terms[mb - c0 + r];
    acc[r] = op->kind == kUInt8 ? qv_add(column, qv_set1(term)) : qv_mullo(column, qv_set1(term));
  }
  for (int32_t p = 0; p < kq; p++) {
    const uint8_t *wp = w + (size_t)p * 64;
#pragma clang loop unroll(full)
    for (int r = 0; r < mr; r++) {
      int32_t quad;
      memcpy(&quad, x + (size_t)r * (size_t)stride + (size_t)p * 4, 4);
      acc[r] = qv_dpbusd(acc[r], quad, wp);
    }
  }
  const int32_t columns = op->n - nb * 16 < 16 ? op->n - nb * 16 : 16;
  if (op->kind == kUInt8) {
    const fv scale = fv_load(op->scales + (size_t)nb * 16), low = fv_set1(op->low), high = fv_set1(op->high);
    const qv zp = qv_set1(op->output_zero_point);
    uint8_t *to = (uint8_t *)output + (size_t)mb * (size_t)op->n + (size_t)nb * 16;
    // Four rows at a time as XNNPACK stores them: the float clamped above only, rounded, then packed
    // to int16 with saturation, the zero point added with saturation, packed to bytes with saturation
    // and clamped below (the same bytes as clamping both ends in float: the bounds are whole numbers).
    const int32_t qmin = (int32_t)op->low + op->output_zero_point;
#pragma clang loop unroll(full)
    for (int r = 0; r + 4 <= mr; r += 4) {
      qv q[4];
#pragma clang loop unroll(full)
      for (int j = 0; j < 4; j++) q[j] = qv_round(fv_min(fv_mul(fv_from(acc[r + j]), scale), high));
      qv_store4_u8(to + (size_t)r * (size_t)op->n, (size_t)op->n, q, op->output_zero_point, qmin, op->is_signed, columns);
    }
#pragma clang loop unroll(full)
    for (int r = mr / 4 * 4; r < mr; r++) {
      const fv f = fv_min(fv_max(fv_mul(fv_from(acc[r]), scale), low), high);
      qv_store_u8(to + (size_t)r * (size_t)op->n, qv_add(qv_round(f), zp), columns);
    }
  } else {
    const fv s = fv_load(op->channel_scales + (size_t)nb * 16), b = fv_load(op->fbias + (size_t)nb * 16);
    const fv lo = fv_set1(op->min), hi = fv_set1(op->max);
#pragma clang loop unroll(full)
    for (int r = 0; r < mr; r++) {
      const fv v = fv_fmadd(fv_mul(fv_from(acc[r]), fv_set1(pixel_scales[mb + r - c0])), s, b);
      float *to = (float *)output + (size_t)(mb + r) * (size_t)op->n + (size_t)nb * 16;
      if (stream) fv_stream(to, fv_min(fv_max(v, lo), hi), columns);
      else fv_store(to, fv_min(fv_max(v, lo), hi), columns);
    }
  }
}

// The tiles of rows mb..<mb + count (at most kQuadMR) × every column block: a full tile's rows at
// once, a tail in tiles of 8, 4, 2 and 1 rows (no row computed twice: M = 1, a classifier's last
// op, costs one row).
static QUAD_TARGET inline __attribute__((always_inline)) void QUAD(tiles)(const vt_conv1x1 *op, int64_t mb, int64_t c0, int count,
                                                                           const uint8_t *rows, const int32_t *row_terms,
                                                                           const float *pixel_scales, void *output, int stream) {
  if (count == kQuadMR) {
    for (int32_t nb = 0; nb < op->nb; nb++) QUAD(tile)(op, nb, mb, c0, kQuadMR, rows, row_terms, pixel_scales, output, stream);
    return;
  }
  for (int step = 8; step >= 1; step /= 2) {
    if (count < step) continue;
    for (int32_t nb = 0; nb < op->nb; nb++) {
      switch (step) {
      case 8: QUAD(tile)(op, nb, mb, c0, 8, rows, row_terms, pixel_scales, output, stream); break;
      case 4: QUAD(tile)(op, nb, mb, c0, 4, rows, row_terms, pixel_scales, output, stream); break;
      case 2: QUAD(tile)(op, nb, mb, c0, 2, rows, row_terms, pixel_scales, output, stream); break;
      default: QUAD(tile)(op, nb, mb, c0, 1, rows, row_terms, pixel_scales, output, stream); break;
      }
    }
    mb += step;
    count -= step;
  }
}

// Rows m0..<m1: each chunk's rows made unsigned bytes (with their row terms), then its tiles.
static QUAD_TARGET void QUAD(rows)(const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, void *output, int16_t *a, float *slot,
                                   int stream) {
  // After the thread's int16 rows and pixel scales (run_chunk): the chunk's rows as bytes, then the
  // row terms and (hybrid) zero points.
  uint8_t *rows = (uint8_t *)slot + align64(kChunk * sizeof(float));
  int32_t *row_terms = (int32_t *)(rows + align64((size_t)kChunk * (size_t)op->kq * 4));
  for (int64_t c0 = m0; c0 < m1; c0 += kChunk) {
    const int64_t c1 = c0 + kChunk < m1 ? c0 + kChunk : m1;
    prepare_quads(op, QUAD_PREPARE, QUAD_PREPARE_BYTES, input, c0, c1, a, rows, row_terms, slot);
    // uint8 rows of whole quads are read in place (prepare_quads made their row terms only).
    const uint8_t *bytes =
        op->kind == kUInt8 && op->k == op->kq * 4 && !op->input_flip ? (const uint8_t *)input + (size_t)c0 * (size_t)op->k : rows;
    for (int64_t mb = c0; mb < c1; mb += kQuadMR) {
      const int count = c1 - mb < kQuadMR ? (int)(c1 - mb) : kQuadMR;
      QUAD(tiles)(op, mb, c0, count, bytes, row_terms, slot, output, stream);
    }
  }
  if (stream) QUAD_FENCE();
}

// The names the includer defined, undefined for the next variant.
#undef qv
#undef fv
#undef qv_load
#undef qv_set1
#undef qv_add
#undef qv_mullo
#undef qv_dpbusd
#undef fv_from
#undef fv_load
#undef fv_set1
#undef fv_mul
#undef fv_fmadd
#undef fv_max
#undef fv_min
#undef qv_round
#undef qv_store_u8
#undef qv_store4_u8
#undef fv_store
#undef fv_stream
#undef QUAD_FENCE
#undef QUAD
#undef QUAD_TARGET
#undef QUAD_PREPARE
#undef QUAD_PREPARE_BYTES
