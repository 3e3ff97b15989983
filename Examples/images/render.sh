#!/usr/bin/env bash
# Renders the example images from their scenes (generate.py writes the scenes) with Penumbra itself.
# photo.scene.json becomes photo.jpg, tagged with EXIF orientation 6 by exif_orient.py.
set -euo pipefail
cd "$(dirname "$0")"
python3 generate.py
for s in *.scene.json; do
  name="${s%.scene.json}"
  if [ "$name" = photo ]; then
    swift run -c release penumbra render "$s" -o photo.jpg --backend cpu --quality 88
    python3 exif_orient.py photo.jpg 6
  else
    swift run -c release penumbra render "$s" -o "$name.png" --backend cpu
  fi
done
