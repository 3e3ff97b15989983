#!/usr/bin/env bash
# Checks a running `penumbra serve` against its contract, docs/openapi.yaml, with schemathesis
# (https://schemathesis.readthedocs.io, PyPI `schemathesis`, version 4):
#
#   Tools/openapi/check.sh [PENUMBRA_BINARY]      (default .build/debug/penumbra)
#
# It starts the server on 127.0.0.1 (a free port, the CPU backend, 2 workers, a 2 s deadline,
# small canvases, the test signing key Tools/openapi/signing.key, which signed the example URL of
# the spec), waits for /readyz, and runs every phase of schemathesis (the spec's examples,
# coverage of every parameter and schema boundary, positive and negative; then random fuzzing)
# against the five operations, with the checks of Tools/openapi/schemathesis.toml: no 500, and
# every status, media type, header and JSON body as the spec declares it. Tools/openapi/hooks.py
# makes generated scenes small enough to render, checks image bodies, and drops the known
# findings it lists. Then it checks that the server is still alive and serving, logged no
# unexpected error (500), and drains to exit status 0 on SIGTERM. Last, Tools/openapi/statuses.py
# makes the statuses no generated case reaches (a signed URL's 200, 304 and 410; 408, 413, 429,
# 504, ...) on a server of its own and checks them the same way. The last line says
# `N passed, N failed`: the operations under schemathesis, the server that took their cases, and
# statuses.py's requests; the status is non-zero on any failure.
#
# Environment: PENUMBRA_OPENAPI_EXAMPLES (fuzzing cases per operation, default 100),
# PENUMBRA_OPENAPI_SPEC (another copy of the spec to check against; default docs/openapi.yaml),
# PENUMBRA_OPENAPI_SEED (default 1: the same cases every run; `random` for a new seed each run),
# PENUMBRA_OPENAPI_REPORT (a folder to keep the server log and schemathesis's JSON and HAR reports in).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# Paths the caller gave are the caller's: absolute before moving to the repository's root.
binary=$(realpath -m "${1:-$root/.build/debug/penumbra}")
spec=$(realpath -m "${PENUMBRA_OPENAPI_SPEC:-$root/docs/openapi.yaml}")
report=${PENUMBRA_OPENAPI_REPORT:+$(realpath -m "$PENUMBRA_OPENAPI_REPORT")}
examples=${PENUMBRA_OPENAPI_EXAMPLES:-100}
seed=${PENUMBRA_OPENAPI_SEED:-1}
cd "$root"
seeding=(--seed "$seed")
[ "$seed" = random ] && seeding=()
[ -x "$binary" ] || { echo "openapi: $binary is not an executable (swift build --product penumbra)" >&2; exit 2; }

# schemathesis 4 (the CLI options and schemathesis.toml below are version 4's); pip, else pip with
# --break-system-packages where the system Python refuses (and, in CI, Debian's pip where none is).
requirement='schemathesis>=4.32,<5'
if ! python3 - <<'EOF' 2>/dev/null
import schemathesis, sys
major, minor = (int(x) for x in schemathesis.__version__.split(".")[:2])
sys.exit(0 if (major, minor) >= (4, 32) and major < 5 else 1)
EOF
then
  echo "openapi: installing $requirement"
  if ! python3 -m pip --version >/dev/null 2>&1 && [ "${CI:-}" = true ] && command -v apt-get >/dev/null; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip
  fi
  python3 -m pip install -q "$requirement" || python3 -m pip install -q --break-system-packages "$requirement"
fi
schemathesis=(python3 -m schemathesis.cli)  # not the `schemathesis` script, which pip may put off PATH

work=$(mktemp -d)
export HYPOTHESIS_STORAGE_DIRECTORY="$work/hypothesis"  # not .hypothesis/ in the working tree
server=
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ -n "$report" ]; then mkdir -p "$report" && cp -R "$work"/. "$report"/; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The server: the scene limits keep a generated scene's render small (1 Mpx, 64 MiB).
"$binary" serve --host 127.0.0.1 --port 0 --backend cpu --workers 2 --timeout-ms 2000 \
  --signing-key-file Tools/openapi/signing.key --max-pixels 1048576 --max-render-bytes 67108864 \
  --drain-seconds 2 2> "$work/server.log" &
server=$!

