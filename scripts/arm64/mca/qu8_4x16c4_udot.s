// Four k steps of a 4×16 uint8 convolution tile with the dot-product extension (udot, Neoverse-N1 and later):
// 4 rows × 4 input bytes (v0–v3), 16 outputs × 4 k of weights (v4–v7), 16 int32 accumulators (v16–v31); the zero
// points folded into the bias and a row sum. 256 multiply-adds: the same exact int32 sums as the tile above.
// MACS 256 dotprod
ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
udot v16.4s, v4.16b, v0.4b[0]
udot v17.4s, v5.16b, v0.4b[0]
udot v18.4s, v6.16b, v0.4b[0]
udot v19.4s, v7.16b, v0.4b[0]
udot v20.4s, v4.16b, v1.4b[0]
udot v21.4s, v5.16b, v1.4b[0]
udot v22.4s, v6.16b, v1.4b[0]
udot v23.4s, v7.16b, v1.4b[0]
udot v24.4s, v4.16b, v2.4b[0]
udot v25.4s, v5.16b, v2.4b[0]
udot v26.4s, v6.16b, v2.4b[0]
udot v27.4s, v7.16b, v2.4b[0]
udot v28.4s, v4.16b, v3.4b[0]
udot v29.4s, v5.16b, v3.4b[0]
udot v30.4s, v6.16b, v3.4b[0]
udot v31.4s, v7.16b, v3.4b[0]
