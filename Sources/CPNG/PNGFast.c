// The fast path for common PNGs (see CPNG.h): the chunks walked here, the zlib stream inflated by
// libdeflate, the five PNG filters undone row by row. Anything unusual returns "not here" and the
// caller uses libpng, so this file never has to reproduce libpng's transformations or its errors.
#include "CPNG.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t* p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3]; }

static const uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

// Ancillary chunks that change what libpng's simplified API returns (gamma and colour handling,
// significant bits, transparency, palettes): a file with any of them goes to libpng.
static int changes_output(const uint8_t* type) {
  static const char* const kinds[] = {"gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "tRNS", "PLTE", "bKGD", "hIST", "cICP", "mDCv", "cLLi"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (memcmp(type, kinds[i], 4) == 0) return 1;
  return 0;
}

typedef struct {
  uint32_t width, height;
  int channels;
  size_t idat_bytes;
} png_layout;

// Walks the chunks: 1 when the file is one the fast path takes (and fills `layout`), else 0.
static int walk(const uint8_t* data, size_t size, png_layout* layout) {
  if (!data || size < 8 + 25 || memcmp(data, kSignature, 8) != 0) return 0;
  size_t p = 8;
  int seen_idat = 0, idat_done = 0, seen_end = 0;
  memset(layout, 0, sizeof *layout);
  while (p + 12 <= size) {
    const uint32_t length = be32(data + p);
    const uint8_t* type = data + p + 4;
    if (length > size - p - 12) return 0;
    if (p == 8) {
      if (memcmp(type, "IHDR", 4) != 0 || length != 13) return 0;
      const uint8_t* h = data + p + 8;
      layout->width = be32(h);
      layout->height = be32(h + 4);
      // 8-bit RGB (2) or RGBA (6), compression 0, filter 0, not interlaced.
      if (layout->width == 0 || layout->height == 0 || h[8] != 8 || (h[9] != 2 && h[9] != 6) || h[10] != 0 || h[11] != 0 || h[12] != 0)
        return 0;
      layout->channels = h[9] == 6 ? 4 : 3;
    } else if (memcmp(type, "IDAT", 4) == 0) {
      if (idat_done) return 0;  // IDAT chunks must be consecutive
      seen_idat = 1;
      layout->idat_bytes += length;
    } else {
      if (seen_idat) idat_done = 1;
      if (memcmp(type, "IEND", 4) == 0) {
        seen_end = 1;
        break;
      }
      if (memcmp(type, "IHDR", 4) == 0 || !(type[0] & 0x20) || changes_output(type)) return 0;  // unknown critical chunks too
    }
    p += 12 + (size_t)length;
  }
  return seen_idat && seen_end;
}

int vt_png_fast_info(const uint8_t* data, size_t size, uint32_t* width, uint32_t* height, int* channels) {
  png_layout layout;
  if (!walk(data, size, &layout)) return 0;
  *width = layout.width;
  *height = layout.height;
  *channels = layout.channels;
  return 1;
}

static inline uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
  const int p = (int)a + (int)b - (int)c;
  const int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Undoes the filters of `height` rows of `stride` bytes (each preceded by its filter byte in `raw`).
static int unfilter(const uint8_t* raw, uint8_t* out, size_t stride, uint32_t height, int bpp) {
  const uint8_t* prev = NULL;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t* src = raw + (size_t)y * (stride + 1);
    const uint8_t filter = src[0];
    src++;
    uint8_t* row = out + (size_t)y * stride;
    switch (filter) {
      case 0:
        memcpy(row, src, stride);
        break;
      case 1:
        for (size_t i = 0; i < stride; i++) row[i] = (uint8_t)(src[i] + (i >= (size_t)bpp ? row[i - bpp] : 0));
        break;
      case 2:
        for (size_t i = 0; i < stride; i++) row[i] = (uint8_t)(src[i] + (prev ? prev[i] : 0));
        break;
      case 3:
        for (size_t i = 0; i < stride; i++) {
          const int left = i >= (size_t)bpp ? row[i - bpp] : 0, up = prev ? prev[i] : 0;
          row[i] = (uint8_t)(src[i] + ((left + up) >> 1));
        }
        break;
      case 4:
        if (!prev) {  // no row above: Paeth picks the left byte
          for (size_t i = 0; i < stride; i++) row[i] = (uint8_t)(src[i] + (i >= (size_t)bpp ? row[i - bpp] : 0));
        } else {
          for (size_t i = 0; i < (size_t)bpp && i < stride; i++) row[i] = (uint8_t)(src[i] + prev[i]);
          for (size_t i = (size_t)bpp; i < stride; i++) row[i] = (uint8_t)(src[i] + paeth(row[i - bpp], prev[i], prev[i - bpp]));
        }
        break;
      default:
        return -1;
    }
    prev = row;
  }
  return 0;
}

int vt_png_fast_decode(const uint8_t* data, size_t size, uint8_t* out, size_t out_size) {
  png_layout layout;
  if (!walk(data, size, &layout)) return -1;
  const size_t stride = (size_t)layout.width * (size_t)layout.channels;
  if (out_size < stride * layout.height) return -1;
  const size_t filtered = (stride + 1) * (size_t)layout.height;
  uint8_t* idat = (uint8_t*)malloc(layout.idat_bytes + 1);
  uint8_t* raw = (uint8_t*)malloc(filtered + 1);
  struct libdeflate_decompressor* inflater = libdeflate_alloc_decompressor();
  int status = idat && raw && inflater ? 0 : -1;
  // The IDAT chunks, CRC-checked (libpng refuses a bad CRC in a critical chunk), joined.
  size_t p = 8, at = 0;
  while (status == 0 && p + 12 <= size) {
    const uint32_t length = be32(data + p);
    const uint8_t* type = data + p + 4;
    if (libdeflate_crc32(0, type, (size_t)length + 4) != be32(type + 4 + length)) {
      if (!(type[0] & 0x20)) status = -1;
    } else if (memcmp(type, "IDAT", 4) == 0) {
      memcpy(idat + at, type + 4, length);
      at += length;
    }
    if (memcmp(type, "IEND", 4) == 0) break;
    p += 12 + (size_t)length;
  }
  if (status == 0) {
    size_t made = 0;
    // The stream must inflate to exactly the filtered rows (libpng warns about, and ignores, extra data:
    // such files go to it).
    if (libdeflate_zlib_decompress(inflater, idat, at, raw, filtered, &made) != LIBDEFLATE_SUCCESS || made != filtered) status = -1;
  }
  if (status == 0) status = unfilter(raw, out, stride, layout.height, layout.channels);
  libdeflate_free_decompressor(inflater);
  free(raw);
  free(idat);
  return status;
}
