// The LiteRT side of VisionTasks' kernels: one state per rewritten node; the custom options' magic
// says which kernel the node runs.
#include "CKernels.h"
#include "KernelFormats.h"

#include "CLiteRT.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kNone, kHybridDepthwise, kConv1x1, kConvWindow, kQuantizedDepthwise, kPostProcess, kConvGroup, kConvDepthwise, kRequantize };
enum { kMaxGroup = 64, kMaxSlots = 1 << 16 };

// A range one node takes of its output for the hybrid depthwise nodes that read it (see "VTLK").
typedef struct {
  const void *data;  // the output it was taken of, in this run (NULL: not taken)
  size_t count;      // its floats
  float range[2];
} vt_range_slot;

struct vt_context {
  const uint8_t *model;  // the model's bytes (the 1×1 kinds' filters are there)
  size_t model_size;
  void *memory;
  size_t size;
  int32_t threads;
  vt_pool *pool;  // NULL for one thread
  vt_range_slot *slots;
  int32_t slot_count;
};

vt_context *vt_context_create(int32_t threads, const uint8_t *model, size_t model_size) {
  vt_context *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->model = model;
  c->model_size = model ? model_size : 0;
  c->threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
  c->pool = vt_pool_create(c->threads);
  return c;
}

void vt_context_free(vt_context *c) {
  if (!c) return;
  vt_pool_free(c->pool);
  free(c->slots);
  free(c->memory);
  free(c);
}

struct vt_node {
  vt_litert_api api;
  int kind;
  vt_hdw_params hdw;  // kHybridDepthwise: points into `options`
  uint8_t *options;   // kHybridDepthwise: our copy of the custom options
  vt_conv1x1 *conv;   // kConv1x1, kConvWindow (its GEMM)
  vt_window window;   // kConvWindow
  vt_qdw *qdw;        // kQuantizedDepthwise
  vt_dpp *dpp;        // kPostProcess
  vt_cdw *cdw;        // kConvDepthwise
  vt_requant8_params requant;  // kRequantize
  vt_conv1x1 **members;  // kConvGroup: its hybrid 1×1 convolutions, in input order
  int32_t member_count, depth;
  int32_t range_out;  // a hybrid 1×1 node: the slot it puts its output's range in (-1: none)
  int32_t range_in;   // a hybrid depthwise node: the slot its input's range is in (-1: none)
  vt_context *context;
  int error;
  char message[160];
};

vt_node *vt_node_create(vt_litert_api api, vt_context *context) {
  if (!context) return NULL;
  vt_node *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->context = context;
  n->api = api;
  n->range_out = n->range_in = -1;
  return n;
}

void vt_node_free(vt_node *n) {
  if (!n) return;
  free(n->options);
  vt_conv1x1_free(n->conv);
  vt_qdw_free(n->qdw);
  vt_dpp_free(n->dpp);
  vt_cdw_free(n->cdw);
  for (int32_t i = 0; i < n->member_count; i++) vt_conv1x1_free(n->members[i]);
  free(n->members);
  free(n);
}

int vt_node_error(const vt_node *n, char *message, size_t message_size) {
  if (!n) return -1;
  if (n->error && message && message_size) snprintf(message, message_size, "%s", n->message);
  return n->error;
}

static LiteRtStatus fail(vt_node *n, const char *what) {
  if (!n->error) {
    n->error = 1;
    snprintf(n->message, sizeof n->message, "%s", what);
  }
  return 1;
}

