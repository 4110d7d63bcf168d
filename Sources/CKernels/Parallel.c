#include "Parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define vt_pause() _mm_pause()
#else
#define vt_pause() ((void)0)
#endif

// Workers spin this many pauses (tens of microseconds) for the next job before sleeping: a model's
// ops follow each other closely, and waking a sleeping thread costs more than an op's share.
enum { kSpin = 2000 };

struct vt_pool {
  int32_t workers;
  pthread_t tids[63];
  int32_t started;
  pthread_mutex_t mutex;
  pthread_cond_t wake, done;
  _Atomic uint64_t generation;
  _Atomic int32_t pending;
  _Atomic int stop;
  void (*part)(void *, int32_t, int32_t);
  void *context;
  int32_t parts;
};

typedef struct {
  vt_pool *pool;
  int32_t index;
} worker_arg;


static void *worker(void *raw) {
  worker_arg a = *(worker_arg *)raw;
  free(raw);
  vt_pool *p = a.pool;
  uint64_t seen = 0;
  for (;;) {
    for (int s = 0; s < kSpin && atomic_load(&p->generation) == seen && !atomic_load(&p->stop); s++) vt_pause();
    pthread_mutex_lock(&p->mutex);
    while (atomic_load(&p->generation) == seen && !atomic_load(&p->stop)) pthread_cond_wait(&p->wake, &p->mutex);
    pthread_mutex_unlock(&p->mutex);
    if (atomic_load(&p->stop)) return 0;
    seen = atomic_load(&p->generation);
    if (a.index < p->parts) p->part(p->context, a.index, p->parts);
    if (atomic_fetch_sub(&p->pending, 1) == 1) {
      pthread_mutex_lock(&p->mutex);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mutex);
    }
  }
}

vt_pool *vt_pool_create(int32_t threads) {
  if (threads < 2) return NULL;
  if (threads > 64) threads = 64;
  vt_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  pthread_mutex_init(&p->mutex, 0);
  pthread_cond_init(&p->wake, 0);
  pthread_cond_init(&p->done, 0);
  for (int32_t i = 1; i < threads; i++) {
    worker_arg *a = malloc(sizeof *a);
    if (!a) break;
    *a = (worker_arg){p, i};
    if (pthread_create(&p->tids[p->started], 0, worker, a) != 0) {
      free(a);
      break;
    }
    p->started++;
  }
  p->workers = p->started;
  return p;
}

void vt_pool_free(vt_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mutex);
  atomic_store(&p->stop, 1);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mutex);
  for (int32_t i = 0; i < p->started; i++) pthread_join(p->tids[i], 0);
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mutex);
  free(p);
}

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

int32_t vt_parallel(vt_pool *pool, int32_t parts, void (*part)(void *context, int32_t t, int32_t parts), void *context) {
  if (parts < 1) parts = 1;
  if (parts > 64) parts = 64;
  if (pool && parts > pool->workers + 1) parts = pool->workers + 1;
  if (parts == 1) {
    part(context, 0, 1);
    return 1;
  }
  if (pool) {
    pool->part = part;
    pool->context = context;
    pool->parts = parts;
    atomic_store(&pool->pending, pool->workers);
    pthread_mutex_lock(&pool->mutex);
    atomic_fetch_add(&pool->generation, 1);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    part(context, 0, parts);
    for (int s = 0; s < kSpin && atomic_load(&pool->pending) > 0; s++) vt_pause();
    pthread_mutex_lock(&pool->mutex);
    while (atomic_load(&pool->pending) > 0) pthread_cond_wait(&pool->done, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
    return parts;
  }
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
  return parts;
}

typedef struct {
  void (*chunk)(void *, int32_t, int64_t);
  void *context;
  int64_t chunks;
  _Atomic int64_t next;
} chunk_job;

static void chunk_part(void *raw, int32_t t, int32_t parts) {
  (void)parts;
  chunk_job *j = raw;
  for (int64_t c; (c = atomic_fetch_add(&j->next, 1)) < j->chunks;) j->chunk(j->context, t, c);
}

void vt_parallel_chunks(vt_pool *pool, int32_t threads, int64_t chunks, void (*chunk)(void *context, int32_t t, int64_t c), void *context) {
  if (chunks < 1) return;
  if (threads > chunks) threads = (int32_t)chunks;
  if (threads <= 1) {
    for (int64_t c = 0; c < chunks; c++) chunk(context, 0, c);
    return;
  }
  chunk_job job = {chunk, context, chunks, 0};
  vt_parallel(pool, threads, chunk_part, &job);
}
