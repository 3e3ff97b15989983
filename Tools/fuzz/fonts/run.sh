#!/usr/bin/env bash
# Builds the libFuzzer target over font loading and shaping (FontFuzz.swift compiled with
# PenumbraText's sources, both instrumented: -sanitize=fuzzer,address) and, given a number of
# seconds, runs it over the committed corpus; it fails on any crash. Leak detection is off: the
# font caches and fontconfig's configuration live as long as the process, by design.
#   Tools/fuzz/fonts/run.sh            # build .build-fuzz/font-fuzzer
#   Tools/fuzz/fonts/run.sh 60         # build, then fuzz for 60 seconds
# PenumbraModel comes from the instrumented release build in .build-fuzz that the other Swift
# targets share (Tools/fuzz/requests/run.sh and the rest), not from a build of its own.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source Tools/fuzz/swift-objects.sh
out=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link,address)
swift build --build-path "$out" -c release --target PenumbraModel "${flags[@]}"
bin="$out/release"
# PenumbraText's sources and the target use PenumbraModel's `package` declarations: compile them
# with the package name SwiftPM gave PenumbraModel (the clone folder's name, normalised).
package_name=$(grep '"-module-name","PenumbraModel"' "$out/release.yaml" | grep -o '"-package-name","[^"]*"' | head -n 1 | cut -d'"' -f4)
maps=()
for m in CFreeType CHarfBuzz CFontconfig CFriBidi CUnibreak; do maps+=(-Xcc "-fmodule-map-file=Sources/$m/module.modulemap"); done
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FontFuzz -package-name "$package_name" -swift-version 6 \
  Tools/fuzz/fonts/FontFuzz.swift Sources/PenumbraText/*.swift \
  -I "$bin/Modules" -I "$bin" "${maps[@]}" \
  $(pkg-config --cflags-only-I freetype2 harfbuzz fribidi | sed 's/-I/-Xcc -I/g') \
  $(swift_objects "$bin" PenumbraModel) "$bin"/CPNG.build/*.o \
  -lpng16 -lz -ldeflate -lfreetype -lharfbuzz -lfontconfig -lfribidi -lunibreak \
  -o "$out/font-fuzzer" 2>&1 | { grep -v "Cannot export local symbol" || true; }
echo "built $out/font-fuzzer"
if [ $# -gt 0 ] && [ "$1" != build ]; then
  work="$out/font-corpus"
  mkdir -p "$work"
  ASAN_OPTIONS=detect_leaks=0 "$out/font-fuzzer" -max_total_time="$1" -max_len=65536 -rss_limit_mb=4096 -timeout=20 -detect_leaks=0 "$work" Tools/fuzz/fonts/corpus
fi
