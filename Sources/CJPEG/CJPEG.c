#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  int warnings;
} vt_error_mgr;

static void vt_error_exit(j_common_ptr cinfo) {
  vt_error_mgr* err = (vt_error_mgr*)cinfo->err;
  longjmp(err->jump, 1);
}

static void vt_emit_message(j_common_ptr cinfo, int level) {
  vt_error_mgr* err = (vt_error_mgr*)cinfo->err;
  if (level < 0) err->warnings++;
}

static void vt_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void vt_format(j_common_ptr cinfo, char* message, size_t size) {
  char buffer[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buffer);
  snprintf(message, size, "%s", buffer);
}

static int vt_read(const uint8_t* data, size_t size, vt_jpeg_limits limits, vt_jpeg_coefficients* out);

// Installs the error manager that longjmps instead of exiting, and keeps warnings quiet.
static struct jpeg_error_mgr* vt_errors(vt_error_mgr* err) {
  struct jpeg_error_mgr* pub = jpeg_std_error(&err->pub);
  err->pub.error_exit = vt_error_exit;
  err->pub.emit_message = vt_emit_message;
  err->pub.output_message = vt_output_message;
  err->warnings = 0;
  return pub;
}

// Blocks of all components, from the header alone (0 when the header cannot be read).
static size_t vt_block_count(const uint8_t* data, size_t size) {
  struct jpeg_decompress_struct cinfo;
  vt_error_mgr err;
  cinfo.err = vt_errors(&err);
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return 0;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  jpeg_calc_output_dimensions(&cinfo);
  size_t blocks = 0;
  for (int c = 0; c < cinfo.num_components; c++) {
    jpeg_component_info* comp = &cinfo.comp_info[c];
    size_t w = ((size_t)cinfo.image_width * comp->h_samp_factor + 8 * cinfo.max_h_samp_factor - 1) / (8 * cinfo.max_h_samp_factor);
    size_t h = ((size_t)cinfo.image_height * comp->v_samp_factor + 8 * cinfo.max_v_samp_factor - 1) / (8 * cinfo.max_v_samp_factor);
    blocks += (w + 2) * (h + 2);
  }
  jpeg_destroy_decompress(&cinfo);
  return blocks;
}

int vt_jpeg_read_coefficients(const uint8_t* data, size_t size, vt_jpeg_limits limits, vt_jpeg_coefficients* out) {
  // stb_image, MediaPipe's decoder, reads zero bits past the end of a cut file and goes on
  // decoding; libjpeg would stop and leave the rest blank. So a file without its EOI gets zero
  // bytes (enough for every block) and an EOI appended, and libjpeg decodes the same bits.
  if (size >= 2 && !(data[size - 2] == 0xFF && data[size - 1] == 0xD9)) {
    size_t blocks = vt_block_count(data, size);
    // 208 bytes hold the longest zero-bit block (16-bit codes); bounded by the memory limit.
    size_t pad = blocks * 208 + 64;
    if (blocks > 0 && pad < (size_t)limits.max_memory) {
      uint8_t* padded = (uint8_t*)calloc(size + pad + 2, 1);
      if (padded != NULL) {
        memcpy(padded, data, size);
        padded[size + pad] = 0xFF;
        padded[size + pad + 1] = 0xD9;
        int status = vt_read(padded, size + pad + 2, limits, out);
        free(padded);
        return status;
      }
    }
  }
  return vt_read(data, size, limits, out);
}

