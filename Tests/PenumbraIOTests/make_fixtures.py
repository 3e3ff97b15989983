#!/usr/bin/env python3
"""Makes the image fixtures of PenumbraIOTests with the libraries' own tools.

Sources are drawn here with Pillow (deterministic patterns); the encoded files
come from cjpeg (libjpeg-turbo-progs), cwebp / img2webp (webp) and Pillow
(GIF, EXIF, ICC, CMYK); the expected pixels come from the decoders' own tools
(djpeg, dwebp) or are the lossless sources themselves. The ICC fixture's
expected pixels are Pillow's ImageCms (lcms2) conversion with perceptual
intent. Run from this folder: python3 make_fixtures.py (needs Pillow and
Debian's libjpeg-turbo-progs, webp, liblcms2-2).
"""
import ctypes, io, os, subprocess
from PIL import Image, ImageCms

out = "Fixtures"
os.makedirs(out, exist_ok=True)
W, H = 24, 16

def pattern(mode="RGB"):
    im = Image.new("RGBA", (W, H))
    im.putdata([((x * 11) % 256, (y * 17) % 256, (x * y * 7 + 40) % 256, 255 if mode == "RGB" else (x * 10 + y * 3) % 256)
                for y in range(H) for x in range(W)])
    return im if mode == "RGBA" else im.convert("RGB")

def run(*args, stdin=None):
    return subprocess.run(args, input=stdin, check=True, stdout=subprocess.PIPE).stdout

def pam(path, im):
    """Expected pixels as an RGBA PAM (straight alpha)."""
    im = im.convert("RGBA")
    with open(path, "wb") as f:
        f.write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % im.size)
        f.write(im.tobytes())

rgb, rgba = pattern(), pattern("RGBA")
ppm = io.BytesIO(); rgb.save(ppm, "PPM"); ppm = ppm.getvalue()
pgm = io.BytesIO(); rgb.convert("L").save(pgm, "PPM"); pgm = pgm.getvalue()

# JPEG: baseline, progressive, grey (cjpeg), expected = djpeg.
for name, args, src in [("baseline", ["-quality", "85"], ppm), ("progressive", ["-progressive", "-quality", "70"], ppm),
                        ("grey", ["-grayscale"], ppm), ("q444", ["-sample", "1x1", "-quality", "95"], ppm)]:
    data = run("cjpeg", *args, stdin=src)
    open(f"{out}/{name}.jpg", "wb").write(data)
    pam(f"{out}/{name}.jpg.pam", Image.open(io.BytesIO(run("djpeg", "-pnm", stdin=data))))