# Its port, from the `listening` log line; then /readyz.
port=
for _ in $(seq 1 300); do
  port=$(sed -n 's/.*"message":"listening".*"port":"\([0-9]*\)".*/\1/p' "$work/server.log" | head -n 1)
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; echo "openapi: the server did not start" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.log" >&2; echo "openapi: no listening line in 30 s" >&2; exit 1; }
url="http://127.0.0.1:$port"
get() { python3 -c 'import sys, urllib.request
try: print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
except Exception as e: print(getattr(e, "code", 0))' "$1"; }
for _ in $(seq 1 300); do [ "$(get "$url/readyz")" = 200 ] && break; sleep 0.1; done
[ "$(get "$url/readyz")" = 200 ] || { echo "openapi: $url/readyz is not 200 after 30 s" >&2; exit 1; }
echo "openapi: penumbra serve ready at $url"

# The run: at most 150 s whatever happens, so that the whole check stays under 3 minutes.
started=$(date +%s)
status=0
timeout 150 "${schemathesis[@]}" --config-file Tools/openapi/schemathesis.toml run "$spec" \
  --url "$url" --max-examples "$examples" "${seeding[@]}" --generation-database none \
  --continue-on-failure --request-timeout 10 --no-color \
  --report json,har --report-dir "$work" --report-json-path "$work/schemathesis.json" \
  --report-har-path "$work/schemathesis.har.json" || status=$?
echo "openapi: schemathesis exited $status after $(( $(date +%s) - started )) s"

# The server must still serve, have logged no unexpected error, and drain to exit 0 on SIGTERM.
problems=()
exit_status=0
if kill -0 "$server" 2>/dev/null; then
  [ "$(get "$url/healthz")" = 200 ] || problems+=("the server no longer answers /healthz")
  kill -TERM "$server"
  wait "$server" || exit_status=$?
  [ "$exit_status" = 0 ] || problems+=("the server exited $exit_status after SIGTERM, not 0")
else
  wait "$server" || exit_status=$?
  problems+=("the server died during the run (exit status $exit_status); the request is among the last of the HAR report")
  { grep -E 'Program crashed|Fatal error' "$work/server.log"; grep -A 10 'crashed:$' "$work/server.log"; } | head -n 20 >&2 || true
fi
server=
if grep -q '"unexpected error"' "$work/server.log"; then
  problems+=("the server logged unexpected errors (500)")
  grep '"unexpected error"' "$work/server.log" | head -n 5 >&2
fi

# The summary, by operation, from schemathesis's JSON report.
summary=$(python3 - "$work/schemathesis.json" <<'EOF'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    print("0 0 0 0 0"); sys.exit()
failed = {op for failure in report.get("failures", []) for op in failure.get("operations", [])}
# Errors (the server went away, a request timed out) do not always name their operation: count one.
errored = max(report["operations"].get("errored", 0), 1 if report.get("errors") and not failed else 0)
tested = report["operations"]["tested"]
print(max(tested - len(failed) - errored, 0), len(failed) + errored, report["test_cases"]["generated"],
      report.get("filtered", 0), report["operations"]["selected"] - tested)
EOF
)
read -r passed failed cases filtered untested _ <<<"$summary"
echo "openapi: $cases cases; $filtered failures of known findings dropped (Tools/openapi/hooks.py); $untested operations untested"
for problem in "${problems[@]}"; do echo "openapi: $problem" >&2; done
# The server that took the cases counts as one more: it died, logged a 500 or did not drain.
[ ${#problems[@]} -gt 0 ] && failed=$((failed + 1))
[ "$status" != 0 ] && [ "$failed" = 0 ] && failed=1  # schemathesis failed without naming an operation
[ "$untested" != 0 ] && failed=$((failed + untested))

# The statuses no generated case reaches (413, 408, 429, 504, 410, signed 200 and 304, ...), on a
# server of their own; its last line is `N passed, N failed` too.
PENUMBRA_OPENAPI_SPEC="$spec" python3 Tools/openapi/statuses.py "$binary" | tee "$work/statuses.log" || true
more_passed= more_failed=
read -r more_passed _ more_failed _ < <(tail -n 1 "$work/statuses.log" | tr -d ,) || true
[[ "$more_passed" =~ ^[0-9]+$ && "$more_failed" =~ ^[0-9]+$ ]] || { more_passed=0; more_failed=1; }

echo "$((passed + more_passed)) passed, $((failed + more_failed)) failed"
[ $((failed + more_failed)) = 0 ]