static LiteRtStatus init_kind(vt_node *n, const uint8_t *data, size_t size) {
  const int uint8 = size >= 4 && memcmp(data, VT_OPTIONS_QC_MAGIC, 4) == 0,
            hybrid = size >= 4 && memcmp(data, VT_OPTIONS_HC_MAGIC, 4) == 0;
  if (size >= 4 && memcmp(data, VT_OPTIONS_DP_MAGIC, 4) == 0) {
    vt_dpp_params q;
    if (vt_dpp_decode_options(data, size, &q) != 0) return fail(n, "malformed custom options");
    vt_dpp_free(n->dpp);
    n->dpp = vt_dpp_create(&q);
    if (!n->dpp) return fail(n, "the detection post-processing's parameters are invalid, or memory ran out");
    n->kind = kPostProcess;
    return 0;
  }
  if (size >= 4 && memcmp(data, VT_OPTIONS_CD_MAGIC, 4) == 0) {
    if (!n->context->model) return fail(n, "the model's bytes are not known (load it from bytes or a mapping, not by path)");
    vt_cdw_free(n->cdw);
    n->cdw = vt_cdw_create_from_options(data, size, n->context->model, n->context->model_size);
    if (!n->cdw) return fail(n, "malformed custom options, or the filter they name is not in the model");
    n->kind = kConvDepthwise;
    return 0;
  }
  if (size >= 4 && memcmp(data, VT_OPTIONS_RQ_MAGIC, 4) == 0) {
    if (vt_requant8_decode_options(data, size, &n->requant) != 0) return fail(n, "malformed custom options");
    n->kind = kRequantize;
    return 0;
  }
  if (size >= 4 && memcmp(data, VT_OPTIONS_QD_MAGIC, 4) == 0) {
    vt_qdw_params q;
    if (vt_qdw_decode_options(data, size, &q) != 0) return fail(n, "malformed custom options");
    vt_qdw_free(n->qdw);
    n->qdw = vt_qdw_create(&q);
    if (!n->qdw) return fail(n, "the depthwise convolution's parameters are invalid, or memory ran out");
    n->kind = kQuantizedDepthwise;
    return 0;
  }
  if (size >= 4 && memcmp(data, VT_OPTIONS_QK_MAGIC, 4) == 0) {
    vt_qconv_params q;
    if (!n->context->model) return fail(n, "the model's bytes are not known (load it from bytes or a mapping, not by path)");
    if (vt_qconvk_decode_options(data, size, n->context->model, n->context->model_size, &q, &n->window) != 0)
      return fail(n, "malformed custom options, or the filter they name is not in the model");
    // Rows of whole quads (the dot-product path reads them in place): K rounded up to 4, the filter
    // padded with its zero point (those columns then add 0, whatever bytes they meet).
    uint8_t *padded = NULL;
    const int32_t k = q.in_channels, k4 = (k + 3) & ~3;
    if (k4 != k) {
      padded = malloc((size_t)k4 * (size_t)q.out_channels);
      if (!padded) return fail(n, "out of memory for the convolution's filter");
      for (int32_t o = 0; o < q.out_channels; o++) {
        memcpy(padded + (size_t)o * (size_t)k4, q.filter + (size_t)o * (size_t)k, (size_t)k);
        memset(padded + (size_t)o * (size_t)k4 + k, q.filter_zero_point, (size_t)(k4 - k));
      }
      q.filter = padded;
      q.in_channels = k4;
      n->window.row_bytes = k4;
    }
    vt_conv1x1_free(n->conv);
    n->conv = vt_qconv_create(&q);
    free(padded);
    if (!n->conv) return fail(n, "the convolution's parameters are invalid, or memory ran out");
    n->kind = kConvWindow;
    return 0;
  }
  if (uint8 || hybrid) {
    vt_qconv_params q;
    vt_hconv_params h;
    const uint8_t *model = n->context->model;
    const size_t model_size = n->context->model_size;
    if (!model) return fail(n, "the model's bytes are not known (load it from bytes or a mapping, not by path)");
    if (uint8 ? vt_qconv_decode_options(data, size, model, model_size, &q) != 0 : vt_hconv_decode_options(data, size, model, model_size, &h) != 0)
      return fail(n, "malformed custom options, or the filter they name is not in the model");
    vt_conv1x1_free(n->conv);
    n->conv = uint8 ? vt_qconv_create(&q) : vt_hconv_create(&h);
    if (!n->conv) return fail(n, "the 1x1 convolution's parameters are invalid, or memory ran out");
    n->kind = kConv1x1;
    return 0;
  }
  free(n->options);
  n->options = malloc(size ? size : 1);
  if (!n->options) return fail(n, "out of memory copying the custom options");
  if (size) memcpy(n->options, data, size);
  if (vt_hdw_decode_options(n->options, size, &n->hdw) != 0) return fail(n, "malformed custom options");
  n->kind = kHybridDepthwise;
  return 0;
}

