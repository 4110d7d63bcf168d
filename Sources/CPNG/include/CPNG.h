// libpng (the simplified API, used as is from Swift) and VisionTasks' fast path for the common PNGs:
// 8-bit RGB or RGBA, not interlaced, with no chunk that would change libpng's output (gamma, colour
// profiles, significant bits, transparency). Those decode here with libdeflate's inflate and our
// own unfiltering — the same bytes libpng gives (Tests: every filter type, every fixture) in about
// half the time; every other PNG, and any file the fast path finds damaged, goes to libpng.
#ifndef VISIONTASKS_CPNG_H
#define VISIONTASKS_CPNG_H
#include <png.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether `data` is a PNG the fast path takes; if so its width, height and channels (3 or 4).
int vt_png_fast_info(const uint8_t* data, size_t size, uint32_t* width, uint32_t* height, int* channels);

/// Decodes a PNG `vt_png_fast_info` accepted into `out` (width × height × channels bytes). Returns 0,
/// or -1 when the data turns out damaged (a CRC, the zlib stream, the filters): decode it with libpng.
int vt_png_fast_decode(const uint8_t* data, size_t size, uint8_t* out, size_t out_size);

#ifdef __cplusplus
}
#endif
#endif
