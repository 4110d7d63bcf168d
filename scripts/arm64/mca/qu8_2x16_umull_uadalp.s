// One k quad of a 2×16 uint8 tile without the dot-product extension (Cortex-A72): each row's four input bytes
// broadcast (dup), the filter as quads (16 outputs × 4 k, v4–v7), u8×u8 products into u16 (umull, umull2), added
// in pairs into 32 int32 partial sums (uadalp; two per output, added once at the end). The best 8-bit product loop
// without udot: as many instructions per multiply-add as XNNPACK's mlal loop, so LiteRT keeps the A72.
// MACS 128
ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [x1], #64
ld1r {v0.4s}, [x2], #4
ld1r {v1.4s}, [x3], #4
umull v8.8h, v4.8b, v0.8b
umull2 v9.8h, v4.16b, v0.16b
uadalp v16.4s, v8.8h
uadalp v17.4s, v9.8h
umull v10.8h, v5.8b, v0.8b
umull2 v11.8h, v5.16b, v0.16b
uadalp v18.4s, v10.8h
uadalp v19.4s, v11.8h
umull v12.8h, v6.8b, v0.8b
umull2 v13.8h, v6.16b, v0.16b
uadalp v20.4s, v12.8h
uadalp v21.4s, v13.8h
umull v14.8h, v7.8b, v0.8b
umull2 v15.8h, v7.16b, v0.16b
uadalp v22.4s, v14.8h
uadalp v23.4s, v15.8h
umull v8.8h, v4.8b, v1.8b
umull2 v9.8h, v4.16b, v1.16b
uadalp v24.4s, v8.8h
uadalp v25.4s, v9.8h
umull v10.8h, v5.8b, v1.8b
umull2 v11.8h, v5.16b, v1.16b
uadalp v26.4s, v10.8h
uadalp v27.4s, v11.8h
umull v12.8h, v6.8b, v1.8b
umull2 v13.8h, v6.16b, v1.16b
uadalp v28.4s, v12.8h
uadalp v29.4s, v13.8h
umull v14.8h, v7.8b, v1.8b
umull2 v15.8h, v7.16b, v1.16b
uadalp v30.4s, v14.8h
uadalp v31.4s, v15.8h
