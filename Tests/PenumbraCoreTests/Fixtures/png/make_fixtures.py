#!/usr/bin/env python3
"""Writes the PNG fixtures of PNGCodecTests, deterministically, with only the
standard library (struct + zlib; no PIL).

    python3 make_fixtures.py        # writes next to this script

Every colour type and bit depth PNG allows, with and without tRNS, Adam7
interlaced twins of four of them, a 256 x 256 16-bit grey ramp holding every
16-bit value once (the test recomputes its expected pixels), files whose
ancillary chunks (gamma, chromaticities, a broken ICC profile, text, time) the
decoder must ignore, and malformed files (huge or zero header sizes, a bad
zlib stream, a bad filter byte, missing image data, a missing palette, an
unknown critical chunk).

expected.json maps each well-formed fixture to the straight (not
premultiplied) RGBA8 pixels a decoder must produce, base64, rows top to bottom:
16-bit samples scaled to round(v * 255 / 65535), 1/2/4-bit grey scaled to
v * 255 / (2^depth - 1), tRNS-keyed pixels with alpha 0. An Adam7 file's
entry names its non-interlaced twin ("sameAs"): same pixels, different layout.
Rows use the five filter types in turn, so the decoder's unfiltering is
exercised too.
"""
import base64
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

GREY, RGB, PALETTE, GREY_ALPHA, RGBA = 0, 2, 3, 4, 6
CHANNELS = {GREY: 1, RGB: 3, PALETTE: 1, GREY_ALPHA: 2, RGBA: 4}

# 16-bit values whose scaling is easy to get wrong: 0x8080 -> 128, 0x00FF -> 1
# (0.99 rounds up; v >> 8 gives 0), 0xFF00 -> 254 (254.004; v >> 8 gives 255),
# 0xFF7F -> 255 (254.502), 0x7FFF -> 127 (127.498), 0x8000 -> 128 (127.502).
EDGE_16 = [0x0000, 0xFFFF, 0x8080, 0x00FF, 0xFF7F, 0x7FFF, 0x8000, 0x0080, 0x0081, 0x807F, 0x7F80, 0xFF00]


class Random:
    """A small LCG, so the fixtures never depend on Python's random module."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def next(self, bound):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.state >> 8) % bound


def chunk(kind, data, crc=None):
    if crc is None:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def ihdr(width, height, depth, colour_type, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, interlace))


def pack_row(pixels, depth):
    """Pixels (tuples of samples) to the bytes of one unfiltered row."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for p in pixels for s in p)
    if depth == 8:
        return bytes(s for p in pixels for s in p)
    out, bits, acc = bytearray(), 0, 0
    for (s,) in pixels:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            bits, acc = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_row(kind, row, previous, bpp):
    out = bytearray([kind])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = previous[i] if previous else 0
        c = previous[i - bpp] if previous and i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((x - predictor) & 0xFF)
    return bytes(out)


