#include "CHTTPServer.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

struct vt_http_server {
  struct MHD_Daemon *daemon;
  vt_http_handler handler;
  void *context;
  size_t max_body;
  uint16_t port;
  /// The listening socket handed back by MHD_quiesce_daemon (ours to close, after MHD_stop_daemon).
  MHD_socket quiesced;
};

typedef struct {
  char *name;
  char *value;
} vt_pair;

typedef struct {
  char *name;
  char *filename;
  char *content_type;
  uint8_t *data;
  size_t size;
  size_t capacity;
} vt_part;

enum { PHASE_RECEIVING, PHASE_HANDED, PHASE_SUSPENDED, PHASE_ANSWERED };

struct vt_http_request {
  vt_http_server *server;
  struct MHD_Connection *connection;
  pthread_mutex_t lock;
  int phase;
  char *method;
  char *path;
  char client[64];
  vt_pair *headers;
  size_t header_count;
  vt_pair *arguments;
  size_t argument_count;
  uint8_t *body;
  size_t body_size;
  size_t body_capacity;
  size_t received;  // bytes of body (or parts) kept so far
  int body_state;
  struct MHD_PostProcessor *post;
  vt_part *parts;
  size_t part_count;
  // The answer, once given.
  struct MHD_Response *response;
  unsigned status;
};

static char *copy(const char *s) { return strdup(s ? s : ""); }

static int grow(uint8_t **buffer, size_t *capacity, size_t needed) {
  if (needed <= *capacity) return 1;
  size_t next = *capacity ? *capacity : 4096;
  while (next < needed) next *= 2;
  uint8_t *grown = realloc(*buffer, next);
  if (!grown) return 0;
  *buffer = grown;
  *capacity = next;
  return 1;
}

static enum MHD_Result collect(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  vt_pair **list = NULL;
  size_t *count = NULL;
  vt_http_request *r = cls;
  if (kind == MHD_HEADER_KIND) {
    list = &r->headers;
    count = &r->header_count;
  } else {
    list = &r->arguments;
    count = &r->argument_count;
  }
  if (*count >= 256) return MHD_NO;  // a sane cap: more is refused as a client error later
  vt_pair *grown = realloc(*list, (*count + 1) * sizeof **list);
  if (!grown) return MHD_NO;
  *list = grown;
  grown[*count].name = copy(key);
  grown[*count].value = copy(value);
  (*count)++;
  return MHD_YES;
}

static enum MHD_Result post_part(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                 const char *content_type, const char *transfer_encoding, const char *data,
                                 uint64_t off, size_t size) {
  (void)kind;
  (void)transfer_encoding;
  vt_http_request *r = cls;
  if (r->body_state != 0) return MHD_YES;  // already refused: drop the rest
  if (r->received + size > r->server->max_body) {
    r->body_state = 1;
    return MHD_YES;
  }
  vt_part *part = r->part_count ? &r->parts[r->part_count - 1] : NULL;
  int fresh = off == 0 || !part || strcmp(part->name, key ? key : "") != 0;
  if (fresh) {
    if (r->part_count >= 64) {
      r->body_state = 2;
      return MHD_YES;
    }
    vt_part *grown = realloc(r->parts, (r->part_count + 1) * sizeof *r->parts);
    if (!grown) {
      r->body_state = 1;
      return MHD_YES;
    }
    r->parts = grown;
    part = &r->parts[r->part_count++];
    memset(part, 0, sizeof *part);
    part->name = copy(key);
    part->filename = filename ? strdup(filename) : NULL;
    part->content_type = content_type ? strdup(content_type) : NULL;
  }
  if (size) {
    if (!grow(&part->data, &part->capacity, part->size + size)) {
      r->body_state = 1;
      return MHD_YES;
    }
    memcpy(part->data + part->size, data, size);
    part->size += size;
    r->received += size;
  }
  return MHD_YES;
}

static void release(vt_http_request *r) {
  if (r->post) MHD_destroy_post_processor(r->post);
  for (size_t i = 0; i < r->header_count; i++) {
    free(r->headers[i].name);
    free(r->headers[i].value);
  }
  for (size_t i = 0; i < r->argument_count; i++) {
    free(r->arguments[i].name);
    free(r->arguments[i].value);
  }
  for (size_t i = 0; i < r->part_count; i++) {
    free(r->parts[i].name);
    free(r->parts[i].filename);
    free(r->parts[i].content_type);
    free(r->parts[i].data);
  }
  if (r->response) MHD_destroy_response(r->response);
  free(r->headers);
  free(r->arguments);
  free(r->parts);
  free(r->body);
  free(r->method);
  free(r->path);
  pthread_mutex_destroy(&r->lock);
  free(r);
}