// A hybrid 1×1 node of a group ("VTCG"): its options are a "VTHC" blob.
static vt_conv1x1 *hybrid_member(vt_node *n, const uint8_t *data, size_t size) {
  vt_hconv_params h;
  if (vt_hconv_decode_options(data, size, n->context->model, n->context->model_size, &h) != 0) return NULL;
  return vt_hconv_create(&h);
}

// "VTCG", version 1, count (1…64), depth D, then per member an int32 size and its "VTHC" options
// (padded to 4 bytes): hybrid 1×1 convolutions whose outputs, each seen as [pixels · N / D][D], are
// stacked in input order into one [batch][rows][D] output (a concatenation of reshapes, on axis 1).
static LiteRtStatus init_group(vt_node *n, const uint8_t *data, size_t size) {
  int32_t head[3];
  if (!n->context->model) return fail(n, "the model's bytes are not known (load it from bytes or a mapping, not by path)");
  if (size < 16) return fail(n, "malformed custom options");
  memcpy(head, data + 4, sizeof head);
  if (head[0] != VT_OPTIONS_CG_VERSION || head[1] < 1 || head[1] > kMaxGroup || head[2] < 1 || head[2] > (1 << 16)) return fail(n, "malformed custom options");
  vt_conv1x1 **members = calloc((size_t)head[1], sizeof *members);
  if (!members) return fail(n, "out of memory for the group's convolutions");
  size_t at = 16;
  int32_t made = 0;
  for (; made < head[1]; made++) {
    int32_t bytes;
    if (size - at < 4) break;
    memcpy(&bytes, data + at, 4);
    at += 4;
    const size_t padded = ((size_t)(uint32_t)bytes + 3) & ~(size_t)3;
    if (bytes < 1 || padded > size - at) break;
    members[made] = hybrid_member(n, data + at, (size_t)bytes);
    if (!members[made]) break;
    if (vt_conv1x1_out_channels(members[made]) % head[2] != 0) {
      vt_conv1x1_free(members[made]);
      break;
    }
    at += padded;
  }
  if (made != head[1] || at != size) {
    for (int32_t i = 0; i < made; i++) vt_conv1x1_free(members[i]);
    free(members);
    return fail(n, "malformed custom options, or a filter they name is not in the model");
  }
  n->members = members;
  n->member_count = made;
  n->depth = head[2];
  n->kind = kConvGroup;
  return 0;
}

// "VTLK", version 1, role (1: this hybrid 1×1 node puts its output's range in the slot; 2: this
// hybrid depthwise node takes its input's range from it), slot (0…65535), then the node's own
// options.
static LiteRtStatus k_init(void *user, const void *bytes, size_t size) {
  vt_node *n = user;
  if (!n) return 1;
  const uint8_t *data = bytes;
  int32_t link[3] = {0, 0, -1};
  if (size >= 16 && memcmp(data, VT_OPTIONS_LK_MAGIC, 4) == 0) {
    memcpy(link, data + 4, sizeof link);
    if (link[0] != VT_OPTIONS_LK_VERSION || (link[1] != 1 && link[1] != 2) || link[2] < 0 || link[2] >= kMaxSlots) return fail(n, "malformed custom options");
    data += 16;
    size -= 16;
  }
  const LiteRtStatus status = size >= 4 && memcmp(data, VT_OPTIONS_CG_MAGIC, 4) == 0 ? init_group(n, data, size) : init_kind(n, data, size);
  if (status != 0 || link[2] < 0) return status;
  if (link[1] == 1 ? !(n->kind == kConv1x1 && vt_conv1x1_is_hybrid(n->conv)) : n->kind != kHybridDepthwise)
    return fail(n, "a range link on a node of another kind");
  vt_context *c = n->context;
  if (link[2] >= c->slot_count) {
    vt_range_slot *slots = realloc(c->slots, (size_t)(link[2] + 1) * sizeof *slots);
    if (!slots) return fail(n, "out of memory for the range slots");
    memset(slots + c->slot_count, 0, (size_t)(link[2] + 1 - c->slot_count) * sizeof *slots);
    c->slots = slots;
    c->slot_count = link[2] + 1;
  }
  if (link[1] == 1) n->range_out = link[2];
  else n->range_in = link[2];
  return 0;
}

