"""Large CSV tile layers are read by numpy's parser once the bytes are checked
(game/io/tiled/layerdata.py: _csv_numbers); every answer is the plain reading's: the same
numbers for well-formed data, and for anything else the plain reading runs and names the fault."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from game.core.values.errors import DataFileError
from game.io.tiled.layerdata import _VECTOR_FROM, _csv_numbers, _decode_csv

W, H = 64, 64       # 4096 squares: read by numpy
assert W * H >= _VECTOR_FROM

entries = st.one_of(st.integers(0, 2 ** 32 - 1).map(str),
                    st.sampled_from(["0", "00000000012", "0000000012", "4294967296", "99999999999", "", "-1",
                                     "1e3", "+5", "1.0", "\u0663", "7 7", " 8", "\t9\n"]))


def read(text: str):
    try:
        return _decode_csv(text, W, H, "m.tmx", "layer 'g'").numpy().ravel().tolist()
    except DataFileError as err:
        return str(err)


def plain(text: str):
    """The loader's reading with the numpy path switched off: what it answered before."""
    from game.io.tiled import layerdata
    kept = layerdata._VECTOR_FROM
    layerdata._VECTOR_FROM = 10 ** 12
    try:
        return read(text)
    finally:
        layerdata._VECTOR_FROM = kept


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, W * H - 1), max_size=3), st.data(),
       st.sampled_from([",", ",\n", ", ", ",\r\n\t"]), st.sampled_from(["", ",", ",\n", "\n", ",,"]),
       st.integers(-1, 1))
def test_the_fast_reading_answers_as_the_plain_one(odd_places, data, sep, tail, extra):
    count = W * H
    tokens = [str((i * 2654435761) % (2 ** 32)) for i in range(count + extra)]
    for place in odd_places:
        if place < len(tokens):
            tokens[place] = data.draw(entries)
    text = sep.join(tokens) + tail
    fast = _csv_numbers(text, count)
    want = plain(text)
    if fast is None:
        assert isinstance(want, str) or odd_places, "well-formed data the fast reading turned down"
    else:
        assert fast.tolist() == want
    assert read(text) == want       # through the loader's door: the same numbers, or the same message


def test_a_well_formed_layer_is_read_by_numpy():
    text = ",\n".join(str(i % 300) for i in range(W * H)) + ",\n"
    values = _csv_numbers(text, W * H)
    assert values is not None and values.tolist() == [i % 300 for i in range(W * H)]


@pytest.mark.parametrize("odd", ["00000000012", "", "-1", "4294967296", "1e3"])
def test_a_fault_is_named_by_the_plain_reading(odd):
    tokens = ["1"] * (W * H)
    tokens[100] = odd
    text = ",".join(tokens)
    assert _csv_numbers(text, W * H) is None
    with pytest.raises(DataFileError):
        _decode_csv(text, W, H, "m.tmx", "layer 'g'")
