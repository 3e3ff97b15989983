#!/usr/bin/env python3
"""Writes the scenes that draw the example images (mars, note chrome, icon). Render them with
images/render.sh: the example images are drawn by Penumbra itself, nothing is downloaded."""
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tools"))
from format_scene import write  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
scene = lambda size, ops, **kw: {"format": "penumbra-scene", "version": 1, "size": size, **kw, "ops": ops}

# mars: a 512x512 opaque "photo": a planet with craters on a starry sky.
rng = random.Random(7)
ops = []
for _ in range(60):
    x, y, r = rng.uniform(0, 512), rng.uniform(0, 512), rng.uniform(0.6, 1.8)
    ops += [{"op": "setFillColor", "color": [1, 1, 1, round(rng.uniform(0.4, 1), 3)]},
            {"op": "fill", "path": {"ellipse": [round(x - r, 2), round(y - r, 2), round(2 * r, 2), round(2 * r, 2)]}}]
ops += [{"op": "save"}, {"op": "clip", "path": {"ellipse": [36, 36, 440, 440]}},
        {"op": "radialGradient", "startCenter": [190, 180], "startRadius": 8, "endCenter": [256, 256], "endRadius": 232,
         "stops": [[0, "#F6B26B"], [0.45, "#C1440E"], [1, "#4A1403"]]}]
for _ in range(14):
    x, y, r = rng.uniform(90, 420), rng.uniform(90, 420), rng.uniform(6, 30)
    ops += [{"op": "setFillColor", "color": [0.25, 0.06, 0.01, 0.35]},
            {"op": "fill", "path": {"ellipse": [round(x - r, 2), round(y - r * 0.8, 2), round(2 * r, 2), round(1.6 * r, 2)]}},
            {"op": "setStrokeColor", "color": [1, 0.8, 0.6, 0.25]}, {"op": "setLineWidth", "width": 1.5},
            {"op": "stroke", "path": {"arc": {"center": [round(x, 2), round(y, 2)], "radius": round(r, 2), "start": 3.5, "end": 5.8}}}]
ops += [{"op": "restore"}]
write(os.path.join(here, "mars.scene.json"), scene([512, 512], ops, background="#101028"))

# note chrome @2x: a rounded note with a 37 pt header band and 12 pt borders (cap insets 37, 12, 12, 12).
ops = [{"op": "save"}, {"op": "clip", "path": {"roundedRect": [1, 1, 58, 78], "radius": 9}},
       {"op": "setFillColor", "color": "#FFF59D"}, {"op": "fill", "path": {"rect": [0, 0, 60, 80]}},
       {"op": "linearGradient", "start": [0, 0], "end": [0, 37], "stops": [[0, "#FBC02D"], [1, "#F57F17"]], "extend": [True, False]},
       {"op": "setStrokeColor", "color": "#FFFFFF80"}, {"op": "setLineWidth", "width": 1},
       {"op": "stroke", "path": "M 12 50 H 48 M 12 58 H 48 M 12 66 H 48"},
       {"op": "restore"}, {"op": "setStrokeColor", "color": "#8D6E00"}, {"op": "setLineWidth", "width": 2},
       {"op": "stroke", "path": {"roundedRect": [1, 1, 58, 78], "radius": 9}}]
write(os.path.join(here, "note@2x.scene.json"), scene([60, 80], ops, scale=2))

# icon: a gear-like glyph whose colour does not matter (drawn as a template it is all alpha).
pts = []
for i in range(24):
    a = i * 2 * math.pi / 24
    r = 30 if (i // 2) % 2 == 0 else 23
    pts.append(f"{32 + r * math.cos(a):.3f} {32 + r * math.sin(a):.3f}")
gear = "M " + " L ".join(pts) + " Z M 42 32 A 10 10 0 1 0 22 32 A 10 10 0 1 0 42 32 Z"
ops = [{"op": "setFillColor", "color": "#3366CC"}, {"op": "fill", "path": gear, "rule": "evenodd"},
       {"op": "setFillColor", "color": "#3366CC80"}, {"op": "fill", "path": {"ellipse": [28, 28, 8, 8]}}]
write(os.path.join(here, "icon.scene.json"), scene([64, 64], ops))