// Detection post-processing: inputs box encodings [1][anchors][≥ 4] and scores [1][anchors][classes];
// outputs boxes [1][D][4], classes [1][D], scores [1][D] and the count [1] (D = max detections).
static LiteRtStatus post_process_layouts(vt_node *n, size_t n_in, const LiteRtLayout *in, size_t n_out, LiteRtLayout *out) {
  if (n_in != 2 || n_out != 4 || !in || !out) return fail(n, "expected 2 inputs and 4 outputs");
  const int32_t anchors = vt_dpp_anchor_count(n->dpp), d = vt_dpp_max_detections(n->dpp);
  if (in[0].rank != 3 || in[1].rank != 3 || in[0].dimensions[0] != 1 || in[1].dimensions[0] != 1 || in[0].dimensions[1] != anchors ||
      in[1].dimensions[1] != anchors || in[0].dimensions[2] < 4)
    return fail(n, "the box encodings or scores do not match the anchors");
  for (size_t i = 0; i < 4; i++) memset(&out[i], 0, sizeof out[i]);
  out[0].rank = 3;
  out[0].dimensions[0] = 1;
  out[0].dimensions[1] = d;
  out[0].dimensions[2] = 4;
  for (size_t i = 1; i < 3; i++) {
    out[i].rank = 2;
    out[i].dimensions[0] = 1;
    out[i].dimensions[1] = d;
  }
  out[3].rank = 1;
  out[3].dimensions[0] = 1;
  return 0;
}

static LiteRtStatus post_process_run(vt_node *n, size_t n_in, const LiteRtTensorBuffer *in, size_t n_out, LiteRtTensorBuffer *out) {
  if (n_in != 2 || n_out != 4) return fail(n, "expected 2 inputs and 4 outputs");
  const LiteRtGetTensorBufferTensorTypeFn get_type = (LiteRtGetTensorBufferTensorTypeFn)n->api.get_tensor_type;
  const LiteRtLockTensorBufferFn lock = (LiteRtLockTensorBufferFn)n->api.lock;
  const LiteRtUnlockTensorBufferFn unlock = (LiteRtUnlockTensorBufferFn)n->api.unlock;
  if (!get_type || !lock || !unlock) return fail(n, "missing LiteRT functions");
  LiteRtRankedTensorType boxes, scores;
  if (get_type(in[0], &boxes) != 0 || get_type(in[1], &scores) != 0 || boxes.layout.rank != 3 || scores.layout.rank != 3)
    return fail(n, "the box encodings and scores are not rank-3 tensors");
  void *src[2] = {NULL, NULL}, *dst[4] = {NULL, NULL, NULL, NULL};
  size_t locked_in = 0, locked_out = 0;
  int status = -1;
  for (; locked_in < 2; locked_in++)
    if (lock(in[locked_in], &src[locked_in], 0) != 0 || !src[locked_in]) break;
  if (locked_in == 2)
    for (; locked_out < 4; locked_out++)
      if (lock(out[locked_out], &dst[locked_out], 1) != 0 || !dst[locked_out]) break;
  if (locked_in == 2 && locked_out == 4)
    status = vt_dpp_run(n->dpp, src[0], (int32_t)boxes.element_type, boxes.layout.dimensions[1], boxes.layout.dimensions[2], src[1],
                        (int32_t)scores.element_type, scores.layout.dimensions[2], dst[0], dst[1], dst[2], dst[3]);
  while (locked_out > 0) unlock(out[--locked_out]);
  while (locked_in > 0) unlock(in[--locked_in]);
  return status == 0 ? 0 : fail(n, "the box encodings or scores do not match the op (types, anchors, classes)");
}

// Requantization: the output has the input's shape, any rank.
static LiteRtStatus requant_layouts(vt_node *n, size_t n_in, const LiteRtLayout *in, size_t n_out, LiteRtLayout *out) {
  if (n_in != 1 || n_out != 1 || !in || !out) return fail(n, "expected 1 input and 1 output");
  if (in[0].rank > 8) return fail(n, "the input has more than 8 dimensions");
  out[0] = in[0];
  out[0].has_strides = 0;
  memset(out[0].strides, 0, sizeof out[0].strides);
  return 0;
}

