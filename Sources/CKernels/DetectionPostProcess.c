// TFLite_Detection_PostProcess (SSD box decoding + fast multi-class NMS), with the outputs of LiteRT
// 2.3.0's built-in kernel bit for bit (docs/detection-postprocess.md) and without its costs: the
// built-in decodes every anchor's box (two exp calls each), finds each anchor's best class with a
// scalar loop, then stable-sorts every anchor above the score threshold and compares the first ones
// with all the others. Here each anchor's best score is a vector maximum, the candidates come out of a
// heap in the stable sort's order only as far as the suppression needs them, and only those boxes are
// decoded — each with the built-in's own arithmetic (double division, glibc's exp, no fused
// multiply-add), so that every value written is the one the built-in writes.
#pragma clang fp contract(off)
#include "CKernels.h"
#include "KernelFormats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct vt_dpp {
  vt_dpp_params p;
  float *anchors;    // [anchors][4]: y, x, h, w (dequantized as the built-in does)
  struct cand { float score; int32_t row; } *heap;
  float (*decoded)[4];  // ymin, xmin, ymax, xmax of each selected box
  int32_t *selected;
};

static int valid_type(int32_t t) { return t == 1 || t == 3; }
static int finite_positive(float v) { return isfinite(v) && v > 0; }

vt_dpp *vt_dpp_create(const vt_dpp_params *p) {
  if (!p || !p->anchors || p->anchor_count < 1 || p->anchor_count > (1 << 24) || p->num_classes < 1 || p->num_classes > 65536 ||
      p->max_detections < 1 || p->max_detections > 65536 || !valid_type(p->box_type) || !valid_type(p->score_type))
    return NULL;
  if (!(p->iou_threshold > 0.0f && p->iou_threshold <= 1.0f)) return NULL;  // the built-in refuses others
  if (p->box_type == 3 && (p->box_zero_point < 0 || p->box_zero_point > 255 || !finite_positive(p->box_scale) ||
                           p->anchor_zero_point < 0 || p->anchor_zero_point > 255 || !finite_positive(p->anchor_scale)))
    return NULL;
  if (p->score_type == 3 && (p->score_zero_point < 0 || p->score_zero_point > 255 || !finite_positive(p->score_scale))) return NULL;
  vt_dpp *op = calloc(1, sizeof *op);
  if (!op) return NULL;
  op->p = *p;
  const size_t n = (size_t)p->anchor_count;
  op->anchors = malloc(n * 4 * sizeof(float));
  op->heap = malloc(n * sizeof *op->heap);
  op->decoded = malloc((size_t)p->max_detections * sizeof *op->decoded);
  op->selected = malloc((size_t)p->max_detections * sizeof(int32_t));
  if (!op->anchors || !op->heap || !op->decoded || !op->selected) {
    vt_dpp_free(op);
    return NULL;
  }
  for (size_t i = 0; i < n * 4; i++) {
    if (p->box_type == 3) {
      const uint8_t q = ((const uint8_t *)p->anchors)[i];
      op->anchors[i] = ((float)q - (float)p->anchor_zero_point) * p->anchor_scale;
    } else {
      memcpy(&op->anchors[i], (const uint8_t *)p->anchors + i * 4, 4);
    }
  }
  // The built-in validates every decoded box (ymin ≤ ymax, xmin ≤ xmax) and fails the op otherwise. A
  // box's half height is 0.5·exp(·)·anchor height, never negative when the anchor's is not: then every
  // box passes and none has to be decoded to know it. Anchors of negative size are refused.
  for (size_t i = 0; i < n; i++)
    if (op->anchors[i * 4 + 2] < 0 || op->anchors[i * 4 + 3] < 0) {
      vt_dpp_free(op);
      return NULL;
    }
  op->p.anchors = NULL;
  return op;
}

void vt_dpp_free(vt_dpp *op) {
  if (!op) return;
  free(op->anchors);
  free(op->heap);
  free(op->decoded);
  free(op->selected);
  free(op);
}

int32_t vt_dpp_max_detections(const vt_dpp *op) { return op ? op->p.max_detections : 0; }
int32_t vt_dpp_anchor_count(const vt_dpp *op) { return op ? op->p.anchor_count : 0; }

// --- Each anchor's best class ---------------------------------------------------------------------

