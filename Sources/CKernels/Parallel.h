// Internal: runs a job's parts on threads (the calling thread takes part 0).
#ifndef VISIONTASKS_CKERNELS_PARALLEL_H
#define VISIONTASKS_CKERNELS_PARALLEL_H

#include <stdint.h>

/// Calls `part(context, t, parts)` for t in 0..<parts (1…64), parts 1… on threads of their own; a
/// part whose thread cannot start runs on the calling thread. Returns when all parts are done.
void vt_parallel(int32_t parts, void (*part)(void *context, int32_t t, int32_t parts), void *context);

#endif
