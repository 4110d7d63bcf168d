// Internal: runs a job's parts on threads (the calling thread takes part 0).
#ifndef VISIONTASKS_CKERNELS_PARALLEL_H
#define VISIONTASKS_CKERNELS_PARALLEL_H

#include "CKernels.h"

#include <stdint.h>

/// Calls `part(context, t, parts)` for t in 0..<parts (1…64) and returns when all are done: part 0
/// on the calling thread, the others on `pool`'s workers (at most its size; parts beyond it are
/// not made), or without a pool on threads started for the call (a part whose thread cannot start
/// runs on the calling thread). Returns the number of parts run.
int32_t vt_parallel(vt_pool *pool, int32_t parts, void (*part)(void *context, int32_t t, int32_t parts), void *context);

/// Calls `chunk(context, t, c)` for every c in 0..<chunks, on up to `threads` threads as
/// `vt_parallel` runs parts (t is the thread's part, for its scratch): each thread takes the next
/// chunk from a shared counter, so a worker that wakes late takes fewer instead of holding the
/// others up. One thread or one chunk runs them in order on the calling thread.
void vt_parallel_chunks(vt_pool *pool, int32_t threads, int64_t chunks, void (*chunk)(void *context, int32_t t, int64_t c), void *context);

#endif
