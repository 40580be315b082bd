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
    if head[:6] in (b"GIF87a", b"GIF89a"):
        _check_gif_frames(ref, referrer, where, written, size)
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


MAX_GIF_BYTES = 32 * 1024 * 1024


def _check_gif_frames(ref: FileRef, referrer: str, where: str, written: str, size: tuple[int, int]) -> None:
    """Every frame of a GIF must lie within the size its header gives: a decoder allocates each frame at
    its own size, so a 120-byte file saying 32x32 could hold a 12000x12000 frame (576 MB decoded)."""
    def refuse(problem: str):
        raise DataFileError(referrer, where, f"the image '{written}' {problem}")

    with open(ref.real, "rb") as handle:
        data = handle.read(MAX_GIF_BYTES + 1)
    if len(data) > MAX_GIF_BYTES:
        refuse(f"is a GIF over {MAX_GIF_BYTES // (1024 * 1024)} MiB; fivefoot reads smaller ones")
    pos = 13 + (3 << ((data[10] & 7) + 1) if len(data) > 10 and data[10] & 0x80 else 0)
    frame = 0
    while pos < len(data):
        kind = data[pos]
        if kind == 0x3B:  # the trailer
            return
        if kind == 0x21:  # an extension: its label, then data sub-blocks
            pos = _skip_sub_blocks(data, pos + 2)
        elif kind == 0x2C:  # an image descriptor: a frame
            if pos + 10 > len(data):
                break
            left, top, width, height = struct.unpack("<HHHH", data[pos + 1:pos + 9])
            frame += 1
            if left + width > size[0] or top + height > size[1]:
                refuse(f"has a frame (#{frame}) of {width}x{height} pixels at {left},{top}, outside the "
                       f"{size[0]}x{size[1]} its header says; re-save the image")
            flags = data[pos + 9]
            pos += 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
            pos = _skip_sub_blocks(data, pos + 1)  # after the LZW code size
        else:
            break
        if pos < 0:
            break  # truncated: the decoder stops there too; only the frames' sizes matter here


def _skip_sub_blocks(data: bytes, pos: int) -> int:
    """The position after the data sub-blocks starting at `pos` (-1 if the data ends first)."""
    while pos < len(data):
        length = data[pos]
        pos += 1 + length
        if length == 0:
            return pos
    return -1
