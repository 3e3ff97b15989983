#!/usr/bin/env bash
# Source from the repository root on the GPU host:  source .gpu/setup.sh
# Unpacks Penumbra's runtime into a private prefix ($PEN_PREFIX, default /opt/pen), never over /:
#   .gl/*.deb             Debian bookworm shared libraries (libglvnd EGL/GLES loaders, libpng, FreeType,
#                         HarfBuzz, fontconfig, ... and their dependencies), extracted with dpkg-deb -x
#   .gpu/pen-fonts.tar.xz the fonts the examples and tests name, and a fontconfig configuration for them
#   .gpu/pen-bin.tar.xz   bin/penumbra (release, Swift runtime static, stripped), bin/eglprobe (an EGL device
#                         probe in C) and tests/ (the release XCTest bundle, stripped, with the Swift runtime
#                         and libcurl's chain it loads in tests/lib), into $PEN_PREFIX; .gpu/penumbra and
#                         .gpu/eglprobe become links to $PEN_PREFIX/bin. One solid archive: the binary and
#                         lib_FoundationICU.so share ICU's data.
# and exports LD_LIBRARY_PATH (prefix first, then the driver's folders), FONTCONFIG_FILE and
# __EGL_VENDOR_LIBRARY_FILENAMES (NVIDIA's vendor file, so libglvnd's libEGL loads libEGL_nvidia).
# Idempotent: a second source only exports.
PEN_PREFIX=${PEN_PREFIX:-/opt/pen}
export PEN_PREFIX

pen_untar() { # pen_untar ARCHIVE.tar.xz DIR: tar+xz, or Python's tarfile where xz is missing
  mkdir -p "$2"
  if command -v xz >/dev/null 2>&1; then tar -xJf "$1" -C "$2"
  else python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"; fi
}

pen_setup() {
  local stamp="$PEN_PREFIX/.pen-ready" f
  if [ ! -f "$stamp" ]; then
    mkdir -p "$PEN_PREFIX" || return 1
    for f in .gl/*.deb; do dpkg-deb -x "$f" "$PEN_PREFIX" || return 1; done
    pen_untar .gpu/pen-fonts.tar.xz "$PEN_PREFIX" || return 1
    sed "s#@PREFIX@#$PEN_PREFIX#g" "$PEN_PREFIX/fontconfig/fonts.conf.in" > "$PEN_PREFIX/fontconfig/fonts.conf" || return 1
    touch "$stamp"
  fi
  if [ ! -f "$PEN_PREFIX/bin/.pen-ready" ]; then
    pen_untar .gpu/pen-bin.tar.xz "$PEN_PREFIX" && touch "$PEN_PREFIX/bin/.pen-ready" || return 1
  fi
  for f in penumbra eglprobe; do # links into the prefix (a real file left there by hand is kept)
    if [ -L ".gpu/$f" ] || [ ! -e ".gpu/$f" ]; then ln -sfn "$PEN_PREFIX/bin/$f" ".gpu/$f" || return 1; fi
  done
  local libs="$PEN_PREFIX/usr/lib/x86_64-linux-gnu:$PEN_PREFIX/lib/x86_64-linux-gnu:$PEN_PREFIX/usr/lib"
  local d
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do # the driver's libEGL_nvidia and friends
    [ -d "$d" ] && case ":${LD_LIBRARY_PATH:-}:" in *":$d:"*) ;; *) libs="$libs:$d" ;; esac
  done
  export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # Only for the XCTest bundle: the Swift runtime and libcurl's chain (FoundationNetworking loads it).
  export PEN_TEST_LIBS="$LD_LIBRARY_PATH:$PEN_PREFIX/tests/lib"
  export FONTCONFIG_FILE="$PEN_PREFIX/fontconfig/fonts.conf"
  for f in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json \
           /etc/glvnd/egl_vendor.d/10_nvidia.json; do
    if [ -f "$f" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES="$f"; break; fi
  done
}
pen_setup
