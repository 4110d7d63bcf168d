// A small layer over libmicrohttpd (Debian: libmicrohttpd-dev) for `vision-tasks serve`: one
// listening daemon whose I/O runs on its own thread; each request's body (or its multipart parts,
// parsed by libmicrohttpd's post processor) is gathered up to a limit, then handed to the caller,
// who answers exactly once — from any thread — with vt_http_respond. Nothing here parses HTTP.
#ifndef CHTTPSERVER_H
#define CHTTPSERVER_H

#include <stddef.h>
#include <stdint.h>

typedef struct vt_http_server vt_http_server;
typedef struct vt_http_request vt_http_request;

// Called on the daemon's thread once a request is complete (or its body refused). It must return
// quickly; the request is answered later (or at once) with vt_http_respond, exactly once.
typedef void (*vt_http_handler)(void *context, vt_http_request *request);

typedef struct {
  const char *host;           // a numeric IPv4 or IPv6 address to listen on
  uint16_t port;              // 0: any free port (vt_http_port tells which)
  unsigned connection_limit;  // open connections at the most
  unsigned per_ip_limit;      // per client address (0: no limit)
  unsigned timeout_seconds;   // an idle connection is closed after this
  size_t max_body;            // a larger body is refused (413): not read when its length is declared
  size_t max_header;          // bytes of request line and headers (larger: 431)
} vt_http_config;

// Starts listening. Returns 0, or -1 with a message in `error`.
int vt_http_start(const vt_http_config *config, vt_http_handler handler, void *context, vt_http_server **out,
                  char *error, size_t error_size);
// For the fuzz target: a daemon without a listening socket or a thread of its own; connections are
// given with vt_http_add and served, one round at a time, by vt_http_run on the caller's thread.
int vt_http_start_manual(const vt_http_config *config, vt_http_handler handler, void *context, vt_http_server **out,
                         char *error, size_t error_size);
// Serves an already connected socket (vt_http_start_manual's daemon); returns 0, or -1.
int vt_http_add(vt_http_server *server, int fd);
// One round of vt_http_start_manual's daemon: reads, handles and writes what is ready.
void vt_http_run(vt_http_server *server);

// The port the daemon listens on.
uint16_t vt_http_port(const vt_http_server *server);
// Stops accepting connections: the listening socket stops listening, so a new client is refused at
// once; requests already accepted are still answered. 0 on success, -1 if it was not listening
// (a manual daemon, or quiesced already).
int vt_http_quiesce(vt_http_server *server);
// Stops the daemon. Every request handed over must have been answered.
void vt_http_stop(vt_http_server *server);

// What the request is; valid from the handler's call until vt_http_respond.
const char *vt_http_method(const vt_http_request *request);
const char *vt_http_path(const vt_http_request *request);  // without the query string
size_t vt_http_header_count(const vt_http_request *request);
void vt_http_header(const vt_http_request *request, size_t index, const char **name, const char **value);
size_t vt_http_argument_count(const vt_http_request *request);  // query arguments, URL-decoded
void vt_http_argument(const vt_http_request *request, size_t index, const char **name, const char **value);
const uint8_t *vt_http_body(const vt_http_request *request, size_t *size);  // when not multipart
size_t vt_http_part_count(const vt_http_request *request);                   // multipart/form-data parts
void vt_http_part(const vt_http_request *request, size_t index, const char **name, const char **filename,
                  const char **content_type, const uint8_t **data, size_t *size);
// 0: the body is here; 1: it was larger than max_body (dropped); 2: its multipart form was malformed.
int vt_http_body_state(const vt_http_request *request);
// The client's address, as text.
const char *vt_http_client(const vt_http_request *request);

// Answers the request (copied; the request must not be used afterwards). `headers` holds
// `header_count` name/value pairs.
void vt_http_respond(vt_http_request *request, unsigned status, const char *content_type, const uint8_t *body,
                     size_t size, const char *const *header_names, const char *const *header_values,
                     size_t header_count);

#endif
