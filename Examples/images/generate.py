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

# rocks @1x and @2x: the seed's rock tile, one scene drawn at two scales (rocks.png, rocks@2x.png),
# a named image in Examples/rocks-collage.json.
rng = random.Random(11)
ops = [{"op": "setFillColor", "color": "#8D8D7A"}, {"op": "fill", "path": {"roundedRect": [0, 0, 48, 48], "radius": 8}}]
for _ in range(9):
    x, y, r = rng.uniform(6, 42), rng.uniform(6, 42), rng.uniform(4, 10)
    shade = round(rng.uniform(0.35, 0.6), 3)
    ops += [{"op": "setFillColor", "color": [shade, shade, round(shade * 0.9, 3), 1]},
            {"op": "fill", "path": {"ellipse": [round(x - r, 2), round(y - r * 0.7, 2), round(2 * r, 2), round(1.4 * r, 2)]}},
            {"op": "setStrokeColor", "color": "#FFFFFF55"}, {"op": "setLineWidth", "width": 1},
            {"op": "stroke", "path": {"arc": {"center": [round(x, 2), round(y, 2)], "radius": round(r * 0.6, 2), "start": 3.6, "end": 5.2}}}]
write(os.path.join(here, "rocks.scene.json"), scene([48, 48], ops))
write(os.path.join(here, "rocks@2x.scene.json"), scene([48, 48], ops, scale=2))

# explosion1 ... explosion8: the seed's explosion animation (animatedImageNamed:duration:), a
# fireball that grows and fades, as explosion%d.png.
for i in range(1, 9):
    t = i / 8
    r = 6 + 26 * t
    ops = [{"op": "setShadow", "offset": [0, 0], "blur": round(4 + 10 * t, 2), "color": [1, 0.5, 0, round(1 - t * 0.8, 3)]},
           {"op": "radialGradient", "startCenter": [32, 32], "startRadius": 0, "endCenter": [32, 32], "endRadius": round(r, 2),
            "stops": [[0, [1, 1, 0.8, round(1 - t * 0.6, 3)]], [0.5, [1, 0.55, 0, round(1 - t * 0.7, 3)]], [1, [0.6, 0.1, 0, 0]]],
            "extend": [True, False]}]
    for k in range(6):
        a = k * math.pi / 3 + t
        ops += [{"op": "setFillColor", "color": [0.3, 0.3, 0.3, round(0.8 * (1 - t), 3)]},
                {"op": "fill", "path": {"ellipse": [round(32 + math.cos(a) * r * 0.9 - 3, 2), round(32 + math.sin(a) * r * 0.9 - 3, 2), 6, 6]}}]
    write(os.path.join(here, f"explosion{i}.scene.json"), scene([64, 64], ops))

# photo: a 1600 x 1200 "photo" (a landscape with fine detail that aliases when drawn small),
# written as photo.jpg by render.sh, which stores it turned and tags it EXIF orientation 6
# (the camera was held upright: the stored pixels are 1200 x 1600, turned back on load).
rng = random.Random(3)
ops = [{"op": "linearGradient", "start": [0, 0], "end": [0, 700], "stops": [[0, "#4A90D9"], [1, "#CFE8FF"]]},
       {"op": "setFillColor", "color": "#3B6E2B"}, {"op": "fill", "path": "M 0 700 L 300 520 L 650 690 L 1000 480 L 1600 720 L 1600 1200 L 0 1200 Z"}]
for i in range(0, 1600, 6):  # a picket fence of thin lines: moire when sampled without filtering
    ops += [{"op": "setStrokeColor", "color": "#F5F5DC"}, {"op": "setLineWidth", "width": 2},
            {"op": "stroke", "path": f"M {i + 1} 900 L {i + 1} 1100"}] if i % 12 == 0 else []
ops += [{"op": "setStrokeColor", "color": "#5B3A1E"}, {"op": "setLineWidth", "width": 3}, {"op": "stroke", "path": "M 0 960 H 1600 M 0 1040 H 1600"}]
for _ in range(40):
    x, y, r = rng.uniform(0, 1600), rng.uniform(740, 880), rng.uniform(10, 40)
    ops += [{"op": "setFillColor", "color": [0.1, round(rng.uniform(0.3, 0.5), 3), 0.1, 1]},
            {"op": "fill", "path": {"ellipse": [round(x - r, 1), round(y - r, 1), round(2 * r, 1), round(2 * r, 1)]}}]
ops += [{"op": "setFillColor", "color": "#FFF4B0"}, {"op": "fill", "path": {"ellipse": [1240, 90, 160, 160]}}]
# Stored turned: the upright 1600 x 1200 picture drawn rotated 90 degrees anticlockwise into 1200 x 1600.
ops = [{"op": "translate", "x": 0, "y": 1600}, {"op": "rotate", "angle": -math.pi / 2}] + ops
write(os.path.join(here, "photo.scene.json"), scene([1200, 1600], ops, background="#FFFFFF"))
