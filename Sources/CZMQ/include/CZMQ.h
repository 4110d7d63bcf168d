// A small layer over libzmq (Debian: libzmq3-dev) for one REP socket: bind, receive one request's
// frames, send one reply. Errors come back as return codes with a message, never as aborts.
#ifndef CZMQ_H
#define CZMQ_H

#include <stddef.h>
#include <stdint.h>

typedef struct vt_zmq vt_zmq;

// Binds a REP socket to `endpoint` (tcp://HOST:PORT or ipc://PATH). Frames larger than
// `max_frame` bytes are refused by libzmq (the peer's message is dropped); a receive waits at most
// `timeout_ms`. Returns 0, or -1 with a message in `error`.
int vt_zmq_bind(const char *endpoint, int64_t max_frame, int timeout_ms, vt_zmq **out, char *error, size_t error_size);

// Receives one request (all its frames; at most `max_frames` are kept, the rest are read and
// dropped). Returns the number of frames received (kept or not), 0 when nothing came before the
// timeout, -1 on an error (message in `error`). The frames stay valid until the next receive.
int vt_zmq_receive(vt_zmq *z, size_t max_frames, char *error, size_t error_size);

// Frame `index` of the last request (NULL past the kept ones); its size in `size`.
const uint8_t *vt_zmq_frame(const vt_zmq *z, size_t index, size_t *size);

// Sends one reply of `count` frames. Returns 0, or -1 with a message in `error`.
int vt_zmq_send(vt_zmq *z, const uint8_t *const *frames, const size_t *sizes, size_t count, char *error, size_t error_size);

// The endpoint the socket is bound to (a tcp://…:* wildcard resolved to its port).
void vt_zmq_endpoint(const vt_zmq *z, char *endpoint, size_t size);

// Closes the socket (pending replies dropped: linger 0) and its context.
void vt_zmq_close(vt_zmq *z);

#endif
