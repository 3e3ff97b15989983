#!/usr/bin/env bash
# Renders the example images from their scenes (generate.py writes the scenes) with Penumbra itself.
set -euo pipefail
cd "$(dirname "$0")"
python3 generate.py
for s in *.scene.json; do
  swift run -c release penumbra render "$s" -o "${s%.scene.json}.png" --backend cpu
done
