// QUANTIZE between 8-bit types at one scale (uint8 → int8 and the other three pairs), as LiteRT
// 2.3.0's built-in kernel computes it: its multiplier for a scale ratio of exactly 1 is 2^30 with a
// shift of 1, which multiplies exactly, so each output is the input less its zero point plus the
// output's, clamped to the output type (uint8 → int8 with zero points z and z − 128: the byte with its
// top bit flipped). One function of the byte, so every value is checked by the tests (all 256).
#include "CKernels.h"
#include "KernelFormats.h"

#include <string.h>

int vt_requant8_valid(const vt_requant8_params *p) {
  if (!p || (p->input_signed != 0 && p->input_signed != 1) || (p->output_signed != 0 && p->output_signed != 1)) return 0;
  const int32_t zps[2] = {p->input_zero_point, p->output_zero_point}, sgn[2] = {p->input_signed, p->output_signed};
  for (int i = 0; i < 2; i++)
    if (zps[i] < (sgn[i] ? -128 : 0) || zps[i] > (sgn[i] ? 127 : 255)) return 0;
  return 1;
}

int vt_requant8_run(const vt_requant8_params *p, const uint8_t *input, size_t count, uint8_t *output) {
  if (!vt_requant8_valid(p) || (count && (!input || !output))) return -1;
  const int32_t delta = p->output_zero_point - p->input_zero_point;
  const int32_t lo = p->output_signed ? -128 : 0, hi = p->output_signed ? 127 : 255;
  const int32_t in_lo = p->input_signed ? -128 : 0, in_hi = p->input_signed ? 127 : 255;
  if (in_lo + delta >= lo && in_hi + delta <= hi) {
    // Nothing clamps: the output byte is the input byte plus delta, modulo 256 (uint8 → int8 with
    // zero points z and z − 128 flips the top bit) — byte additions, 16 or more at a time.
    const uint8_t add = (uint8_t)delta;
    for (size_t i = 0; i < count; i++) output[i] = (uint8_t)(input[i] + add);
    return 0;
  }
  // Two loops with the input's type fixed, so that each vectorizes.
  if (p->input_signed) {
    const int8_t *x = (const int8_t *)(const void *)input;
    for (size_t i = 0; i < count; i++) {
      const int32_t v = (int32_t)x[i] + delta;
      output[i] = (uint8_t)(v < lo ? lo : v > hi ? hi : v);
    }
  } else {
    for (size_t i = 0; i < count; i++) {
      const int32_t v = (int32_t)input[i] + delta;
      output[i] = (uint8_t)(v < lo ? lo : v > hi ? hi : v);
    }
  }
  return 0;
}

int vt_requant8_decode_options(const uint8_t *data, size_t size, vt_requant8_params *p) {
  enum { kSize = 4 + 5 * 4 };
  if (!data || !p || size != kSize || memcmp(data, VT_OPTIONS_RQ_MAGIC, 4) != 0) return -1;
  int32_t v[5];
  memcpy(v, data + 4, sizeof v);
  if (v[0] != VT_OPTIONS_RQ_VERSION) return -1;
  *p = (vt_requant8_params){v[1], v[2], v[3], v[4]};
  return vt_requant8_valid(p) ? 0 : -1;
}
