// The feature combinations the kernels' paths need, over the features probed once (Cpu.c).
#ifndef VISIONTASKS_CPU_H
#define VISIONTASKS_CPU_H

#include "CKernels.h"

/// AVX2 and FMA3 (the float paths' fused multiply-adds).
static inline int vt_cpu_avx2_fma(void) {
  const vt_cpu *c = vt_cpu_features();
  return c->avx2 && c->fma;
}

/// AVX-512 F, BW and VL (byte and word lanes).
static inline int vt_cpu_avx512_bw_vl(void) {
  const vt_cpu *c = vt_cpu_features();
  return c->avx512f && c->avx512bw && c->avx512vl;
}

/// AVX-512 F, BW, VL and VNNI (the dot-product paths).
static inline int vt_cpu_vnni(void) { return vt_cpu_avx512_bw_vl() && vt_cpu_features()->avx512vnni; }

/// The arithmetic `arithmetic` names (NATIVE: this CPU's XNNPACK arithmetic — on aarch64, with "rndnu16"
/// for uint8 GEMMs where XNNPACK takes it).
static inline vt_arithmetic vt_arithmetic_resolved(vt_arithmetic arithmetic) {
#if defined(__aarch64__)
  if (arithmetic == VT_ARITHMETIC_NATIVE)
    return vt_cpu_features()->qu8_rndnu16 ? VT_ARITHMETIC_AARCH64_RNDNU16 : VT_ARITHMETIC_AARCH64;
  return arithmetic;
#else
  return arithmetic == VT_ARITHMETIC_NATIVE ? VT_ARITHMETIC_X86_64 : arithmetic;
#endif
}

/// Whether `arithmetic` is one a kernel's create_for accepts.
static inline int vt_arithmetic_valid(vt_arithmetic arithmetic) {
  return arithmetic >= VT_ARITHMETIC_NATIVE && arithmetic <= VT_ARITHMETIC_AARCH64_RNDNU16;
}

/// aarch64's dot-product extension (udot / sdot).
static inline int vt_cpu_neon_dot(void) { return vt_cpu_features()->asimddp; }

/// The first of `paths` (a kernel's, fastest first) that runs here (`vt_path_status`), else the scalar path:
/// each kernel's `*_path()`.
static inline vt_path vt_path_first(const vt_path *paths, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (vt_path_status(paths[i]) == 0) return paths[i];
  return VT_PATH_SCALAR;
}

#endif