def image_data(grid, depth, channels, interlace, filters):
    """The filtered scanlines (all Adam7 passes when interlaced), before zlib."""
    bpp = max(1, channels * depth // 8)
    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    else:
        passes = [(0, 0, 1, 1)]
    out = bytearray()
    for x0, y0, dx, dy in passes:
        previous = None
        for n, y in enumerate(range(y0, len(grid), dy)):
            pixels = grid[y][x0::dx]
            if not pixels:
                continue
            row = pack_row(pixels, depth)
            kind = filters if isinstance(filters, int) else n % 5
            out += filter_row(kind, row, previous, bpp)
            previous = row
    return bytes(out)


def scale_to_8(v, depth):
    if depth == 16:
        return (v * 255 * 2 + 65535) // (2 * 65535)  # round half up (no ties occur)
    return v * 255 // ((1 << depth) - 1)


def expected_rgba(grid, depth, colour_type, palette=None, alphas=None, key=None):
    out = bytearray()
    for row in grid:
        for p in row:
            if colour_type == PALETTE:
                r, g, b = palette[p[0]]
                a = alphas[p[0]] if alphas is not None and p[0] < len(alphas) else 255
            else:
                s = [scale_to_8(v, depth) for v in p]
                if colour_type in (GREY, GREY_ALPHA):
                    r = g = b = s[0]
                else:
                    r, g, b = s[0], s[1], s[2]
                if colour_type in (GREY_ALPHA, RGBA):
                    a = s[-1]
                else:
                    a = 0 if key is not None and tuple(p) == tuple(key) else 255
            out += bytes([r, g, b, a])
    return bytes(out)


def random_grid(rng, width, height, channels, bound, edges=()):
    values = list(edges)
    grid = []
    for _ in range(height):
        row = []
        for _ in range(width):
            row.append(tuple(values.pop(0) if values else rng.next(bound) for _ in range(channels)))
        grid.append(row)
    return grid


FILES = {}
EXPECTED = {}


def add(name, data, expected=None, width=None, height=None, same_as=None):
    FILES[name] = data
    if expected is not None:
        EXPECTED[name] = {"width": width, "height": height, "rgba": base64.b64encode(expected).decode("ascii")}
    if same_as is not None:
        EXPECTED[name] = {"width": width, "height": height, "sameAs": same_as}


def make(name, colour_type, depth, width=5, height=4, trns=False, interlace=False, extra=b"", twin_of=None):
    rng = Random(zlib.crc32(name.replace("_adam7", "").encode()))
    channels = CHANNELS[colour_type]
    palette = alphas = key = None
    chunks = b""
    if colour_type == PALETTE:
        count = 40 if depth == 8 else 1 << depth
        palette = [(rng.next(256), rng.next(256), rng.next(256)) for _ in range(count)]
        grid = random_grid(rng, width, height, 1, count, edges=list(range(count))[: width * height])
        chunks += chunk(b"PLTE", bytes(c for rgb in palette for c in rgb))
        if trns:  # shorter than the palette: the last entries stay opaque
            alphas = [0, 255, 128, 1, 254][: max(1, count - 1)] + [rng.next(256) for _ in range(max(0, count - 6))]
            chunks += chunk(b"tRNS", bytes(alphas))
    else:
        bound = 1 << depth
        edges = []
        if depth == 16:
            edges = list(EDGE_16)
        elif depth < 8:
            edges = list(range(bound))
        flat = random_grid(rng, width * channels, height, 1, bound, edges=edges)
        grid = [[tuple(s for (s,) in row[i * channels:(i + 1) * channels]) for i in range(width)] for row in flat]
        if trns:
            key = grid[1][1]
            grid[2][3] = key  # the key appears twice
            if colour_type == RGB:
                # same as the key except the last sample's low bit: must stay opaque
                grid[0][2] = key[:2] + (key[2] ^ 1,)
            else:
                grid[0][2] = (key[0] ^ 1,)
            chunks += chunk(b"tRNS", b"".join(struct.pack(">H", s) for s in key))
    data = zlib.compress(image_data(grid, depth, channels, interlace, filters="cycle"), 9)
    png = b"\x89PNG\r\n\x1a\n" + ihdr(width, height, depth, colour_type, 1 if interlace else 0)
    png += extra + chunks + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    if twin_of:
        add(name, png, width=width, height=height, same_as=twin_of)
    else:
        add(name, png, expected_rgba(grid, depth, colour_type, palette, alphas, key), width, height)
    return grid


def well_formed():
    for depth in (1, 2, 4, 8):
        make(f"palette{depth}.png", PALETTE, depth)
        make(f"palette{depth}_trns.png", PALETTE, depth, trns=True)
    for depth in (1, 2, 4, 8, 16):
        make(f"grey{depth}.png", GREY, depth)
    for depth in (2, 8, 16):
        make(f"grey{depth}_trns.png", GREY, depth, trns=True)
    for depth in (8, 16):
        make(f"greyalpha{depth}.png", GREY_ALPHA, depth)
        make(f"rgb{depth}.png", RGB, depth)
        make(f"rgb{depth}_trns.png", RGB, depth, trns=True)
        make(f"rgba{depth}.png", RGBA, depth)
    for base, colour_type, depth, trns in (("grey1", GREY, 1, False), ("palette2_trns", PALETTE, 2, True),
                                           ("rgb16", RGB, 16, False), ("rgba8", RGBA, 8, False)):
        make(f"{base}_9x9.png", colour_type, depth, 9, 9, trns=trns)
        make(f"{base}_9x9_adam7.png", colour_type, depth, 9, 9, trns=trns, interlace=True, twin_of=f"{base}_9x9.png")
    # Chunks a decoder must ignore: gamma 1.0, odd chromaticities, a broken ICC
    # profile, sRGB with absolute intent, text, time, physical size.
    ignored = (chunk(b"gAMA", struct.pack(">I", 100000))
               + chunk(b"cHRM", struct.pack(">8I", 10000, 20000, 30000, 40000, 50000, 60000, 70000, 80000))
               + chunk(b"iCCP", b"broken\x00\x00" + zlib.compress(b"not an ICC profile", 9))
               + chunk(b"sRGB", b"\x03")
               + chunk(b"tEXt", b"Comment\x00hello")
               + chunk(b"tIME", struct.pack(">HBBBBB", 2000, 1, 2, 3, 4, 5))
               + chunk(b"pHYs", struct.pack(">IIB", 2835, 2835, 1)))
    make("ancillary_ignored.png", RGBA, 16, extra=ignored)
    make("ancillary_bad_crc.png", RGB, 8, extra=chunk(b"tEXt", b"Title\x00damaged", crc=0x12345678))


def grey16_ramp():
    """256 x 256 grey, 16-bit, pixel (x, y) = y * 256 + x: every value once. Sub filter."""
    rows = bytearray()
    for y in range(256):
        rows += filter_row(1, b"".join(struct.pack(">H", y * 256 + x) for x in range(256)), None, 2)
    FILES["grey16_ramp.png"] = (b"\x89PNG\r\n\x1a\n" + ihdr(256, 256, 16, GREY)
                                + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def malformed():
    signature = b"\x89PNG\r\n\x1a\n"
    end = chunk(b"IEND", b"")
    small = zlib.compress(b"\x00" * 21 * 4, 9)  # 5 x 4 RGBA8, all zero
    FILES["bomb.png"] = signature + ihdr(100000, 100000, 8, RGBA) + chunk(b"IDAT", zlib.compress(b"", 9)) + end
    FILES["too_wide.png"] = signature + ihdr(1 << 25, 1, 8, RGBA) + chunk(b"IDAT", small) + end
    FILES["zero_width.png"] = signature + ihdr(0, 4, 8, RGBA) + chunk(b"IDAT", small) + end
    # zlib header, then a final block of the reserved type 3.
    FILES["bad_zlib.png"] = signature + ihdr(5, 4, 8, RGBA) + chunk(b"IDAT", b"\x78\xda\xff\xff\xff\xff") + end
    FILES["bad_filter.png"] = (signature + ihdr(5, 4, 8, RGBA)
                               + chunk(b"IDAT", zlib.compress((b"\x09" + b"\x00" * 20) * 4, 9)) + end)
    FILES["short_idat.png"] = (signature + ihdr(5, 4, 8, RGBA)
                               + chunk(b"IDAT", zlib.compress(b"\x00" * 21 * 2, 9)) + end)
    FILES["no_idat.png"] = signature + ihdr(5, 4, 8, RGBA) + end
    FILES["missing_plte.png"] = (signature + ihdr(5, 4, 8, PALETTE)
                                 + chunk(b"IDAT", zlib.compress(b"\x00" * 6 * 4, 9)) + end)
    FILES["unknown_critical.png"] = (signature + ihdr(5, 4, 8, RGBA) + chunk(b"CrIT", b"boom")
                                     + chunk(b"IDAT", small) + end)


def main():
    well_formed()
    grey16_ramp()
    malformed()
    for name, data in sorted(FILES.items()):
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(EXPECTED, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
