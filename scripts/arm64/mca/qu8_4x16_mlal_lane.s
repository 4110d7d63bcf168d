// One k step of a 4×16 uint8 convolution tile as XNNPACK's aarch64 qu8 kernels do it (neon_mlal_lane, the same
// on Neoverse-N1 and Cortex-A72): 16 weights widened to w − kzp, 4 rows' inputs already widened to int16 (v0–v3),
// 16 int32 accumulators (v16–v31). 64 multiply-adds.
// MACS 64
ld1 {v4.16b}, [x1], #16
usubl v5.8h, v4.8b, v7.8b
usubl2 v6.8h, v4.16b, v7.16b
smlal v16.4s, v5.4h, v0.h[0]
smlal2 v17.4s, v5.8h, v0.h[0]
smlal v18.4s, v6.4h, v0.h[0]
smlal2 v19.4s, v6.8h, v0.h[0]
smlal v20.4s, v5.4h, v1.h[0]
smlal2 v21.4s, v5.8h, v1.h[0]
smlal v22.4s, v6.4h, v1.h[0]
smlal2 v23.4s, v6.8h, v1.h[0]
smlal v24.4s, v5.4h, v2.h[0]
smlal2 v25.4s, v5.8h, v2.h[0]
smlal v26.4s, v6.4h, v2.h[0]
smlal2 v27.4s, v6.8h, v2.h[0]
smlal v28.4s, v5.4h, v3.h[0]
smlal2 v29.4s, v5.8h, v3.h[0]
smlal v30.4s, v6.4h, v3.h[0]
smlal2 v31.4s, v6.8h, v3.h[0]
