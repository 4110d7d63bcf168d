// libFuzzer target: raw bytes as an HTTP connection's input through libmicrohttpd and our layer over
// it (CHTTPServer: headers and query arguments copied, bodies gathered up to the limit, multipart
// forms parsed into parts by libmicrohttpd's post processor and collected). The handler reads every
// part of the request, as serve's does, and answers at once. Seeds: FUZZ_WRITE_SEEDS=DIR writes
// the requests serve's clients send (DeepStack multipart posts, our JSON API, chunked bodies).
#include <CHTTPServer.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static vt_http_server *server;
static size_t touched;
static size_t handled;

static void handler(void *context, vt_http_request *r) {
  (void)context;
  const char *a, *b, *c;
  const uint8_t *data;
  size_t size;
  handled++;
  touched += strlen(vt_http_method(r)) + strlen(vt_http_path(r)) + strlen(vt_http_client(r));
  for (size_t i = 0; i < vt_http_header_count(r) + 2; i++) {
    vt_http_header(r, i, &a, &b);
    touched += strlen(a) + strlen(b);
  }
  for (size_t i = 0; i < vt_http_argument_count(r) + 2; i++) {
    vt_http_argument(r, i, &a, &b);
    touched += strlen(a) + strlen(b);
  }
  for (size_t i = 0; i < vt_http_part_count(r) + 2; i++) {
    vt_http_part(r, i, &a, &b, &c, &data, &size);
    touched += strlen(a) + (b ? strlen(b) : 0) + (c ? strlen(c) : 0);
    for (size_t k = 0; k < size; k += 997) touched += data[k];
  }
  data = vt_http_body(r, &size);
  for (size_t k = 0; k < size; k += 997) touched += data[k];
  const char *names[] = {"X-Parts"};
  char count[32];
  snprintf(count, sizeof count, "%zu", vt_http_part_count(r));
  const char *values[] = {count};
  vt_http_respond(r, vt_http_body_state(r) ? 413 : 200, "text/plain", (const uint8_t *)"ok", 2, names, values, 1);
}

static void write_seed(const char *folder, const char *name, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(text, 1, strlen(text), f);
  fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *folder = getenv("FUZZ_WRITE_SEEDS");
  if (folder) {
    const char *form =
        "--b0\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\nk\r\n--b0\r\n"
        "Content-Disposition: form-data; name=\"image\"; filename=\"image\"\r\n\r\n\xff\xd8\xff\xe0JFIF\r\n--b0--\r\n";
    char deepstack[1024];
    snprintf(deepstack, sizeof deepstack,
             "POST /v1/vision/detection HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b0\r\n"
             "Content-Length: %zu\r\n\r\n%s",
             strlen(form), form);
    write_seed(folder, "deepstack.http", deepstack);
    write_seed(folder, "json.http",
               "POST /v1/detect?maxResults=3&allow=dog,cat&roi=0.1,0.1,0.5,0.5 HTTP/1.1\r\nHost: x\r\n"
               "Content-Length: 8\r\n\r\n\x89PNG\r\n\x1a\n");
    write_seed(folder, "chunked.http",
               "POST /v1/track/cam1?timestampMs=40 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
               "4\r\nabcd\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    write_seed(folder, "urlencoded.http",
               "POST /v1/vision/custom/list HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               "Content-Length: 21\r\n\r\napi_key=k&min_conf=1");
    write_seed(folder, "expect.http",
               "POST /v1/detect HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 999999999\r\n\r\n");
    printf("wrote 5 seeds to %s\n", folder);
    exit(0);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!server) {
    vt_http_config config = {"127.0.0.1", 0, 16, 0, 5, 65536, 16384};
    char error[256];
    if (vt_http_start_manual(&config, handler, NULL, &server, error, sizeof error) != 0) {
      fprintf(stderr, "%s\n", error);
      abort();
    }
  }
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 0;
  fcntl(sv[1], F_SETFL, O_NONBLOCK);
  if (vt_http_add(server, sv[0]) != 0) {
    close(sv[1]);
    return 0;
  }
  size_t sent = 0;
  char buffer[8192];
  for (int round = 0; round < 400; round++) {
    if (sent < size) {
      ssize_t n = write(sv[1], data + sent, size - sent);
      if (n > 0) sent += (size_t)n;
      if (sent == size) shutdown(sv[1], SHUT_WR);
    } else if (size == 0) {
      shutdown(sv[1], SHUT_WR);
    }
    vt_http_run(server);
    ssize_t k = read(sv[1], buffer, sizeof buffer);
    if (k == 0) break;  // the daemon closed the connection
  }
  close(sv[1]);
  for (int round = 0; round < 4; round++) vt_http_run(server);
  if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "requests handled so far: %zu\n", handled);
  return 0;
}
