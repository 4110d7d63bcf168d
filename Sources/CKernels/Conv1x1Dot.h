// The NEON 1×1 kernel's bodies, with the dot-product extension (`neon-dot`: DOT(rows)) and without it
// (`neon`, Cortex-A72: DOT(rows_mull)), in aarch64's arithmetic (XNNPACK's QU8 "rndnu" and QS8 × QC8W
// fp32 requantizations). Included by Conv1x1.c once with <arm_neon.h> on aarch64 and once with
// NeonPortable.h elsewhere — the same source, so that its arithmetic runs bit for bit on any CPU. The
// includer defines DOT(name) (the variant's names) and DOT_TARGET (the dot-product functions' attributes).
//
// Arithmetic (docs/aarch64-xnnpack.md §4): the filter's bytes as they are (uint8, or an int8 one
// flipped to w + 128), packed in quads of input channels; the input's bytes likewise. udot's exact
// int32 sums Σ x·w (wrapping; without udot, umull + uadalp give the same sums) then give XNNPACK's Σ (x − izp)(w − fzp) + bias through a per-row term
// −fzp·Σx and a per-column term bias − izp·Σw + K·izp·fzp (make_quads, quad offset 0).

// Each of `count` rows' term −fzp·Σx (wrapping), rows `stride` bytes apart, `k` bytes each: uaddlp / uadalp,
// which every aarch64 CPU has (the sums are a K-th of the tiles' work).
static inline __attribute__((always_inline)) void DOT(row_terms)(const uint8_t *x, size_t stride, int32_t k, int64_t count,
                                                                uint32_t fzp, int32_t *terms) {
  for (int64_t m = 0; m < count; m++) {
    const uint8_t *row = x + (size_t)m * stride;
    uint32x4_t sums = vdupq_n_u32(0);
    int32_t c = 0;
    for (; c + 16 <= k; c += 16) sums = vpadalq_u16(sums, vpaddlq_u8(vld1q_u8(row + c)));
    uint32_t sum = vaddvq_u32(sums);
    for (; c < k; c++) sum += row[c];
    terms[m] = (int32_t)(0u - fzp * sum);
  }
}

// Rows c0..<c1 of the input made ready for the tiles: read in place when they are whole quads, else copied
// zero-padded to `rows` (an int8 op's flipped to x + 128); their row terms written to `row_terms`. Returns
// the first row; *row_stride receives the distance between rows.
static inline __attribute__((always_inline)) const uint8_t *DOT(chunk)(const vt_conv1x1 *op, const void *input, int64_t c0, int64_t c1,
                                                                        uint8_t *rows, int32_t *row_terms, size_t *row_stride) {
  const int32_t k = op->k, stride = op->kq * 4;
  const uint8_t *x = (const uint8_t *)input + (size_t)c0 * (size_t)k;
  *row_stride = (size_t)k;
  if (k != stride || op->input_flip) {
    for (int64_t m = c0; m < c1; m++) {
      uint8_t *row = rows + (size_t)(m - c0) * (size_t)stride;
      const uint8_t *from = x + (size_t)(m - c0) * (size_t)k;
      for (int32_t c = 0; c < k; c++) row[c] = from[c] ^ op->input_flip;
      for (int32_t c = k; c < stride; c++) row[c] = 0;
    }
    x = rows;
    *row_stride = (size_t)stride;
  }
  DOT(row_terms)(x, *row_stride, k, c1 - c0, (uint32_t)op->filter_zero_point, row_terms);
  return x;
}

// The chunk buffers in a thread's slot: the copied rows, then their row terms.
#define DOT_CHUNK_BUFFERS(op, slot)                                                                                  \
  uint8_t *rows = (uint8_t *)(slot) + align64(kChunk * sizeof(float));                                            \
  int32_t *row_terms = (int32_t *)(rows + align64((size_t)kChunk * (size_t)(op)->kq * 4))

