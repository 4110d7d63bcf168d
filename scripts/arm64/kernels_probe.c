// Links VisionTasks' C kernels built for aarch64 and reports their choices there: no x86 path, so
// LiteRT's own kernels are the default on arm64 (ModelResources asks for a vector path).
#include "CKernels.h"

#include <stdio.h>

int main(void) {
  printf("conv1x1 path %s, preferred %d; hybrid depthwise path %s; optimized %d\n", vt_path_name(vt_conv1x1_path()),
         vt_conv1x1_preferred(), vt_path_name(vt_hdw_path()), vt_kernels_optimized());
  return vt_conv1x1_path() == VT_PATH_SCALAR && vt_conv1x1_preferred() == 0 && vt_hdw_path() == VT_PATH_SCALAR ? 0 : 1;
}
