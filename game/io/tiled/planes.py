"""The squares a Tiled map's tile layers and terrain objects write, before they become a BattleMap.

One plane per square property, row by row: flags and degrees one byte a square, heights and
elevation 32-bit. tiled/convention decides what each source says; the planes combine it as the
convention wants (flags OR, degrees and heights the highest, elevation the last one stated).

A whole tile layer is combined with the standard library's C loops (bytes.translate, bitwise
operations on big integers, map over arrays), a terrain object one run of a row at a time (a
slice each), so a 1000 x 1000 map needs no numpy and no Python loop over its squares.
"""
from __future__ import annotations

import sys
from array import array

from ...core.values.battlemap import BattleMap
from ...core.values.cover import COVER_INDEX
from ...core.values.layer import INT32, UINT32, BoolLayer, Int32Layer, Layer

WHOLE_ROW = b"\x01" * 1024           # sliced for a run of flags (longer runs repeat it)


class Planes:
    def __init__(self, width: int, height: int, bool_keys, degree_keys):
        self.width, self.height_squares = width, height
        size = width * height
        self.flags = {key: bytearray(size) for key in bool_keys}        # 0 or 1
        self.degrees = {key: bytearray(size) for key in degree_keys}    # COVER_INDEX
        self.height = array(INT32, bytes(4 * size))
        self.elevation = array(INT32, bytes(4 * size))

    # -- whole tile layers: a code per square, and per code what the square gets -------------

    @staticmethod
    def square_codes(gids: array, code_of: dict[int, int], kinds: int):
        """Each square's code (code_of[gid]), one byte a square when there are 256 kinds or fewer."""
        if kinds <= 256:
            return bytes(map(code_of.__getitem__, gids))
        return array(UINT32, map(code_of.__getitem__, gids))

    def add_flags(self, key: str, codes, column: list[bool]) -> None:
        """Flag `key` where the square's code says so (OR with what is there)."""
        plane = self.flags[key]
        plane[:] = _or(plane, _bytes_of(codes, column))

    def raise_degrees(self, key: str, codes, column: list[int]) -> None:
        """Degree `key` raised to the square's code's where that is higher."""
        plane = self.degrees[key]
        plane[:] = _highest(plane, _bytes_of(codes, column))

    def raise_heights(self, codes, column: list[int]) -> None:
        """Height raised to the square's code's where that is higher (heights are 0 or more)."""
        new = _int32_of(codes, column)
        self.height[:] = new if self.height.count(0) == len(new) else _higher_int32(self.height, new)

    def set_elevation(self, codes, stated: list[bool], values: list[int]) -> None:
        """Elevation from the square's code where its code states one; kept elsewhere."""
        new = _int32_of(codes, values)
        self.elevation[:] = _pick_int32(self.elevation, new, _bytes_of(codes, stated))

    def or_mask(self, key: str, mask: bytes) -> None:
        """Flag `key` where `mask` (one byte a square, 0 or 1) says so."""
        plane = self.flags[key]
        plane[:] = _or(plane, bytes(mask))

    # -- runs of squares along rows (terrain objects) ---------------------------------------

    def fill_flag(self, key: str, runs) -> None:
        plane, width = self.flags[key], self.width
        for y, start, stop in runs:
            a, b = y * width + start, y * width + stop
            plane[a:b] = WHOLE_ROW[:b - a] if b - a <= len(WHOLE_ROW) else b"\x01" * (b - a)

    def raise_degree(self, key: str, runs, value: int) -> None:
        plane, width, table = self.degrees[key], self.width, _AT_LEAST[value]
        for y, start, stop in runs:
            a, b = y * width + start, y * width + stop
            plane[a:b] = plane[a:b].translate(table)

    def raise_height(self, runs, value: int) -> None:
        plane, width = self.height, self.width
        for y, start, stop in runs:
            a, b = y * width + start, y * width + stop
            plane[a:b] = array(INT32, [v if v > value else value for v in plane[a:b]])

    def set_elevation_runs(self, runs, value: int) -> None:
        plane, width, one = self.elevation, self.width, array(INT32, [value])
        for y, start, stop in runs:
            plane[y * width + start:y * width + stop] = one * (stop - start)

    # -- the battle map -------------------------------------------------------------------------

    def fill(self, battle: BattleMap, wall_key: str) -> None:
        """Write the planes into `battle`'s layers; squares flagged `wall_key` become full walls
        (blocking movement and sight, full cover, their height as the planes hold it), as
        BattleMap.add_wall makes one."""
        w, h = self.width, self.height_squares
        wall = bytes(self.flags[wall_key])
        for key, plane in self.flags.items():
            if key != wall_key:
                setattr(battle, key, BoolLayer.from_bytes(w, h, bytes(plane)))
        for key, plane in self.degrees.items():
            setattr(battle, key, Layer.from_bytes(w, h, bytes(plane)))
        battle.elevation_ft = Int32Layer(w, h, array(INT32, self.elevation))
        battle.obstacle_height_ft = Int32Layer(w, h, array(INT32, self.height))
        if wall.count(1):
            for layer in (battle.blocks_move, battle.blocks_sight):
                layer.cells[:] = array("B", _or(layer.cells.tobytes(), wall))
            battle.cover.cells[:] = array("B", _highest(battle.cover.tobytes(), wall.translate(_FULL_WHERE_ONE)))


