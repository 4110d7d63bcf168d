// FFmpeg's functions that CFFmpeg.c calls, reached through a table filled at run time (Loader.c):
// libavutil, libavcodec, libavformat and libswscale are opened with dlopen by the sonames of the
// headers built against (libavformat.so.61 for FFmpeg 7), libavdevice only when a camera is opened.
// So the program needs FFmpeg only to read or write video: a server image or a machine without
// FFmpeg runs everything else, and a video there fails with an error that says what to install.
// Calls are written FF(name)(...); the one list of names below declares the table and its loading.
#ifndef VT_FFMPEG_LIBRARY_H
#define VT_FFMPEG_LIBRARY_H

#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <stddef.h>

#define VT_FFMPEG_FUNCTIONS(X) \
  X(avutil, av_dict_free) \
  X(avutil, av_dict_set) \
  X(avutil, av_frame_alloc) \
  X(avutil, av_frame_free) \
  X(avutil, av_frame_get_buffer) \
  X(avutil, av_frame_make_writable) \
  X(avutil, av_frame_unref) \
  X(avutil, av_get_pix_fmt_name) \
  X(avutil, av_log_set_level) \
  X(avutil, av_opt_set) \
  X(avutil, av_rescale_q) \
  X(avutil, av_strerror) \
  X(avcodec, av_packet_alloc) \
  X(avcodec, av_packet_free) \
  X(avcodec, av_packet_rescale_ts) \
  X(avcodec, av_packet_unref) \
  X(avcodec, avcodec_alloc_context3) \
  X(avcodec, avcodec_find_encoder) \
  X(avcodec, avcodec_find_encoder_by_name) \
  X(avcodec, avcodec_free_context) \
  X(avcodec, avcodec_open2) \
  X(avcodec, avcodec_parameters_from_context) \
  X(avcodec, avcodec_parameters_to_context) \
  X(avcodec, avcodec_receive_frame) \
  X(avcodec, avcodec_receive_packet) \
  X(avcodec, avcodec_send_frame) \
  X(avcodec, avcodec_send_packet) \
  X(avformat, av_find_best_stream) \
  X(avformat, av_find_input_format) \
  X(avformat, av_guess_frame_rate) \
  X(avformat, av_interleaved_write_frame) \
  X(avformat, av_read_frame) \
  X(avformat, av_write_trailer) \
  X(avformat, avformat_alloc_output_context2) \
  X(avformat, avformat_close_input) \
  X(avformat, avformat_find_stream_info) \
  X(avformat, avformat_free_context) \
  X(avformat, avformat_index_get_entries_count) \
  X(avformat, avformat_index_get_entry) \
  X(avformat, avformat_new_stream) \
  X(avformat, avformat_open_input) \
  X(avformat, avformat_write_header) \
  X(avformat, avio_closep) \
  X(avformat, avio_open) \
  X(avformat, avio_size) \
  X(swscale, sws_freeContext) \
  X(swscale, sws_getCachedContext) \
  X(swscale, sws_getCoefficients) \
  X(swscale, sws_getContext) \
  X(swscale, sws_scale) \
  X(swscale, sws_setColorspaceDetails)

#define VT_FFMPEG_DEVICE_FUNCTIONS(X) \
  X(avdevice, avdevice_register_all)

struct vt_ffmpeg_table {
#define VT_FFMPEG_FIELD(library, name) __typeof__(&name) name;
  VT_FFMPEG_FUNCTIONS(VT_FFMPEG_FIELD)
  VT_FFMPEG_DEVICE_FUNCTIONS(VT_FFMPEG_FIELD)
#undef VT_FFMPEG_FIELD
};

/// The table; valid after vt_ffmpeg_load returned 0.
extern struct vt_ffmpeg_table vt_ffmpeg;
#define FF(name) (vt_ffmpeg.name)

/// Opens FFmpeg's libraries (once per process; with `devices`, libavdevice too) and fills the table.
/// 0 when they are loaded; otherwise -1 with `err` naming the library that is missing and what to install.
int vt_ffmpeg_load(int devices, char *err, size_t err_len);

#endif