// The built-in's arg max (optimized_ops::ArgMaxVector on floats), as LiteRT 2.3.0's builds compute it
// — a hand-vectorized loop, read from both libraries' disassembly: four lanes start with the first four
// values and take each later whole block of four, a lane keeping its value unless the new one is not
// NaN and is greater (or the lane's is NaN); the lanes are reduced to one maximum (below), the lane
// holding it with the lowest index wins; the values past the last whole block follow one by one with
// the same rule; a NaN maximum at the end gives index 0. Fewer than four values: that last loop alone
// from value 0. Without NaNs this is the first index of the largest value.
static int32_t arg_max(const float *x, int32_t n) {
  float m = x[0];
  int32_t at = 0, i = 1;
  if (n >= 4) {
    float lane[4];
    int32_t index[4];
    for (int j = 0; j < 4; j++) {
      lane[j] = x[j];
      index[j] = j;
    }
    for (i = 4; i + 4 <= n; i += 4)
      for (int j = 0; j < 4; j++) {
        const float v = x[i + j];
        if (v == v && (lane[j] != lane[j] || v > lane[j])) {
          lane[j] = v;
          index[j] = i + j;
        }
      }
#if defined(__aarch64__)
    // fmaxv: NaN when any lane is NaN.
    m = lane[0];
    for (int j = 1; j < 4; j++) m = (m != m || lane[j] != lane[j]) ? NAN : (lane[j] > m ? lane[j] : m);
#else
    // Pairs by cmpltps + blendvps, then maxss: a NaN lane loses to nothing but the first of its pair.
    const float p0 = lane[0] < lane[1] ? lane[1] : lane[0], p1 = lane[2] < lane[3] ? lane[3] : lane[2];
    m = p1 > p0 ? p1 : p0;
#endif
    at = INT32_MAX;
    for (int j = 0; j < 4; j++)
      if (lane[j] == m && index[j] < at) at = index[j];
  }
  for (; i < n; i++) {
    const float v = x[i];
    if (v != v) continue;
    if (m != m || v > m) {
      m = v;
      at = i;
    }
  }
  return m != m || at >= n ? 0 : at;  // (a maximum that is not NaN is a lane's: `at` is set)
}

// The value at arg_max's index, compared as the built-in compares it (up to the sign of a zero, which
// no comparison sees): a row without NaN has its largest value there; one with a NaN takes arg_max.
static float max_value(const float *x, int32_t n) {
  float r = -INFINITY;
  int nan = 0;
  int32_t i = 0;
#if defined(__SSE2__)
  // maxps(a, b) is a > b ? a : b lane by lane: a NaN `a` keeps the running maximum (and is noted).
  __m128 m0 = _mm_set1_ps(-INFINITY), m1 = m0, unordered = _mm_setzero_ps();
  for (; i + 8 <= n; i += 8) {
    const __m128 a = _mm_loadu_ps(x + i), b = _mm_loadu_ps(x + i + 4);
    m0 = _mm_max_ps(a, m0);
    m1 = _mm_max_ps(b, m1);
    unordered = _mm_or_ps(unordered, _mm_or_ps(_mm_cmpunord_ps(a, a), _mm_cmpunord_ps(b, b)));
  }
  float lanes[8];
  _mm_storeu_ps(lanes, m0);
  _mm_storeu_ps(lanes + 4, m1);
  for (int j = 0; j < 8; j++) r = lanes[j] > r ? lanes[j] : r;
  nan = _mm_movemask_ps(unordered) != 0;
#endif
  for (; i < n; i++) {
    if (x[i] != x[i]) nan = 1;
    else r = x[i] > r ? x[i] : r;
  }
  return nan ? x[arg_max(x, n)] : r;
}

static uint8_t max_byte(const uint8_t *x, int32_t n) {
  uint8_t r = 0;
  int32_t i = 0;
#if defined(__SSE2__)
  __m128i m = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) m = _mm_max_epu8(m, _mm_loadu_si128((const __m128i *)(const void *)(x + i)));
  uint8_t lanes[16];
  _mm_storeu_si128((__m128i *)(void *)lanes, m);
  for (int j = 0; j < 16; j++) r = lanes[j] > r ? lanes[j] : r;
#endif
  for (; i < n; i++) r = x[i] > r ? x[i] : r;
  return r;
}

// --- Boxes ------------------------------------------------------------------------------------------