// One row's 16 int32 sums of block nb (v[j]: columns 4j…4j + 3) requantized as XNNPACK's aarch64 kernels do
// and stored at `to` (the block's columns that exist).
static inline __attribute__((always_inline)) void DOT(store_row)(const vt_conv1x1 *op, int32_t nb, const int32x4_t v_in[4],
                                                                         uint8_t *to) {
  const int32_t columns = op->n - nb * 16 < 16 ? op->n - nb * 16 : 16;
  if (!op->is_signed && op->rndnu16) {
    // XNNPACK's rndnu16: sqrshl, sqxtn, sqrdmulh (.8h), sqadd, sqxtun, umax, umin.
    const int32x4_t shift = vdupq_n_s32(op->r16.shift);
    const int16x8_t multiplier = vdupq_n_s16(op->r16.multiplier), zp = vdupq_n_s16(op->r16.zero_point);
    const uint8x16_t lo = vdupq_n_u8(op->r16.min), hi = vdupq_n_u8(op->r16.max);
    const int16x8_t h0 = vqaddq_s16(
        vqrdmulhq_s16(vqmovn_high_s32(vqmovn_s32(vqrshlq_s32(v_in[0], shift)), vqrshlq_s32(v_in[1], shift)), multiplier), zp);
    const int16x8_t h1 = vqaddq_s16(
        vqrdmulhq_s16(vqmovn_high_s32(vqmovn_s32(vqrshlq_s32(v_in[2], shift)), vqrshlq_s32(v_in[3], shift)), multiplier), zp);
    const uint8x16_t bytes = vminq_u8(vmaxq_u8(vqmovun_high_s16(vqmovun_s16(h0), h1), lo), hi);
    uint8_t t[16];
    vst1q_u8(t, bytes);
    memcpy(to, t, (size_t)columns);
  } else if (!op->is_signed) {
    // XNNPACK's rndnu: sqshl, sqdmulh, srshl, sqxtn, sqadd, sqxtun, umax, umin.
    const int32x4_t pre = vdupq_n_s32(op->rndnu.pre_shift), multiplier = vdupq_n_s32(op->rndnu.multiplier);
    const int32x4_t post = vdupq_n_s32(-op->rndnu.post_shift);
    const int16x8_t zp = vdupq_n_s16(op->rndnu.zero_point);
    const uint8x16_t lo = vdupq_n_u8(op->rndnu.min), hi = vdupq_n_u8(op->rndnu.max);
    int32x4_t v[4];
#pragma clang loop unroll(full)
    for (int j = 0; j < 4; j++) v[j] = vrshlq_s32(vqdmulhq_s32(vqshlq_s32(v_in[j], pre), multiplier), post);
    const int16x8_t h0 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[0]), v[1]), zp);
    const int16x8_t h1 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[2]), v[3]), zp);
    const uint8x16_t bytes = vminq_u8(vmaxq_u8(vqmovun_high_s16(vqmovun_s16(h0), h1), lo), hi);
    if (columns == 16) {
      vst1q_u8(to, bytes);
    } else {
      uint8_t t[16];
      vst1q_u8(t, bytes);
      memcpy(to, t, (size_t)columns);
    }
  } else {
    // XNNPACK's QS8 × QC8W fp32 (neonv8): scvtf, fmul by the column's scale, fcvtns, sqxtn, sqadd,
    // sqxtn, smax, smin.
    const float *scales = op->scales + (size_t)nb * 16;
    const int16x8_t zp = vdupq_n_s16((int16_t)op->output_zero_point);
    const int8x16_t lo = vdupq_n_s8((int8_t)((int32_t)op->low + op->output_zero_point));
    const int8x16_t hi = vdupq_n_s8((int8_t)((int32_t)op->high + op->output_zero_point));
    int32x4_t v[4];
#pragma clang loop unroll(full)
    for (int j = 0; j < 4; j++) v[j] = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(v_in[j]), vld1q_f32(scales + 4 * j)));
    const int16x8_t h0 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[0]), v[1]), zp);
    const int16x8_t h1 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v[2]), v[3]), zp);
    const int8x16_t bytes = vminq_s8(vmaxq_s8(vqmovn_high_s16(vqmovn_s16(h0), h1), lo), hi);
    int8_t t[16];
    vst1q_s8(t, bytes);
    memcpy(to, t, (size_t)columns);
  }
}

// udot of one quad of every row (`lane` of a[r]) with the four column groups' filter bytes at w.
#define DOT_QUAD(lane, wq)                                                                                                            \
  do {                                                                                                                                \
    const uint8x16_t w0 = vld1q_u8((wq)), w1 = vld1q_u8((wq) + 16), w2 = vld1q_u8((wq) + 32), w3 = vld1q_u8((wq) + 48);           \
    _Pragma("clang loop unroll(full)") for (int r = 0; r < mr; r++) {                                                              \
      acc[r][0] = vdotq_laneq_u32(acc[r][0], w0, a[r], lane);                                                                       \
      acc[r][1] = vdotq_laneq_u32(acc[r][1], w1, a[r], lane);                                                                       \
      acc[r][2] = vdotq_laneq_u32(acc[r][2], w2, a[r], lane);                                                                       \
      acc[r][3] = vdotq_laneq_u32(acc[r][3], w3, a[r], lane);                                                                       \
    }                                                                                                                                 \
  } while (0)