static LiteRtStatus requant_run(vt_node *n, size_t n_in, const LiteRtTensorBuffer *in, size_t n_out, LiteRtTensorBuffer *out) {
  if (n_in != 1 || n_out != 1) return fail(n, "expected 1 input and 1 output");
  const LiteRtGetTensorBufferTensorTypeFn get_type = (LiteRtGetTensorBufferTensorTypeFn)n->api.get_tensor_type;
  const LiteRtLockTensorBufferFn lock = (LiteRtLockTensorBufferFn)n->api.lock;
  const LiteRtUnlockTensorBufferFn unlock = (LiteRtUnlockTensorBufferFn)n->api.unlock;
  if (!get_type || !lock || !unlock) return fail(n, "missing LiteRT functions");
  LiteRtRankedTensorType a, b;
  if (get_type(in[0], &a) != 0 || get_type(out[0], &b) != 0) return fail(n, "cannot read the tensors' types");
  if (a.element_type != (n->requant.input_signed ? 9 : 3) || b.element_type != (n->requant.output_signed ? 9 : 3))
    return fail(n, "the tensors are not of the op's 8-bit types");
  if (a.layout.rank != b.layout.rank || a.layout.rank > 8) return fail(n, "the input and output shapes differ");
  uint64_t count = 1;
  for (int32_t i = 0; i < a.layout.rank; i++) {
    if (a.layout.dimensions[i] < 0 || a.layout.dimensions[i] != b.layout.dimensions[i]) return fail(n, "the input and output shapes differ");
    count *= (uint64_t)a.layout.dimensions[i];
    if (count > ((uint64_t)1 << 40)) return fail(n, "the input is too large");
  }
  void *src = NULL, *dst = NULL;
  if (lock(in[0], &src, 0) != 0 || !src) return fail(n, "cannot read the input");
  if (lock(out[0], &dst, 1) != 0 || !dst) {
    unlock(in[0]);
    return fail(n, "cannot write the output");
  }
  const int status = vt_requant8_run(&n->requant, src, (size_t)count, dst);
  unlock(out[0]);
  unlock(in[0]);
  return status == 0 ? 0 : fail(n, "the kernel refused the tensors");
}

// A group: inputs [b][h_i][w_i][K_i], output [b][Σ h_i·w_i·N_i / D][D].
static LiteRtStatus group_layouts(vt_node *n, size_t n_in, const LiteRtLayout *in, size_t n_out, LiteRtLayout *out) {
  if (n_in != (size_t)n->member_count || n_out != 1 || !in || !out) return fail(n, "the inputs do not match the group's convolutions");
  int64_t rows = 0;
  for (size_t i = 0; i < n_in; i++) {
    if (in[i].rank != 4 || in[i].dimensions[0] != in[0].dimensions[0] || in[i].dimensions[3] != vt_conv1x1_in_channels(n->members[i]))
      return fail(n, "the inputs do not match the group's convolutions");
    rows += (int64_t)in[i].dimensions[1] * in[i].dimensions[2] * (vt_conv1x1_out_channels(n->members[i]) / n->depth);
  }
  if (rows < 1 || rows > INT32_MAX) return fail(n, "bad input size");
  memset(&out[0], 0, sizeof out[0]);
  out[0].rank = 3;
  out[0].dimensions[0] = in[0].dimensions[0];
  out[0].dimensions[1] = (int32_t)rows;
  out[0].dimensions[2] = n->depth;
  return 0;
}

