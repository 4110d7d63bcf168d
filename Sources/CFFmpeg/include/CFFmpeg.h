// A small, safe C layer over FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil):
// open a video file, decode its frames one at a time into packed RGB, and encode RGB frames into a
// video file. Every call returns a status and, on failure, a message; FFmpeg's own structures never
// cross into Swift. The libraries are opened at run time on first use (FFmpegLibrary.h): without
// them, opening a video fails with a message saying what to install.
#ifndef VISIONTASKS_CFFMPEG_H
#define VISIONTASKS_CFFMPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes of the vt_video_* calls.
enum {
  VT_VIDEO_OK = 0,
  /// No more frames (reader) — not an error.
  VT_VIDEO_END = 1,
  /// The file could not be opened or has no decodable video stream.
  VT_VIDEO_ERR_OPEN = -1,
  /// The stream is damaged or truncated: the frames before the damage were delivered.
  VT_VIDEO_ERR_CORRUPT = -2,
  /// A frame is larger than the limits allow, or memory ran out.
  VT_VIDEO_ERR_LIMIT = -3,
  /// The encoder or muxer failed.
  VT_VIDEO_ERR_WRITE = -4,
  /// A bad argument from the caller.
  VT_VIDEO_ERR_ARGUMENT = -5,
};

typedef struct vt_video_reader vt_video_reader;

/// What the container says about the video stream.
typedef struct {
  int width;
  int height;
  /// Average frame rate as a fraction (0/1 when unknown).
  int fps_num;
  int fps_den;
  /// Duration in milliseconds (-1 when unknown).
  int64_t duration_ms;
  /// Frames announced by the container (0 when unknown).
  int64_t frame_count;
  /// Decoder name, e.g. "h264".
  char codec[32];
} vt_video_info;

/// Opens `path` and its best video stream. `threads` is the decoder's thread count (0 = FFmpeg
/// decides). `max_pixels` refuses streams whose frames have more pixels. On failure returns a
/// negative status and writes a message into `err` (`err_len` bytes).
int vt_video_open(const char *path, int threads, int64_t max_pixels, vt_video_reader **out,
                  vt_video_info *info, char *err, size_t err_len);

/// Opens a live source: a camera device (`/dev/video0`, through libavdevice's Video4Linux2
/// input) or a stream URL (rtsp, rtmp, srt, udp, http(s), HLS …; reads time out after 10 s), or a
/// file. Same results and statuses as vt_video_open.
int vt_video_open_live(const char *source, int threads, int64_t max_pixels, vt_video_reader **out,
                       vt_video_info *info, char *err, size_t err_len);

/// Decodes the next frame into the reader's packed RGB buffer (3 bytes per pixel, `*stride`
/// bytes per row, valid until the next call). `*pts_ms` is the presentation time in milliseconds
/// from the container (frame index / fps when the container gives none). Returns VT_VIDEO_OK,
/// VT_VIDEO_END, or a negative status with a message.
int vt_video_next(vt_video_reader *reader, const uint8_t **rgb, int *width, int *height, int *stride,
                  int64_t *pts_ms, char *err, size_t err_len);

/// Closes the reader (NULL is ignored).
void vt_video_close(vt_video_reader *reader);

typedef struct vt_video_writer vt_video_writer;

/// Creates `path` (the container from its extension: .mp4, .mkv, .avi …) with one video stream of
/// `width`×`height` at `fps_num`/`fps_den`, encoded with H.264 (libx264) when available, else
/// MPEG-4 part 2. `crf` is libx264's quality (0…51, lower is better).
int vt_video_writer_open(const char *path, int width, int height, int fps_num, int fps_den, int crf,
                         vt_video_writer **out, char *err, size_t err_len);

/// Encodes one packed RGB frame (`stride` bytes per row) shown at `pts_ms`; timestamps must increase.
int vt_video_writer_write(vt_video_writer *writer, const uint8_t *rgb, int stride, int64_t pts_ms,
                          char *err, size_t err_len);

/// Flushes the encoder, writes the trailer and closes the file. Returns a status; the writer is
/// freed either way.
int vt_video_writer_finish(vt_video_writer *writer, char *err, size_t err_len);

/// Frees a writer without finishing the file (NULL is ignored).
void vt_video_writer_discard(vt_video_writer *writer);

/// Quietens FFmpeg's own logging (errors come back as messages).
void vt_video_quiet(void);

/// Whether FFmpeg's libraries can be loaded (they are opened at run time, on first use): 1, or 0 with
/// `err` saying which library is missing and what to install.
int vt_video_available(char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
