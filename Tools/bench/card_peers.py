#!/usr/bin/env python3
"""The card benchmark (Examples/card.json) drawn by Skia (skia-python) and by Pillow's ImageDraw.text
with raqm, timed like ../shared/tools/peers (median of repeated frames after a warm-up), printed as JSON.

    ../shared/tools/peers/.venv/bin/python Tools/bench/card_peers.py [--seconds S] [--out DIR]

Same fonts (DejaVu Sans Bold 48 for the title, DejaVu Sans 18 for the paragraph, Noto Color Emoji for
the two emoji) and the same strings, placed at Penumbra's baselines; the paragraph's three lines are
given already broken as Penumbra breaks them. Skia's drawString does NOT shape (no HarfBuzz, no
kerning or ligatures, no fallback: the emoji are drawn with their own typeface); Pillow with raqm
shapes (HarfBuzz + FriBidi). Pillow has no gradient primitive, so its background is a prepared
image copied each frame."""
import argparse, json, os, sys, time, gc
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--seconds", type=float, default=2.0)
ap.add_argument("--out")
a = ap.parse_args()

DV = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DVB = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
EMOJI = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
W, H = 1200, 630
TITLE, ROCKET = "Penumbra renders text ", "\U0001F680"
LINES = ["Quartz 2D's drawing model on Linux servers: fonts matched by fontconfig, shaped by HarfBuzz, ordered by",
         "FriBidi and broken into lines by UAX #14, every glyph an exact outline through the same coverage code on",
         "the CPU and the GPU, byte for byte. "]
SPARKLES = "\u2728"
ASC = 1901 / 2048; LINE = (1901 + 483) / 2048
title_base = 120 + 48 * ASC
para_base = [220 + 18 * ASC + i * 18 * LINE for i in range(3)]


def bench(fn, seconds):
    for _ in range(3):
        fn()
    gc.collect()
    times = []
    while len(times) < 5 or sum(times) / 1e3 < seconds:
        t0 = time.perf_counter_ns(); fn(); times.append((time.perf_counter_ns() - t0) / 1e6)
    times.sort()
    return {"median_ms": times[len(times) // 2], "min_ms": times[0], "max_ms": times[-1], "frames": len(times)}


def skia_card():
    import skia
    tf_b, tf, tf_e = skia.Typeface.MakeFromFile(DVB), skia.Typeface.MakeFromFile(DV), skia.Typeface.MakeFromFile(EMOJI)
    f_title, f_para = skia.Font(tf_b, 48), skia.Font(tf, 18)
    f_e48, f_e18 = skia.Font(tf_e, 48), skia.Font(tf_e, 18)
    shader = skia.GradientShader.MakeLinear([(0, 0), (W, H)], [0xFF0F172A, 0xFF1E3A8A])
    surface = skia.Surface(W, H)
    bg, white, grey = skia.Paint(Shader=shader), skia.Paint(AntiAlias=True, Color=0xFFFFFFFF), skia.Paint(AntiAlias=True, Color=0xFFCBD5E1)

    def draw():
        c = surface.getCanvas()
        c.clear(0xFF0F172A)
        c.drawPaint(bg)
        c.drawString(TITLE, 80, title_base, f_title, white)
        c.drawString(ROCKET, 80 + f_title.measureText(TITLE), title_base, f_e48, white)
        for y, line in zip(para_base, LINES):
            c.drawString(line, 80, y, f_para, grey)
        c.drawString(SPARKLES, 80 + f_para.measureText(LINES[2]), para_base[2], f_e18, grey)
        surface.flushAndSubmit()
    return draw, lambda path: surface.makeImageSnapshot().save(path)


def pillow_card():
    from PIL import Image, ImageDraw, ImageFont
    layout = ImageFont.Layout.RAQM
    f_title, f_para = ImageFont.truetype(DVB, 48, layout_engine=layout), ImageFont.truetype(DV, 18, layout_engine=layout)
    f_emoji = ImageFont.truetype(EMOJI, 109, layout_engine=layout)
    t = (np.add.outer(np.arange(H) * H, np.arange(W) * W) / (W * W + H * H))[..., None]
    c0, c1 = np.array([0x0F, 0x17, 0x2A, 255.0]), np.array([0x1E, 0x3A, 0x8A, 255.0])
    background = Image.fromarray(np.round(c0 + (c1 - c0) * t).astype(np.uint8), "RGBA")
    state = {}

    def emoji(img, ch, x, y, size):
        e = Image.new("RGBA", (136, 128))
        ImageDraw.Draw(e).text((0, 0), ch, font=f_emoji, embedded_color=True)
        k = size / 109
        e = e.resize((round(136 * k), round(128 * k)), Image.BILINEAR)
        img.alpha_composite(e, (round(x), round(y - 0.95 * size)))

    def draw():
        img = background.copy()
        d = ImageDraw.Draw(img)
        d.text((80, title_base), TITLE, font=f_title, fill=(255, 255, 255, 255), anchor="ls")
        emoji(img, ROCKET, 80 + d.textlength(TITLE, font=f_title), title_base, 48)
        for y, line in zip(para_base, LINES):
            d.text((80, y), line, font=f_para, fill=(0xCB, 0xD5, 0xE1, 255), anchor="ls")
        emoji(img, SPARKLES, 80 + d.textlength(LINES[2], font=f_para), para_base[2], 18)
        state["img"] = img
    return draw, lambda path: state["img"].save(path)


results = {}
for name, make in [("skia", skia_card), ("pillow-raqm", pillow_card)]:
    draw, save = make()
    results[name] = bench(draw, a.seconds)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        save(os.path.join(a.out, f"card-{name}.png"))
print(json.dumps(results))
