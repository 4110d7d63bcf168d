// See include/CFFmpeg.h. Everything FFmpeg allocates is owned by the reader or writer and freed by
// close/finish/discard, on every path.
#include "CFFmpeg.h"

#include "FFmpegLibrary.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(char *err, size_t len, const char *what, int code) {
  if (!err || len == 0) return;
  if (code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    FF(av_strerror)(code, text, sizeof text);
    snprintf(err, len, "%s: %s", what, text);
  } else {
    snprintf(err, len, "%s", what);
  }
}

void vt_video_quiet(void) {
  if (vt_ffmpeg_load(0, NULL, 0) == 0) FF(av_log_set_level)(AV_LOG_QUIET);
}

int vt_video_available(char *err, size_t err_len) { return vt_ffmpeg_load(0, err, err_len) == 0; }

// Colour conversion flags: exact rounding, full chroma interpolation (no nearest-neighbour chroma).
static const int kConvertFlags = SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP;

// The demuxers a reader may use (FFmpeg's names): MP4/MOV, Matroska/WebM, AVI, MPEG-TS/PS, FLV,
// NUT, IVF, Y4M and raw H.264/H.265/MJPEG/MPEG video streams.
static const char *kVideoContainers =
    "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,mpeg,flv,nut,ivf,yuv4mpegpipe,h264,hevc,mjpeg,mpegvideo,m4v,obu,asf";

struct vt_video_reader {
  AVFormatContext *format;
  AVCodecContext *decoder;
  AVPacket *packet;
  AVFrame *frame;
  struct SwsContext *sws;
  int stream;
  int flushing;
  int finished;
  int64_t max_pixels;
  int64_t decoded;
  AVRational time_base;
  AVRational rate;
  uint8_t *rgb;
  size_t rgb_capacity;
  int live;
};

void vt_video_close(vt_video_reader *r) {
  if (!r) return;
  FF(sws_freeContext)(r->sws);
  FF(av_frame_free)(&r->frame);
  FF(av_packet_free)(&r->packet);
  FF(avcodec_free_context)(&r->decoder);
  FF(avformat_close_input)(&r->format);
  free(r->rgb);
  free(r);
}

// Live sources: network protocols FFmpeg streams over, and the demuxers of live streams.
static const char *kLiveProtocols = "file,http,https,tls,tcp,udp,rtp,rtsp,rtmp,rtmps,srt,crypto";
static const char *kLiveContainers =
    "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,mpeg,flv,nut,ivf,yuv4mpegpipe,h264,hevc,mjpeg,mpegvideo,m4v,obu,asf,"
    "hls,rtsp,rtp,sdp,mpjpeg,v4l2,video4linux2";

