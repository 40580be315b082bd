"""Checking image files by their header alone: format (PNG, GIF, BMP, JPEG) and size.

Nothing is decoded: the loader only needs to know an image exists, is an image, and is
not absurdly large, so the renderer can load it later without surprises.
"""
from __future__ import annotations

import struct

from ...core.values.errors import DataFileError
from .files import FileRef, read_head

MAX_IMAGE_SIDE = 16384
_HEAD_BYTES = 64 * 1024  # JPEG headers (EXIF, ICC) may push the size marker this far


def image_size(ref: FileRef, referrer: str, where: str, written: str) -> tuple[int, int]:
    """Width and height in pixels read from the image header; DataFileError if not an image.

    `written` is the image's name as the referring file gives it, for messages.
    """
    head = read_head(ref, _HEAD_BYTES)
    size = _sniff(head)
    if size is None:
        raise DataFileError(
            referrer, where,
            f"the image '{written}' is not a PNG, GIF, BMP or JPEG file (or its header is damaged)",
        )
    width, height = size
    if not (1 <= width <= MAX_IMAGE_SIDE and 1 <= height <= MAX_IMAGE_SIDE):
        raise DataFileError(
            referrer, where,
            f"the image '{written}' claims to be {width}x{height} pixels; each side must be 1 to {MAX_IMAGE_SIDE}",
        )
    return size


def _sniff(head: bytes) -> tuple[int, int] | None:
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR" and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return struct.unpack("<HH", head[6:10])
    if head.startswith(b"BM") and len(head) >= 26:
        (dib_size,) = struct.unpack("<I", head[14:18])
        if dib_size == 12:
            return struct.unpack("<HH", head[18:22])
        if dib_size >= 40:
            width, height = struct.unpack("<ii", head[18:26])
            return width, abs(height)  # negative height means rows stored top-down
        return None
    if head.startswith(b"\xff\xd8\xff"):
        return _jpeg_size(head)
    return None


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    pos = 2
    while pos + 4 <= len(head):
        if head[pos] != 0xFF:
            return None
        marker = head[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", head[pos + 2 : pos + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if pos + 9 > len(head):
                return None
            height, width = struct.unpack(">HH", head[pos + 5 : pos + 9])
            return width, height
        if length < 2:
            return None
        pos += 2 + length
    return None
