#!/usr/bin/env bash
# Installs the C libraries and tools VisionTasks builds against (Debian/Ubuntu package names),
# only when something is missing. Needs root (or sudo) to install; otherwise prints the command.
set -euo pipefail
packages=()
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/include/x86_64-linux-gnu/$1" ] || [ -f "/usr/include/aarch64-linux-gnu/$1" ]; }
command -v pkg-config >/dev/null || packages+=(pkg-config)
have_header jpeglib.h || packages+=(libjpeg62-turbo-dev)
{ have_header png.h || have_header libpng16/png.h; } || packages+=(libpng-dev)
have_header zlib.h || packages+=(zlib1g-dev)
have_header openssl/evp.h || packages+=(libssl-dev)
# vision-tasks serve: HTTP (libmicrohttpd) and Frigate's ZMQ detector (libzmq); wrk drives make bench-serve.
have_header microhttpd.h || packages+=(libmicrohttpd-dev)
have_header zmq.h || packages+=(libzmq3-dev)
have_header libdeflate.h || packages+=(libdeflate-dev)
have_header libavformat/avformat.h || packages+=(libavformat-dev)
have_header libavcodec/avcodec.h || packages+=(libavcodec-dev)
have_header libswscale/swscale.h || packages+=(libswscale-dev)
have_header libavutil/avutil.h || packages+=(libavutil-dev)
have_header libavdevice/avdevice.h || packages+=(libavdevice-dev)
command -v ffmpeg >/dev/null || packages+=(ffmpeg)
command -v unzip >/dev/null || packages+=(unzip)
# Headless Chromium: the tests open the HTML report in it and screenshot it.
command -v chromium >/dev/null || packages+=(chromium)
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || packages+=(python3-venv)
[ ${#packages[@]} -eq 0 ] && exit 0
echo "install-system-deps: installing ${packages[*]}" >&2
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "install-system-deps: run as root: apt-get install -y ${packages[*]}" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1 || { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${packages[@]}" >/dev/null; }
