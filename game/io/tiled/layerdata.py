"""Decoding a tile layer's `<data>` into raw 32-bit Tiled GIDs, with hard limits.

Reads every encoding Tiled writes: CSV, base64 (uncompressed, zlib, gzip or zstd, zstd
through the `zstandard` library) and the old XML format (one `<tile gid=.../>` a square),
for a whole layer or for one chunk of an infinite map. Decompression is bounded to the
exact size the layer needs, so a decompression bomb costs nothing.
"""
from __future__ import annotations

import binascii
import io
import re
import sys
import zlib
from array import array
from base64 import b64decode

from ...core.values.errors import DataFileError
from ...core.values.layer import UInt32Layer

# Top bits of a GID are flip/rotation flags (Tiled: horizontal, vertical, diagonal, hex 120°).
FLIP_HORIZONTAL = 1 << 31
FLIP_VERTICAL = 1 << 30
FLIP_DIAGONAL = 1 << 29
ROTATE_HEX_120 = 1 << 28
GID_MASK = ROTATE_HEX_120 - 1
MAX_RAW_GID = (1 << 32) - 1

FIX_FORMAT = "in Tiled choose Map > Map Properties > Tile Layer Format: CSV (or Base64 zlib) and save again"

_SPACES = re.compile(r"\s+")
_WHITESPACE = re.compile(rb"\s+")


def decode_layer_data(data_el, width: int, height: int, shown: str, where: str) -> UInt32Layer:
    """Return the layer's raw GIDs (flags included), width x height."""
    if data_el is None:
        raise DataFileError(shown, where, "has no <data> element")
    if data_el.find("chunk") is not None:
        raise DataFileError(shown, where, "holds chunks of an infinite map, but the map is not infinite; "
                                          "re-save it from Tiled")
    return decode_tiles(data_el, data_el, width, height, shown, where)


def decode_tiles(data_el, holder, width: int, height: int, shown: str, where: str) -> UInt32Layer:
    """The GIDs `holder` (the `<data>` itself, or one of its `<chunk>`s) holds, with the encoding
    and compression its `<data>` states."""
    encoding = data_el.get("encoding")
    compression = data_el.get("compression")
    text = holder.text or ""
    count = width * height
    if encoding is None:
        return _decode_xml(holder, width, height, shown, where)
    if encoding == "csv":
        if compression:
            raise DataFileError(shown, where, f"CSV data cannot be compressed ('{compression}'); {FIX_FORMAT}")
        return _decode_csv(text, width, height, shown, where)
    if encoding == "base64":
        raw = _decode_base64(text, shown, where)
        if compression in (None, ""):
            data = raw
        elif compression in ("zlib", "gzip"):
            data = _inflate(raw, compression, count * 4, shown, where)
        elif compression == "zstd":
            data = _unzstd(raw, count * 4, shown, where)
        else:
            raise DataFileError(shown, where, f"uses unknown compression '{compression}'; {FIX_FORMAT}")
        if len(data) != count * 4:
            raise DataFileError(
                shown, where,
                f"holds {len(data) // 4} tiles ({len(data)} bytes), expected {width} x {height} = {count}",
            )
        gids = UInt32Layer.from_bytes(width, height, data)
        if sys.byteorder == "big":  # Tiled writes little-endian
            gids.cells.byteswap()
        return gids
    raise DataFileError(shown, where, f"uses unknown encoding '{encoding}'; {FIX_FORMAT}")


def _decode_xml(holder, width: int, height: int, shown: str, where: str) -> UInt32Layer:
    """Tiled's oldest format: one `<tile>` element a square, its `gid` absent for an empty one."""
    count = width * height
    tiles = holder.findall("tile")
    if len(tiles) != count:
        if not tiles and (holder.text or "").strip():
            raise DataFileError(shown, where, f"layer data has no encoding; {FIX_FORMAT}")
        raise DataFileError(shown, where, f"has {len(tiles)} <tile> elements, expected {width} x {height} = {count}")
    values = []
    for tile in tiles:
        text = (tile.get("gid") or "0").strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 10 and int(text) <= MAX_RAW_GID):
            raise DataFileError(shown, where, f"has <tile gid=\"{text[:20]}\">; each gid must be a tile number "
                                              f"from 0 to {MAX_RAW_GID}")
        values.append(int(text))
    return UInt32Layer(width, height, array(UInt32Layer.typecode, values))


def _decode_csv(text: str, width: int, height: int, shown: str, where: str) -> UInt32Layer:
    count = width * height
    if text.count(",") > count:  # counted before splitting: 32 MiB of commas would be 16 million strings
        raise DataFileError(
            shown, where, f"has more than {count} tile numbers in its CSV data, expected {width} x {height} = {count}"
        )
    values = _csv_numbers(text, count) if count >= _VECTOR_FROM else None
    if values is not None:
        return UInt32Layer.from_bytes(width, height, values.tobytes())
    return _decode_csv_tokens(text, width, height, count, shown, where)


