#!/usr/bin/env python3
"""exif_orient.py FILE.jpg N: inserts an APP1 Exif block with Orientation N right after the JPEG's
SOI marker (a minimal big-endian TIFF with one IFD entry), so the example photo carries the tag a
camera would write. No libraries needed."""
import struct
import sys

path, value = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
assert data[:2] == b"\xff\xd8", "not a JPEG"
tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(">I", 0)
payload = b"Exif\x00\x00" + tiff
app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
open(path, "wb").write(data[:2] + app1 + data[2:])
