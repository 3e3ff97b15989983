#!/usr/bin/env python3
"""The filter benchmark's peers (issue 13): the image named "input" of filters.json, rendered by
Penumbra to input.png first (`penumbra render Benchmarks/filters/filters.json -o /tmp/filters-input.png`),
through the same two chains as `penumbra bench --filters`, in memory, 8-bit RGBA in and out:
  1. Gaussian blur, sigma 10;
  2. colorControls (saturation 1.2, brightness 0.05, contrast 1.1: one linear colour map with an
     offset) then unsharp mask (radius 2.5, amount 0.5: c + 0.5 (c - blur(c))).
libvips: gaussblur(10) (integer precision, as vips does for uchar by default); recomb + linear,
then gaussblur(2.5) and linear arithmetic, cast to uchar. OpenCV: GaussianBlur((0, 0), 10);
transform with the 4 x 4 matrix and offset, then GaussianBlur 2.5 and addWeighted. Each library
uses the thread count given (default 2). Prints one JSON object of medians in ms.

    ../shared/tools/peers/.venv/bin/python Benchmarks/filters/peers_filters.py IMAGE.png [--threads 2] [--runs 20]
"""
import argparse, json, os, statistics, time

ap = argparse.ArgumentParser()
ap.add_argument("image")
ap.add_argument("--threads", type=int, default=2)
ap.add_argument("--runs", type=int, default=20)
a = ap.parse_args()

def bench(fn):
    fn()
    times = []
    for _ in range(a.runs):
        t = time.perf_counter(); fn(); times.append((time.perf_counter() - t) * 1000)
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times)}

# colorControls as one matrix: saturation s about luma, then + brightness, then contrast about 0.5.
s, br, k = 1.2, 0.05, 1.1
lw = [0.2126, 0.7152, 0.0722]
M = [[k * ((1 - s) * lw[j] + (s if i == j else 0)) for j in range(3)] for i in range(3)]
offset = 255 * (k * (br - 0.5) + 0.5)
out = {"threads": a.threads}
try:
    import pyvips
    pyvips.voperation.cache_set_max(0)
    os.environ["VIPS_CONCURRENCY"] = str(a.threads)
    pyvips.concurrency_set(a.threads) if hasattr(pyvips, "concurrency_set") else None
    im = pyvips.Image.new_from_file(a.image).copy_memory()
    if im.bands == 3: im = im.bandjoin(255)
    def vblur(): im.gaussblur(10).write_to_memory()
    def vchain():
        rgb = im[0:3].recomb(M).linear(1, offset)
        c = rgb.bandjoin(im[3]).cast("uchar")
        b = c.gaussblur(2.5)
        (c + (c - b) * 0.5).cast("uchar").write_to_memory()
    out["libvips"] = {"gaussianBlur(10)": bench(vblur), "colorControls+unsharpMask": bench(vchain)}
except Exception as e:  # noqa: BLE001
    out["libvips"] = {"error": str(e)}
try:
    import cv2, numpy as np
    cv2.setNumThreads(a.threads)
    img = cv2.imread(a.image, cv2.IMREAD_UNCHANGED)
    if img.shape[2] == 3: img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    img = np.ascontiguousarray(img)
    T = np.zeros((4, 5), np.float32)
    # OpenCV's channels are B, G, R, A.
    order = [2, 1, 0]
    for i in range(3):
        for j in range(3):
            T[order[i], order[j]] = M[i][j]
        T[order[i], 4] = offset
    T[3, 3] = 1
    def cblur(): cv2.GaussianBlur(img, (0, 0), 10)
    def cchain():
        c = cv2.transform(img, T)  # saturates to uint8
        b = cv2.GaussianBlur(c, (0, 0), 2.5)
        cv2.addWeighted(c, 1.5, b, -0.5, 0)
    out["opencv"] = {"gaussianBlur(10)": bench(cblur), "colorControls+unsharpMask": bench(cchain)}
except Exception as e:  # noqa: BLE001
    out["opencv"] = {"error": str(e)}
print(json.dumps(out, indent=1))
