#!/usr/bin/env bash
# Builds the libFuzzer target over every image decoder and the ICC path into
# .build-fuzz/image-fuzzer and runs it: Tools/fuzz/images/run.sh [SECONDS] (default 60;
# `build` builds and stops). Exits non-zero on a crash, leak or sanitizer report. New inputs go
# to a scratch copy of the corpus; the committed corpus (Tools/fuzz/images/corpus) is read, not
# rewritten.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
out=../../../.build-fuzz
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I ../../../Sources/CJPEGShim/include -I ../../../Sources/CPNG/include \
  fuzz_decoders.c ../../../Sources/CJPEGShim/penumbra_jpeg.c ../../../Sources/CPNG/penumbra_png.c \
  -ljpeg -lpng16 -lz -lwebpdemux -lwebp -lgif -llcms2 -o "$out/image-fuzzer" 2> "$work/build.log" \
  || { cat "$work/build.log"; exit 1; }
[ "$seconds" = build ] && { echo "built .build-fuzz/image-fuzzer"; exit 0; }
mkdir -p "$work/corpus"
cp corpus/* "$work/corpus/" 2>/dev/null || true
set +e
"$out/image-fuzzer" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" 2>&1 | tail -20
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "fuzz: the target failed (status $status); reproducers copied into Tools/fuzz/images/" >&2
  cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* . 2>/dev/null || true
  exit "$status"
fi