// A group's run: each convolution's outputs written where the concatenation puts them.
static LiteRtStatus group_run(vt_node *n, size_t n_in, const LiteRtTensorBuffer *in, size_t n_out, LiteRtTensorBuffer *out) {
  if (n_in != (size_t)n->member_count || n_out != 1) return fail(n, "the inputs do not match the group's convolutions");
  const LiteRtGetTensorBufferTensorTypeFn get_type = (LiteRtGetTensorBufferTensorTypeFn)n->api.get_tensor_type;
  const LiteRtLockTensorBufferFn lock = (LiteRtLockTensorBufferFn)n->api.lock;
  const LiteRtUnlockTensorBufferFn unlock = (LiteRtUnlockTensorBufferFn)n->api.unlock;
  if (!get_type || !lock || !unlock) return fail(n, "missing LiteRT functions");
  vt_context *context = n->context;
  int64_t pixels[kMaxGroup], offsets[kMaxGroup], rows = 0;
  int32_t b = 0;
  size_t need = 0;
  for (size_t i = 0; i < n_in; i++) {
    LiteRtRankedTensorType t;
    if (get_type(in[i], &t) != 0 || t.layout.rank != 4 || t.element_type != 1 /* float32 */)
      return fail(n, "the input is not a float32 NHWC tensor");
    if (i == 0) b = t.layout.dimensions[0];
    if (t.layout.dimensions[0] != b || b < 1 || t.layout.dimensions[1] < 1 || t.layout.dimensions[2] < 1 ||
        t.layout.dimensions[3] != vt_conv1x1_in_channels(n->members[i]))
      return fail(n, "the inputs do not match the group's convolutions");
    pixels[i] = (int64_t)t.layout.dimensions[1] * t.layout.dimensions[2];
    offsets[i] = rows;
    rows += pixels[i] * (vt_conv1x1_out_channels(n->members[i]) / n->depth);
    const size_t s = vt_conv1x1_scratch_size(n->members[i], context->threads);
    if (s == 0) return fail(n, "bad input size");
    need = s > need ? s : need;
  }
  if (context->size < need) {
    free(context->memory);
    context->memory = aligned_alloc(64, (need + 63) & ~(size_t)63);
    context->size = context->memory ? need : 0;
    if (!context->memory) return fail(n, "out of memory for the scratch buffer");
  }
  void *src[kMaxGroup], *dst = NULL;
  size_t locked = 0;
  for (; locked < n_in; locked++)
    if (lock(in[locked], &src[locked], 0) != 0 || !src[locked]) break;
  int status = -1;
  if (locked == n_in && lock(out[0], &dst, 1) == 0 && dst) {
    status = 0;
    for (int32_t bi = 0; status == 0 && bi < b; bi++)
      for (size_t i = 0; status == 0 && i < n_in; i++) {
        const size_t k = (size_t)vt_conv1x1_in_channels(n->members[i]);
        const float *x = (const float *)src[i] + (size_t)bi * (size_t)pixels[i] * k;
        float *y = (float *)dst + ((size_t)bi * (size_t)rows + (size_t)offsets[i]) * (size_t)n->depth;
        status = vt_conv1x1_run(n->members[i], x, pixels[i], y, context->memory, context->size, context->threads, context->pool);
      }
    unlock(out[0]);
  }
  while (locked > 0) unlock(in[--locked]);
  return status == 0 ? 0 : fail(n, "the kernel refused the tensor sizes");
}

static LiteRtStatus k_layouts(void *user, size_t n_in, const LiteRtLayout *in, size_t n_out, LiteRtLayout *out) {
  vt_node *n = user;
  if (n && n->kind == kPostProcess) return post_process_layouts(n, n_in, in, n_out, out);
  if (n && n->kind == kConvGroup) return group_layouts(n, n_in, in, n_out, out);
  if (n && n->kind == kRequantize) return requant_layouts(n, n_in, in, n_out, out);
  if (!n || n_in != 1 || n_out != 1 || !in || !out) return n ? fail(n, "expected 1 input and 1 output") : 1;
  if (in[0].rank != 4) return fail(n, "the input is not NHWC");
  memset(&out[0], 0, sizeof out[0]);
  out[0].rank = 4;
  out[0].dimensions[0] = in[0].dimensions[0];
  if (n->kind == kConv1x1) {
    if (in[0].dimensions[3] != vt_conv1x1_in_channels(n->conv)) return fail(n, "the input does not have the op's channels");
    out[0].dimensions[1] = in[0].dimensions[1];
    out[0].dimensions[2] = in[0].dimensions[2];
    out[0].dimensions[3] = vt_conv1x1_out_channels(n->conv);
    return 0;
  }
  // The spatial kinds: the input's channels, then the window's output size.
  const int32_t h = in[0].dimensions[1], w = in[0].dimensions[2];
  int32_t channels, out_channels, oh = 0, ow = 0, ph, pw;
  int sized;
  switch (n->kind) {
    case kConvDepthwise:
      channels = vt_cdw_in_channels(n->cdw);
      out_channels = vt_cdw_channels(n->cdw);
      sized = vt_cdw_output_size(n->cdw, h, w, &oh, &ow);
      break;
    case kQuantizedDepthwise:
      channels = out_channels = vt_qdw_channels(n->qdw);
      sized = vt_qdw_output_size(n->qdw, h, w, &oh, &ow);
      break;
    case kConvWindow:
      channels = n->window.in_channels;
      out_channels = vt_conv1x1_out_channels(n->conv);
      sized = vt_window_output_size(&n->window, h, w, &oh, &ow, &ph, &pw);
      break;
    case kHybridDepthwise:
      channels = n->hdw.in_channels;
      out_channels = n->hdw.in_channels * n->hdw.depth_multiplier;
      sized = vt_hdw_output_size(&n->hdw, h, w, &oh, &ow, &ph, &pw);
      break;
    default:
      return fail(n, "the node was not initialized");
  }
  if (in[0].dimensions[3] != channels) return fail(n, "the input does not have the op's channels");
  if (sized != 0) return fail(n, "the input is too small for the filter");
  out[0].dimensions[1] = oh;
  out[0].dimensions[2] = ow;
  out[0].dimensions[3] = out_channels;
  return 0;
}

