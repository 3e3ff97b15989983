#!/usr/bin/env bash
# Load and soak benchmarks of `penumbra serve` (not tests). Loopback only: the server listens on
# 127.0.0.1 and wrk targets 127.0.0.1; every run is bounded by time (-d) and the soak also by
# count (STOP_AFTER). Needs `wrk` (apt-get install wrk) and a release build:
#   swift build -c release --product penumbra && Tools/bench/server-load.sh [SECONDS] [SOAK_REQUESTS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-15}"
soak="${2:-100000}"
port=18080
bin=.build/release/penumbra
lua=Tools/bench/post-scene.lua
[ -x "$bin" ] || { echo "build first: swift build -c release --product penumbra" >&2; exit 2; }
command -v wrk >/dev/null || { echo "install wrk: apt-get install wrk" >&2; exit 2; }

server_pid=""
start_server() { # extra flags...
  "$bin" serve --host 127.0.0.1 --port "$port" --backend cpu --workers "$(nproc)" --queue 256 \
    --assets Examples "$@" 2>/tmp/penumbra-serve-bench.log &
  server_pid=$!
  for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return; sleep 0.05; done
  echo "the server did not become ready" >&2; exit 1
}
stop_server() { [ -n "$server_pid" ] && kill -TERM "$server_pid" && wait "$server_pid" || true; server_pid=""; }
trap stop_server EXIT
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$server_pid/status"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "== in-process (penumbra bench, CPU, render + PNG) =="
"$bin" bench Examples/hypnosis.json Examples/decorator.json Examples/card.json --backend cpu --seconds 5 --json || true

if [ -z "${SKIP_LOAD:-}" ]; then
echo "== load: cache off, every request renders =="
start_server --cache-bytes 0
for scene in hypnosis decorator card; do
  for c in 1 2 8; do
    echo "-- $scene, $c connection(s), ${seconds}s"
    SCENES="Examples/$scene.json" wrk -t1 -c"$c" -d"${seconds}s" --timeout 30s -s "$lua" "http://127.0.0.1:$port"
  done
done
stop_server
fi

echo "== soak: $soak requests (small scenes and a rejected one, cache off) =="
start_server --cache-bytes 0
printf '%s' '{"format":"penumbra-scene","version":1,"size":[64,48],"background":"#FFFFFF","ops":[{"op":"setFillColor","color":"#2050C0"},{"op":"fill","path":"M 5 5 L 50 5 L 50 40 L 5 40 Z"}]}' > /tmp/penumbra-soak-small.json
printf '%s' '{"format":"penumbra-scene","version":1,"size":[64,48],"ops":[{"op":"bogus"}]}' > /tmp/penumbra-soak-bad.json
soak_scenes="/tmp/penumbra-soak-small.json:Examples/star.json:/tmp/penumbra-soak-bad.json"
echo "rss_start_kb $(rss_kb)"
SCENES="$soak_scenes" STOP_AFTER=1000 wrk -t1 -c8 -d120s -s "$lua" "http://127.0.0.1:$port"
echo "rss_after_1000_kb $(rss_kb)"
start=$(date +%s.%N)
SCENES="$soak_scenes" STOP_AFTER=$((soak - 1000)) wrk -t1 -c8 -d1200s -s "$lua" "http://127.0.0.1:$port"
echo "soak_seconds $(echo "$(date +%s.%N) - $start" | bc)"
echo "rss_end_kb $(rss_kb)"
curl -s "http://127.0.0.1:$port/metrics" | grep -E '^penumbra_http_requests_total|^process_resident|^penumbra_heap' || true
stop_server
