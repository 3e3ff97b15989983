#!/usr/bin/env bash
# Builds and runs the libFuzzer target over the SVG reader (SvgFuzz.swift): parsing (libxml2,
# the cascade, gzip), drawing into a small GraphicsContext and rendering on the CPU, under limits
# small enough that each input takes milliseconds.
#   Tools/fuzz/svg/run.sh [SECONDS]   (default 60; `build` builds and stops)
# Builds PenumbraSVG and PenumbraCPU into .build-fuzz with -sanitize=fuzzer,address (as
# Tools/fuzz/scenes/run.sh does), compiles SvgFuzz.swift with the package name SwiftPM gave them
# (it sets `package` limits), and fuzzes from Tools/fuzz/svg/corpus (30 small files of resvg's
# test suite, MIT, from /work/shared/tools/svg-suite; new inputs go to .build-fuzz/svg-corpus). Exits non-zero on a crash, leaving the
# crashing input in .build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source Tools/fuzz/swift-objects.sh
seconds="${1:-60}"
out=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link,address)
swift build --build-path "$out" -c release --target PenumbraCPU "${flags[@]}"
swift build --build-path "$out" -c release --target PenumbraSVG "${flags[@]}"
bin="$out/release"
package_name=$(grep '"-module-name","PenumbraSVG"' "$out/release.yaml" | grep -o '"-package-name","[^"]*"' | head -n 1 | cut -d'"' -f4)
objects=($(swift_objects "$bin" PenumbraSVG PenumbraCPU PenumbraCore PenumbraModel) "$bin"/CPNG.build/*.o
         "$bin"/CBlurKernels.build/*.o "$bin"/CSampleKernels.build/*.o)
maps=()
for m in CPNG CBlurKernels CSampleKernels; do maps+=(-Xcc "-fmodule-map-file=$bin/$m.build/module.modulemap" -Xcc "-ISources/$m/include"); done
for m in CLibPNG CLibXML2 CLibDeflate; do maps+=(-Xcc "-fmodule-map-file=Sources/$m/module.modulemap"); done
swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name "$package_name" -swift-version 6 Tools/fuzz/svg/SvgFuzz.swift \
  -I "$bin/Modules" -I "$bin" "${maps[@]}" $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g') \
  "${objects[@]}" $(pkg-config --libs libpng libxml-2.0) -lz -ldeflate -o "$out/svg-fuzzer"
[ "$seconds" = build ] && { echo "built $out/svg-fuzzer"; exit 0; }
mkdir -p "$out/svg-corpus"
cd "$out"
ASAN_OPTIONS=detect_leaks=0 ./svg-fuzzer -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512 \
  -timeout=20 -detect_leaks=0 -print_final_stats=1 svg-corpus ../Tools/fuzz/svg/corpus
