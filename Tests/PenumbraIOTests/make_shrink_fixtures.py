#!/usr/bin/env python3
"""Makes the shrink-on-load fixtures of PenumbraIOTests: a 64 x 48 JPEG (4:2:0, and a progressive
copy) from cjpeg, and libjpeg-turbo's own DCT-scaled decodes of each, `djpeg -scale 1/N -pnm` for N
in 2, 4, 8, as RGBA PAMs (shrink.jpg.2.pam ...). Separate from make_fixtures.py so the older
fixtures are not rewritten. Run from this folder: python3 make_shrink_fixtures.py (needs Pillow and
Debian's libjpeg-turbo-progs).
"""
import io, subprocess
from PIL import Image

W, H = 64, 48

def run(*args, stdin=None):
    return subprocess.run(args, input=stdin, check=True, stdout=subprocess.PIPE).stdout

def pam(path, im):
    im = im.convert("RGBA")
    with open(path, "wb") as f:
        f.write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % im.size)
        f.write(im.tobytes())

# Smooth gradients with a few hard edges, so that every IDCT size has work to do.
src = Image.new("RGB", (W, H))
src.putdata([((x * 4) % 256, (y * 5 + (40 if (x // 8 + y // 8) % 2 else 0)) % 256, (x * y) % 256)
             for y in range(H) for x in range(W)])
ppm = io.BytesIO(); src.save(ppm, "PPM"); ppm = ppm.getvalue()
for name, args in [("shrink", ["-quality", "90"]), ("shrink-progressive", ["-quality", "90", "-progressive"])]:
    data = run("cjpeg", *args, stdin=ppm)
    open(f"Fixtures/{name}.jpg", "wb").write(data)
    for n in (2, 4, 8):
        pam(f"Fixtures/{name}.jpg.{n}.pam", Image.open(io.BytesIO(run("djpeg", "-scale", f"1/{n}", "-pnm", stdin=data))))
    pam(f"Fixtures/{name}.jpg.1.pam", Image.open(io.BytesIO(run("djpeg", "-pnm", stdin=data))))
