#!/usr/bin/env bash
# Builds and runs the libFuzzer target over request parsing (JSON and multipart into a scene).
#   Tools/fuzz/requests/run.sh [SECONDS]   (default 60; `build` builds and stops)
# Builds PenumbraRequests and what it needs into .build-fuzz with -sanitize=fuzzer,address, links
# Tools/fuzz/requests/RequestFuzzer.swift against it, and fuzzes from Tools/fuzz/requests/corpus (new inputs go to
# .build-fuzz/corpus, so the committed corpus only changes by hand). Exits non-zero on a crash,
# leaving the crashing input in .build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source Tools/fuzz/swift-objects.sh
seconds="${1:-60}"
out=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=fuzzer-no-link,address)
swift build --build-path "$out" -c release --target PenumbraRequests "${flags[@]}"
bin="$out/release"
objects=($(swift_objects "$bin" PenumbraRequests PenumbraCore PenumbraModel) "$bin"/CPNG.build/*.o)
swiftc -O -sanitize=fuzzer,address -parse-as-library Tools/fuzz/requests/RequestFuzzer.swift \
  -I "$bin/Modules" -I "$bin" -Xcc -fmodule-map-file=Sources/CLibPNG/module.modulemap \
  -Xcc -fmodule-map-file="$bin/CPNG.build/module.modulemap" -Xcc -ISources/CPNG/include \
  "${objects[@]}" $(pkg-config --libs libpng) -lz -ldeflate -o "$out/request-fuzzer"
[ "$seconds" = build ] && { echo "built $out/request-fuzzer"; exit 0; }
mkdir -p "$out/corpus"
cd "$out"
./request-fuzzer -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -print_final_stats=1 corpus ../Tools/fuzz/requests/corpus