# CMYK (Pillow writes Adobe, inverted); expected: r = (1 - c)(1 - k) on Pillow's (libjpeg's) CMYK values.
cmyk = Image.new("CMYK", (W, H))
cmyk.putdata([((x * 11) % 256, (y * 17) % 256, (x * y * 5) % 256, (x * 3 + y * 5) % 128) for y in range(H) for x in range(W)])
cmyk.save(f"{out}/cmyk.jpg", quality=95)
raw = Image.open(f"{out}/cmyk.jpg")
exp = Image.new("RGB", (W, H))
exp.putdata([tuple(((255 - c) * (255 - k) * 2 + 255) // 510 for c in (p[0], p[1], p[2])) for p in raw.get_flattened_data() for k in [p[3]]])
pam(f"{out}/cmyk.jpg.pam", exp)

# WebP lossy and lossless with alpha (cwebp), expected = dwebp.
rgba.save("tmp.png"); rgb.save("tmp_rgb.png")
run("cwebp", "-quiet", "-q", "80", "tmp_rgb.png", "-o", f"{out}/lossy.webp")
run("cwebp", "-quiet", "-lossless", "tmp.png", "-o", f"{out}/lossless.webp")
run("cwebp", "-quiet", "-q", "80", "-alpha_q", "100", "tmp.png", "-o", f"{out}/lossy_alpha.webp")
for name in ["lossy", "lossless", "lossy_alpha"]:
    run("dwebp", "-quiet", f"{out}/{name}.webp", "-pam", "-o", f"{out}/{name}.webp.pam")

# GIF: a still one (palette, lossless) and an animation with delays 0, 50, 120 ms.
pal = rgb.quantize(16)
pal.save(f"{out}/still.gif")
pam(f"{out}/still.gif.pam", pal.convert("RGBA"))
frames = [Image.new("P", (W, H), i) for i in range(3)]
for f in frames: f.putpalette([255, 0, 0, 0, 255, 0, 0, 0, 255] + [0] * 759)
frames[0].save(f"{out}/anim.gif", save_all=True, append_images=frames[1:], duration=[0, 50, 120], loop=0)
# Animated WebP from the same colours, 100 ms each.
[Image.new("RGB", (W, H), c) for c in [(255, 0, 0), (0, 255, 0), (0, 0, 255)]][0].save(
    f"{out}/anim.webp", save_all=True, lossless=True, duration=[100, 200, 300], loop=0,
    append_images=[Image.new("RGB", (W, H), c) for c in [(0, 255, 0), (0, 0, 255)]])

# APNG (Pillow): red; green at alpha 128 blended over with a transparent top-left quarter,
# disposed to background; opaque blue. Delays 100, 200, 300 ms.
fr = [Image.new("RGBA", (W, H), c) for c in [(255, 0, 0, 255), (0, 255, 0, 128), (0, 0, 255, 255)]]
fr[1].paste((0, 0, 0, 0), (0, 0, 12, 8))
fr[0].save(f"{out}/anim.apng", format="PNG", save_all=True, append_images=fr[1:], duration=[100, 200, 300], loop=0,
           disposal=[0, 1, 0], blend=[0, 1, 0])

# Orientation: PNG with eXIf 1...8 (lossless); expected = Pillow's exif_transpose.
from PIL import ImageOps
asym = pattern()
for o in range(1, 9):
    exif = Image.Exif(); exif[0x0112] = o
    asym.save(f"{out}/orient{o}.png", exif=exif.tobytes())
    pam(f"{out}/orient{o}.png.pam", ImageOps.exif_transpose(Image.open(f"{out}/orient{o}.png")))
# And a JPEG with orientation 6, expected = djpeg's pixels turned by Pillow.
exif = Image.Exif(); exif[0x0112] = 6
rgb.save(f"{out}/orient6.jpg", quality=90, exif=exif.tobytes())
pam(f"{out}/orient6.jpg.pam", Image.open(io.BytesIO(run("djpeg", "-pnm", f"{out}/orient6.jpg"))).transpose(Image.Transpose.ROTATE_270))

# ICC: a Display P3 profile made with lcms2 (P3 primaries, D65, gamma 2.2), embedded in PNG and
# JPEG; expected = ImageCms (lcms2) P3 -> sRGB, perceptual.
lcms = ctypes.CDLL("liblcms2.so.2")
class xyY(ctypes.Structure): _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]
class Triple(ctypes.Structure): _fields_ = [("r", xyY), ("g", xyY), ("b", xyY)]
lcms.cmsBuildGamma.restype = ctypes.c_void_p
lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
curve = lcms.cmsBuildGamma(None, ctypes.c_double(2.2))
curves = (ctypes.c_void_p * 3)(curve, curve, curve)
profile = lcms.cmsCreateRGBProfile(ctypes.byref(xyY(0.3127, 0.3290, 1.0)),
                                   ctypes.byref(Triple(xyY(0.680, 0.320, 1), xyY(0.265, 0.690, 1), xyY(0.150, 0.060, 1))), curves)
size = ctypes.c_uint32(0)
lcms.cmsSaveProfileToMem(ctypes.c_void_p(profile), None, ctypes.byref(size))
buf = ctypes.create_string_buffer(size.value)
lcms.cmsSaveProfileToMem(ctypes.c_void_p(profile), buf, ctypes.byref(size))
icc = buf.raw[:size.value]
open(f"{out}/p3.icc", "wb").write(icc)
rgb.save(f"{out}/p3.png", icc_profile=icc)
srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
p3 = ImageCms.ImageCmsProfile(io.BytesIO(icc))
pam(f"{out}/p3.png.pam", ImageCms.profileToProfile(rgb, p3, srgb, renderingIntent=ImageCms.Intent.PERCEPTUAL))
rgb.save(f"{out}/p3.jpg", quality=90, icc_profile=icc)
decoded = Image.open(io.BytesIO(run("djpeg", "-pnm", f"{out}/p3.jpg")))
pam(f"{out}/p3.jpg.pam", ImageCms.profileToProfile(decoded, p3, srgb, renderingIntent=ImageCms.Intent.PERCEPTUAL))
# A bad profile is ignored: the pixels stay as stored.
rgb.save(f"{out}/badicc.jpg", quality=90, icc_profile=b"not a profile" * 20)

os.remove("tmp.png"); os.remove("tmp_rgb.png")
print("fixtures written to", out)