# 32-bit squares as lanes of one big integer (in the machine's byte order, so each lane is the
# square's value): bitwise operations then work on every square at once, in C.
_LANE_TOP = int.from_bytes(array(INT32, [-2 ** 31]).tobytes(), sys.byteorder)   # the sign bit of one lane


def _lanes(squares: array) -> int:
    return int.from_bytes(squares.tobytes(), sys.byteorder)


def _from_lanes(value: int, count: int) -> array:
    squares = array(INT32)
    squares.frombytes(value.to_bytes(4 * count, sys.byteorder))
    return squares


def _pick_int32(old: array, new: array, pick: bytes) -> array:
    """new where pick's byte is 1, else old, square by square."""
    spread = bytearray(4 * len(pick))      # each byte of pick made 0x00 or 0xFF, four times over
    full = pick.translate(_ALL_ONES_WHERE_NONZERO)
    for i in range(4):
        spread[i::4] = full
    mask = int.from_bytes(spread, sys.byteorder)
    return _from_lanes((_lanes(old) & ~mask) | (_lanes(new) & mask), len(old))


def _higher_int32(old: array, new: array) -> array:
    """The higher of two values square by square, for values from 0 to 2**31 - 1: with each lane's
    top bit set, old - new keeps that bit exactly where old >= new, and never borrows from the
    next lane."""
    count = len(old)
    top = _LANE_TOP * (((1 << (32 * count)) - 1) // 0xFFFFFFFF)          # the top bit in every lane
    old_lanes, new_lanes = _lanes(old), _lanes(new)
    keep_old = ((old_lanes | top) - new_lanes) & top                      # lanes where old >= new
    mask = (keep_old >> 31) * 0xFFFFFFFF
    return _from_lanes((old_lanes & mask) | (new_lanes & ~mask), count)


def _bytes_of(codes, column: list[int]) -> bytes:
    """column[code] for each square's code, one byte a square."""
    if isinstance(codes, bytes):
        return codes.translate(bytes(column) + bytes(256 - len(column)))
    return bytes(map(column.__getitem__, codes))


def _int32_of(codes, column: list[int]) -> array:
    """column[code] for each square's code, 32 bits a square: each of a value's four bytes by
    its own translate table, written to every fourth byte."""
    if not isinstance(codes, bytes):
        return array(INT32, map(column.__getitem__, codes))
    values = array(INT32, column).tobytes()
    squares = bytearray(4 * len(codes))
    for i in range(4):
        table = values[i::4]
        squares[i::4] = codes.translate(table + bytes(256 - len(table)))
    return array(INT32, squares)    # bytes given to array() are its machine-order contents


def _or(a: bytes, b: bytes) -> bytes:
    """Bytes of 0 and 1 ORed square by square."""
    return (int.from_bytes(a, "little") | int.from_bytes(b, "little")).to_bytes(len(a), "little")


def _highest(a: bytes, b: bytes) -> bytes:
    """The higher of two degree bytes, square by square. Summed over the levels 1, 2, ... the
    bytes "at least this level in a or in b" (0 or 1 each) give max(a, b) in each byte, with no
    carry between bytes (a degree is at most 4)."""
    total = 0
    for level in range(1, MAX_DEGREE + 1):
        table = _AT_LEAST_ONE[level]
        total += int.from_bytes(a.translate(table), "little") | int.from_bytes(b.translate(table), "little")
    return total.to_bytes(len(a), "little")


MAX_DEGREE = max(COVER_INDEX.values())
# bytes.translate tables: byte v -> max(v, level); v -> 1 if v >= level else 0; 1 -> full cover
_AT_LEAST = [bytes(max(v, level) for v in range(256)) for level in range(MAX_DEGREE + 1)]
_AT_LEAST_ONE = [bytes(1 if v >= level else 0 for v in range(256)) for level in range(MAX_DEGREE + 1)]
_FULL_WHERE_ONE = bytes([0, COVER_INDEX["full"]]) + bytes(254)
_ALL_ONES_WHERE_NONZERO = bytes([0] + [255] * 255)
