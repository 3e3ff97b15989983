#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60), two at a time: a fuzzer is one
# process on one core, so two lanes keep both cores of a CI machine busy, and each target's
# build overlaps the other lane's fuzzing.
#   Tools/fuzz/run-all.sh [SECONDS]
# Each target's output goes to .build-fuzz/logs/NAME.log; this prints the end of each log (the
# whole tail when a target failed) and exits non-zero when any target did. The Swift targets
# share the instrumented build in .build-fuzz; SwiftPM's lock on it orders their builds.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
logs=.build-fuzz/logs
mkdir -p "$logs"

lane() {
  for target in "$@"; do
    local start=$SECONDS
    if Tools/fuzz/"$target"/run.sh "$seconds" > "$logs/$target.log" 2>&1; then
      echo "fuzz $target: passed ($((SECONDS - start)) s with its build)" >> "$logs/$target.log"
    else
      echo "fuzz $target: FAILED with status $? ($((SECONDS - start)) s)" >> "$logs/$target.log"
    fi
  done
}

lane requests scenes &
first=$!
lane images fonts svg &
second=$!
wait "$first" "$second"

failed=0
for target in images requests scenes fonts svg; do
  log="$logs/$target.log"
  if [ -f "$log" ] && tail -n 1 "$log" | grep -q "^fuzz $target: passed"; then
    echo "== $target"
    grep -E "^(Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" || true
    tail -n 1 "$log"
  else
    failed=1
    echo "== $target: failed; the end of $log:"
    tail -n 80 "$log" 2>/dev/null || echo "(no log)"
  fi
done
exit "$failed"
