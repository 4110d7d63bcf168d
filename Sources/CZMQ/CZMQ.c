#include "CZMQ.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#define VT_ZMQ_MAX_KEPT 8

struct vt_zmq {
  void *context;
  void *socket;
  zmq_msg_t frames[VT_ZMQ_MAX_KEPT];
  size_t kept;
};

static void set_error(char *error, size_t size, const char *what) {
  if (error && size) snprintf(error, size, "%s: %s", what, zmq_strerror(zmq_errno()));
}

static void release_frames(vt_zmq *z) {
  for (size_t i = 0; i < z->kept; i++) zmq_msg_close(&z->frames[i]);
  z->kept = 0;
}

int vt_zmq_bind(const char *endpoint, int64_t max_frame, int timeout_ms, vt_zmq **out, char *error, size_t error_size) {
  *out = NULL;
  vt_zmq *z = calloc(1, sizeof *z);
  if (!z) {
    if (error && error_size) snprintf(error, error_size, "out of memory");
    return -1;
  }
  z->context = zmq_ctx_new();
  if (!z->context) {
    set_error(error, error_size, "zmq_ctx_new");
    free(z);
    return -1;
  }
  z->socket = zmq_socket(z->context, ZMQ_REP);
  int linger = 0;
  if (!z->socket || zmq_setsockopt(z->socket, ZMQ_LINGER, &linger, sizeof linger) != 0 ||
      zmq_setsockopt(z->socket, ZMQ_MAXMSGSIZE, &max_frame, sizeof max_frame) != 0 ||
      zmq_setsockopt(z->socket, ZMQ_RCVTIMEO, &timeout_ms, sizeof timeout_ms) != 0 ||
      zmq_setsockopt(z->socket, ZMQ_SNDTIMEO, &timeout_ms, sizeof timeout_ms) != 0) {
    set_error(error, error_size, "zmq_socket");
    vt_zmq_close(z);
    return -1;
  }
  if (zmq_bind(z->socket, endpoint) != 0) {
    char what[600];
    snprintf(what, sizeof what, "cannot bind %s", endpoint);
    set_error(error, error_size, what);
    vt_zmq_close(z);
    return -1;
  }
  *out = z;
  return 0;
}

int vt_zmq_receive(vt_zmq *z, size_t max_frames, char *error, size_t error_size) {
  release_frames(z);
  if (max_frames > VT_ZMQ_MAX_KEPT) max_frames = VT_ZMQ_MAX_KEPT;
  int count = 0;
  int more = 1;
  while (more) {
    zmq_msg_t message;
    zmq_msg_init(&message);
    if (zmq_msg_recv(&message, z->socket, 0) < 0) {
      int code = zmq_errno();
      zmq_msg_close(&message);
      if (code == EAGAIN && count == 0) return 0;
      if (code == EINTR && count == 0) return 0;
      set_error(error, error_size, "zmq_msg_recv");
      release_frames(z);
      return -1;
    }
    more = zmq_msg_more(&message);
    if ((size_t)count < max_frames) {
      z->frames[z->kept++] = message;
    } else {
      zmq_msg_close(&message);
    }
    count++;
  }
  return count;
}

const uint8_t *vt_zmq_frame(const vt_zmq *z, size_t index, size_t *size) {
  if (index >= z->kept) {
    *size = 0;
    return NULL;
  }
  zmq_msg_t *message = (zmq_msg_t *)&z->frames[index];
  *size = zmq_msg_size(message);
  return (const uint8_t *)zmq_msg_data(message);
}

int vt_zmq_send(vt_zmq *z, const uint8_t *const *frames, const size_t *sizes, size_t count, char *error, size_t error_size) {
  for (size_t i = 0; i < count; i++) {
    int flags = i + 1 < count ? ZMQ_SNDMORE : 0;
    if (zmq_send(z->socket, frames[i], sizes[i], flags) < 0) {
      set_error(error, error_size, "zmq_send");
      return -1;
    }
  }
  return 0;
}

void vt_zmq_endpoint(const vt_zmq *z, char *endpoint, size_t size) {
  if (!size) return;
  endpoint[0] = 0;
  size_t length = size;
  if (zmq_getsockopt(z->socket, ZMQ_LAST_ENDPOINT, endpoint, &length) != 0) endpoint[0] = 0;
  endpoint[size - 1] = 0;
}

void vt_zmq_close(vt_zmq *z) {
  if (!z) return;
  release_frames(z);
  if (z->socket) zmq_close(z->socket);
  if (z->context) zmq_ctx_term(z->context);
  free(z);
}
