// The CPU's features, probed once per process, and the paths' names.
#define _GNU_SOURCE  // getline (POSIX 2008) and getauxval, in strict C modes too
#include "CKernels.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#include "Cpu.h"

static vt_cpu features;
static pthread_once_t probed = PTHREAD_ONCE_INIT;

// One core as the cpuinfo library ranks it (its midr_score_core: the higher, the earlier in its list of
// microarchitectures) and whether XNNPACK's uint8 GEMM takes "rndnu16" when it comes first.
typedef struct core_rank {
  int score, rndnu16;
} core_rank;

static core_rank rank_core(long implementer, long part) {
  if (implementer == 0x41) {  // Arm
    switch (part) {
    case 0xd03:                            // Cortex-A53
    case 0xd05: return (core_rank){2, 1};  // Cortex-A55
    case 0xd46:                            // Cortex-A510
    case 0xd80: return (core_rank){2, 0};  // Cortex-A520
    case 0xd04: return (core_rank){1, 0};  // Cortex-A35
    case 0xd07: return (core_rank){4, 0};  // Cortex-A57
    case 0xd08: case 0xd09: case 0xd0a: case 0xd0b: case 0xd0d: case 0xd0e: case 0xd41: case 0xd47: case 0xd4d:
      return (core_rank){5, 0};  // Cortex-A72, A73, A75, A76, A77, A76AE, A78, A710, A715
    case 0xd44: case 0xd48: case 0xd4e: return (core_rank){6, 0};  // Cortex-X1, X2, X3
    default: return (core_rank){3, 0};
    }
  }
  if (implementer == 0x51) {  // Qualcomm
    switch (part) {
    case 0x201: case 0x205: case 0x211: return (core_rank){3, 1};  // the original Kryo
    case 0x800: case 0x802: case 0x804: return (core_rank){5, 0};  // Kryo Gold (Cortex-A73, A75, A76)
    case 0x801: case 0x803: case 0x805: return (core_rank){2, 1};  // Kryo Silver (Cortex-A53, A55)
    default: return (core_rank){3, 0};
    }
  }
  return (core_rank){3, 0};
}

// The value of the line at `line` when it is the field `key` ("CPU part"), else -1.
static long field(const char *line, const char *key) {
  const size_t n = strlen(key);
  if (strncmp(line, key, n) != 0) return -1;
  const char *colon = strchr(line + n, ':');
  const char *end = strchr(line, '\n');
  if (!colon || (end && colon > end)) return -1;
  char *after;
  const long value = strtol(colon + 1, &after, 0);
  return after == colon + 1 || value < 0 ? -1 : value;
}

// The cores read so far, line by line: the best rank seen, whether one of that rank takes rndnu16, and the
// implementer of the processor being read (each processor's block gives it before its part).
typedef struct cpu_ranking {
  int best, rndnu16;
  long implementer;
} cpu_ranking;

static const cpu_ranking kNoCores = {-1, 0, -1};

// Reads one line of /proc/cpuinfo (ended by a newline or the text's end).
static void rank_line(cpu_ranking *ranking, const char *line) {
  const long i = field(line, "CPU implementer"), p = field(line, "CPU part");
  if (i >= 0) ranking->implementer = i;
  if (p < 0 || ranking->implementer < 0) return;
  const core_rank r = rank_core(ranking->implementer, p);
  if (r.score > ranking->best) {
    ranking->best = r.score;
    ranking->rndnu16 = r.rndnu16;
  } else if (r.score == ranking->best) {
    ranking->rndnu16 |= r.rndnu16;
  }
}

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
  FILE *file = fopen("/proc/cpuinfo", "r");
  if (file) {
    cpu_ranking ranking = kNoCores;
    char *line = NULL;
    size_t capacity = 0;
    while (getline(&line, &capacity, file) > 0) rank_line(&ranking, line);
    free(line);
    fclose(file);
    features.qu8_rndnu16 = ranking.rndnu16;
  }
#endif
}

int vt_cpu_qu8_rndnu16(const char *cpuinfo) {
  if (!cpuinfo) return 0;
  cpu_ranking ranking = kNoCores;
  for (const char *line = cpuinfo; *line;) {
    rank_line(&ranking, line);
    const char *next = strchr(line, '\n');
    if (!next) break;
    line = next + 1;
  }
  return ranking.rndnu16;
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

int vt_path_status(vt_path path) {
  switch (path) {
  case VT_PATH_SCALAR:
  case VT_PATH_VNNI_PORTABLE: return 0;
#if defined(__x86_64__) || defined(__i386__)
  case VT_PATH_AVX2: return vt_cpu_avx2_fma() ? 0 : -2;
  case VT_PATH_AVX512: return vt_cpu_avx512_bw_vl() ? 0 : -2;
  case VT_PATH_VNNI: return vt_cpu_vnni() ? 0 : -2;
#else
  case VT_PATH_AVX2:
  case VT_PATH_AVX512:
  case VT_PATH_VNNI: return -2;
#endif
#if defined(__aarch64__)
  case VT_PATH_NEON_DOT: return vt_cpu_neon_dot() ? 0 : -2;
  case VT_PATH_NEON: return 0;
  case VT_PATH_NEON_DOT_PORTABLE:
  case VT_PATH_NEON_PORTABLE: return -2;
#else
  case VT_PATH_NEON_DOT:
  case VT_PATH_NEON: return -2;
  case VT_PATH_NEON_DOT_PORTABLE:
  case VT_PATH_NEON_PORTABLE: return 0;
#endif
  default: return -1;
  }
}
