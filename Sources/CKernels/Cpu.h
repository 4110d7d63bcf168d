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

/// The arithmetic `arithmetic` names (NATIVE: this CPU's XNNPACK arithmetic).
static inline vt_arithmetic vt_arithmetic_resolved(vt_arithmetic arithmetic) {
#if defined(__aarch64__)
  return arithmetic == VT_ARITHMETIC_NATIVE ? VT_ARITHMETIC_AARCH64 : arithmetic;
#else
  return arithmetic == VT_ARITHMETIC_NATIVE ? VT_ARITHMETIC_X86_64 : arithmetic;
#endif
}

/// aarch64's dot-product extension (udot / sdot).
static inline int vt_cpu_neon_dot(void) { return vt_cpu_features()->asimddp; }

#endif
