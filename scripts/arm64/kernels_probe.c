// Links VisionTasks' C kernels built for aarch64 and reports their choices there, under qemu as the CPU
// named by the first argument: with the dot-product extension ("neoverse-n1") the 8-bit 1×1 kernel's
// NEON dot-product path, preferred; without it ("cortex-a72") the plain NEON path, not preferred — LiteRT's
// kernels stay the default. The 8-bit depthwise kernel's NEON path on both, not the default (XNNPACK's
// costs fewer instructions). The x86-64 kernels (hybrid depthwise) take no vector path on aarch64.
#include "CKernels.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const int dot = argc > 1 && strcmp(argv[1], "neoverse-n1") == 0;
  printf("%s: asimddp %d; conv1x1 path %s, preferred %d, hybrid exact %d; 8-bit depthwise path %s; hybrid depthwise path %s; "
         "optimized %d\n",
         argc > 1 ? argv[1] : "?", vt_cpu_features()->asimddp, vt_path_name(vt_conv1x1_path()), vt_conv1x1_preferred(), vt_hconv_exact(),
         vt_path_name(vt_qdw_path()), vt_path_name(vt_hdw_path()), vt_kernels_optimized());
  const vt_path expected = dot ? VT_PATH_NEON_DOT : VT_PATH_NEON;
  return vt_cpu_features()->asimddp == dot && vt_conv1x1_path() == expected && vt_conv1x1_preferred() == dot && vt_hconv_exact() == 0 &&
                 vt_qdw_path() == VT_PATH_NEON && vt_qdw_preferred() == 0 && vt_hdw_path() == VT_PATH_SCALAR
             ? 0
             : 1;
}
