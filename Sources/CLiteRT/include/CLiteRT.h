// Our own declarations of the subset of the LiteRT C ABI (ai-edge-litert 2.3.0, libLiteRt.so) that
// VisionTasks calls. Nothing here is linked: the LiteRT Swift module resolves every function at run
// time with dlsym into pointers of the typedefs below. Layouts follow the ABI documented in
// docs/litert-c-api.md of the shared folder; static asserts pin the sizes.
#ifndef VISIONTASKS_CLITERT_H
#define VISIONTASKS_CLITERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int LiteRtStatus;
typedef size_t LiteRtParamIndex;

typedef struct LiteRtEnvironmentT* LiteRtEnvironment;
typedef struct LiteRtModelT* LiteRtModel;
typedef struct LiteRtSignatureT* LiteRtSignature;
typedef struct LiteRtTensorT* LiteRtTensor;
typedef struct LiteRtOptionsT* LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT* LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT* LiteRtCompiledModel;
typedef struct LiteRtTensorBufferRequirementsT* LiteRtTensorBufferRequirements;
typedef struct LiteRtTensorBufferT* LiteRtTensorBuffer;

typedef struct {
  int32_t type;  // 0 none, 1 bool, 2 int, 3 real, 8 string, 9 void*
  union {
    bool bool_value;
    int64_t int_value;
    double real_value;
    const char* str_value;
    const void* ptr_value;
  };
} LiteRtAny;

typedef struct {
  int32_t tag;
  LiteRtAny value;
} LiteRtEnvOption;

typedef struct {
  unsigned int rank : 7;
  unsigned int has_strides : 1;
  int32_t dimensions[8];
  uint32_t strides[8];
} LiteRtLayout;

typedef struct {
  int32_t element_type;
  LiteRtLayout layout;
} LiteRtRankedTensorType;

typedef struct {
  float scale;
  int64_t zero_point;
} LiteRtQuantizationPerTensor;

_Static_assert(sizeof(LiteRtAny) == 16, "LiteRtAny layout");
_Static_assert(sizeof(LiteRtEnvOption) == 24, "LiteRtEnvOption layout");
_Static_assert(sizeof(LiteRtLayout) == 68, "LiteRtLayout layout");
_Static_assert(sizeof(LiteRtRankedTensorType) == 72, "LiteRtRankedTensorType layout");
_Static_assert(sizeof(LiteRtQuantizationPerTensor) == 16, "LiteRtQuantizationPerTensor layout");

typedef void (*LiteRtPayloadDeleter)(void*);
typedef void (*LiteRtHostMemoryDeallocator)(void*);

// Function-pointer types, one per C function resolved at run time.
typedef LiteRtStatus (*LiteRtCreateEnvironmentFn)(int, const LiteRtEnvOption*, LiteRtEnvironment*);
typedef void (*LiteRtDestroyEnvironmentFn)(LiteRtEnvironment);
typedef LiteRtStatus (*LiteRtCreateModelFromFileFn)(LiteRtEnvironment, const char*, LiteRtModel*);
typedef LiteRtStatus (*LiteRtCreateModelFromBufferFn)(LiteRtEnvironment, const void*, size_t, LiteRtModel*);
typedef void (*LiteRtDestroyModelFn)(LiteRtModel);
typedef LiteRtStatus (*LiteRtGetNumModelSignaturesFn)(LiteRtModel, LiteRtParamIndex*);
typedef LiteRtStatus (*LiteRtGetModelSignatureFn)(LiteRtModel, LiteRtParamIndex, LiteRtSignature*);
typedef LiteRtStatus (*LiteRtGetSignatureKeyFn)(LiteRtSignature, const char**);
typedef LiteRtStatus (*LiteRtGetNumSignatureIOFn)(LiteRtSignature, LiteRtParamIndex*);
typedef LiteRtStatus (*LiteRtGetSignatureIONameFn)(LiteRtSignature, LiteRtParamIndex, const char**);
typedef LiteRtStatus (*LiteRtGetSignatureIOTensorByIndexFn)(LiteRtSignature, LiteRtParamIndex, LiteRtTensor*);
typedef LiteRtStatus (*LiteRtGetTensorNameFn)(LiteRtTensor, const char**);
typedef LiteRtStatus (*LiteRtGetTensorTypeIdFn)(LiteRtTensor, int*);
typedef LiteRtStatus (*LiteRtGetRankedTensorTypeFn)(LiteRtTensor, LiteRtRankedTensorType*);
typedef LiteRtStatus (*LiteRtGetQuantizationTypeIdFn)(LiteRtTensor, int*);
typedef LiteRtStatus (*LiteRtGetPerTensorQuantizationFn)(LiteRtTensor, LiteRtQuantizationPerTensor*);
typedef LiteRtStatus (*LiteRtCreateOptionsFn)(LiteRtOptions*);
typedef void (*LiteRtDestroyOptionsFn)(LiteRtOptions);
typedef LiteRtStatus (*LiteRtSetOptionsHardwareAcceleratorsFn)(LiteRtOptions, int);
typedef LiteRtStatus (*LiteRtCreateOpaqueOptionsFn)(const char*, void*, LiteRtPayloadDeleter, LiteRtOpaqueOptions*);
typedef LiteRtStatus (*LiteRtAddOpaqueOptionsFn)(LiteRtOptions, LiteRtOpaqueOptions);
typedef LiteRtStatus (*LiteRtCreateCompiledModelFn)(LiteRtEnvironment, LiteRtModel, LiteRtOptions, LiteRtCompiledModel*);
typedef void (*LiteRtDestroyCompiledModelFn)(LiteRtCompiledModel);
typedef LiteRtStatus (*LiteRtGetCompiledModelBufferRequirementsFn)(LiteRtCompiledModel, LiteRtParamIndex, LiteRtParamIndex, LiteRtTensorBufferRequirements*);
typedef LiteRtStatus (*LiteRtGetCompiledModelInputTensorLayoutFn)(LiteRtCompiledModel, LiteRtParamIndex, LiteRtParamIndex, LiteRtLayout*);
typedef LiteRtStatus (*LiteRtGetCompiledModelOutputTensorLayoutsFn)(LiteRtCompiledModel, LiteRtParamIndex, size_t, LiteRtLayout*, bool);
typedef LiteRtStatus (*LiteRtGetTensorBufferRequirementsBufferSizeFn)(LiteRtTensorBufferRequirements, size_t*);
typedef LiteRtStatus (*LiteRtCreateTensorBufferFromHostMemoryFn)(const LiteRtRankedTensorType*, void*, size_t, LiteRtHostMemoryDeallocator, LiteRtTensorBuffer*);
typedef LiteRtStatus (*LiteRtCreateManagedTensorBufferFromRequirementsFn)(LiteRtEnvironment, const LiteRtRankedTensorType*, LiteRtTensorBufferRequirements, LiteRtTensorBuffer*);
typedef void (*LiteRtDestroyTensorBufferFn)(LiteRtTensorBuffer);
typedef LiteRtStatus (*LiteRtLockTensorBufferFn)(LiteRtTensorBuffer, void**, int);
typedef LiteRtStatus (*LiteRtUnlockTensorBufferFn)(LiteRtTensorBuffer);
typedef LiteRtStatus (*LiteRtRunCompiledModelFn)(LiteRtCompiledModel, LiteRtParamIndex, size_t, LiteRtTensorBuffer*, size_t, LiteRtTensorBuffer*);
typedef LiteRtStatus (*LiteRtGetTensorBufferTensorTypeFn)(LiteRtTensorBuffer, LiteRtRankedTensorType*);

