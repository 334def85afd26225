"""What a browser test reads off a screenshot (Playwright's PNG): the pixels of a colour.

For what no DOM property says: whether an icon was painted (a CSS mask whose image never
loaded paints nothing, its element's box unchanged). A PNG decoder of the standard library's
zlib, for the 8-bit RGB or RGBA non-interlaced images chromium's screenshots are."""

from __future__ import annotations

import struct
import zlib


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def rgb_pixels(png: bytes) -> list[tuple[int, int, int]]:
    """Every pixel of ``png`` as (r, g, b), row after row."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, data, header = 8, b"", None
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    assert header is not None
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(data), width * step
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = row[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            row[x] = (
                row[x] + (0, left, up, (left + up) // 2, _paeth(left, up, corner))[kind]
            ) & 0xFF
        rows.append(row)
        previous = row
    return [tuple(row[x : x + 3]) for row in rows for x in range(0, stride, step)]


def count_near(png: bytes, colour: tuple[int, int, int], within: int = 60) -> int:
    """How many pixels of ``png`` are within ``within`` (each channel) of ``colour``."""
    return sum(
        1
        for pixel in rgb_pixels(png)
        if all(abs(p - c) <= within for p, c in zip(pixel, colour, strict=True))
    )
