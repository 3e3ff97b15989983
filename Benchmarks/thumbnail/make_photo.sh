#!/usr/bin/env bash
# Makes photo.jpg, the thumbnail benchmark's 4000 x 3000 JPEG (quality 90, 4:2:0, no orientation
# tag), with Penumbra itself: the example photo's scene drawn upright at scale 2.5. The file is
# not committed (about 1 MB); `penumbra bench --thumbnail Benchmarks/thumbnail/thumbnail.json`
# and peers.py read it.
set -euo pipefail
cd "$(dirname "$0")"
python3 - <<'PY'
import json
scene = json.load(open("../../Examples/images/photo.scene.json"))
scene["size"] = [1600, 1200]
scene["ops"] = scene["ops"][2:]  # drop the turn that stores the example photo sideways
json.dump(scene, open("photo.scene.json", "w"))
PY
"${PENUMBRA:-swift run -c release penumbra}" render photo.scene.json -o photo.jpg --scale 2.5 --backend cpu --quality 90
rm photo.scene.json