static int open_reader(const char *path, int live, int threads, int64_t max_pixels, vt_video_reader **out,
                       vt_video_info *info, char *err, size_t err_len) {
  if (!path || !out || !info) { set_error(err, err_len, "missing argument", 0); return VT_VIDEO_ERR_ARGUMENT; }
  *out = NULL;
  memset(info, 0, sizeof *info);
  if (vt_ffmpeg_load(live && strncmp(path, "/dev/", 5) == 0, err, err_len) != 0) return VT_VIDEO_ERR_OPEN;
  vt_video_reader *r = calloc(1, sizeof *r);
  if (!r) { set_error(err, err_len, "out of memory", 0); return VT_VIDEO_ERR_LIMIT; }
  r->max_pixels = max_pixels > 0 ? max_pixels : INT64_MAX;
  r->live = live;
  AVDictionary *options = NULL;
  const AVInputFormat *forced = NULL;
  if (!live) {
    // Only local files, and only video containers: a "video" that is really a playlist or a
    // concat script (HLS, concat, image2 patterns …) could make FFmpeg open other files or URLs.
    FF(av_dict_set)(&options, "protocol_whitelist", "file", 0);
    FF(av_dict_set)(&options, "format_whitelist", kVideoContainers, 0);
  } else if (strncmp(path, "/dev/", 5) == 0) {
    // A camera: Video4Linux2 through libavdevice.
    FF(avdevice_register_all)();
    forced = FF(av_find_input_format)("v4l2");
    if (!forced) { set_error(err, err_len, "this FFmpeg has no Video4Linux2 input (libavdevice)", 0); free(r); return VT_VIDEO_ERR_OPEN; }
  } else {
    // A stream: network protocols allowed, reads time out instead of hanging (10 s).
    FF(av_dict_set)(&options, "protocol_whitelist", kLiveProtocols, 0);
    FF(av_dict_set)(&options, "format_whitelist", kLiveContainers, 0);
    FF(av_dict_set)(&options, "rw_timeout", "10000000", 0);
  }
  int ret = FF(avformat_open_input)(&r->format, path, forced, &options);
  FF(av_dict_free)(&options);
  if (ret < 0) { set_error(err, err_len, live ? "cannot open the live source" : "cannot open the file as a video", ret); vt_video_close(r); return VT_VIDEO_ERR_OPEN; }
  ret = FF(avformat_find_stream_info)(r->format, NULL);
  if (ret < 0) { set_error(err, err_len, "cannot read the stream information", ret); vt_video_close(r); return VT_VIDEO_ERR_OPEN; }
  const AVCodec *codec = NULL;
  ret = FF(av_find_best_stream)(r->format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (ret < 0 || !codec) {
    set_error(err, err_len, ret == AVERROR_DECODER_NOT_FOUND ? "no decoder for the video stream" : "the file has no video stream", 0);
    vt_video_close(r);
    return VT_VIDEO_ERR_OPEN;
  }
  r->stream = ret;
  AVStream *st = r->format->streams[r->stream];
  r->decoder = FF(avcodec_alloc_context3)(codec);
  if (!r->decoder) { set_error(err, err_len, "out of memory", 0); vt_video_close(r); return VT_VIDEO_ERR_LIMIT; }
  ret = FF(avcodec_parameters_to_context)(r->decoder, st->codecpar);
  if (ret < 0) { set_error(err, err_len, "bad codec parameters", ret); vt_video_close(r); return VT_VIDEO_ERR_OPEN; }
  if ((int64_t)r->decoder->width * r->decoder->height > r->max_pixels) {
    snprintf(err, err_len, "frames of %dx%d pixels are larger than the limit of %lld pixels",
             r->decoder->width, r->decoder->height, (long long)r->max_pixels);
    vt_video_close(r);
    return VT_VIDEO_ERR_LIMIT;
  }
  r->decoder->thread_count = threads > 0 ? threads : 0;
  // Damaged bitstreams are reported, not silently concealed.
  r->decoder->err_recognition |= AV_EF_EXPLODE | AV_EF_CRCCHECK;
  ret = FF(avcodec_open2)(r->decoder, codec, NULL);
  if (ret < 0) { set_error(err, err_len, "cannot open the decoder", ret); vt_video_close(r); return VT_VIDEO_ERR_OPEN; }
  r->packet = FF(av_packet_alloc)();
  r->frame = FF(av_frame_alloc)();
  if (!r->packet || !r->frame) { set_error(err, err_len, "out of memory", 0); vt_video_close(r); return VT_VIDEO_ERR_LIMIT; }
  r->time_base = st->time_base;
  r->rate = FF(av_guess_frame_rate)(r->format, st, NULL);
  info->width = r->decoder->width;
  info->height = r->decoder->height;
  info->fps_num = r->rate.num > 0 && r->rate.den > 0 ? r->rate.num : 0;
  info->fps_den = r->rate.num > 0 && r->rate.den > 0 ? r->rate.den : 1;
  if (st->duration != AV_NOPTS_VALUE && st->duration > 0)
    info->duration_ms = FF(av_rescale_q)(st->duration, st->time_base, (AVRational){1, 1000});
  else if (r->format->duration != AV_NOPTS_VALUE && r->format->duration > 0)
    info->duration_ms = FF(av_rescale_q)(r->format->duration, AV_TIME_BASE_Q, (AVRational){1, 1000});
  else
    info->duration_ms = -1;
  info->frame_count = st->nb_frames > 0 ? st->nb_frames : 0;
  snprintf(info->codec, sizeof info->codec, "%s", codec->name);
  *out = r;
  return VT_VIDEO_OK;
}

int vt_video_open(const char *path, int threads, int64_t max_pixels, vt_video_reader **out,
                  vt_video_info *info, char *err, size_t err_len) {
  return open_reader(path, 0, threads, max_pixels, out, info, err, err_len);
}

int vt_video_open_live(const char *source, int threads, int64_t max_pixels, vt_video_reader **out,
                       vt_video_info *info, char *err, size_t err_len) {
  return open_reader(source, 1, threads, max_pixels, out, info, err, err_len);
}

// Converts r->frame into the packed RGB buffer.
static int convert_frame(vt_video_reader *r, const uint8_t **rgb, int *width, int *height, int *stride,
                         char *err, size_t err_len) {
  AVFrame *f = r->frame;
  if (f->width <= 0 || f->height <= 0 || (int64_t)f->width * f->height > r->max_pixels) {
    snprintf(err, err_len, "a decoded frame of %dx%d pixels is empty or larger than the limit of %lld pixels",
             f->width, f->height, (long long)r->max_pixels);
    return VT_VIDEO_ERR_LIMIT;
  }
  enum AVPixelFormat src = (enum AVPixelFormat)f->format;
  int full_range = f->color_range == AVCOL_RANGE_JPEG;
  switch (src) {  // The deprecated JPEG-range formats: same layout, full range.
    case AV_PIX_FMT_YUVJ420P: src = AV_PIX_FMT_YUV420P; full_range = 1; break;
    case AV_PIX_FMT_YUVJ422P: src = AV_PIX_FMT_YUV422P; full_range = 1; break;
    case AV_PIX_FMT_YUVJ444P: src = AV_PIX_FMT_YUV444P; full_range = 1; break;
    default: break;
  }
  r->sws = FF(sws_getCachedContext)(r->sws, f->width, f->height, src, f->width, f->height, AV_PIX_FMT_RGB24,
                                kConvertFlags, NULL, NULL, NULL);
  if (!r->sws) {
    snprintf(err, err_len, "cannot convert pixel format %s to RGB", FF(av_get_pix_fmt_name)(src) ? FF(av_get_pix_fmt_name)(src) : "?");
    return VT_VIDEO_ERR_CORRUPT;
  }
  int space = f->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT;
  const int *table = FF(sws_getCoefficients)(space);
  FF(sws_setColorspaceDetails)(r->sws, table, full_range, FF(sws_getCoefficients)(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
  size_t row = (size_t)f->width * 3;
  size_t row_aligned = (row + 63) & ~(size_t)63;
  size_t needed = row_aligned * (size_t)f->height;
  if (needed > r->rgb_capacity) {
    free(r->rgb);
    r->rgb = malloc(needed);
    r->rgb_capacity = r->rgb ? needed : 0;
    if (!r->rgb) { set_error(err, err_len, "out of memory for a frame", 0); return VT_VIDEO_ERR_LIMIT; }
  }
  uint8_t *dst[4] = {r->rgb, NULL, NULL, NULL};
  int dst_stride[4] = {(int)row_aligned, 0, 0, 0};
  int rows = FF(sws_scale)(r->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, dst, dst_stride);
  if (rows != f->height) { set_error(err, err_len, "colour conversion failed", 0); return VT_VIDEO_ERR_CORRUPT; }
  *rgb = r->rgb;
  *width = f->width;
  *height = f->height;
  *stride = (int)row_aligned;
  return VT_VIDEO_OK;
}

// True when the container's sample index (MP4, MOV, MKV cues …) places the stream's last sample
// past the end of the file: the demuxer then ends early without an error.
static int is_truncated(vt_video_reader *r) {
  if (r->live || !r->format->pb) return 0;
  int64_t size = FF(avio_size)(r->format->pb);
  if (size <= 0) return 0;
  AVStream *st = r->format->streams[r->stream];
  int count = FF(avformat_index_get_entries_count)(st);
  if (count <= 0) return 0;
  const AVIndexEntry *last = FF(avformat_index_get_entry)(st, count - 1);
  return last && last->pos >= 0 && last->size > 0 && last->pos + last->size > size;
}

int vt_video_next(vt_video_reader *r, const uint8_t **rgb, int *width, int *height, int *stride,
                  int64_t *pts_ms, char *err, size_t err_len) {
  if (!r || !rgb || !width || !height || !stride || !pts_ms) { set_error(err, err_len, "missing argument", 0); return VT_VIDEO_ERR_ARGUMENT; }
  if (r->finished) return VT_VIDEO_END;
  for (;;) {
    int ret = FF(avcodec_receive_frame)(r->decoder, r->frame);
    if (ret == 0) {
      if (r->frame->decode_error_flags || (r->frame->flags & AV_FRAME_FLAG_CORRUPT)) {
        FF(av_frame_unref)(r->frame);
        r->finished = 1;
        snprintf(err, err_len, "frame %lld is damaged (the stream is corrupt)", (long long)r->decoded + 1);
        return VT_VIDEO_ERR_CORRUPT;
      }
      int64_t ts = r->frame->best_effort_timestamp;
      if (ts != AV_NOPTS_VALUE)
        *pts_ms = FF(av_rescale_q)(ts, r->time_base, (AVRational){1, 1000});
      else if (r->rate.num > 0 && r->rate.den > 0)
        *pts_ms = FF(av_rescale_q)(r->decoded, av_inv_q(r->rate), (AVRational){1, 1000});
      else
        *pts_ms = r->decoded * 33;
      int status = convert_frame(r, rgb, width, height, stride, err, err_len);
      FF(av_frame_unref)(r->frame);
      if (status != VT_VIDEO_OK) { r->finished = 1; return status; }
      r->decoded += 1;
      return VT_VIDEO_OK;
    }
    if (ret == AVERROR_EOF) { r->finished = 1; return VT_VIDEO_END; }
    if (ret != AVERROR(EAGAIN)) {
      r->finished = 1;
      set_error(err, err_len, "decoding failed after the last good frame", ret);
      return VT_VIDEO_ERR_CORRUPT;
    }
    if (r->flushing) { r->finished = 1; return VT_VIDEO_END; }
    ret = FF(av_read_frame)(r->format, r->packet);
    if (ret == AVERROR_EOF) {
      // A container that ends before its index says it should is truncated.
      if (r->format->pb && r->format->pb->error < 0) {
        r->finished = 1;
        set_error(err, err_len, "the file is truncated", r->format->pb->error);
        return VT_VIDEO_ERR_CORRUPT;
      }
      if (is_truncated(r)) {
        r->finished = 1;
        snprintf(err, err_len, "the file is truncated: its index has frames past the end of the file (%lld bytes)",
                 (long long)FF(avio_size)(r->format->pb));
        return VT_VIDEO_ERR_CORRUPT;
      }
      r->flushing = 1;
      ret = FF(avcodec_send_packet)(r->decoder, NULL);
      if (ret < 0 && ret != AVERROR_EOF) {
        r->finished = 1;
        set_error(err, err_len, "decoding failed at the end of the stream", ret);
        return VT_VIDEO_ERR_CORRUPT;
      }
      continue;
    }
    if (ret < 0) {
      r->finished = 1;
      set_error(err, err_len, "the file is damaged or truncated after the last good frame", ret);
      return VT_VIDEO_ERR_CORRUPT;
    }
    if (r->packet->stream_index != r->stream) { FF(av_packet_unref)(r->packet); continue; }
    if (r->packet->flags & AV_PKT_FLAG_CORRUPT) {
      FF(av_packet_unref)(r->packet);
      r->finished = 1;
      set_error(err, err_len, "the file is truncated: its last packet is incomplete", 0);
      return VT_VIDEO_ERR_CORRUPT;
    }
    ret = FF(avcodec_send_packet)(r->decoder, r->packet);
    FF(av_packet_unref)(r->packet);
    if (ret < 0 && ret != AVERROR(EAGAIN)) {
      r->finished = 1;
      set_error(err, err_len, "the stream is damaged after the last good frame", ret);
      return VT_VIDEO_ERR_CORRUPT;
    }
  }
}

struct vt_video_writer {
  AVFormatContext *format;
  AVCodecContext *encoder;
  AVStream *stream;
  AVFrame *frame;
  AVPacket *packet;
  struct SwsContext *sws;
  int width;
  int height;
  int source_width;
  int source_height;
  int64_t last_pts;
  int header_written;
  int file_open;
};

void vt_video_writer_discard(vt_video_writer *w) {
  if (!w) return;
  FF(sws_freeContext)(w->sws);
  FF(av_frame_free)(&w->frame);
  FF(av_packet_free)(&w->packet);
  FF(avcodec_free_context)(&w->encoder);
  if (w->format) {
    if (w->file_open) FF(avio_closep)(&w->format->pb);
    FF(avformat_free_context)(w->format);
  }
  free(w);
}

int vt_video_writer_open(const char *path, int width, int height, int fps_num, int fps_den, int crf,
                         vt_video_writer **out, char *err, size_t err_len) {
  if (!path || !out || width <= 0 || height <= 0 || width > 16384 || height > 16384 || fps_num <= 0 || fps_den <= 0) {
    set_error(err, err_len, "invalid size or frame rate for the output video", 0);
    return VT_VIDEO_ERR_ARGUMENT;
  }
  *out = NULL;
  if (vt_ffmpeg_load(0, err, err_len) != 0) return VT_VIDEO_ERR_OPEN;
  vt_video_writer *w = calloc(1, sizeof *w);
  if (!w) { set_error(err, err_len, "out of memory", 0); return VT_VIDEO_ERR_LIMIT; }
  w->last_pts = INT64_MIN;
  w->source_width = width;
  w->source_height = height;
  int ret = FF(avformat_alloc_output_context2)(&w->format, NULL, NULL, path);
  if (ret < 0 || !w->format) {
    set_error(err, err_len, "unknown output container (use .mp4, .mkv or .avi)", ret);
    vt_video_writer_discard(w);
    return VT_VIDEO_ERR_ARGUMENT;
  }
  const AVCodec *codec = FF(avcodec_find_encoder_by_name)("libx264");
  if (!codec) codec = FF(avcodec_find_encoder)(AV_CODEC_ID_MPEG4);
  if (!codec) { set_error(err, err_len, "no H.264 or MPEG-4 encoder in this FFmpeg", 0); vt_video_writer_discard(w); return VT_VIDEO_ERR_WRITE; }
  w->encoder = FF(avcodec_alloc_context3)(codec);
  if (!w->encoder) { set_error(err, err_len, "out of memory", 0); vt_video_writer_discard(w); return VT_VIDEO_ERR_LIMIT; }
  // 4:2:0 needs even sides: an odd side is scaled by one pixel.
  w->width = width & ~1 ? width & ~1 : 2;
  w->height = height & ~1 ? height & ~1 : 2;
  w->encoder->width = w->width;
  w->encoder->height = w->height;
  w->encoder->pix_fmt = AV_PIX_FMT_YUV420P;
  w->encoder->time_base = (AVRational){1, 1000};
  w->encoder->framerate = (AVRational){fps_num, fps_den};
  w->encoder->gop_size = 60;
  if (codec->id == AV_CODEC_ID_MPEG4) w->encoder->bit_rate = (int64_t)w->width * w->height * 4;
  if (w->format->oformat->flags & AVFMT_GLOBALHEADER) w->encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (codec->id == AV_CODEC_ID_H264) {
    char quality[16];
    snprintf(quality, sizeof quality, "%d", crf < 0 ? 0 : crf > 51 ? 51 : crf);
    FF(av_opt_set)(w->encoder->priv_data, "crf", quality, 0);
    FF(av_opt_set)(w->encoder->priv_data, "preset", "veryfast", 0);
  }
  ret = FF(avcodec_open2)(w->encoder, codec, NULL);
  if (ret < 0) { set_error(err, err_len, "cannot open the encoder", ret); vt_video_writer_discard(w); return VT_VIDEO_ERR_WRITE; }
  w->stream = FF(avformat_new_stream)(w->format, NULL);
  if (!w->stream) { set_error(err, err_len, "out of memory", 0); vt_video_writer_discard(w); return VT_VIDEO_ERR_LIMIT; }
  w->stream->time_base = w->encoder->time_base;
  w->stream->avg_frame_rate = w->encoder->framerate;
  ret = FF(avcodec_parameters_from_context)(w->stream->codecpar, w->encoder);
  if (ret < 0) { set_error(err, err_len, "cannot set the stream parameters", ret); vt_video_writer_discard(w); return VT_VIDEO_ERR_WRITE; }
  if (!(w->format->oformat->flags & AVFMT_NOFILE)) {
    ret = FF(avio_open)(&w->format->pb, path, AVIO_FLAG_WRITE);
    if (ret < 0) { set_error(err, err_len, "cannot create the output file", ret); vt_video_writer_discard(w); return VT_VIDEO_ERR_WRITE; }
    w->file_open = 1;
  }
  ret = FF(avformat_write_header)(w->format, NULL);
  if (ret < 0) { set_error(err, err_len, "cannot write the container header", ret); vt_video_writer_discard(w); return VT_VIDEO_ERR_WRITE; }
  w->header_written = 1;
  w->frame = FF(av_frame_alloc)();
  w->packet = FF(av_packet_alloc)();
  if (!w->frame || !w->packet) { set_error(err, err_len, "out of memory", 0); vt_video_writer_discard(w); return VT_VIDEO_ERR_LIMIT; }
  w->frame->format = AV_PIX_FMT_YUV420P;
  w->frame->width = w->width;
  w->frame->height = w->height;
  ret = FF(av_frame_get_buffer)(w->frame, 0);
  if (ret < 0) { set_error(err, err_len, "out of memory", ret); vt_video_writer_discard(w); return VT_VIDEO_ERR_LIMIT; }
  w->sws = FF(sws_getContext)(width, height, AV_PIX_FMT_RGB24, w->width, w->height, AV_PIX_FMT_YUV420P,
                          kConvertFlags, NULL, NULL, NULL);
  if (!w->sws) { set_error(err, err_len, "cannot set up the colour conversion", 0); vt_video_writer_discard(w); return VT_VIDEO_ERR_WRITE; }
  *out = w;
  return VT_VIDEO_OK;
}

// Sends `frame` (NULL flushes) and writes every packet the encoder has ready.
static int encode(vt_video_writer *w, AVFrame *frame, char *err, size_t err_len) {
  int ret = FF(avcodec_send_frame)(w->encoder, frame);
  if (ret < 0 && !(frame == NULL && ret == AVERROR_EOF)) { set_error(err, err_len, "encoding failed", ret); return VT_VIDEO_ERR_WRITE; }
  for (;;) {
    ret = FF(avcodec_receive_packet)(w->encoder, w->packet);
    if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return VT_VIDEO_OK;
    if (ret < 0) { set_error(err, err_len, "encoding failed", ret); return VT_VIDEO_ERR_WRITE; }
    FF(av_packet_rescale_ts)(w->packet, w->encoder->time_base, w->stream->time_base);
    w->packet->stream_index = w->stream->index;
    ret = FF(av_interleaved_write_frame)(w->format, w->packet);
    FF(av_packet_unref)(w->packet);
    if (ret < 0) { set_error(err, err_len, "writing the output file failed", ret); return VT_VIDEO_ERR_WRITE; }
  }
}

int vt_video_writer_write(vt_video_writer *w, const uint8_t *rgb, int stride, int64_t pts_ms, char *err, size_t err_len) {
  if (!w || !rgb || stride <= 0) { set_error(err, err_len, "missing argument", 0); return VT_VIDEO_ERR_ARGUMENT; }
  if (pts_ms <= w->last_pts) {
    snprintf(err, err_len, "frame timestamps must increase: %lld ms after %lld ms", (long long)pts_ms, (long long)w->last_pts);
    return VT_VIDEO_ERR_ARGUMENT;
  }
  int ret = FF(av_frame_make_writable)(w->frame);
  if (ret < 0) { set_error(err, err_len, "out of memory", ret); return VT_VIDEO_ERR_LIMIT; }
  const uint8_t *src[4] = {rgb, NULL, NULL, NULL};
  int src_stride[4] = {stride, 0, 0, 0};
  if (stride < w->source_width * 3) { set_error(err, err_len, "row stride smaller than the frame width", 0); return VT_VIDEO_ERR_ARGUMENT; }
  FF(sws_scale)(w->sws, src, src_stride, 0, w->source_height, w->frame->data, w->frame->linesize);
  w->frame->pts = pts_ms;
  w->last_pts = pts_ms;
  return encode(w, w->frame, err, err_len);
}

int vt_video_writer_finish(vt_video_writer *w, char *err, size_t err_len) {
  if (!w) { set_error(err, err_len, "missing argument", 0); return VT_VIDEO_ERR_ARGUMENT; }
  int status = encode(w, NULL, err, err_len);
  if (status == VT_VIDEO_OK && w->header_written) {
    int ret = FF(av_write_trailer)(w->format);
    if (ret < 0) { set_error(err, err_len, "cannot finish the output file", ret); status = VT_VIDEO_ERR_WRITE; }
  }
  vt_video_writer_discard(w);
  return status;
}