/// A custom op kernel (litert/c/litert_custom_op_kernel.h): callbacks LiteRT calls for each node of
/// a CUSTOM op whose custom_code matches the registered name (opcode version 1). Their statuses are
/// ignored by LiteRT 2.3.0: kernels report errors through their own state.
typedef struct {
  LiteRtStatus (*Init)(void* user_data, const void* init_data, size_t init_data_size);
  LiteRtStatus (*GetOutputLayouts)(void* user_data, size_t num_inputs, const LiteRtLayout* input_layouts,
                                   size_t num_outputs, LiteRtLayout* output_layouts);
  LiteRtStatus (*Run)(void* user_data, size_t num_inputs, const LiteRtTensorBuffer* inputs, size_t num_outputs,
                      LiteRtTensorBuffer* outputs);
  LiteRtStatus (*Destroy)(void* user_data);
} LiteRtCustomOpKernel;
_Static_assert(sizeof(LiteRtCustomOpKernel) == 32, "LiteRtCustomOpKernel layout");
typedef LiteRtStatus (*LiteRtAddCustomOpKernelOptionFn)(LiteRtOptions, const char*, int, const LiteRtCustomOpKernel*, void*);

/// LiteRT's profiler (litert/c/litert_profiler.h), owned by the compiled model that was compiled with
/// the runtime option `enable_profiling = true` ("runtime_options_string").
typedef struct LiteRtProfilerT* LiteRtProfiler;
typedef struct {
  size_t total_allocated_bytes;
  size_t in_use_allocated_bytes;
  size_t private_footprint_bytes;
} LiteRtMemoryUsage;
/// One timed event (litert/c/litert_profiler_event.h). event_type: 1 default, 2 an interpreter op
/// (event_metadata1: the node's index), 4/8 an op inside a delegate (8: profiled like an op;
/// event_metadata1: the delegate's node index), 16 runtime instrumentation.
typedef struct {
  const char* tag;
  int32_t event_type;
  uint64_t start_timestamp_us;
  uint64_t elapsed_time_us;
  LiteRtMemoryUsage begin_mem_usage;
  LiteRtMemoryUsage end_mem_usage;
  uint64_t event_metadata1;
  uint64_t event_metadata2;
  int32_t event_source;
} LiteRtProfiledEventData;
_Static_assert(sizeof(LiteRtProfiledEventData) == 104, "ProfiledEventData layout");
typedef LiteRtStatus (*LiteRtCompiledModelGetProfilerFn)(LiteRtCompiledModel, LiteRtProfiler*);
typedef LiteRtStatus (*LiteRtProfilerCallFn)(LiteRtProfiler);
typedef LiteRtStatus (*LiteRtGetNumProfilerEventsFn)(LiteRtProfiler, int*);
typedef LiteRtStatus (*LiteRtGetProfilerEventsFn)(LiteRtProfiler, int, LiteRtProfiledEventData*);

#ifdef __cplusplus
}
#endif

#endif
