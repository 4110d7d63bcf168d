// See FFmpegLibrary.h: FFmpeg's libraries opened at run time, each function looked up once.
#include "FFmpegLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct vt_ffmpeg_table vt_ffmpeg;

// The sonames of the headers built against: the ABI the table's types describe.
#define VT_SONAME(library, major) "lib" #library ".so." AV_STRINGIFY(major)
static const char *const kCoreLibraries[] = {
    VT_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR), VT_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR),
    VT_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR), VT_SONAME(swscale, LIBSWSCALE_VERSION_MAJOR)};
static const char *const kDeviceLibrary = VT_SONAME(avdevice, LIBAVDEVICE_VERSION_MAJOR);
// What to install, in Debian's names (the package is the library's name and its major version).
static const char *const kInstall =
    "install FFmpeg's libraries (Debian: libavformat" AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)
    ", libavcodec" AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR) ", libswscale" AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR) ")";

static pthread_once_t core_once = PTHREAD_ONCE_INIT, device_once = PTHREAD_ONCE_INIT;
static int core_status = -1, device_status = -1;
static char core_error[512], device_error[512];

static void *open_library(const char *soname, char *error, size_t len) {
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    snprintf(error, len, "video needs FFmpeg's %s, which cannot be loaded (%s): %s", soname, why ? why : "?", kInstall);
  }
  return handle;
}

static void load_core(void) {
  void *handles[4];
  for (int i = 0; i < 4; i++) {
    handles[i] = open_library(kCoreLibraries[i], core_error, sizeof core_error);
    if (!handles[i]) return;
  }
  void *avutil = handles[0], *avcodec = handles[1], *avformat = handles[2], *swscale = handles[3];
  (void)avutil; (void)avcodec; (void)avformat; (void)swscale;
#define VT_FFMPEG_RESOLVE(library, name)                                                              \
  vt_ffmpeg.name = (__typeof__(vt_ffmpeg.name))dlsym(library, #name);                                 \
  if (!vt_ffmpeg.name) {                                                                              \
    snprintf(core_error, sizeof core_error, "FFmpeg's lib%s has no %s: %s", #library, #name, kInstall); \
    return;                                                                                           \
  }
  VT_FFMPEG_FUNCTIONS(VT_FFMPEG_RESOLVE)
  core_status = 0;
}

static void load_devices(void) {
  void *avdevice = open_library(kDeviceLibrary, device_error, sizeof device_error);
  if (!avdevice) return;
#undef VT_FFMPEG_RESOLVE
#define VT_FFMPEG_RESOLVE(library, name)                                                                  \
  vt_ffmpeg.name = (__typeof__(vt_ffmpeg.name))dlsym(library, #name);                                     \
  if (!vt_ffmpeg.name) {                                                                                  \
    snprintf(device_error, sizeof device_error, "FFmpeg's lib%s has no %s", #library, #name);             \
    return;                                                                                               \
  }
  VT_FFMPEG_DEVICE_FUNCTIONS(VT_FFMPEG_RESOLVE)
  device_status = 0;
}

int vt_ffmpeg_load(int devices, char *err, size_t err_len) {
  pthread_once(&core_once, load_core);
  if (core_status != 0) {
    if (err && err_len) snprintf(err, err_len, "%s", core_error);
    return -1;
  }
  if (devices) {
    pthread_once(&device_once, load_devices);
    if (device_status != 0) {
      if (err && err_len) snprintf(err, err_len, "%s", device_error);
      return -1;
    }
  }
  return 0;
}
