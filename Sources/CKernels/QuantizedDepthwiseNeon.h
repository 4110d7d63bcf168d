// The NEON 8-bit depthwise kernel's body (aarch64's arithmetic), included by QuantizedDepthwise.c once with
// <arm_neon.h> on aarch64 and once with NeonPortable.h elsewhere — the same source, so that its arithmetic
// runs bit for bit on any CPU. The includer defines NDW(name) (the variant's names) and NDW_TARGET.
//
// Per output pixel and block of 16 channels (a last partial block: the last 16 channels, recomputing a
// few; fewer than 16 channels: copied into a 16-byte row): the int32 sums bias + Σ_t (x_t − izp)·(w_t − fzp),
// each difference widened to int16 (usubl / ssubl; a tap in the padding reads the zero row, x = izp) and
// multiplied and added by smlal / smlal2 — XNNPACK's exact sums, in another order — then XNNPACK's aarch64
// requantization: uint8 "rndnu" (its pre-shift wrapping for a dwconv window of up to 25 taps, saturating
// beyond), int8 fp32 (fcvtns, per channel).

// 16 bytes of a tap's row from channel `base` (fewer than 16 channels: the `c` there, the rest zero).
static NDW_TARGET inline __attribute__((always_inline)) uint8x16_t NDW(load)(const uint8_t *row, size_t base, size_t c, int full) {
  if (full) return vld1q_u8(row + base);
  uint8_t t[16] = {0};
  memcpy(t, row, c);
  return vld1q_u8(t);
}