// Box `row`'s corners from its encoding and anchor, in the built-in's arithmetic: the centre in double
// (division by the scale, product with the anchor's size, sum with its centre — on aarch64 LiteRT's
// build fuses the last two into one fmla, on x86-64 it does not), the half sizes as
// 0.5 · exp(encoding / scale) · anchor size in double, each rounded to float once; then float sums.
static void decode(const vt_dpp *op, const void *boxes, int32_t box_len, int32_t row, float out[4]) {
  float e[4];
  if (op->p.box_type == 3) {
    const uint8_t *q = (const uint8_t *)boxes + (size_t)row * (size_t)box_len;
    for (int i = 0; i < 4; i++) e[i] = ((float)q[i] - (float)op->p.box_zero_point) * op->p.box_scale;
  } else {
    memcpy(e, (const float *)boxes + (size_t)row * (size_t)box_len, sizeof e);
  }
  const float *a = op->anchors + (size_t)row * 4;  // y, x, h, w
#if defined(__aarch64__)
  const float yc = (float)fma((double)e[0] / (double)op->p.y_scale, (double)a[2], (double)a[0]);
  const float xc = (float)fma((double)e[1] / (double)op->p.x_scale, (double)a[3], (double)a[1]);
#else
  const float yc = (float)((double)e[0] / (double)op->p.y_scale * (double)a[2] + (double)a[0]);
  const float xc = (float)((double)e[1] / (double)op->p.x_scale * (double)a[3] + (double)a[1]);
#endif
  const float hh = (float)(0.5 * exp((double)e[2] / (double)op->p.h_scale) * (double)a[2]);
  const float hw = (float)(0.5 * exp((double)e[3] / (double)op->p.w_scale) * (double)a[3]);
  out[0] = yc - hh;
  out[1] = xc - hw;
  out[2] = yc + hh;
  out[3] = xc + hw;
}

// std::max<float> and std::min<float> as the built-in calls them (the first argument on ties).
static inline float max_f(float a, float b) { return a < b ? b : a; }
static inline float min_f(float a, float b) { return b < a ? b : a; }

// The built-in's intersection over union of an earlier selected box `i` and a candidate `j`.
static float iou(const float i[4], const float j[4]) {
  const float area_i = (i[2] - i[0]) * (i[3] - i[1]);
  const float area_j = (j[2] - j[0]) * (j[3] - j[1]);
  if (area_i <= 0 || area_j <= 0) return 0.0f;
  const float ymin = max_f(i[0], j[0]), xmin = max_f(i[1], j[1]);
  const float ymax = min_f(i[2], j[2]), xmax = min_f(i[3], j[3]);
  const float inter = max_f(ymax - ymin, 0.0f) * max_f(xmax - xmin, 0.0f);
  return inter / (area_i + area_j - inter);
}

// --- Candidates in the stable sort's order ------------------------------------------------------

// The built-in stable-sorts the candidates by decreasing score: equal scores keep the anchors' order.
static inline int before(struct cand a, struct cand b) { return a.score > b.score || (a.score == b.score && a.row < b.row); }

