// Runs a .tflite model once on LiteRT's C API (dlopen'ed libLiteRt.so, our own CLiteRT.h
// declarations) with a deterministic input (or the bytes of INPUT, e.g. a photo's preprocessed
// tensor), and writes each output's bytes to PREFIX.outN.bin.
// Built for x86_64 and aarch64 by scripts/arm64/check.sh, which compares the two runs.
//   litert_run LIBRARY MODEL PREFIX [INPUT]
#include "CLiteRT.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALL(expr)                                                              \
  do {                                                                          \
    LiteRtStatus status_ = (expr);                                              \
    if (status_ != 0) {                                                         \
      fprintf(stderr, "litert_run: %s failed with status %d\n", #expr, status_); \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

static void *lib;
static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  if (!p) {
    fprintf(stderr, "litert_run: %s missing\n", name);
    exit(1);
  }
  return p;
}
#define FN(type, name) type name = (type)sym("LiteRt" #name)

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: litert_run LIBRARY MODEL PREFIX [INPUT]\n");
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "litert_run: %s\n", dlerror());
    return 1;
  }
  FN(LiteRtCreateEnvironmentFn, CreateEnvironment);
  FN(LiteRtCreateModelFromFileFn, CreateModelFromFile);
  FN(LiteRtCreateOptionsFn, CreateOptions);
  FN(LiteRtSetOptionsHardwareAcceleratorsFn, SetOptionsHardwareAccelerators);
  FN(LiteRtCreateCompiledModelFn, CreateCompiledModel);
  FN(LiteRtGetNumModelSignaturesFn, GetNumModelSignatures);
  FN(LiteRtGetModelSignatureFn, GetModelSignature);
  FN(LiteRtGetNumSignatureIOFn, GetNumSignatureInputs);
  FN(LiteRtGetNumSignatureIOFn, GetNumSignatureOutputs);
  FN(LiteRtGetSignatureIOTensorByIndexFn, GetSignatureInputTensorByIndex);
  FN(LiteRtGetSignatureIOTensorByIndexFn, GetSignatureOutputTensorByIndex);
  FN(LiteRtGetRankedTensorTypeFn, GetRankedTensorType);
  FN(LiteRtGetCompiledModelInputTensorLayoutFn, GetCompiledModelInputTensorLayout);
  FN(LiteRtGetCompiledModelOutputTensorLayoutsFn, GetCompiledModelOutputTensorLayouts);
  FN(LiteRtGetCompiledModelBufferRequirementsFn, GetCompiledModelInputBufferRequirements);
  FN(LiteRtGetCompiledModelBufferRequirementsFn, GetCompiledModelOutputBufferRequirements);
  FN(LiteRtGetTensorBufferRequirementsBufferSizeFn, GetTensorBufferRequirementsBufferSize);
  FN(LiteRtCreateManagedTensorBufferFromRequirementsFn, CreateManagedTensorBufferFromRequirements);
  FN(LiteRtLockTensorBufferFn, LockTensorBuffer);
  FN(LiteRtUnlockTensorBufferFn, UnlockTensorBuffer);
  FN(LiteRtRunCompiledModelFn, RunCompiledModel);

  LiteRtEnvOption env_options[2];
  memset(env_options, 0, sizeof env_options);
  env_options[0].tag = 24;  // the CPU accelerator only
  env_options[0].value.type = 2;
  env_options[0].value.int_value = 1;
  env_options[1].tag = 25;  // LiteRT's logs at error level
  env_options[1].value.type = 2;
  env_options[1].value.int_value = 3;
  LiteRtEnvironment env = NULL;
  CALL(CreateEnvironment(2, env_options, &env));
  LiteRtModel model = NULL;
  CALL(CreateModelFromFile(env, argv[2], &model));
  LiteRtOptions options = NULL;
  CALL(CreateOptions(&options));
  CALL(SetOptionsHardwareAccelerators(options, 1));
  LiteRtCompiledModel compiled = NULL;
  CALL(CreateCompiledModel(env, model, options, &compiled));

  size_t signatures = 0;
  CALL(GetNumModelSignatures(model, &signatures));
  LiteRtSignature signature = NULL;
  CALL(GetModelSignature(model, 0, &signature));
  size_t n_in = 0, n_out = 0;
  CALL(GetNumSignatureInputs(signature, &n_in));
  CALL(GetNumSignatureOutputs(signature, &n_out));
  if (n_in > 8 || n_out > 8) return 1;
  LiteRtTensorBuffer ins[8], outs[8];
  size_t out_sizes[8];
  LiteRtLayout layouts[8];
  CALL(GetCompiledModelOutputTensorLayouts(compiled, 0, n_out, layouts, true));
  for (size_t i = 0; i < n_in; i++) {
    LiteRtTensor tensor = NULL;
    CALL(GetSignatureInputTensorByIndex(signature, i, &tensor));
    LiteRtRankedTensorType type;
    CALL(GetRankedTensorType(tensor, &type));
    CALL(GetCompiledModelInputTensorLayout(compiled, 0, i, &type.layout));
    LiteRtTensorBufferRequirements req = NULL;
    CALL(GetCompiledModelInputBufferRequirements(compiled, 0, i, &req));
    size_t size = 0;
    CALL(GetTensorBufferRequirementsBufferSize(req, &size));
    CALL(CreateManagedTensorBufferFromRequirements(env, &type, req, &ins[i]));
    void *address = NULL;
    CALL(LockTensorBuffer(ins[i], &address, 1));
    unsigned char *bytes = address;
    if (argc == 5 && i == 0) {
      FILE *in = fopen(argv[4], "rb");
      if (!in || fread(bytes, 1, size, in) != size) {
        fprintf(stderr, "litert_run: %s does not hold the %zu bytes of input 0\n", argv[4], size);
        return 1;
      }
      fclose(in);
    } else {
      for (size_t k = 0; k < size; k++) bytes[k] = (unsigned char)((k * 7 + (k / 3) * 13 + 3) & 0xFF);  // a fixed pattern
    }
    CALL(UnlockTensorBuffer(ins[i]));
  }
  for (size_t i = 0; i < n_out; i++) {
    LiteRtTensor tensor = NULL;
    CALL(GetSignatureOutputTensorByIndex(signature, i, &tensor));
    LiteRtRankedTensorType type;
    CALL(GetRankedTensorType(tensor, &type));
    type.layout = layouts[i];
    LiteRtTensorBufferRequirements req = NULL;
    CALL(GetCompiledModelOutputBufferRequirements(compiled, 0, i, &req));
    CALL(GetTensorBufferRequirementsBufferSize(req, &out_sizes[i]));
    CALL(CreateManagedTensorBufferFromRequirements(env, &type, req, &outs[i]));
  }
  CALL(RunCompiledModel(compiled, 0, n_in, ins, n_out, outs));
  for (size_t i = 0; i < n_out; i++) {
    void *address = NULL;
    CALL(LockTensorBuffer(outs[i], &address, 0));
    char path[4096];
    snprintf(path, sizeof path, "%s.out%zu.bin", argv[3], i);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(address, 1, out_sizes[i], f) != out_sizes[i]) return 1;
    fclose(f);
    CALL(UnlockTensorBuffer(outs[i]));
  }
  printf("%s: %zu inputs, %zu outputs written to %s.out*.bin\n", argv[2], n_in, n_out, argv[3]);
  return 0;
}