// Output rows oy0..<oy1 with the signedness `sgn` and `full` (16 channels or more) as constants: each
// caller's instance compiles to a tap loop without their branches (rows below picks one of four).
static NDW_TARGET inline __attribute__((always_inline)) void NDW(rows_as)(const vt_qdw *op, const uint8_t *in, int32_t h, int32_t w,
                                                                          int32_t ow, int32_t pad_h, int32_t pad_w, int32_t oy0,
                                                                          int32_t oy1, uint8_t *out, const int sgn, const int full) {
  const size_t c = (size_t)op->channels, taps = (size_t)op->taps;
  const uint8_t *src[2 * kMaxPairs + 1];
  const uint8x8_t izp_u = vdup_n_u8((uint8_t)op->input_zero_point);
  const int8x8_t izp_s = vdup_n_s8((int8_t)op->input_zero_point);
  const uint8x16_t izp_u16 = vdupq_n_u8((uint8_t)op->input_zero_point);
  const int8x16_t izp_s16 = vdupq_n_s8((int8_t)op->input_zero_point);
  // uint8: rndnu; int8: fp32 with the channels' scales.
  const int32x4_t pre = vdupq_n_s32(op->rndnu.pre_shift), multiplier = vdupq_n_s32(op->rndnu.multiplier);
  const int32x4_t post = vdupq_n_s32(-op->rndnu.post_shift);
  const int16x8_t zp = vdupq_n_s16(sgn ? (int16_t)op->requantization.zero_point : op->rndnu.zero_point);
  const uint8x16_t lo_u = vdupq_n_u8(op->rndnu.min), hi_u = vdupq_n_u8(op->rndnu.max);
  const int8x16_t lo_s = vdupq_n_s8((int8_t)((int32_t)op->requantization.low + op->requantization.zero_point));
  const int8x16_t hi_s = vdupq_n_s8((int8_t)((int32_t)op->requantization.high + op->requantization.zero_point));
  // int8 with fewer than 16 channels: the channels' scales padded with 1, never read past the op's.
  float padded[16] = {0};
  if (sgn && !full)
    for (size_t i = 0; i < 16; i++) padded[i] = i < c ? op->channel_scale[i] : 1.0f;
  for (int32_t oy = oy0; oy < oy1; oy++) {
    for (int32_t ox = 0; ox < ow; ox++) {
      tap_sources(op, in, h, w, pad_h, pad_w, oy, ox, src);
      uint8_t *dst = out + ((size_t)oy * (size_t)ow + (size_t)ox) * c;
      for (int32_t b = 0; b < op->blocks; b++) {
        const size_t base = !full ? 0 : (size_t)b * 16 + 16 > c ? c - 16 : (size_t)b * 16;
        const int32_t *bias = op->neon_bias + (size_t)b * 16;
        int32x4_t acc0 = vld1q_s32(bias), acc1 = vld1q_s32(bias + 4), acc2 = vld1q_s32(bias + 8), acc3 = vld1q_s32(bias + 12);
        const int16_t *f = op->neon_filter + (size_t)b * taps * 16;
        for (size_t t = 0; t < taps; t++, f += 16) {
          const uint8x16_t x = NDW(load)(src[t], base, c, full);
          int16x8_t d0, d1;
          if (sgn) {
            const int8x16_t xs = vreinterpretq_s8_u8(x);
            d0 = vsubl_s8(vget_low_s8(xs), izp_s);
            d1 = vsubl_high_s8(xs, izp_s16);
          } else {
            d0 = vreinterpretq_s16_u16(vsubl_u8(vget_low_u8(x), izp_u));
            d1 = vreinterpretq_s16_u16(vsubl_high_u8(x, izp_u16));
          }
          const int16x8_t w0 = vld1q_s16(f), w1 = vld1q_s16(f + 8);
          acc0 = vmlal_s16(acc0, vget_low_s16(d0), vget_low_s16(w0));
          acc1 = vmlal_high_s16(acc1, d0, w0);
          acc2 = vmlal_s16(acc2, vget_low_s16(d1), vget_low_s16(w1));
          acc3 = vmlal_high_s16(acc3, d1, w1);
        }
        uint8x16_t result;
        if (sgn) {
          const float *scale = full ? op->channel_scale + base : padded;
          const int32x4_t q0 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(acc0), vld1q_f32(scale)));
          const int32x4_t q1 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(acc1), vld1q_f32(scale + 4)));
          const int32x4_t q2 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(acc2), vld1q_f32(scale + 8)));
          const int32x4_t q3 = vcvtnq_s32_f32(vmulq_f32(vcvtq_f32_s32(acc3), vld1q_f32(scale + 12)));
          const int16x8_t h0 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(q0), q1), zp), h1 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(q2), q3), zp);
          result = vreinterpretq_u8_s8(vminq_s8(vmaxq_s8(vqmovn_high_s16(vqmovn_s16(h0), h1), lo_s), hi_s));
        } else {
          int32x4_t v0, v1, v2, v3;
          if (op->saturating_pre_shift) {
            v0 = vqshlq_s32(acc0, pre), v1 = vqshlq_s32(acc1, pre), v2 = vqshlq_s32(acc2, pre), v3 = vqshlq_s32(acc3, pre);
          } else {
            v0 = vshlq_s32(acc0, pre), v1 = vshlq_s32(acc1, pre), v2 = vshlq_s32(acc2, pre), v3 = vshlq_s32(acc3, pre);
          }
          v0 = vrshlq_s32(vqdmulhq_s32(v0, multiplier), post);
          v1 = vrshlq_s32(vqdmulhq_s32(v1, multiplier), post);
          v2 = vrshlq_s32(vqdmulhq_s32(v2, multiplier), post);
          v3 = vrshlq_s32(vqdmulhq_s32(v3, multiplier), post);
          const int16x8_t h0 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v0), v1), zp), h1 = vqaddq_s16(vqmovn_high_s32(vqmovn_s32(v2), v3), zp);
          result = vminq_u8(vmaxq_u8(vqmovun_high_s16(vqmovun_s16(h0), h1), lo_u), hi_u);
        }
        if (full) {
          vst1q_u8(dst + base, result);
        } else {
          uint8_t bytes[16];
          vst1q_u8(bytes, result);
          memcpy(dst, bytes, c);
        }
      }
    }
  }
}

// Output rows oy0..<oy1 (the signature of the other paths' rows).
static NDW_TARGET void NDW(rows)(const vt_qdw *op, const uint8_t *in, int32_t h, int32_t w, int32_t ow, int32_t pad_h, int32_t pad_w,
                                 int32_t oy0, int32_t oy1, uint8_t *out) {
  const int full = op->channels >= 16;
  if (op->is_signed) {
    if (full) NDW(rows_as)(op, in, h, w, ow, pad_h, pad_w, oy0, oy1, out, 1, 1);
    else NDW(rows_as)(op, in, h, w, ow, pad_h, pad_w, oy0, oy1, out, 1, 0);
  } else {
    if (full) NDW(rows_as)(op, in, h, w, ow, pad_h, pad_w, oy0, oy1, out, 0, 1);
    else NDW(rows_as)(op, in, h, w, ow, pad_h, pad_w, oy0, oy1, out, 0, 0);
  }
}

#undef NDW
#undef NDW_TARGET
