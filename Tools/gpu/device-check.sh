#!/usr/bin/env bash
# Penumbra's one-shot check on an NVIDIA GPU host (no Swift toolchain, no network).
# Run from the repository root:  bash .gpu/device-check.sh
# Needs .gl/ (Debian bookworm .debs of the shared libraries) and .gpu/ (setup.sh, pen-bin.tar.xz,
# pen-fonts.tar.xz) beside the tracked tree. Everything is unpacked into
# $PEN_PREFIX (default /opt/pen) and .gpu/, never over /.
# Proves: EGL_EXT_platform_device gives a hardware GLES 3.2 context on NVIDIA's driver (eglprobe and
# penumbra's own EGL path), parity (byte identity CPU vs GPU) over Examples/*.json, the XCTest GPU
# suites and the differential fuzzer (PENUMBRA_FUZZ_SCENES, default 5000), then a short bench.
# Output: everything to stdout and $OUT/device-check.log; $OUT/bench.json; $OUT/parity-report.tar
# (the parity command's images and index.html); $OUT/test-failures.tar.gz when a test wrote images.
# Steps have timeouts inside a total budget (PEN_BUDGET_S, default 360 s); the summary at the end
# gives each step's status and time. Exit status: 0 when every step passed, 1 otherwise.
OUT=${OUT:-/tmp/pen-device-out}
mkdir -p "$OUT"
if [ -z "${PEN_TEED:-}" ]; then # one combined log, written as it goes
  PEN_TEED=1 bash "$0" "$@" 2>&1 | tee "$OUT/device-check.log"
  exit "${PIPESTATUS[0]}"
fi
set -u
cd "$(dirname "$0")/.." || exit 1
export PEN_PREFIX=${PEN_PREFIX:-/opt/pen}
BUDGET=${PEN_BUDGET_S:-360}
FUZZ=${PENUMBRA_FUZZ_SCENES:-5000}
T0=$(date +%s)
SUMMARY=()
FAILED=0

hr() { printf '\n===== %s  (t=%ss)\n' "$*" "$(( $(date +%s) - T0 ))"; }
# step NAME MAX_SECONDS CMD...: runs CMD under timeout (the smaller of MAX and what the budget has left).
step() {
  local name=$1 max=$2; shift 2
  local left=$(( BUDGET - ($(date +%s) - T0) ))
  local limit=$(( max < left ? max : left ))
  hr "$name (timeout ${limit}s)"
  if [ "$limit" -lt 5 ]; then SUMMARY+=("$(printf '%-22s %-8s %5ss' "$name" SKIPPED 0)"); FAILED=1; echo "skipped: budget spent"; return 1; fi
  local s=$(date +%s) rc
  if declare -F "$1" >/dev/null; then timeout -k 10 "$limit" bash -c '"$@"' _ "$@"; rc=$? # an exported function
  else timeout -k 10 "$limit" "$@"; rc=$?; fi
  local d=$(( $(date +%s) - s )) status=PASS
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then status=TIMEOUT; elif [ $rc -ne 0 ]; then status="FAIL($rc)"; fi
  [ "$status" = PASS ] || FAILED=1
  SUMMARY+=("$(printf '%-22s %-8s %5ss' "$name" "$status" "$d")")
  echo "----- $name: $status in ${d}s"
  return $rc
}

hr "host"
date -u; uname -a
grep -E '^(PRETTY_NAME|VERSION_ID)=' /etc/os-release 2>/dev/null
ldd --version 2>&1 | head -1
nvidia-smi -L || echo "nvidia-smi -L failed"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>/dev/null
nproc; free -g | head -2
git log -1 --format='checkout: commit %H %s' 2>/dev/null || true
sed -n 2p .gpu/MANIFEST.txt 2>/dev/null # the commit the binaries were built from
ls -la .gl .gpu

