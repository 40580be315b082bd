"""One value per square of a map, in a flat stdlib array: the battle map's terrain layers.

The rules read and write single squares, `layer[y, x]`, thousands of times a turn; a plain
Python read of a flat array is as quick as a numpy scalar read and gives plain ints and bools,
and the commands that never do whole-layer work start without importing numpy at all.
Whole-layer work (drawing the map, the flyer volume, tests building maps with slices) asks
`layer.numpy()` for a writable numpy view of the same memory; numpy is imported only there.
Any other key (a row, slices, index arrays) goes to that view too, so numpy-style slicing
keeps working wherever numpy is at hand.
"""
from __future__ import annotations

from array import array

# Machine types of the arrays that hold 32-bit squares ('i' and 'I' are 32 bits on every
# platform CPython runs on; 'l' and 'L' are the fallback the array module offers).
INT32 = "i" if array("i").itemsize == 4 else "l"
UINT32 = "I" if array("I").itemsize == 4 else "L"

# bytes.translate tables: a byte's value to 1 if it is not zero, else 0
NONZERO = bytes([0] + [1] * 255)


class Layer:
    """Width x height squares, row by row in `cells` (an array.array), indexed `[y, x]`.

    Square reads and writes go through a 2-D memoryview of `cells`: one C call each, with
    numpy's semantics for whole-number indices (negative ones count from the end, others
    out of range raise IndexError)."""

    __slots__ = ("width", "height", "cells", "_squares")
    typecode = "B"
    view_format = "B"     # the memoryview's format: what a read gives ('?': True or False)

    def __init__(self, width: int, height: int, cells: array | None = None):
        if cells is None:
            cells = array(self.typecode, bytes(width * height * array(self.typecode).itemsize))
        elif cells.typecode != self.typecode or len(cells) != width * height:
            raise ValueError(f"{type(self).__name__} of {width}x{height} needs {width * height} "
                             f"'{self.typecode}' cells, not {len(cells)} '{cells.typecode}'")
        self.width = width
        self.height = height
        self.cells = cells
        self._squares = memoryview(cells).cast("B").cast(self.view_format, (height, width))

    @classmethod
    def from_bytes(cls, width: int, height: int, data: bytes) -> "Layer":
        """A layer over machine-order bytes (as `tobytes()` gives them)."""
        cells = array(cls.typecode)
        cells.frombytes(data)
        return cls(width, height, cells)

    @classmethod
    def from_rows(cls, rows: list[list]) -> "Layer":
        """A layer holding `rows` (as `tolist()` gives them; each row as long as the first)."""
        return cls(len(rows[0]), len(rows), array(cls.typecode, [v for row in rows for v in row]))

    def __reduce__(self):  # pickling and deep copies: the memoryview is rebuilt, not copied
        return type(self), (self.width, self.height, self.cells)

    @property
    def shape(self) -> tuple[int, int]:
        return self.height, self.width

    def __getitem__(self, key):
        try:
            return self._squares[key]
        except (NotImplementedError, TypeError):  # a row, slices, index arrays: numpy's business
            return _scalar(self.numpy()[key])

    def __setitem__(self, key, value) -> None:
        try:
            self._squares[key] = value
        except (NotImplementedError, TypeError, ValueError):  # as above, or a value numpy converts
            self.numpy()[key] = value

    def numpy(self):
        """A writable numpy view [y, x] of the same memory: writes to it change the layer."""
        import numpy as np
        return np.asarray(self._squares)

    def __array__(self, dtype=None, copy=None):
        view = self.numpy()
        return view if dtype is None else view.astype(dtype)

    def tolist(self) -> list[list]:
        """Rows of plain Python values (as numpy's tolist gives them)."""
        return self._squares.tolist()

    def tobytes(self) -> bytes:
        return self.cells.tobytes()

    def copy(self) -> "Layer":
        return type(self)(self.width, self.height, array(self.typecode, self.cells))

    def count_nonzero(self) -> int:
        """How many squares hold anything but zero."""
        return len(self.cells) - self.cells.count(0)

    def truth(self) -> bytes:
        """One byte a square: 1 where the square holds anything but zero, else 0."""
        if self.cells.itemsize == 1:
            return self.cells.tobytes().translate(NONZERO)
        return bytes(map(bool, self.cells))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.width}x{self.height})"

    def __getattr__(self, name: str):  # only for names the layer lacks: point at the numpy view
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}; for whole-layer numpy work "
                             f"use layer.numpy().{name}")


class BoolLayer(Layer):
    """Yes or no a square, stored as bytes 0 and 1; reads give True or False."""

    __slots__ = ()
    view_format = "?"


class Int32Layer(Layer):
    """A signed 32-bit whole number a square (heights in feet)."""

    __slots__ = ()
    typecode = view_format = INT32


class UInt32Layer(Layer):
    """An unsigned 32-bit whole number a square (Tiled's raw tile numbers)."""

    __slots__ = ()
    typecode = view_format = UINT32


def count_both(a: Layer, b: Layer) -> int:
    """How many squares are non-zero in both layers."""
    return (int.from_bytes(a.truth(), "little") & int.from_bytes(b.truth(), "little")).bit_count()


def _scalar(value):
    """A numpy scalar as the plain Python value the fast path gives; arrays as they are."""
    return value.item() if hasattr(value, "item") and getattr(value, "ndim", 1) == 0 else value
