// The CPU's features, probed once per process, and the paths' names.
#include "CKernels.h"

#include <pthread.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#include "Cpu.h"

static vt_cpu features;
static pthread_once_t probed = PTHREAD_ONCE_INIT;

static void probe(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  features.avx2 = __builtin_cpu_supports("avx2") != 0;
  features.fma = __builtin_cpu_supports("fma") != 0;
  features.avx512f = __builtin_cpu_supports("avx512f") != 0;
  features.avx512bw = __builtin_cpu_supports("avx512bw") != 0;
  features.avx512vl = __builtin_cpu_supports("avx512vl") != 0;
  features.avx512vnni = __builtin_cpu_supports("avx512vnni") != 0;
#endif
#if defined(__aarch64__) && defined(__linux__)
  features.asimddp = (getauxval(AT_HWCAP) & (1ul << 20)) != 0;  // HWCAP_ASIMDDP
#endif
}

const vt_cpu *vt_cpu_features(void) {
  pthread_once(&probed, probe);
  return &features;
}

const char *vt_path_name(vt_path path) {
  switch (path) {
  case VT_PATH_DEFAULT: return "default";
  case VT_PATH_SCALAR: return "scalar";
  case VT_PATH_VNNI_PORTABLE: return "vnni-portable";
  case VT_PATH_AVX2: return "avx2";
  case VT_PATH_AVX512: return "avx512";
  case VT_PATH_VNNI: return "vnni";
  case VT_PATH_NEON_DOT: return "neon-dot";
  case VT_PATH_NEON_DOT_PORTABLE: return "neon-dot-portable";
  case VT_PATH_NEON: return "neon";
  case VT_PATH_NEON_PORTABLE: return "neon-portable";
  }
  return "unknown";
}