// One tile: `mr` rows (1…4, a constant where inlined) from x (`stride` bytes apart) × the 16 columns of
// block nb, written at `out` (rows op->n bytes apart).
static DOT_TARGET inline __attribute__((always_inline)) void DOT(tile)(const vt_conv1x1 *op, int32_t nb, const int mr, const uint8_t *x,
                                                                    size_t stride, const int32_t *row_terms, uint8_t *out) {
  const int32_t kq = op->kq;
  const uint8_t *w = op->quads + (size_t)nb * (size_t)kq * 64;
  const uint32_t *column = (const uint32_t *)(const void *)(op->quad_terms + (size_t)nb * 16);
  uint32x4_t acc[4][4];
#pragma clang loop unroll(full)
  for (int r = 0; r < mr; r++) {
    const uint32x4_t term = vdupq_n_u32((uint32_t)row_terms[r]);
#pragma clang loop unroll(full)
    for (int j = 0; j < 4; j++) acc[r][j] = vaddq_u32(vld1q_u32(column + 4 * j), term);
  }
  int32_t p = 0;
  for (; p + 4 <= kq; p += 4) {  // four quads of each row in one register
    if (mr == 4) DOT_MCA_BEGIN("conv1x1_neon_dot_4x16");  // (scripts/arm64/mca.sh: this loop's body, 1,024 MACs)
    uint8x16_t a[4];
#pragma clang loop unroll(full)
    for (int r = 0; r < mr; r++) a[r] = vld1q_u8(x + (size_t)r * stride + (size_t)p * 4);
    const uint8_t *wp = w + (size_t)p * 64;
    DOT_QUAD(0, wp);
    DOT_QUAD(1, wp + 64);
    DOT_QUAD(2, wp + 128);
    DOT_QUAD(3, wp + 192);
    if (mr == 4) DOT_MCA_END();
  }
  for (; p < kq; p++) {  // the last quads one at a time
    uint8x16_t a[4];
#pragma clang loop unroll(full)
    for (int r = 0; r < mr; r++) {
      uint32_t quad;
      memcpy(&quad, x + (size_t)r * stride + (size_t)p * 4, 4);
      a[r] = vreinterpretq_u8_u32(vdupq_n_u32(quad));
    }
    DOT_QUAD(0, w + (size_t)p * 64);
  }
#pragma clang loop unroll(full)
  for (int r = 0; r < mr; r++) {
    int32x4_t v[4];
#pragma clang loop unroll(full)
    for (int j = 0; j < 4; j++) v[j] = vreinterpretq_s32_u32(acc[r][j]);
    DOT(store_row)(op, nb, v, out + (size_t)r * (size_t)op->n);
  }
}
#undef DOT_QUAD

// One block's tiles over a chunk's `count` rows: four rows at a time, then two, then one.
static DOT_TARGET void DOT(block)(const vt_conv1x1 *op, int32_t nb, const uint8_t *x, size_t row_stride, const int32_t *row_terms,
                                  uint8_t *out, int64_t count) {
  int64_t m = 0;
  for (; m + 4 <= count; m += 4) DOT(tile)(op, nb, 4, x + (size_t)m * row_stride, row_stride, row_terms + m, out + (size_t)m * (size_t)op->n);
  if (m + 2 <= count) {
    DOT(tile)(op, nb, 2, x + (size_t)m * row_stride, row_stride, row_terms + m, out + (size_t)m * (size_t)op->n);
    m += 2;
  }
  if (m < count) DOT(tile)(op, nb, 1, x + (size_t)m * row_stride, row_stride, row_terms + m, out + (size_t)m * (size_t)op->n);
}

// --- Without the dot-product extension (Cortex-A72: the "neon" path) ------------------------------------
// The same packed quads and terms; the products by umull / umull2 (u8 × u8 into u16, exact), added in pairs
// into two partial u32 sums per column (uadalp), which addp folds at the end: the same exact sums.