hr "set-up (into $PEN_PREFIX)"
s=$(date +%s)
# shellcheck source=/dev/null
if source .gpu/setup.sh; then SUMMARY+=("$(printf '%-22s %-8s %5ss' set-up PASS $(( $(date +%s) - s )))")
else SUMMARY+=("$(printf '%-22s %-8s %5ss' set-up FAIL $(( $(date +%s) - s )))"); FAILED=1; fi
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
echo "FONTCONFIG_FILE=${FONTCONFIG_FILE:-}"
echo "__EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-(not set: no NVIDIA vendor file found)}"
[ -n "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && cat "$__EGL_VENDOR_LIBRARY_FILENAMES"
echo "NVIDIA EGL/GLES libraries:"
{ ls /usr/local/nvidia/lib64/ /usr/local/nvidia/lib/ 2>/dev/null; ldconfig -p 2>/dev/null | awk '{print $1}'; } \
  | grep -E 'libEGL_nvidia|libGLESv2_nvidia|libnvidia-eglcore|libnvidia-glsi' | sort -u
TESTS="$PEN_PREFIX/tests/PenumbraPackageTests.xctest"
PEN_TEST_LIBS=${PEN_TEST_LIBS:-$LD_LIBRARY_PATH}

# Every library resolved (prefix first); an unresolved one or a missing symbol version is a failure.
libcheck() {
  local bad=0 f out
  for f in .gpu/penumbra .gpu/eglprobe "$TESTS"; do
    [ -f "$f" ] || continue
    if [ "$f" = "$TESTS" ]; then out=$(LD_LIBRARY_PATH=$PEN_TEST_LIBS ldd "$f" 2>&1); else out=$(ldd "$f" 2>&1); fi
    echo "$f:"; echo "$out" | sed 's/ (0x[0-9a-f]*)//' | sed 's/^/  /'
    if echo "$out" | grep -qE 'not found|version .* not found'; then bad=1; fi
  done
  .gpu/penumbra --help >/dev/null || bad=1
  return $bad
}
export TESTS PEN_TEST_LIBS; export -f libcheck
step libraries 30 libcheck

# The device platform by hand: every EGL device, a GLES 3.2 context on each, GL_RENDERER.
step eglprobe 45 .gpu/eglprobe

# penumbra's own path: auto takes a GPU only when it is hardware (it refuses software rasterizers), so
# "auto: rendering on the GPU (...)" is the proof. PEN_EXPECT_HARDWARE=0 accepts the CPU (llvmpipe hosts).
render_auto() {
  local out rc
  out=$(.gpu/penumbra render Examples/typography.json -o /tmp/pen-typography.png --backend auto --verbose 2>&1); rc=$?
  echo "$out"
  [ $rc -eq 0 ] || return $rc
  if ! echo "$out" | grep -q 'auto: rendering on the GPU'; then
    echo "auto did not take a hardware GPU"; [ "${PEN_EXPECT_HARDWARE:-1}" = 0 ] || return 1
  fi
}
export -f render_auto
step render-auto 45 render_auto
step render-gpu 45 .gpu/penumbra render Examples/typography.json -o /tmp/pen-typography-gpu.png --backend gpu --verbose

# Parity over every example: byte identity, one line per scene, with the GL_RENDERER in the report.
rm -rf /tmp/parity
step parity-examples 120 .gpu/penumbra parity Examples/*.json --report /tmp/parity
if [ -f /tmp/parity/index.html ]; then
  grep -o 'renderer: <code>[^<]*' /tmp/parity/index.html | sed 's/<code>//'
  tar -cf "$OUT/parity-report.tar" -C /tmp parity && echo "report: $OUT/parity-report.tar"
fi

# Throughput, both backends, a fixed number of runs.
step bench 120 sh -c '.gpu/penumbra bench Examples/decorator.json Examples/card.json Examples/hypnosis.json --backend both --json --runs 20 > "$1"' _ "$OUT/bench.json"
if [ -s "$OUT/bench.json" ] && command -v python3 >/dev/null; then
  python3 - "$OUT/bench.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("floor_ms %.3f" % r["floor_ms"])
for x in r["results"]:
    print("%-26s %-4s %-44s render median %8.2f ms  %8.1f scenes/s  pipelined %8.1f/s  %dx%d" % (
        x["scene"], x["backend"], x["renderer"][:44], x["render_ms"]["median"], x["scenes_per_second"],
        x["pipelined_scenes_per_second"], x["width"], x["height"]))
PY
fi

if [ -x "$TESTS" ]; then
  # GPUTestSupport finds Examples/ through the source path compiled in (#filePath, the build's checkout,
  # in tests/source-root.txt): point that path at this checkout.
  root=$(cat "$PEN_PREFIX/tests/source-root.txt" 2>/dev/null || echo /work/wt-gpu)
  if [ "$(cd "$root" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
    if [ -e "$root" ] && [ ! -L "$root" ]; then echo "warning: $root exists; the example tests will not find Examples/"
    else mkdir -p "$(dirname "$root")" && ln -sfn "$(pwd -P)" "$root" && echo "linked $root -> $(pwd -P)"; fi
  fi
  rm -rf test-output
  classes=$(LD_LIBRARY_PATH=$PEN_TEST_LIBS "$TESTS" --list-tests 2>/dev/null | grep -o '^PenumbraGPUTests\.[A-Za-z0-9_]*' | sort -u \
            | grep -v DifferentialFuzzTests | paste -sd, -)
  echo "GPU test classes: $classes"
  # CI=true: no EGL context fails the tests instead of skipping them.
  step xctest-gpu 150 env LD_LIBRARY_PATH="$PEN_TEST_LIBS" CI=true "$TESTS" "${classes:-PenumbraGPUTests}"
  step "xctest-fuzz-$FUZZ" 240 env LD_LIBRARY_PATH="$PEN_TEST_LIBS" CI=true PENUMBRA_FUZZ_SCENES="$FUZZ" \
    "$TESTS" PenumbraGPUTests.DifferentialFuzzTests
  if [ -d test-output ]; then tar -czf "$OUT/test-failures.tar.gz" test-output && ls -la "$OUT/test-failures.tar.gz"; fi
else
  echo "no test bundle ($TESTS): XCTest steps skipped"
fi

hr "summary"
printf '%s\n' "${SUMMARY[@]}"
nvidia-smi -L 2>/dev/null | head -1
grep -h -o 'GL_RENDERER: .*' "$OUT/device-check.log" 2>/dev/null | sort -u
grep -h -E '^(fuzz: |[0-9]+ passed, [0-9]+ failed)' "$OUT/device-check.log" 2>/dev/null
echo "total $(( $(date +%s) - T0 ))s; $([ $FAILED = 0 ] && echo 'ALL PASSED' || echo 'SOMETHING FAILED')"
exit $FAILED
