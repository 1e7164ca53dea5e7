#!/usr/bin/env python3
"""Loads an HTML page in headless Chromium and checks that it rendered.

Usage: check_page.py CHROMIUM PAGE.html SELECTOR_CLASS EXPECTED_COUNT [PNG]

Fails (exit 1) unless the screenshot has enough non-white pixels in several
colours and the DOM Chromium built holds exactly EXPECTED_COUNT elements of
the given class. Prints what it measured so FileCheck can pin it.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium(binary, args):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([binary, *FLAGS, "--user-data-dir=" + profile, *args],
                              capture_output=True, timeout=120, check=True)


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA PNG into (width, height, rows of bytes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = header[:4]
    assert depth == 8 and colour in (2, 6), "unsupported PNG format"
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    binary, page, css_class, expected = sys.argv[1:5]
    shot = sys.argv[5] if len(sys.argv) > 5 else os.path.join(tempfile.mkdtemp(), "page.png")
    url = "file://" + os.path.abspath(page)
    chromium(binary, ["--window-size=1400,1100", "--screenshot=" + shot, url])
    width, height, bpp, rows = png_pixels(shot)
    inked, colours = 0, set()
    for row in rows:
        for x in range(0, width * bpp, bpp * 4):  # every 4th pixel is plenty
            pixel = row[x:x + 3]
            if pixel != b"\xff\xff\xff":
                inked += 1
                colours.add(pixel)
    share = inked / (len(rows) * (width // 4))
    dom = chromium(binary, ["--dump-dom", url]).stdout.decode("utf-8", "replace")
    count = len(re.findall(r'class="%s"' % re.escape(css_class), dom))
    print("screenshot %dx%d, inked %.1f%%, %d colours" % (width, height, 100 * share, len(colours)))
    print("rendered %d elements of class %s" % (count, css_class))
    ok = share > 0.02 and len(colours) >= 8 and count == int(expected)
    print("page check: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