// One tile: `mr` rows (1 or 2) × the 16 columns of block nb.
static inline __attribute__((always_inline)) void DOT(tile_mull)(const vt_conv1x1 *op, int32_t nb, const int mr, const uint8_t *x,
                                                                 size_t stride, const int32_t *row_terms, uint8_t *out) {
  const int32_t kq = op->kq;
  const uint8_t *w = op->quads + (size_t)nb * (size_t)kq * 64;
  const uint32_t *column = (const uint32_t *)(const void *)(op->quad_terms + (size_t)nb * 16);
  uint32x4_t acc[2][8];
#pragma clang loop unroll(full)
  for (int r = 0; r < mr; r++)
#pragma clang loop unroll(full)
    for (int j = 0; j < 8; j++) acc[r][j] = vdupq_n_u32(0);
  const uint8_t *xr[2] = {x, x + stride};  // each row's next quad
  for (int32_t p = 0; p < kq; p++) {
    if (mr == 2) DOT_MCA_BEGIN("conv1x1_neon_mull_2x16");  // (scripts/arm64/mca.sh: this loop's body, 128 MACs)
    // The block's 64 filter bytes of quad p as eight halves (two columns each), so that every product is a
    // umull of 8-byte registers (umull2 of a broadcast quad made clang shuffle the filter).
    const uint8_t *wp = w + (size_t)p * 64;
    uint8x8_t wh[8];
#pragma clang loop unroll(full)
    for (int j = 0; j < 8; j++) wh[j] = vld1_u8(wp + 8 * j);
#pragma clang loop unroll(full)
    for (int r = 0; r < mr; r++) {
      uint32_t quad;
      memcpy(&quad, xr[r], 4);
      xr[r] += 4;
      const uint8x8_t a = vreinterpret_u8_u32(vdup_n_u32(quad));
#pragma clang loop unroll(full)
      for (int j = 0; j < 8; j++) acc[r][j] = vpadalq_u16(acc[r][j], vmull_u8(wh[j], a));
    }
    if (mr == 2) DOT_MCA_END();
  }
#pragma clang loop unroll(full)
  for (int r = 0; r < mr; r++) {
    const uint32x4_t term = vdupq_n_u32((uint32_t)row_terms[r]);
    int32x4_t v[4];
#pragma clang loop unroll(full)
    for (int j = 0; j < 4; j++)
      v[j] = vreinterpretq_s32_u32(vaddq_u32(vaddq_u32(vpaddq_u32(acc[r][2 * j], acc[r][2 * j + 1]), vld1q_u32(column + 4 * j)), term));
    DOT(store_row)(op, nb, v, out + (size_t)r * (size_t)op->n);
  }
}

// One block's tiles over a chunk's `count` rows, two rows at a time.
static void DOT(block_mull)(const vt_conv1x1 *op, int32_t nb, const uint8_t *x, size_t row_stride, const int32_t *row_terms,
                            uint8_t *out, int64_t count) {
  int64_t m = 0;
  for (; m + 2 <= count; m += 2)
    DOT(tile_mull)(op, nb, 2, x + (size_t)m * row_stride, row_stride, row_terms + m, out + (size_t)m * (size_t)op->n);
  if (m < count) DOT(tile_mull)(op, nb, 1, x + (size_t)m * row_stride, row_stride, row_terms + m, out + (size_t)m * (size_t)op->n);
}

// Rows m0..<m1, chunk by chunk (DOT(chunk)), then the chunk's rows block by block with `block`'s tiles — a
// block's filter stays in cache while the chunk's rows pass.
static inline __attribute__((always_inline)) void DOT(rows_with)(
    const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, void *output, float *slot,
    void (*block)(const vt_conv1x1 *, int32_t, const uint8_t *, size_t, const int32_t *, uint8_t *, int64_t)) {
  DOT_CHUNK_BUFFERS(op, slot);
  for (int64_t c0 = m0; c0 < m1; c0 += kChunk) {
    const int64_t c1 = c0 + kChunk < m1 ? c0 + kChunk : m1;
    size_t row_stride;
    const uint8_t *x = DOT(chunk)(op, input, c0, c1, rows, row_terms, &row_stride);
    for (int32_t nb = 0; nb < op->nb; nb++)
      block(op, nb, x, row_stride, row_terms, (uint8_t *)output + (size_t)c0 * (size_t)op->n + (size_t)nb * 16, c1 - c0);
  }
}

// The paths' row functions (run_with's): with the dot product, and without it.
static void DOT(rows)(const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, void *output, int16_t *a, float *slot, int stream) {
  (void)a;
  (void)stream;
  DOT(rows_with)(op, input, m0, m1, output, slot, DOT(block));
}
static void DOT(rows_mull)(const vt_conv1x1 *op, const void *input, int64_t m0, int64_t m1, void *output, int16_t *a, float *slot,
                           int stream) {
  (void)a;
  (void)stream;
  DOT(rows_with)(op, input, m0, m1, output, slot, DOT(block_mull));
}

#undef DOT_CHUNK_BUFFERS
#undef DOT
#undef DOT_TARGET
