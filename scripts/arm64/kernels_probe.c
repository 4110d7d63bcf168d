// Links VisionTasks' C kernels built for aarch64 and reports their choices there: no x86 path, so
// LiteRT's own kernels are the default on arm64 (ModelResources asks for a vector path).
#include "CKernels.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  printf("conv1x1 path %s, preferred %d; hybrid depthwise path %s; optimized %d\n", vt_conv1x1_path(), vt_conv1x1_preferred(),
         vt_hdw_path(), vt_kernels_optimized());
  return strcmp(vt_conv1x1_path(), "scalar") == 0 && vt_conv1x1_preferred() == 0 && strcmp(vt_hdw_path(), "scalar") == 0 ? 0 : 1;
}
