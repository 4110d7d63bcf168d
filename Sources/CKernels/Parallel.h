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

#endif