static LiteRtStatus k_run(void *user, size_t n_in, const LiteRtTensorBuffer *in, size_t n_out, LiteRtTensorBuffer *out) {
  vt_node *n = user;
  if (!n || n->error) return 1;
  if (n->kind == kPostProcess) return post_process_run(n, n_in, in, n_out, out);
  if (n->kind == kConvGroup) return group_run(n, n_in, in, n_out, out);
  if (n->kind == kRequantize) return requant_run(n, n_in, in, n_out, out);
  if (n_in != 1 || n_out != 1) return fail(n, "expected 1 input and 1 output");
  LiteRtRankedTensorType t;
  const LiteRtGetTensorBufferTensorTypeFn get_type = (LiteRtGetTensorBufferTensorTypeFn)n->api.get_tensor_type;
  const LiteRtLockTensorBufferFn lock = (LiteRtLockTensorBufferFn)n->api.lock;
  const LiteRtUnlockTensorBufferFn unlock = (LiteRtUnlockTensorBufferFn)n->api.unlock;
  if (!get_type || !lock || !unlock) return fail(n, "missing LiteRT functions");
  const int window = n->kind == kConvWindow, conv = n->kind == kConv1x1 || window, qdw = n->kind == kQuantizedDepthwise;
  const int cdw = n->kind == kConvDepthwise;
  const int quantized = qdw || (conv && !vt_conv1x1_is_hybrid(n->conv));
  if (n->kind == kNone) return fail(n, "the node was not initialized");
  const int int8 = (qdw && vt_qdw_is_signed(n->qdw)) || (conv && vt_conv1x1_is_signed(n->conv));
  if (get_type(in[0], &t) != 0 || t.layout.rank != 4 || t.element_type != (int8 ? 9 /* int8 */ : quantized ? 3 /* uint8 */ : 1 /* float32 */))
    return fail(n, int8        ? "the input is not an int8 NHWC tensor"
                   : quantized ? "the input is not a uint8 NHWC tensor"
                               : "the input is not a float32 NHWC tensor");
  const int32_t b = t.layout.dimensions[0], h = t.layout.dimensions[1], w = t.layout.dimensions[2];
  if (b < 1 || h < 1 || w < 1) return fail(n, "bad input size");
  const int64_t pixels = (int64_t)b * h * w;
  vt_context *context = n->context;
  const int32_t threads = context->threads;
  // The depthwise uint8 kind needs no scratch.
  size_t need = qdw    ? 1
                : conv ? vt_conv1x1_scratch_size(n->conv, threads)
                : cdw  ? vt_cdw_scratch_size(n->cdw, h, w, threads)
                       : vt_hdw_scratch_size(&n->hdw, h, w, threads);
  if (need == 0) return fail(n, "bad input size");
  // The spatial kind's im2col rows follow the GEMM's scratch.
  const size_t rows_at = (need + 63) & ~(size_t)63;
  // The spatial kind runs on chunks of output rows (about 48 KB of im2col rows each, in L2 while the GEMM
  // reads them back).
  int32_t ow = 0;
  int64_t out_rows = 0, chunk = 0;
  if (window) {
    int32_t oh, ph, pw;
    if (vt_window_output_size(&n->window, h, w, &oh, &ow, &ph, &pw) != 0) return fail(n, "bad input size");
    out_rows = (int64_t)b * oh;
    const uint64_t row_bytes = (uint64_t)ow * (uint64_t)vt_conv1x1_in_channels(n->conv);
    chunk = (int64_t)((48u << 10) / row_bytes);
    chunk = chunk < 4 * threads ? 4 * threads : chunk;
    chunk = chunk > out_rows ? out_rows : chunk;
    const uint64_t bytes = (uint64_t)chunk * row_bytes;
    if (bytes > ((uint64_t)1 << 40)) return fail(n, "the input is too large");
    need = rows_at + (size_t)bytes;
  }
  if (context->size < need) {
    free(context->memory);
    context->memory = aligned_alloc(64, (need + 63) & ~(size_t)63);
    context->size = context->memory ? need : 0;
    if (!context->memory) return fail(n, "out of memory for the scratch buffer");
  }
  void *src = NULL, *dst = NULL;
  if (lock(in[0], &src, 0) != 0 || !src) return fail(n, "cannot read the input");
  if (lock(out[0], &dst, 1) != 0 || !dst) {
    unlock(in[0]);
    return fail(n, "cannot write the output");
  }
  int status;
  if (cdw) {
    status = vt_cdw_run(n->cdw, src, b, h, w, dst, context->memory, context->size, threads, context->pool);
  } else if (qdw) {
    status = vt_qdw_run(n->qdw, src, b, h, w, dst, threads, context->pool);
  } else if (window) {
    uint8_t *im2col = (uint8_t *)context->memory + rows_at;
    const size_t out_pixel = (size_t)vt_conv1x1_out_channels(n->conv);
    status = 0;
    for (int64_t first = 0; status == 0 && first < out_rows; first += chunk) {
      const int64_t count = first + chunk < out_rows ? chunk : out_rows - first;
      status = vt_im2col(&n->window, src, b, h, w, first, count, im2col, threads, context->pool);
      if (status == 0)
        status = vt_conv1x1_run(n->conv, im2col, count * ow, (uint8_t *)dst + (size_t)first * (size_t)ow * out_pixel, context->memory,
                                rows_at, threads, context->pool);
    }
  } else if (conv && n->range_out >= 0) {
    // The hybrid depthwise nodes that read this output take its range from here.
    vt_range_slot *slot = &context->slots[n->range_out];
    slot->data = NULL;
    status = vt_conv1x1_run_ranged(n->conv, VT_PATH_DEFAULT, src, pixels, dst, context->memory, context->size, threads, context->pool, slot->range);
    if (status == 0) {
      slot->data = dst;
      slot->count = (size_t)pixels * (size_t)vt_conv1x1_out_channels(n->conv);
    }
  } else if (conv) {
    status = vt_conv1x1_run(n->conv, src, pixels, dst, context->memory, context->size, threads, context->pool);
  } else {
    // The range its producer took in this run, when it is of this very input (one batch).
    const vt_range_slot *slot = n->range_in >= 0 ? &context->slots[n->range_in] : NULL;
    const int known = slot && b == 1 && slot->data == src && slot->count == (size_t)pixels * (size_t)n->hdw.in_channels;
    status = vt_hdw_run_ranged(&n->hdw, VT_PATH_DEFAULT, src, b, h, w, dst, context->memory, context->size, threads, context->pool,
                               known ? slot->range : NULL);
  }
  unlock(out[0]);
  unlock(in[0]);
  return status == 0 ? 0 : fail(n, "the kernel refused the tensor sizes");
}

static LiteRtStatus k_destroy(void *user) {
  (void)user;  // the state is freed by its owner once the compiled model is gone
  return 0;
}

static const LiteRtCustomOpKernel kKernel = {k_init, k_layouts, k_run, k_destroy};

const void *vt_kernel(void) { return &kKernel; }