static void completed(void *cls, struct MHD_Connection *connection, void **req_cls,
                      enum MHD_RequestTerminationCode toe) {
  (void)cls;
  (void)connection;
  (void)toe;
  if (*req_cls) release(*req_cls);
  *req_cls = NULL;
}

static enum MHD_Result answer(vt_http_request *r) {
  enum MHD_Result result = MHD_queue_response(r->connection, r->status, r->response);
  MHD_destroy_response(r->response);
  r->response = NULL;
  return result;
}

// Hands the complete request over, then answers it now (when the handler did) or suspends the
// connection until vt_http_respond resumes it.
static enum MHD_Result hand_over(vt_http_request *r) {
  if (r->post) {
    MHD_destroy_post_processor(r->post);  // flushes the last part
    r->post = NULL;
  }
  r->phase = PHASE_HANDED;
  r->server->handler(r->server->context, r);
  pthread_mutex_lock(&r->lock);
  if (r->response) {
    pthread_mutex_unlock(&r->lock);
    return answer(r);
  }
  r->phase = PHASE_SUSPENDED;
  MHD_suspend_connection(r->connection);
  pthread_mutex_unlock(&r->lock);
  return MHD_YES;
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **req_cls) {
  (void)version;
  vt_http_server *server = cls;
  vt_http_request *r = *req_cls;
  if (!r) {
    r = calloc(1, sizeof *r);
    if (!r) return MHD_NO;
    pthread_mutex_init(&r->lock, NULL);
    r->server = server;
    r->connection = connection;
    r->method = copy(method);
    r->path = copy(url);
    *req_cls = r;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info && info->client_addr) {
      const struct sockaddr *a = info->client_addr;
      if (a->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)a)->sin_addr, r->client, sizeof r->client);
      else if (a->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)a)->sin6_addr, r->client, sizeof r->client);
    }
    MHD_get_connection_values(connection, MHD_HEADER_KIND, collect, r);
    MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect, r);
    const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (length && strtoull(length, NULL, 10) > server->max_body) {
      // Refused from its declared length: answered before a byte of the body is read.
      r->body_state = 1;
      return hand_over(r);
    }
    const char *type = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (type && strncasecmp(type, "multipart/form-data", 19) == 0) {
      r->post = MHD_create_post_processor(connection, 65536, post_part, r);
      if (!r->post) r->body_state = 2;  // no boundary, or one too long
    }
    return MHD_YES;
  }
  if (r->phase == PHASE_RECEIVING && *upload_data_size) {
    size_t size = *upload_data_size;
    *upload_data_size = 0;
    if (r->body_state != 0) return MHD_YES;  // refused: the rest is read and dropped
    if (r->post) {
      if (MHD_post_process(r->post, upload_data, size) != MHD_YES && r->body_state == 0) r->body_state = 2;
    } else if (r->received + size > server->max_body) {
      r->body_state = 1;
    } else if (!grow(&r->body, &r->body_capacity, r->body_size + size)) {
      r->body_state = 1;
    } else {
      memcpy(r->body + r->body_size, upload_data, size);
      r->body_size += size;
      r->received += size;
    }
    return MHD_YES;
  }
  if (r->phase == PHASE_RECEIVING) return hand_over(r);
  pthread_mutex_lock(&r->lock);
  int ready = r->response != NULL;
  pthread_mutex_unlock(&r->lock);
  return ready ? answer(r) : MHD_YES;
}