_VECTOR_FROM = 256      # below this many squares the plain split is quicker
_ASCII_SPACES = b" \t\n\r\x0b\x0c"


def _csv_numbers(text: str, count: int):
    """The tile numbers of well-formed CSV data (ASCII digits and commas, whitespace anywhere, 1 to 10
    digits an entry, `count` entries, maybe one comma after the last), read by numpy's C parser once
    the bytes are checked: a 1000 x 1000 layer in tens of milliseconds. None for anything else: the
    plain reading then finds the fault and names it."""
    import numpy as np
    if not text.isascii():
        return None
    compact = text.encode("ascii").translate(None, _ASCII_SPACES)
    if compact.endswith(b","):
        compact = compact[:-1]
    if not compact or compact.translate(None, b"0123456789,"):
        return None
    commas = np.flatnonzero(np.frombuffer(compact, np.uint8) == ord(","))
    if len(commas) != count - 1:
        return None
    spans = np.diff(commas, prepend=-1, append=len(compact))     # each entry's length plus its comma
    if spans.min() < 2 or spans.max() > 11:
        return None
    values = np.fromstring(compact, dtype=np.uint64, sep=",")
    if len(values) != count or values.max() > MAX_RAW_GID:
        return None
    return values.astype(np.uint32)


def _decode_csv_tokens(text: str, width: int, height: int, count: int, shown: str, where: str) -> UInt32Layer:
    tokens = _SPACES.sub("", text).split(",")
    if tokens and tokens[-1] == "":
        tokens.pop()  # Tiled may end a row (and so the data) with a comma
    if len(tokens) != count:
        raise DataFileError(
            shown, where, f"has {len(tokens)} tile numbers in its CSV data, expected {width} x {height} = {count}"
        )
    # ASCII digits only, at most 10 of them: no signs, no junk, no 4000-digit numbers
    if not text.isascii() or not all(map(str.isdigit, tokens)) or max(map(len, tokens)) > 10:
        bad = next(t for t in tokens if not (t.isascii() and t.isdigit() and len(t) <= 10))
        raise DataFileError(
            shown, where,
            f"has '{bad[:20] or '(an empty entry)'}' in its CSV data; each entry must be a tile number "
            f"from 0 to {MAX_RAW_GID}",
        )
    values = list(map(int, tokens))
    try:
        return UInt32Layer(width, height, array(UInt32Layer.typecode, values))
    except OverflowError:  # a number over 32 bits
        raise DataFileError(
            shown, where, f"has tile number {max(values)} in its CSV data; tile numbers are at most {MAX_RAW_GID}"
        ) from None


def _decode_base64(text: str, shown: str, where: str) -> bytes:
    compact = _WHITESPACE.sub(b"", text.encode("ascii", errors="replace"))
    try:
        return b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise DataFileError(
            shown, where, f"layer data is not valid base64 (damaged file?); re-save it from Tiled or {FIX_FORMAT}"
        ) from None


def _inflate(raw: bytes, compression: str, expected: int, shown: str, where: str) -> bytes:
    inflater = zlib.decompressobj(wbits=zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
    try:
        data = inflater.decompress(raw, expected)
        overflow = inflater.decompress(inflater.unconsumed_tail, 1) if not inflater.eof else b""
    except zlib.error as err:
        raise DataFileError(shown, where, f"{compression} data is damaged ({err}); re-save the map from Tiled") from None
    if overflow or len(data) > expected:
        raise DataFileError(
            shown, where,
            f"{compression} data unpacks to more than the {expected // 4} tiles the layer holds "
            "(damaged file or decompression bomb)",
        )
    if not inflater.eof:
        raise DataFileError(shown, where, f"{compression} data is truncated; re-save the map from Tiled")
    if inflater.unused_data.strip(b"\0"):
        raise DataFileError(shown, where, f"has extra bytes after the {compression} data; re-save the map from Tiled")
    return data


def _unzstd(raw: bytes, expected: int, shown: str, where: str) -> bytes:
    """zstd data read through a bounded stream: never more than the layer's bytes plus one."""
    import zstandard

    try:
        with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw), read_across_frames=False) as reader:
            data = b""
            while len(data) <= expected:
                piece = reader.read(expected + 1 - len(data))
                if not piece:
                    break
                data += piece
    except zstandard.ZstdError as err:
        raise DataFileError(shown, where, f"zstd data is damaged ({err}); re-save the map from Tiled") from None
    if len(data) > expected:
        raise DataFileError(
            shown, where,
            f"zstd data unpacks to more than the {expected // 4} tiles the layer holds "
            "(damaged file or decompression bomb)",
        )
    return data
