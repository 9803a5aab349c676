#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""png_colours.py FILE.png [RRGGBB...] : what a screenshot shows, as JSON:
{"width", "height", "colours" (distinct), "non_white" (share of pixels),
"found": {RRGGBB: pixels}}. Reads 8-bit RGB and RGBA PNGs without
interlacing (what Chromium's --screenshot writes), by the PNG specification
(ISO/IEC 15948: chunks, zlib, the five row filters), with no imaging
library. Exit 1 when the file is no such PNG.
"""
import json
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def rows(data, width, height, bpp):
    stride = width * bpp
    prev = bytearray(stride)
    pos = 0
    for _ in range(height):
        ft = data[pos]
        cur = bytearray(data[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                cur[i] = (cur[i] + a) & 0xff
            elif ft == 2:
                cur[i] = (cur[i] + b) & 0xff
            elif ft == 3:
                cur[i] = (cur[i] + ((a + b) >> 1)) & 0xff
            elif ft == 4:
                cur[i] = (cur[i] + paeth(a, b, c)) & 0xff
            elif ft != 0:
                raise ValueError(f"row filter {ft}")
        yield cur
        prev = cur


def main():
    buf = open(sys.argv[1], "rb").read()
    if buf[:8] != b"\x89PNG\r\n\x1a\n":
        print("png_colours: not a PNG", file=sys.stderr)
        return 1
    pos, idat, hdr = 8, b"", None
    while pos < len(buf):
        n, kind = struct.unpack(">I4s", buf[pos:pos + 8])
        body = buf[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        print(f"png_colours: depth {depth}, colour type {ctype}, interlace {interlace}: "
              "not read", file=sys.stderr)
        return 1
    bpp = 3 if ctype == 2 else 4
    want = {w.lower(): 0 for w in sys.argv[2:]}
    seen, white = set(), 0
    for row in rows(zlib.decompress(idat), width, height, bpp):
        for i in range(0, len(row), bpp):
            rgb = bytes(row[i:i + 3])
            seen.add(rgb)
            white += rgb == b"\xff\xff\xff"
            h = rgb.hex()
            if h in want:
                want[h] += 1
    json.dump({"width": width, "height": height, "colours": len(seen),
               "non_white": 1 - white / (width * height), "found": want}, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
