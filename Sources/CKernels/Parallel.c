#include "Parallel.h"

#include <pthread.h>

typedef struct {
  void (*part)(void *, int32_t, int32_t);
  void *context;
  int32_t t, parts;
} part_job;

static void *run_part(void *arg) {
  part_job *j = arg;
  j->part(j->context, j->t, j->parts);
  return 0;
}

void vt_parallel(int32_t parts, void (*part)(void *context, int32_t t, int32_t parts), void *context) {
  if (parts < 1) parts = 1;
  if (parts > 64) parts = 64;
  part_job jobs[64];
  pthread_t tids[64];
  int started[64] = {0};
  for (int32_t t = 0; t < parts; t++) jobs[t] = (part_job){part, context, t, parts};
  for (int32_t t = 1; t < parts; t++) started[t] = pthread_create(&tids[t], 0, run_part, &jobs[t]) == 0;
  run_part(&jobs[0]);
  for (int32_t t = 1; t < parts; t++) {
    if (started[t]) pthread_join(tids[t], 0);
    else run_part(&jobs[t]);
  }
}
