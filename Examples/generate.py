#!/usr/bin/env python3
"""Writes the example scenes of Examples/ (run from anywhere). The scenes are data; this script is
only how they were made, kept so that a change to one is a change to its generator."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tools"))
from format_scene import write  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))


def scene(name, size, ops, **kw):
    write(os.path.join(here, name + ".json"), {"format": "penumbra-scene", "version": 1, "size": size, **kw, "ops": ops})


# hypnosis: the seed's concentric circles (centre of a 1024x1024 canvas, radius from 512 down by
# 20, line width 10, purple) plus the blue oval in (0, 0, 100, 100).
ops = [{"op": "setStrokeColor", "color": [0.5, 0, 0.5, 1]}, {"op": "setLineWidth", "width": 10}]
for r in range(512, 0, -20):
    ops.append({"op": "stroke", "path": {"arc": {"center": [512, 512], "radius": r, "start": 0, "end": 2 * math.pi, "clockwise": True}}})
ops += [{"op": "setFillColor", "color": "#0000FF"}, {"op": "fill", "path": {"ellipse": [0, 0, 100, 100]}}]
scene("hypnosis", [1024, 1024], ops, background="#FFFFFF")

scene("oval", [100, 100], [{"op": "setFillColor", "color": "#0000FF"}, {"op": "fill", "path": {"ellipse": [0, 0, 100, 100]}}],
      scale=2, background="#FFFFFF")


def star(cx, cy, R):
    pts = [(cx + R * math.sin(i * 4 * math.pi / 5), cy - R * math.cos(i * 4 * math.pi / 5)) for i in range(5)]
    return "M " + " L ".join(f"{x:.4f} {y:.4f}" for x, y in pts) + " Z"


scene("star", [420, 220], [
    {"op": "setFillColor", "color": "#E8A317"},
    {"op": "fill", "path": star(110, 115, 100), "rule": "nonzero"},
    {"op": "fill", "path": star(310, 115, 100), "rule": "evenodd"},
    {"op": "setStrokeColor", "color": "#5A3A00"}, {"op": "setLineWidth", "width": 2}, {"op": "setLineJoin", "join": "round"},
    {"op": "stroke", "path": star(110, 115, 100)}, {"op": "stroke", "path": star(310, 115, 100)}], background="#FFFFFF")

# strokes: every cap on an open line, every join on a chevron, a miter limit, dashes on a curve and
# on a closed rounded rect, and a circle smaller than half its line width (a solid disc).
ops = [{"op": "setStrokeColor", "color": "#1F3A93"}, {"op": "setLineWidth", "width": 16}]
for i, cap in enumerate(["butt", "round", "square"]):
    y = 40 + 40 * i
    ops += [{"op": "setLineCap", "cap": cap}, {"op": "stroke", "path": f"M 40 {y} L 200 {y}"}]
ops += [{"op": "setLineCap", "cap": "butt"}]
for i, join in enumerate(["miter", "round", "bevel"]):
    x = 260 + 110 * i
    ops += [{"op": "setLineJoin", "join": join}, {"op": "stroke", "path": f"M {x} 150 L {x + 40} 40 L {x + 80} 150"}]
ops += [{"op": "setLineJoin", "join": "miter"}, {"op": "setMiterLimit", "limit": 2},
        {"op": "stroke", "path": "M 40 260 L 120 200 L 200 260"},
        {"op": "setMiterLimit", "limit": 10},
        {"op": "setStrokeColor", "color": "#C0392B"}, {"op": "setLineWidth", "width": 8}, {"op": "setLineCap", "cap": "round"},
        {"op": "setLineDash", "phase": 0, "lengths": [24, 16, 0, 16]},
        {"op": "stroke", "path": "M 260 260 C 320 180 400 340 460 230 S 560 200 580 260"},
        {"op": "setLineDash", "phase": 10, "lengths": [30, 12]}, {"op": "setLineCap", "cap": "square"}, {"op": "setLineWidth", "width": 6},
        {"op": "stroke", "path": {"roundedRect": [40, 300, 540, 70], "radius": 20}},
        {"op": "setLineDash", "phase": 0, "lengths": []}, {"op": "setStrokeColor", "color": "#27AE60"}, {"op": "setLineWidth", "width": 30},
        {"op": "stroke", "path": {"arc": {"center": [310, 335], "radius": 6, "start": 0, "end": 6.2832}}}]
scene("strokes", [620, 400], ops, background="#FFFFFF")

# --- The drawing model: images, blend modes, shadows, layers, gradients (the seeds' programs) ---
W = 512
rot = -math.pi / 4
c, s = math.cos(rot), math.sin(rot)
# decorator: a shadow (offset (-25, 15), blur 20) around a transform (rotate(-pi/4) concatenated with
# translate(-w/2, h/8)) around a 512x512 image; translated first so that it lands on the canvas.
scene("decorator", [1024, 1024], [
    {"op": "translate", "x": 300, "y": 350},
    {"op": "setShadow", "offset": [-25, 15], "blur": 20},
    {"op": "concat", "matrix": [round(c, 15), round(s, 15), round(-s, 15), round(c, 15), -W / 2, W / 8]},
    {"op": "drawImage", "image": "mars", "rect": [0, 0, W, W]}], background="#FFFFFF", images={"mars": "images/mars.png"})

# rotated-image: the throughput workload W1, the decorator without its shadow: a 512x512 image
# drawn under rotate(-pi/4) + translate into a 1024x1024 canvas, sampled bilinearly.
scene("rotated-image", [1024, 1024], [
    {"op": "translate", "x": 300, "y": 350},
    {"op": "concat", "matrix": [round(c, 15), round(s, 15), round(-s, 15), round(c, 15), -W / 2, W / 8]},
    {"op": "drawImage", "image": "mars", "rect": [0, 0, W, W]}], background="#FFFFFF", images={"mars": "images/mars.png"})

# mars-halves: the image's left and right halves (via crop) drawn apart.
scene("mars-halves", [600, 300], [
    {"op": "drawImage", "image": "mars", "rect": [20, 22, 128, 256], "crop": [0, 0, 256, 512]},
    {"op": "drawImage", "image": "mars", "rect": [452, 22, 128, 256], "crop": [256, 0, 256, 512]}],
    background="#F0F0F0", images={"mars": "images/mars.png"})

# multiply: the image at 2x size, with a 1x copy centred on it in multiply mode.
scene("multiply", [1024, 1024], [
    {"op": "drawImage", "image": "mars", "rect": [0, 0, 1024, 1024]},
    {"op": "drawImage", "image": "mars", "at": [256, 256], "blendMode": "multiply"}], images={"mars": "images/mars.png"})

# note-slices: a nine-slice note chrome (cap insets 37, 12, 12, 12) grown to three sizes, stretched and
# tiled, and shrunk below its caps.
ops = []
for i, (w, h) in enumerate([(90, 110), (160, 200), (240, 300)]):
    x = 20 + sum(a + 20 for a, _ in [(90, 110), (160, 200), (240, 300)][:i])
    ops.append({"op": "drawImage", "image": "note", "rect": [x, 20, w, h], "capInsets": [37, 12, 12, 12], "resizingMode": "stretch"})
    ops.append({"op": "drawImage", "image": "note", "rect": [x, 340, w, h], "capInsets": [37, 12, 12, 12]})
ops.append({"op": "drawImage", "image": "note", "rect": [20, 480, 20, 30], "capInsets": [37, 12, 12, 12]})
scene("note-slices", [580, 660], ops, background="#FFFFFF", images={"note": "images/note@2x.png"})

# Text examples name the family "DejaVu Sans", which fontconfig resolves to Debian's
# /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf (fonts-dejavu-core; a test checks it), so their
# pixels are fixed; emoji come from Noto Color Emoji (fonts-noto-color-emoji) by fallback.
DEJAVU = "DejaVu Sans"

# note: the seed's self-sizing notes. Each label is measured with a width limit of 300 (word wrap)
# and the tiled chrome (cap insets 37, 12, 12, 12) grows around it by the padding 37, 12, 12, 12.
LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
         "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex "
         "ea commodo consequat.")
ops = []
for text, size, at in [("Hi!", 25, [10, 10]), ("Je me taille en fonction de mon contenu!", 30, [200, 10]), (LOREM, 16, [10, 200])]:
    ops.append({"op": "drawText", "text": text, "font": {"family": DEJAVU, "size": size}, "at": at, "maxWidth": 300,
                "lineBreakMode": "wordWrap",
                "frame": {"image": "note", "capInsets": [37, 12, 12, 12], "resizingMode": "tile", "padding": [37, 12, 12, 12]}})
scene("note", [540, 470], ops, background="#FFFFFF", images={"note": "images/note@2x.png"})

# hello: the seed's "Hello, world!" in the 17-point system font.
scene("hello", [200, 60], [{"op": "drawText", "text": "Hello, world!", "font": {"family": DEJAVU, "size": 17}, "at": [20, 20]}],
      scale=2, background="#FFFFFF")

# typography: weights, alignments, truncation modes, runs with colours and underline, a ligature,
# an RTL paragraph and an emoji line.
ops = []
for i, w in enumerate([200, 400, 700]):
    ops.append({"op": "drawText", "text": f"Weight {w}", "font": {"family": DEJAVU, "size": 20, "weight": w}, "at": [20, 20 + 30 * i]})
ops.append({"op": "drawText", "text": "Italic", "font": {"family": DEJAVU, "size": 20, "italic": True}, "at": [20, 110]})
for i, a in enumerate(["left", "center", "right", "justified"]):
    y = 20 + 70 * i
    ops.append({"op": "setFillColor", "color": "#EEF2FF"})
    ops.append({"op": "fill", "path": {"rect": [240, y, 300, 60]}})
    ops.append({"op": "setFillColor", "color": "#000000"})
    ops.append({"op": "drawText", "text": f"{a}: the quick brown fox jumps over the lazy dog", "alignment": a,
                "font": {"family": DEJAVU, "size": 15}, "rect": [240, y, 300, 60]})
for i, m in enumerate(["clip", "truncateHead", "truncateTail", "truncateMiddle"]):
    ops.append({"op": "drawText", "text": f"{m}: a line far too long for its narrow rectangle", "lineBreakMode": m,
                "numberOfLines": 1, "font": {"family": DEJAVU, "size": 15}, "rect": [20, 150 + 28 * i, 200, 24]})
ops.append({"op": "drawText", "at": [20, 310], "font": {"family": DEJAVU, "size": 16}, "runs": [
    {"text": "Runs: "}, {"text": "red ", "color": "#D32F2F"}, {"text": "underlined", "underline": True, "color": "#1565C0"},
    {"text": " struck", "strikethrough": True}, {"text": " bold", "font": {"weight": 700}},
    {"text": " — ligature: ", "color": "#555555"}, {"text": "office fi ffl", "font": {"family": "Noto Serif"}},
    {"text": " (off: ", "color": "#555555"}, {"text": "office", "font": {"family": "Noto Serif"}, "features": {"liga": False}},
    {"text": ")", "color": "#555555"}]})
ops.append({"op": "drawText", "text": "שלום עולם! זו פסקה מימין לשמאל עם המילה Penumbra באמצע.", "font": {"family": DEJAVU, "size": 18},
            "rect": [20, 350, 520, 30]})
ops.append({"op": "drawText", "text": "Emoji: 😀 🎉 👍🏽 ❤️ 🇫🇷", "font": {"family": DEJAVU, "size": 24}, "at": [20, 395]})
scene("typography", [560, 440], ops, background="#FFFFFF")

# card: a 1200x630 social card, the text benchmark: a 48-point title, a 3-line 18-point paragraph
# and 2 emoji.
scene("card", [1200, 630], [
    {"op": "linearGradient", "start": [0, 0], "end": [1200, 630], "stops": [[0, "#0F172A"], [1, "#1E3A8A"]]},
    {"op": "setFillColor", "color": "#FFFFFF"},
    {"op": "drawText", "text": "Penumbra renders text 🚀", "font": {"family": DEJAVU, "size": 48, "weight": 700}, "at": [80, 120]},
    {"op": "setFillColor", "color": "#CBD5E1"},
    {"op": "drawText", "text": ("Quartz 2D's drawing model on Linux servers: fonts matched by fontconfig, shaped by HarfBuzz, "
                                "ordered by FriBidi and broken into lines by UAX #14, every glyph an exact outline through the same "
                                "coverage code on the CPU and the GPU, byte for byte. ✨"),
     "font": {"family": DEJAVU, "size": 18}, "rect": [80, 220, 1000, 90], "numberOfLines": 3, "lineBreakMode": "truncateTail"}],
    background="#0F172A")

# template: an icon drawn as it is, and as a template image in several tints.
ops = [{"op": "drawImage", "image": "icon", "at": [16, 16]}]
for i, tint in enumerate(["#000000", "#E53935", "#43A047CC", [0.1, 0.4, 0.9, 0.5]]):
    ops.append({"op": "drawImage", "image": "icon", "rect": [96 + 80 * i, 16, 64, 64], "renderingMode": "template", "tint": tint})
ops.append({"op": "drawImage", "image": "icon", "rect": [416, 16, 64, 64], "renderingMode": "template", "tint": "#8E24AA", "flipped": "horizontal"})
ops.append({"op": "drawImage", "image": "icon", "rect": [16, 96, 128, 128], "renderingMode": "template"})
scene("template", [500, 240], ops, background="#FAFAFA", images={"icon": "images/icon.png"})

# vignette: the seed's Core Image vignette. mask = CIRadialGradient centred on the photo, from white at
# 0.85 x min(w, h) / 2 to black at max(w, h) / 2; CIBlendWithMask(photo, mask) over a transparent
# background (a luminance mask), rendered by a CIContext from the photo's extent and drawn on white.
scene("vignette", [512, 512], [
    {"op": "drawImage", "image": "vignetted", "rect": [0, 0, 512, 512]}], background="#FFFFFF", images={
    "mars": "images/mars.png",
    "mask": {"generator": "radialGradient", "startCenter": [256, 256], "startRadius": 0.85 * 512 / 2,
             "endCenter": [256, 256], "endRadius": 512 / 2, "stops": [[0, "#FFFFFF"], [1, "#000000"]]},
    "vignetted": {"input": "mars", "filters": [{"filter": "blendWithMask", "mask": "mask"}]}})

# filters: every filter of the scene format's table on one photo (a 240 x 180 offscreen copy of
# photo.jpg), one cell each, named underneath; the generators serve as mask and backgrounds.
CELL_W, CELL_H, LABEL = 240, 180, 24
filter_cells = [
    ("original", []),
    ("gaussianBlur 4", [{"filter": "gaussianBlur", "radius": 4}]),
    ("colorControls", [{"filter": "colorControls", "saturation": 1.8, "brightness": 0.05, "contrast": 1.3}]),
    ("colorMatrix", [{"filter": "colorMatrix", "r": [0, 0, 1, 0], "g": [0, 1, 0, 0], "b": [1, 0, 0, 0], "bias": [0.05, 0, 0, 0]}]),
    ("sepiaTone", [{"filter": "sepiaTone", "intensity": 1}]),
    ("colorMonochrome", [{"filter": "colorMonochrome", "color": "#4A90D9", "intensity": 1}]),
    ("exposureAdjust +1", [{"filter": "exposureAdjust", "ev": 1}]),
    ("gammaAdjust 2.2", [{"filter": "gammaAdjust", "power": 2.2}]),
    ("hueAdjust 2", [{"filter": "hueAdjust", "angle": 2}]),
    ("colorInvert", [{"filter": "colorInvert"}]),
    ("vignette", [{"filter": "vignette", "intensity": 1, "falloff": 0.6}]),
    ("unsharpMask", [{"filter": "unsharpMask", "radius": 2.5, "intensity": 2}]),
    ("blendWithMask", [{"filter": "blendWithMask", "mask": "stripes", "background": "tint"}]),
    ("composite multiply", [{"filter": "composite", "mode": "multiply", "background": "ramp"}]),
    ("affineTransform", [{"filter": "affineTransform", "matrix": [0.6, -0.25, 0.25, 0.6, 40, 70]}]),
    ("clampToExtent + crop", [{"filter": "crop", "rect": [80, 50, 80, 80]}, {"filter": "clampToExtent"},
                              {"filter": "crop", "rect": [0, 0, 240, 180]}]),
]
images = {
    "photo": "images/photo.jpg",
    "small": {"size": [CELL_W, CELL_H], "ops": [{"op": "drawImage", "image": "photo", "rect": [0, 0, CELL_W, CELL_H],
                                                 "contentMode": "scaleAspectFill", "clipsToBounds": True}]},
    "tint": {"generator": "constantColor", "color": "#F5D76E"},
    "ramp": {"generator": "radialGradient", "startCenter": [120, 90], "startRadius": 0, "endCenter": [120, 90],
             "endRadius": 150, "stops": [[0, "#FFFFFF"], [1, "#D04020"]]},
}
images["stripes"] = {"generator": "linearGradient", "start": [0, 0], "end": [240, 0],
                     "stops": [[i / 8, "#FFFFFF" if i % 2 == 0 else "#000000"] for i in range(9)]}
ops = []
for i, (label, filters) in enumerate(filter_cells):
    x, y = (i % 4) * (CELL_W + 16) + 16, (i // 4) * (CELL_H + LABEL + 16) + 16
    name = "f%d" % i
    images[name] = {"input": "small", "filters": filters}
    ops.append({"op": "drawImage", "image": name, "at": [x, y]})
    ops.append({"op": "drawText", "text": label, "font": {"family": DEJAVU, "size": 14}, "at": [x, y + CELL_H + 4]})
scene("filters", [4 * (CELL_W + 16) + 16, 4 * (CELL_H + LABEL + 16) + 16], ops, background="#FFFFFF", images=images)

# blur-crop: a chain that blurs the photo heavily and keeps a small window of it, drawn beside the
# photo with the window outlined: only the kept pixels (plus the blur's reach) are blurred.
scene("blur-crop", [520, 200], [
    {"op": "drawImage", "image": "small", "rect": [10, 10, 240, 180]},
    {"op": "setStrokeColor", "color": "#FF3B30"}, {"op": "setLineWidth", "width": 2},
    {"op": "stroke", "path": {"rect": [10 + 60, 10 + 40, 120, 100]}},
    {"op": "drawImage", "image": "window", "rect": [270, 10, 240, 180]}], background="#FFFFFF", images={
    "photo": "images/photo.jpg",
    "small": images["small"],
    "window": {"input": "small", "filters": [{"filter": "clampToExtent"}, {"filter": "gaussianBlur", "radius": 6},
                                             {"filter": "colorControls", "saturation": 1.4},
                                             {"filter": "crop", "rect": [60, 40, 120, 100]}],
               "extent": [60, 40, 120, 100]}})

# frosted: a frosted-glass card (UIVisualEffectView's blur, CSS backdrop-filter): colourful shapes (an offscreen
# image, the backdrop), then blurBackdrop under a rounded rect (radius 12 points, saturation 1.8, a light tint),
# text on the glass, and a round lens at the canvas's right edge. blurBackdrop, like a blur in Core Image, reads
# transparent pixels beyond the canvas, so near an edge it would fade (alpha 245-254 along the right edge); the
# lens instead draws the backdrop through clampToExtent and a blur of the same sigma, which repeats the edge
# pixels outwards and stays opaque.
backdrop = [{"op": "linearGradient", "start": [0, 0], "end": [480, 300], "stops": [[0, "#1E3A8A"], [1, "#7C3AED"]]}]
for (x, y, r, c) in [(90, 80, 70, "#F59E0B"), (330, 70, 60, "#10B981"), (240, 230, 80, "#EF4444"), (430, 250, 50, "#38BDF8")]:
    backdrop += [{"op": "setFillColor", "color": c}, {"op": "fill", "path": {"ellipse": [x - r, y - r, 2 * r, 2 * r]}}]
backdrop += [{"op": "setFillColor", "color": "#FFFFFF"},
             {"op": "drawText", "text": "Penumbra", "font": {"family": DEJAVU, "size": 40, "weight": 700}, "at": [150, 30]}]
ops = [{"op": "drawImage", "image": "backdrop", "at": [0, 0]},
       {"op": "blurBackdrop", "path": {"roundedRect": [50, 90, 300, 150], "radius": 22}, "radius": 12, "saturation": 1.8,
        "tint": "#FFFFFF40"},
       {"op": "setFillColor", "color": "#0F172A"},
       {"op": "drawText", "text": "Frosted glass", "font": {"family": DEJAVU, "size": 22, "weight": 700}, "at": [74, 112]},
       {"op": "drawText", "text": "blurBackdrop: blur, saturation, tint", "font": {"family": DEJAVU, "size": 14}, "at": [74, 148]},
       {"op": "save"}, {"op": "clip", "path": {"ellipse": [370, 150, 100, 100]}},
       {"op": "drawImage", "image": "lens", "at": [0, 0]},
       {"op": "restore"}]
scene("frosted", [480, 300], ops, scale=1, background="#000000", images={
    "backdrop": {"size": [480, 300], "background": "#000000", "ops": backdrop},
    "lens": {"input": "backdrop", "filters": [{"filter": "clampToExtent"}, {"filter": "gaussianBlur", "radius": 6}]}})

# layers: group alpha, a shadow cast by a whole layer, a layer under a clip and a blend mode.
scene("layers", [480, 300], [
    {"op": "setAlpha", "alpha": 0.5}, {"op": "beginLayer"},
    {"op": "setFillColor", "color": "#E53935"}, {"op": "fill", "path": {"ellipse": [20, 20, 120, 120]}},
    {"op": "setFillColor", "color": "#1E88E5"}, {"op": "fill", "path": {"ellipse": [80, 20, 120, 120]}},
    {"op": "endLayer"},
    {"op": "setShadow", "offset": [8, 10], "blur": 6, "color": "#00000099"}, {"op": "beginLayer"},
    {"op": "setFillColor", "color": "#43A047"}, {"op": "fill", "path": {"rect": [250, 30, 80, 80]}},
    {"op": "fill", "path": {"ellipse": [300, 70, 80, 80]}},
    {"op": "endLayer"}, {"op": "clearShadow"},
    {"op": "save"}, {"op": "clip", "path": {"roundedRect": [20, 170, 440, 110], "radius": 30}},
    {"op": "setBlendMode", "mode": "multiply"}, {"op": "beginLayer"},
    {"op": "linearGradient", "start": [20, 0], "end": [460, 0], "stops": [[0, "#FFEB3B"], [1, "#00BCD4"]]},
    {"op": "setFillColor", "color": "#FFFFFF"}, {"op": "fill", "path": {"ellipse": [180, 180, 120, 90]}},
    {"op": "endLayer"}, {"op": "restore"}], background="#F5F5F5")

# gradients: linear with every extend combination and a hard step, radial (concentric and two-circle cone).
ops = []
for i, ext in enumerate([[True, True], [False, False], [True, False]]):
    y = 20 + 90 * i
    ops += [{"op": "save"}, {"op": "clip", "path": {"rect": [20, y, 300, 70]}},
            {"op": "linearGradient", "start": [80, 0], "end": [260, 0], "extend": ext,
             "stops": [[0, "#D81B60"], [0.5, "#FDD835"], [0.5, "#1E88E5"], [1, "#43A04780"]]}, {"op": "restore"}]
ops += [{"op": "save"}, {"op": "clip", "path": {"rect": [340, 20, 240, 240]}},
        {"op": "radialGradient", "startCenter": [460, 140], "startRadius": 0, "endCenter": [460, 140], "endRadius": 110,
         "stops": [[0, "#FFFFFF"], [0.7, "#3949AB"], [1, "#1A237E00"]], "extend": [True, False]}, {"op": "restore"},
        {"op": "save"}, {"op": "clip", "path": {"rect": [20, 290, 560, 200]}},
        {"op": "radialGradient", "startCenter": [120, 390], "startRadius": 10, "endCenter": [400, 390], "endRadius": 80,
         "stops": [[0, "#FF7043"], [1, "#26A69A"]], "extend": [False, False]}, {"op": "restore"}]
scene("gradients", [600, 510], ops, background="#FFFFFF")

# blend-modes: all 28 modes on one sheet; each tile is its own layer, so clear and copy act on the tile.
modes = ["normal", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn", "softLight", "hardLight",
         "difference", "exclusion", "hue", "saturation", "color", "luminosity", "clear", "copy", "sourceIn", "sourceOut",
         "sourceAtop", "destinationOver", "destinationIn", "destinationOut", "destinationAtop", "xor", "plusDarker", "plusLighter"]
ops = []
for i, mode in enumerate(modes):
    x, y = 10 + (i % 7) * 100, 10 + (i // 7) * 100
    ops += [{"op": "save"}, {"op": "clip", "path": {"rect": [x, y, 90, 90]}}, {"op": "beginLayer"},
            {"op": "linearGradient", "start": [x, y], "end": [x + 90, y + 90], "stops": [[0, "#1E88E5"], [1, "#E53935C0"]]},
            {"op": "setFillColor", "color": "#FDD835"}, {"op": "fill", "path": {"rect": [x + 8, y + 8, 40, 74]}},
            {"op": "setBlendMode", "mode": mode},
            {"op": "setFillColor", "color": [0.2, 0.8, 0.4, 0.8]}, {"op": "fill", "path": {"ellipse": [x + 30, y + 20, 52, 52]}},
            {"op": "endLayer"}, {"op": "restore"}]
scene("blend-modes", [710, 410], ops, background="#FFFFFF")

# rocks-collage: the seed's collage. Rocks are a named image (images/rocks.png and rocks@2x.png:
# the @2x variant on this @2x canvas), tiled into an offscreen image context with shadows, and
# the finished image composited twice, once turned, onto the page.
tiles = []
for i, (x, y, a) in enumerate([(8, 8, 0), (64, 14, 0.2), (120, 6, -0.15), (20, 62, 0.1), (80, 66, -0.25), (140, 60, 0.3)]):
    tiles += [{"op": "save"}, {"op": "translate", "x": x + 24, "y": y + 24}, {"op": "rotate", "angle": a},
              {"op": "drawImage", "image": "rock", "rect": [-24, -24, 48, 48]}, {"op": "restore"}]
collage = {"size": [200, 120], "background": "#F3E5C8",
           "ops": [{"op": "setShadow", "offset": [2, 3], "blur": 4, "color": "#00000066"}] + tiles}
scene("rocks-collage", [320, 220], [
    {"op": "setShadow", "offset": [0, 4], "blur": 10, "color": "#00000080"},
    {"op": "drawImage", "image": "collage", "rect": [20, 20, 200, 120]},
    {"op": "save"}, {"op": "translate", "x": 210, "y": 150}, {"op": "rotate", "angle": -0.12},
    {"op": "drawImage", "image": "collage", "rect": [-90, -54, 180, 108]}, {"op": "restore"}],
    scale=2, background="#5D4037", images={"rock": {"named": "images/rocks"}, "collage": collage})

# content-modes: one 60 x 40 picture in every UIView content mode, each in a 100 x 70 box with
# clipsToBounds, four to a row.
picture = {"size": [60, 40], "ops": [
    {"op": "linearGradient", "start": [0, 0], "end": [60, 40], "stops": [[0, "#1E88E5"], [1, "#43A047"]]},
    {"op": "setFillColor", "color": "#FFEB3B"}, {"op": "fill", "path": {"ellipse": [22, 12, 16, 16]}},
    {"op": "setStrokeColor", "color": "#FFFFFF"}, {"op": "setLineWidth", "width": 2}, {"op": "stroke", "path": {"rect": [1, 1, 58, 38]}}]}
modes = ["scaleToFill", "scaleAspectFit", "scaleAspectFill", "center", "top", "bottom", "left", "right",
         "topLeft", "topRight", "bottomLeft", "bottomRight"]
ops = []
for i, mode in enumerate(modes):
    x, y = 10 + (i % 4) * 110, 10 + (i // 4) * 80
    ops += [{"op": "setFillColor", "color": "#ECEFF1"}, {"op": "fill", "path": {"rect": [x, y, 100, 70]}},
            {"op": "drawImage", "image": "picture", "rect": [x + 10, y + 10, 80, 50], "contentMode": mode, "clipsToBounds": True},
            {"op": "setStrokeColor", "color": "#B0BEC5"}, {"op": "setLineWidth", "width": 1},
            {"op": "stroke", "path": {"rect": [x + 10.5, y + 10.5, 79, 49]}}]
scene("content-modes", [450, 250], ops, scale=2, background="#FFFFFF", images={"picture": picture})

# explosion: the seed's animatedImageNamed:duration: (images/explosion1...8.png over 1 s); at
# time 0.3 the third frame shows. `penumbra animate explosion.json -o explosion.png --fps 8`.
scene("explosion", [160, 96], [
    {"op": "drawImage", "image": "boom", "rect": [0, 16, 64, 64]},
    {"op": "drawImage", "image": "boom", "rect": [72, 8, 80, 80]}],
    background="#202020", time=0.3, images={"boom": {"pattern": "images/explosion%d.png", "duration": 1}})

# thumbnail: the 1600 x 1200 photo (a JPEG stored turned, with EXIF orientation 6) drawn at
# 200 x 150 with `low` (bilinear: the fence aliases) and `high` (mipmapped) interpolation.
scene("thumbnail", [440, 170], [
    {"op": "drawImage", "image": "photo", "rect": [10, 10, 200, 150], "interpolation": "low"},
    {"op": "drawImage", "image": "photo", "rect": [230, 10, 200, 150], "interpolation": "high"}],
    background="#FFFFFF", images={"photo": "images/photo.jpg"})

# --- Views (drawView and view snapshots): the seeds' UIKit programs as view trees ---


def label(frame, text, size=15, **kw):
    """A UILabel in DejaVu Sans (fixed pixels, as the text examples)."""
    font = {"family": DEJAVU, "size": size}
    font.update(kw.pop("font", {}))
    return {"type": "label", "frame": frame, "text": text, "font": font, **kw}


def draw_view(view, **kw):
    return {"op": "drawView", "view": view, **kw}


# views-note: the seed's self-sizing Note as views. Each note is an image view showing the chrome (the
# nine-slice note image, cap insets 37, 12, 12, 12, tiled: an image view has no cap insets, so the chrome
# is an offscreen image drawn resizable at the note's size) with a label subview at (12, 37) that sizes
# itself to its text (sizeToFit, numberOfLines 0, wrapped at 300). The notes are the label's box grown by
# the padding 37, 12, 12, 12, rounded up to whole points (so the chrome is drawn pixel for pixel): NOTE_BOXES
# holds the boxes penumbra lays these labels out in (DejaVu Sans, a line 2384/2048 x size high)
# (measured by rendering the labels with sizeToFit and a background at scale 8: 1, 3 and 7 lines).
NOTE_BOXES = {"Hi!": (35.77, 29.11), "Je me taille en fonction de mon contenu!": (245.06, 104.77), LOREM: (292.69, 130.38)}
notes = [("Hi!", 25, [10, 10]), ("Je me taille en fonction de mon contenu!", 30, [200, 10]), (LOREM, 16, [10, 200])]
images = {"note": "images/note@2x.png"}
views = []
for i, (text, size, at) in enumerate(notes):
    bw, bh = NOTE_BOXES[text]
    w, h = math.ceil(bw + 24), math.ceil(bh + 49)
    images["chrome%d" % i] = {"size": [w, h], "ops": [
        {"op": "drawImage", "image": "note", "rect": [0, 0, w, h], "capInsets": [37, 12, 12, 12], "resizingMode": "tile"}]}
    views.append({"type": "imageView", "frame": [at[0], at[1], w, h], "image": "chrome%d" % i, "subviews": [
        label([12, 37, 300, 0], text, size, numberOfLines=0, lineBreakMode="wordWrap", sizeToFit=True)]})
scene("views-note", [540, 470], [draw_view({"frame": [0, 0, 540, 470], "subviews": views})], background="#FFFFFF", images=images)

# views-hypnosis: the seed's hypnosis view (concentric purple circles, line width 10, radius from half
# the view's width down by 20) as a view's draw(_:), in bounds coordinates, inside a window: a title
# label above it and a rounded button-like view (tint-blue background, a white centred label) below.
W = 360
circles = [{"op": "setStrokeColor", "color": [0.5, 0, 0.5, 1]}, {"op": "setLineWidth", "width": 10}]
for r in range(W // 2, 0, -20):
    circles.append({"op": "stroke", "path": {"arc": {"center": [W / 2, W / 2], "radius": r, "start": 0, "end": 2 * math.pi,
                                                     "clockwise": True}}})
window = {"frame": [0, 0, 400, 540], "backgroundColor": "#F2F2F7", "subviews": [
    label([20, 20, 360, 30], "You are getting sleepy…", 22, textAlignment="center", textColor="#1C1C1E"),
    {"frame": [20, 64, W, W], "backgroundColor": "#FFFFFF", "draw": circles},
    {"frame": [120, 452, 160, 44], "backgroundColor": "#007AFF", "layer": {"cornerRadius": 10}, "subviews": [
        label([0, 0, 160, 44], "Wake up", 17, textAlignment="center", textColor="#FFFFFF", font={"weight": 700})]}]}
scene("views-hypnosis", [400, 540], [draw_view(window)], scale=2, background="#FFFFFF")

# views-tint: tint colour inherited down a view tree by template images (icon.png with renderingMode
# alwaysTemplate), three levels below the view that sets it. Left: nothing sets a tint, so the root's
# default #007AFF reaches the image. Middle: the root sets red and the image, three levels down, is red.
# Right: the same tree, but the middle level sets its own green, which wins below it. Under each, the
# icon as it is (renderingMode automatic: original), in the same tree.


def tint_column(x, caption, root_tint=None, middle_tint=None):
    image = {"type": "imageView", "frame": [8, 8, 64, 64], "image": "glyph"}
    level2 = {"frame": [8, 8, 80, 80], "backgroundColor": "#FFFFFF", "layer": {"cornerRadius": 12}, "subviews": [image]}
    level1 = {"frame": [12, 12, 96, 96], "backgroundColor": "#E5E5EA", "layer": {"cornerRadius": 16}, "subviews": [level2]}
    if middle_tint:
        level1["tintColor"] = middle_tint
    root = {"frame": [x, 16, 120, 200], "backgroundColor": "#D1D1D6", "layer": {"cornerRadius": 20}, "subviews": [
        level1, {"type": "imageView", "frame": [28, 116, 64, 64], "image": "icon"}]}
    if root_tint:
        root["tintColor"] = root_tint
    return [draw_view(root), {"op": "drawText", "text": caption, "font": {"family": DEJAVU, "size": 13},
                              "rect": [x - 10, 222, 140, 40], "alignment": "center"}]


ops = tint_column(16, "default tint\n#007AFF") + tint_column(152, "root tint\n#E53935", root_tint="#E53935") + \
    tint_column(288, "root #E53935,\nmiddle #43A047", root_tint="#E53935", middle_tint="#43A047")
scene("views-tint", [424, 270], ops, scale=2, background="#FFFFFF",
      images={"icon": "images/icon.png", "glyph": {"path": "images/icon.png", "renderingMode": "alwaysTemplate"}})

# views-rtl: one view tree drawn left to right (top) and right to left (bottom, "layoutDirection":
# "rightToLeft" on the op). Frames do not mirror (as in UIKit without Auto Layout), but an image marked
# flipsForRightToLeftLayoutDirection (a "forward" arrow) is drawn mirrored, and labels with natural
# alignment align right. The last row is a sibling that forces left to right: it looks the same in both.
arrow = {"size": [32, 32], "ops": [{"op": "setFillColor", "color": "#007AFF"},
                                   {"op": "fill", "path": "M 4 12 L 16 12 L 16 4 L 30 16 L 16 28 L 16 20 L 4 20 Z"}],
         "flipsForRightToLeftLayoutDirection": True}


def rtl_tree(caption):
    def row(y, text, **kw):
        return {"frame": [16, y, 328, 44], "backgroundColor": "#FFFFFF", "layer": {"cornerRadius": 8}, **kw, "subviews": [
            {"type": "imageView", "frame": [6, 6, 32, 32], "image": "arrow"},
            label([46, 0, 274, 44], text, 16, textColor="#1C1C1E")]}
    return {"frame": [0, 0, 360, 200], "backgroundColor": "#F2F2F7", "subviews": [
        label([16, 8, 328, 24], caption, 13, textColor="#8E8E93"),
        row(36, "Next — natural alignment"),
        row(88, "שלום עולם — הבא"),
        row(140, "forceLeftToRight sibling", semanticContentAttribute="forceLeftToRight")]}


scene("views-rtl", [360, 416], [
    draw_view(rtl_tree("layoutDirection: leftToRight")),
    {"op": "translate", "x": 0, "y": 216},
    draw_view(rtl_tree("layoutDirection: rightToLeft"), layoutDirection="rightToLeft")],
    scale=2, background="#FFFFFF", images={"arrow": arrow})

# views-layers: what a view's layer does, one cell each, captioned. Top row: a rounded view whose orange
# subview sticks out past its corner (clipsToBounds false: it shows; true: it is cut to the rounded
# bounds); a border, drawn above the subviews (inner radius cornerRadius - borderWidth). Middle row:
# shadows: cast by the whole composited view (background, subviews and all), by a shadowPath (an
# ellipse unlike the view's shape), and none at all with clipsToBounds (as in UIKit). Bottom row: group
# opacity, alpha 0.5 on a view whose two discs overlap (one layer: the overlap does not show through),
# beside the same discs each at alpha 0.5 (the overlap shows).
ORANGE, BLUE, RED = "#FF9500", "#007AFF", "#FF3B30"


def cell(i, caption, view):
    x, y = 16 + (i % 3) * 176, 16 + (i // 3) * 176
    return {"frame": [x, y, 160, 160], "subviews": [view, label([0, 132, 160, 28], caption, 12, textAlignment="center",
                                                               textColor="#3A3A3C")]}


def disc(frame, color, **kw):
    return {"frame": frame, "backgroundColor": color, "layer": {"cornerRadius": frame[2] / 2}, **kw}


sticking = {"frame": [70, -14, 64, 64], "backgroundColor": ORANGE}
cells = [
    cell(0, "cornerRadius 24", {"frame": [20, 20, 110, 100], "backgroundColor": BLUE, "layer": {"cornerRadius": 24},
                                "subviews": [sticking]}),
    cell(1, "+ clipsToBounds", {"frame": [20, 20, 110, 100], "backgroundColor": BLUE, "clipsToBounds": True,
                                               "layer": {"cornerRadius": 24}, "subviews": [sticking]}),
    cell(2, "border 6 over a subview", {"frame": [20, 20, 120, 100], "backgroundColor": "#FFFFFF",
                                        "layer": {"cornerRadius": 20, "borderWidth": 6, "borderColor": "#34C759"},
                                        "subviews": [{"frame": [-10, 40, 140, 24], "backgroundColor": ORANGE}]}),
    cell(3, "shadow of the whole view", {"frame": [30, 24, 100, 90], "backgroundColor": "#FFFFFF",
                                         "layer": {"cornerRadius": 16, "shadowOpacity": 0.6, "shadowOffset": [0, 6],
                                                   "shadowRadius": 6},
                                         "subviews": [disc([60, -12, 50, 50], RED)]}),
    cell(4, "shadowPath (an ellipse)", {"frame": [30, 24, 100, 90], "backgroundColor": "#FFFFFF",
                                        "layer": {"cornerRadius": 16, "shadowOpacity": 0.6, "shadowOffset": [0, 10],
                                                  "shadowRadius": 4, "shadowColor": "#5856D6",
                                                  "shadowPath": {"ellipse": [10, 70, 80, 30]}}}),
    cell(5, "shadow + clipsToBounds", {"frame": [30, 24, 100, 90], "backgroundColor": "#FFFFFF", "clipsToBounds": True,
                                             "layer": {"cornerRadius": 16, "shadowOpacity": 0.6, "shadowOffset": [0, 6],
                                                       "shadowRadius": 6}}),
    cell(6, "alpha 0.5 on the group", {"frame": [16, 16, 128, 100], "alpha": 0.5, "subviews": [
        disc([0, 10, 80, 80], RED), disc([48, 10, 80, 80], BLUE)]}),
    cell(7, "alpha 0.5 on each disc", {"frame": [16, 16, 128, 100], "subviews": [
        disc([0, 10, 80, 80], RED, alpha=0.5), disc([48, 10, 80, 80], BLUE, alpha=0.5)]}),
    cell(8, "alpha 0.5, border, shadow", {"frame": [24, 20, 112, 96], "alpha": 0.5, "backgroundColor": ORANGE,
                                          "layer": {"cornerRadius": 48, "borderWidth": 4, "borderColor": "#000000",
                                                    "shadowOpacity": 1, "shadowOffset": [6, 6], "shadowRadius": 3}}),
]
scene("views-layers", [544, 544], [draw_view({"frame": [0, 0, 544, 544], "backgroundColor": "#F2F2F7", "subviews": cells})],
      scale=2, background="#FFFFFF")

# views-snapshot: a small view hierarchy (a 40 x 40 rounded, bordered badge with a gradient drawn by its
# draw(_:) and a dot subview) rendered as an image at scale 2 ("images": {"badge": {"view": ...}}), drawn
# at its own size and then stretched as a resizable image (cap insets 14 on every side, the corners kept)
# to two sizes, as the seed stretches snapshotViewAfterScreenUpdates: output.
badge = {"frame": [0, 0, 40, 40], "backgroundColor": "#5856D6",
         "layer": {"cornerRadius": 12, "borderWidth": 3, "borderColor": "#FFCC00"},
         "draw": [{"op": "linearGradient", "start": [0, 0], "end": [0, 40], "stops": [[0, "#FFFFFF66"], [0.5, "#FFFFFF00"]]}],
         "subviews": [disc([6, 6, 8, 8], "#FFFFFF")]}
scene("views-snapshot", [400, 240], [
    {"op": "drawImage", "image": "badge", "at": [16, 16]},
    {"op": "drawImage", "image": "badge", "rect": [72, 16, 312, 56], "capInsets": [14, 14, 14, 14], "resizingMode": "stretch"},
    {"op": "drawImage", "image": "badge", "rect": [16, 88, 368, 136], "capInsets": [14, 14, 14, 14], "resizingMode": "stretch"},
    {"op": "setFillColor", "color": "#FFFFFF"},
    {"op": "drawText", "text": "A view snapshot, stretched", "font": {"family": DEJAVU, "size": 20, "weight": 700},
     "rect": [16, 88, 368, 136], "alignment": "center", "verticalAlignment": "center"}],
    scale=2, background="#FFFFFF", images={"badge": {"view": badge, "scale": 2}})

# views-blur: UIVisualEffectView's blur over a photo (photo.jpg in an image view, scaleAspectFill with
# clipsToBounds): a light and a dark blur panel, each with a label on it, and inside the dark one a
# vibrancy view with a label (vibrancy's masked backdrop is a placeholder for now: no reference image).
scene("views-blur", [480, 360], [draw_view({"type": "imageView", "frame": [0, 0, 480, 360], "image": "photo",
                                            "contentMode": "scaleAspectFill", "clipsToBounds": True, "subviews": [
    {"type": "visualEffect", "effect": "blur", "style": "light", "frame": [24, 24, 200, 120], "layer": {"cornerRadius": 16},
     "subviews": [label([16, 16, 168, 24], "Light blur", 18, font={"weight": 700}, textColor="#1C1C1E"),
                  label([16, 48, 168, 56], "blurBackdrop, radius 20, saturation 1.8", 13, numberOfLines=0,
                        lineBreakMode="wordWrap", textColor="#3A3A3C")]},
    {"type": "visualEffect", "effect": "blur", "style": "dark", "frame": [192, 168, 264, 168], "layer": {"cornerRadius": 16},
     "subviews": [label([16, 16, 232, 24], "Dark blur", 18, font={"weight": 700}, textColor="#FFFFFF"),
                  {"type": "visualEffect", "effect": "vibrancy", "style": "dark", "frame": [16, 56, 232, 96], "subviews": [
                      label([0, 0, 232, 96], "Vibrancy", 44, font={"weight": 700}, textAlignment="center")]}]}]})],
    scale=1, background="#000000", images={"photo": "images/photo.jpg"})

# svg-logo: an SVG image (images/logo.svg, 48 x 48 points) drawn as vectors at its own size, at 4x
# and 8x its size (sharp at every size: no bitmap is scaled), and as a template image in a tint.
scene("svg-logo", [560, 420], [
    {"op": "drawImage", "image": "logo", "at": [16, 16]},
    {"op": "drawImage", "image": "logo", "rect": [80, 16, 192, 192]},
    {"op": "drawImage", "image": "logo", "rect": [16, 224, 48, 48], "renderingMode": "template", "tint": "#3949AB"},
    {"op": "setShadow", "offset": [4, 6], "blur": 8},
    {"op": "drawImage", "image": "logo", "rect": [288, 16, 256, 256], "alpha": 0.9},
    {"op": "clearShadow"},
    {"op": "drawImage", "image": "logo", "rect": [288, 288, 256, 112], "contentMode": "scaleAspectFit"},
    {"op": "drawImage", "image": "logo", "rect": [80, 224, 192, 176], "crop": [24, 0, 24, 48], "contentMode": "scaleAspectFit"}],
    background="#FFFFFF", images={"logo": "images/logo.svg"})
