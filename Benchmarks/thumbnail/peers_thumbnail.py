#!/usr/bin/env python3
"""The thumbnail benchmark's peers: photo.jpg (4000 x 3000) decoded, reduced to 400 x 300 and
encoded as JPEG quality 80, in memory, timed as `penumbra bench --thumbnail` times Penumbra
(median of the runs after one warm-up). Pillow: draft off, reduce + resize LANCZOS (what
Image.thumbnail does without draft). libvips: thumbnail_buffer (shrink-on-load allowed, as
vips does by default) and jpegsave_buffer Q 80. Prints one JSON object.

    ../shared/tools/peers/.venv/bin/python Benchmarks/thumbnail/peers_thumbnail.py [--runs N]
"""
import argparse, io, json, os, statistics, time

ap = argparse.ArgumentParser()
ap.add_argument("--runs", type=int, default=20)
a = ap.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
data = open(os.path.join(here, "photo.jpg"), "rb").read()

def bench(fn):
    fn()
    times = []
    for _ in range(a.runs):
        t = time.perf_counter(); fn(); times.append((time.perf_counter() - t) * 1000)
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times)}

out = {}
try:
    from PIL import Image
    def pillow():
        im = Image.open(io.BytesIO(data)); im.load()
        im = im.reduce(4) if min(im.size) >= 1200 else im  # reducing_gap as Image.thumbnail: reduce, then LANCZOS
        im = im.resize((400, 300), Image.Resampling.LANCZOS)
        buf = io.BytesIO(); im.save(buf, "JPEG", quality=80); return buf.getvalue()
    out["pillow"] = bench(pillow) | {"version": __import__("PIL").__version__}
except Exception as e:  # noqa: BLE001
    out["pillow"] = {"error": str(e)}
try:
    import pyvips
    def vips():
        return pyvips.Image.thumbnail_buffer(data, 400, height=300).jpegsave_buffer(Q=80)
    out["libvips"] = bench(vips) | {"version": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"}
except Exception as e:  # noqa: BLE001
    out["libvips"] = {"error": str(e)}
print(json.dumps(out))
