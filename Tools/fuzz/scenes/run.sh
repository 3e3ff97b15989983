#!/usr/bin/env bash
# Builds and runs the libFuzzer target over whole scenes: decoding, recording (strokes, text-free
# paths, layers, shadows, filters, offscreen images) and rendering on the CPU, under limits small
# enough (SceneFuzzing.limits) that each input takes milliseconds.
#   Tools/fuzz/scenes/run.sh [SECONDS]   (default 60; `build` builds and stops)
# Builds PenumbraCPU and what it needs into .build-fuzz with -sanitize=fuzzer,address, links
# Tools/fuzz/scenes/SceneFuzzer.swift against it, and fuzzes from Tools/fuzz/scenes/corpus (new
# inputs go to .build-fuzz/scene-corpus) with the dictionary Tools/fuzz/scenes/scenes.dict (the view
# layer's keys, so that mutations reach drawView trees). An allocation over -malloc_limit_mb is reported as a
# crash: the budget must refuse a scene before it allocates that much. Exits non-zero on a crash,
# leaving the crashing input in .build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source Tools/fuzz/swift-objects.sh
seconds="${1:-60}"
out=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link,address)
swift build --build-path "$out" -c release --target PenumbraCPU "${flags[@]}"
bin="$out/release"
objects=($(swift_objects "$bin" PenumbraCPU PenumbraCore PenumbraModel) "$bin"/CPNG.build/*.o "$bin"/CBlurKernels.build/*.o
         "$bin"/CSampleKernels.build/*.o)
maps=()
for m in CPNG CBlurKernels CSampleKernels; do maps+=(-Xcc "-fmodule-map-file=$bin/$m.build/module.modulemap" -Xcc "-ISources/$m/include"); done
swiftc -O -sanitize=fuzzer,address -parse-as-library Tools/fuzz/scenes/SceneFuzzer.swift \
  -I "$bin/Modules" -I "$bin" -Xcc -fmodule-map-file=Sources/CLibPNG/module.modulemap "${maps[@]}" \
  "${objects[@]}" $(pkg-config --libs libpng) -lz -ldeflate -o "$out/scene-fuzzer"
[ "$seconds" = build ] && { echo "built $out/scene-fuzzer"; exit 0; }
mkdir -p "$out/scene-corpus"
cd "$out"
ASAN_OPTIONS=detect_leaks=0 ./scene-fuzzer -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512 \
  -timeout=20 -detect_leaks=0 -print_final_stats=1 -dict=../Tools/fuzz/scenes/scenes.dict scene-corpus ../Tools/fuzz/scenes/corpus