static int vt_read(const uint8_t* data, size_t size, vt_jpeg_limits limits, vt_jpeg_coefficients* out) {
  memset(out, 0, sizeof(*out));
  struct jpeg_decompress_struct cinfo;
  vt_error_mgr err;
  cinfo.err = vt_errors(&err);
  if (setjmp(err.jump)) {
    vt_format((j_common_ptr)&cinfo, out->message, sizeof(out->message));
    jpeg_destroy_decompress(&cinfo);
    vt_jpeg_free_coefficients(out);
    return 1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  // The header's size is checked before libjpeg sizes any buffer from it.
  if (cinfo.image_width < 1 || cinfo.image_height < 1 || (long long)cinfo.image_width > limits.max_side ||
      (long long)cinfo.image_height > limits.max_side ||
      (long long)cinfo.image_width * (long long)cinfo.image_height > limits.max_pixels) {
    snprintf(out->message, sizeof(out->message), "JPEG of %ux%u pixels exceeds the limits (%d a side, %lld pixels)",
             cinfo.image_width, cinfo.image_height, limits.max_side, limits.max_pixels);
    out->width = (int)cinfo.image_width;
    out->height = (int)cinfo.image_height;
    jpeg_destroy_decompress(&cinfo);
    return 2;
  }
  cinfo.mem->max_memory_to_use = (long)limits.max_memory;
  if (cinfo.num_components < 1 || cinfo.num_components > VT_JPEG_MAX_COMPONENTS) {
    snprintf(out->message, sizeof(out->message), "JPEG has %d components; 1 to 4 are supported", cinfo.num_components);
    jpeg_destroy_decompress(&cinfo);
    return 1;
  }
  jvirt_barray_ptr* arrays = jpeg_read_coefficients(&cinfo);
  out->width = (int)cinfo.image_width;
  out->height = (int)cinfo.image_height;
  out->num_components = cinfo.num_components;
  out->color_space = (int)cinfo.jpeg_color_space;
  out->progressive = cinfo.progressive_mode ? 1 : 0;
  out->jfif = cinfo.saw_JFIF_marker ? 1 : 0;
  out->adobe_transform = cinfo.saw_Adobe_marker ? (int)cinfo.Adobe_transform : -1;
  for (int c = 0; c < cinfo.num_components; c++) {
    jpeg_component_info* comp = &cinfo.comp_info[c];
    out->component_id[c] = comp->component_id;
    out->h_samp[c] = comp->h_samp_factor;
    out->v_samp[c] = comp->v_samp_factor;
    out->width_in_blocks[c] = (int)comp->width_in_blocks;
    out->height_in_blocks[c] = (int)comp->height_in_blocks;
    if (comp->quant_table == NULL) {
      snprintf(out->message, sizeof(out->message), "JPEG component %d has no quantization table", c);
      jpeg_destroy_decompress(&cinfo);
      vt_jpeg_free_coefficients(out);
      return 1;
    }
    for (int k = 0; k < 64; k++) out->quant[c][k] = comp->quant_table->quantval[k];
    size_t blocks = (size_t)comp->width_in_blocks * (size_t)comp->height_in_blocks;
    out->coefficients[c] = (int16_t*)malloc(blocks * 64 * sizeof(int16_t));
    if (out->coefficients[c] == NULL) {
      snprintf(out->message, sizeof(out->message), "out of memory for %zu JPEG blocks", blocks);
      jpeg_destroy_decompress(&cinfo);
      vt_jpeg_free_coefficients(out);
      return 1;
    }
    for (JDIMENSION row = 0; row < comp->height_in_blocks; row++) {
      JBLOCKARRAY buffer = (*cinfo.mem->access_virt_barray)((j_common_ptr)&cinfo, arrays[c], row, 1, FALSE);
      int16_t* dst = out->coefficients[c] + (size_t)row * comp->width_in_blocks * 64;
      for (JDIMENSION col = 0; col < comp->width_in_blocks; col++) {
        for (int k = 0; k < 64; k++) dst[col * 64 + k] = (int16_t)buffer[0][col][k];
      }
    }
  }
  out->warnings = err.warnings;
  if (err.warnings > 0) {
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo.err->format_message)((j_common_ptr)&cinfo, buffer);
    snprintf(out->message, sizeof(out->message), "%s", buffer);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return 0;
}

void vt_jpeg_free_coefficients(vt_jpeg_coefficients* c) {
  for (int i = 0; i < VT_JPEG_MAX_COMPONENTS; i++) {
    free(c->coefficients[i]);
    c->coefficients[i] = NULL;
  }
}

int vt_jpeg_encode_rgb(const uint8_t* rgb, int width, int height, int stride, int quality,
                       uint8_t** out, unsigned long* out_size, char* message, size_t message_size) {
  struct jpeg_compress_struct cinfo;
  vt_error_mgr err;
  unsigned char* buffer = NULL;
  unsigned long size = 0;
  cinfo.err = vt_errors(&err);
  if (setjmp(err.jump)) {
    vt_format((j_common_ptr)&cinfo, message, message_size);
    jpeg_destroy_compress(&cinfo);
    free(buffer);
    return 1;
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, &buffer, &size);
  cinfo.image_width = (JDIMENSION)width;
  cinfo.image_height = (JDIMENSION)height;
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = (JSAMPROW)(rgb + (size_t)cinfo.next_scanline * (size_t)stride);
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  *out = buffer;
  *out_size = size;
  return 0;
}

int vt_jpeg_decode_scaled(const uint8_t* data, size_t size, vt_jpeg_limits limits, int min_width, int min_height, int full_size,
                          vt_jpeg_image* out) {
  memset(out, 0, sizeof(*out));
  struct jpeg_decompress_struct cinfo;
  vt_error_mgr err;
  cinfo.err = vt_errors(&err);
  // volatile: written after setjmp and read after a longjmp back to it.
  uint8_t* volatile pixels = NULL;
  if (setjmp(err.jump)) {
    vt_format((j_common_ptr)&cinfo, out->message, sizeof(out->message));
    jpeg_destroy_decompress(&cinfo);
    free(pixels);
    out->pixels = NULL;
    return 1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  out->full_width = (int)cinfo.image_width;
  out->full_height = (int)cinfo.image_height;
  if (cinfo.image_width < 1 || cinfo.image_height < 1 || (long long)cinfo.image_width > limits.max_side ||
      (long long)cinfo.image_height > limits.max_side ||
      (long long)cinfo.image_width * (long long)cinfo.image_height > limits.max_pixels) {
    snprintf(out->message, sizeof(out->message), "JPEG of %ux%u pixels exceeds the limits (%d a side, %lld pixels)",
             cinfo.image_width, cinfo.image_height, limits.max_side, limits.max_pixels);
    jpeg_destroy_decompress(&cinfo);
    return 2;
  }
  // libjpeg converts 1 and 3 components (gray, YCbCr, RGB) itself; CMYK and YCCK take the exact path.
  if (cinfo.num_components != 1 && cinfo.num_components != 3) {
    jpeg_destroy_decompress(&cinfo);
    return 3;
  }
  cinfo.mem->max_memory_to_use = (long)limits.max_memory;
  // The smallest DCT scale (1/8, 1/4, 1/2) that keeps at least min_width × min_height pixels.
  int denom = 1;
  for (int d = 8; d >= 2; d /= 2) {
    const long long w = ((long long)cinfo.image_width + d - 1) / d, h = ((long long)cinfo.image_height + d - 1) / d;
    if (w >= min_width && h >= min_height) {
      denom = d;
      break;
    }
  }
  if (denom == 1 && !full_size) {  // no reduction possible: the exact path is as fast
    jpeg_destroy_decompress(&cinfo);
    return 3;
  }
  cinfo.scale_num = 1;
  cinfo.scale_denom = (unsigned int)denom;
  cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  cinfo.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&cinfo);
  const size_t row = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
  pixels = (uint8_t*)malloc(row * (size_t)cinfo.output_height + 1);
  if (!pixels) {
    snprintf(out->message, sizeof(out->message), "out of memory for a JPEG of %ux%u pixels", cinfo.output_width, cinfo.output_height);
    jpeg_destroy_decompress(&cinfo);
    return 1;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW line = pixels + (size_t)cinfo.output_scanline * row;
    if (jpeg_read_scanlines(&cinfo, &line, 1) != 1) break;
  }
  out->width = (int)cinfo.output_width;
  out->height = (int)cinfo.output_height;
  out->channels = cinfo.output_components;
  out->denom = denom;
  out->warnings = err.warnings;
  // A cut file leaves rows libjpeg never wrote: they stay as libjpeg filled them (its warning is kept).
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  out->pixels = pixels;
  return 0;
}
