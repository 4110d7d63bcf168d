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

int vt_jpeg_read_coefficients(const uint8_t* data, size_t size, vt_jpeg_coefficients* out) {
  memset(out, 0, sizeof(*out));
  struct jpeg_decompress_struct cinfo;
  vt_error_mgr err;
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = vt_error_exit;
  err.pub.emit_message = vt_emit_message;
  err.pub.output_message = vt_output_message;
  err.warnings = 0;
  if (setjmp(err.jump)) {
    vt_format((j_common_ptr)&cinfo, out->message, sizeof(out->message));
    jpeg_destroy_decompress(&cinfo);
    vt_jpeg_free_coefficients(out);
    return 1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
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
  for (int c = 0; c < cinfo.num_components; c++) {
    jpeg_component_info* comp = &cinfo.comp_info[c];
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
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = vt_error_exit;
  err.pub.emit_message = vt_emit_message;
  err.pub.output_message = vt_output_message;
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