int vt_http_start(const vt_http_config *config, vt_http_handler handler, void *context, vt_http_server **out,
                  char *error, size_t error_size) {
  *out = NULL;
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  // MHD_USE_ITC: MHD_quiesce_daemon needs it with an internal polling thread.
  unsigned flags =
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
  struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
  if (inet_pton(AF_INET, config->host, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(config->port);
  } else if (inet_pton(AF_INET6, config->host, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(config->port);
    flags |= MHD_USE_IPv6;
  } else {
    snprintf(error, error_size, "'%s' is not a numeric IPv4 or IPv6 address", config->host);
    return -1;
  }
  vt_http_server *server = calloc(1, sizeof *server);
  if (!server) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  server->handler = handler;
  server->context = context;
  server->quiesced = MHD_INVALID_SOCKET;
  server->max_body = config->max_body;
  server->daemon = MHD_start_daemon(
      flags, config->port, NULL, NULL, access_handler, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
      MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
      config->per_ip_limit, MHD_OPTION_CONNECTION_TIMEOUT, config->timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, config->max_header, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
      MHD_OPTION_END);
  if (!server->daemon) {
    snprintf(error, error_size, "cannot listen on %s port %u (in use, or not an address of this machine?)",
             config->host, (unsigned)config->port);
    free(server);
    return -1;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  server->port = info ? info->port : config->port;
  *out = server;
  return 0;
}

int vt_http_start_manual(const vt_http_config *config, vt_http_handler handler, void *context, vt_http_server **out,
                         char *error, size_t error_size) {
  *out = NULL;
  vt_http_server *server = calloc(1, sizeof *server);
  if (!server) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  server->handler = handler;
  server->context = context;
  server->quiesced = MHD_INVALID_SOCKET;
  server->max_body = config->max_body;
  server->daemon = MHD_start_daemon(
      MHD_USE_NO_LISTEN_SOCKET | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL, access_handler, server,
      MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, MHD_OPTION_CONNECTION_TIMEOUT, config->timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, config->max_header, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
      MHD_OPTION_END);
  if (!server->daemon) {
    snprintf(error, error_size, "cannot start a daemon");
    free(server);
    return -1;
  }
  *out = server;
  return 0;
}

int vt_http_add(vt_http_server *server, int fd) {
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return MHD_add_connection(server->daemon, fd, (const struct sockaddr *)&address, sizeof address) == MHD_YES ? 0 : -1;
}

void vt_http_run(vt_http_server *server) { MHD_run(server->daemon); }

uint16_t vt_http_port(const vt_http_server *server) { return server->port; }

int vt_http_quiesce(vt_http_server *server) {
  if (!server || server->quiesced != MHD_INVALID_SOCKET) return -1;
  MHD_socket listener = MHD_quiesce_daemon(server->daemon);
  if (listener == MHD_INVALID_SOCKET) return -1;
  server->quiesced = listener;
  // The daemon's thread no longer accepts from it, but it may still hold the descriptor until
  // MHD_stop_daemon, so it is not closed yet. shutdown() takes it out of the listening state: the
  // connections waiting in its backlog are reset and a new client is refused (ECONNREFUSED) at once.
  return shutdown(listener, SHUT_RDWR) == 0 ? 0 : -1;
}

void vt_http_stop(vt_http_server *server) {
  if (!server) return;
  MHD_stop_daemon(server->daemon);
  if (server->quiesced != MHD_INVALID_SOCKET) close(server->quiesced);
  free(server);
}

const char *vt_http_method(const vt_http_request *r) { return r->method; }
const char *vt_http_path(const vt_http_request *r) { return r->path; }
size_t vt_http_header_count(const vt_http_request *r) { return r->header_count; }
void vt_http_header(const vt_http_request *r, size_t index, const char **name, const char **value) {
  *name = index < r->header_count ? r->headers[index].name : "";
  *value = index < r->header_count ? r->headers[index].value : "";
}
size_t vt_http_argument_count(const vt_http_request *r) { return r->argument_count; }
void vt_http_argument(const vt_http_request *r, size_t index, const char **name, const char **value) {
  *name = index < r->argument_count ? r->arguments[index].name : "";
  *value = index < r->argument_count ? r->arguments[index].value : "";
}
const uint8_t *vt_http_body(const vt_http_request *r, size_t *size) {
  *size = r->body_size;
  return r->body;
}
size_t vt_http_part_count(const vt_http_request *r) { return r->part_count; }
void vt_http_part(const vt_http_request *r, size_t index, const char **name, const char **filename,
                  const char **content_type, const uint8_t **data, size_t *size) {
  if (index >= r->part_count) {
    *name = "";
    *filename = NULL;
    *content_type = NULL;
    *data = NULL;
    *size = 0;
    return;
  }
  const vt_part *p = &r->parts[index];
  *name = p->name;
  *filename = p->filename;
  *content_type = p->content_type;
  *data = p->data;
  *size = p->size;
}
int vt_http_body_state(const vt_http_request *r) { return r->body_state; }
const char *vt_http_client(const vt_http_request *r) { return r->client; }

void vt_http_respond(vt_http_request *r, unsigned status, const char *content_type, const uint8_t *body, size_t size,
                     const char *const *header_names, const char *const *header_values, size_t header_count) {
  struct MHD_Response *response =
      MHD_create_response_from_buffer(size, (void *)(size ? body : (const uint8_t *)""), MHD_RESPMEM_MUST_COPY);
  if (response) {
    if (content_type) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    for (size_t i = 0; i < header_count; i++) MHD_add_response_header(response, header_names[i], header_values[i]);
  }
  pthread_mutex_lock(&r->lock);
  if (!response) {
    // Out of memory for the answer: an empty 500 (MHD's own minimal response).
    response = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    status = 500;
  }
  r->response = response;
  r->status = status;
  int suspended = r->phase == PHASE_SUSPENDED;
  r->phase = PHASE_ANSWERED;
  struct MHD_Connection *connection = r->connection;
  pthread_mutex_unlock(&r->lock);
  // Resumed, the daemon answers and then frees the request: it is not touched after this.
  if (suspended) MHD_resume_connection(connection);
}