static void sift_down(struct cand *h, int32_t n, int32_t i) {
  const struct cand v = h[i];
  for (;;) {
    int32_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && before(h[c + 1], h[c])) c++;
    if (!before(h[c], v)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = v;
}

int vt_dpp_run(vt_dpp *op, const void *boxes, int32_t box_type, int32_t anchors, int32_t box_len, const void *scores, int32_t score_type,
               int32_t classes, float *out_boxes, float *out_classes, float *out_scores, float *out_count) {
  if (!op || !boxes || !scores || !out_boxes || !out_classes || !out_scores || !out_count) return -1;
  const vt_dpp_params *p = &op->p;
  const int32_t offset = classes - p->num_classes;  // 1 when the scores include the background class
  if (box_type != p->box_type || score_type != p->score_type || anchors != p->anchor_count || box_len < 4 || offset < 0 || offset > 1)
    return -1;
  const int32_t nc = p->num_classes;
  float table[256];
  if (score_type == 3)
    for (int q = 0; q < 256; q++) table[q] = (float)(q - p->score_zero_point) * p->score_scale;

  // Each anchor's best score; those at or above the threshold are the candidates.
  int32_t kept = 0;
  for (int32_t row = 0; row < anchors; row++) {
    float best;
    if (score_type == 3) {
      // The table grows with q (a positive scale), so the largest byte gives the largest score.
      best = table[max_byte((const uint8_t *)scores + (size_t)row * (size_t)classes + offset, nc)];
    } else {
      best = max_value((const float *)scores + (size_t)row * (size_t)classes + offset, nc);
    }
    if (best >= p->score_threshold) op->heap[kept++] = (struct cand){best, row};
  }
  for (int32_t i = kept / 2 - 1; i >= 0; i--) sift_down(op->heap, kept, i);

  // Greedy suppression: a candidate is kept when no box kept before it overlaps it by more than the
  // threshold (the built-in's order of comparisons gives the same set).
  const int32_t limit = kept < p->max_detections ? kept : p->max_detections;
  int32_t count = 0, left = kept;
  while (count < limit && left > 0) {
    const struct cand c = op->heap[0];
    op->heap[0] = op->heap[--left];
    sift_down(op->heap, left, 0);
    float box[4];
    decode(op, boxes, box_len, c.row, box);
    int suppressed = 0;
    for (int32_t s = 0; s < count && !suppressed; s++) suppressed = iou(op->decoded[s], box) > p->iou_threshold;
    if (suppressed) continue;
    memcpy(op->decoded[count], box, sizeof box);
    op->selected[count++] = c.row;
  }

  for (int32_t d = 0; d < p->max_detections; d++) {
    if (d < count) {
      const int32_t row = op->selected[d];
      int32_t cls;
      float score;
      if (score_type == 3) {
        // The arg max of the dequantized scores, as the built-in takes it after dequantizing them all.
        const uint8_t *q = (const uint8_t *)scores + (size_t)row * (size_t)classes + offset;
        float m = table[q[0]];
        cls = 0;
        for (int32_t i = 1; i < nc; i++)
          if (table[q[i]] > m) {
            m = table[q[i]];
            cls = i;
          }
        score = m;
      } else {
        const float *x = (const float *)scores + (size_t)row * (size_t)classes + offset;
        cls = arg_max(x, nc);
        score = x[cls];
      }
      memcpy(out_boxes + (size_t)d * 4, op->decoded[d], 4 * sizeof(float));
      out_classes[d] = (float)cls;
      out_scores[d] = score;
    } else {
      memset(out_boxes + (size_t)d * 4, 0, 4 * sizeof(float));
      out_classes[d] = 0;
      out_scores[d] = 0;
    }
  }
  *out_count = (float)count;
  return 0;
}

// --- Custom options --------------------------------------------------------------------------------

enum { kDPPInts = 9, kDPPFloats = 9, kDPPHeader = 4 + 4 * (kDPPInts + kDPPFloats) };

int vt_dpp_decode_options(const uint8_t *data, size_t size, vt_dpp_params *p) {
  if (!data || !p || size < kDPPHeader || memcmp(data, VT_OPTIONS_DP_MAGIC, 4) != 0) return -1;
  int32_t v[kDPPInts];
  float f[kDPPFloats];
  memcpy(v, data + 4, sizeof v);
  memcpy(f, data + 4 + sizeof v, sizeof f);
  // version, max detections, classes, anchors, box type, box zp, score type, score zp, anchor zp
  if (v[0] != VT_OPTIONS_DP_VERSION || v[3] < 1 || v[3] > (1 << 24) || !valid_type(v[4]) || !valid_type(v[6])) return -1;
  const uint64_t anchor_bytes = (uint64_t)v[3] * 4 * (v[4] == 3 ? 1 : 4), padded = (anchor_bytes + 3) & ~(uint64_t)3;
  if (size != kDPPHeader + padded) return -1;
  *p = (vt_dpp_params){.max_detections = v[1],
                       .num_classes = v[2],
                       .anchor_count = v[3],
                       .box_type = v[4],
                       .box_zero_point = v[5],
                       .score_type = v[6],
                       .score_zero_point = v[7],
                       .anchor_zero_point = v[8],
                       .score_threshold = f[0],
                       .iou_threshold = f[1],
                       .y_scale = f[2],
                       .x_scale = f[3],
                       .h_scale = f[4],
                       .w_scale = f[5],
                       .box_scale = f[6],
                       .score_scale = f[7],
                       .anchor_scale = f[8],
                       .anchors = data + kDPPHeader};
  return 0;
}
