"""A fuzz target for every loader (issue 29): generated Tiled XML and JSON maps, scenarios (TOML) and
saves, each mutated from a good document, must load or be refused with the project's own error in
one line (exit 2 from the command line), never another exception, and within a CPU and memory
budget. Bounded in examples, not in seconds; the budgets are blow-up guards (tests/budget.py)."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from game.cli import main
from game.core.values.errors import RulesError
from game.io.saves import load_battle
from game.io.scenarios import load_scenario
from game.io.tiled import load_map
from budget import guarded_traced
from tiled_maps import grid, obj, object_layer, tile_layer, tmx, write_map, write_world

CPU_S = 10.0
PEAK_BYTES = 128 << 20
# FUZZ_EXAMPLES=500 for a longer hunt by hand; the suite's runs stay short and the same each time.
SETTINGS = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 25)), deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# Pieces hostile files are made of: numbers out of every range, other scripts' digits, control and
# bidi characters, markup, paths leading out, huge repeats.
NASTY = st.sampled_from([
    "", "0", "-1", "1e309", "nan", "4294967296", "\u0663", "\uff14", "1_0", "true", "\x1b[2J", "\u202e",
    "../../../etc/passwd", "/etc/passwd", "C:\\x", "a,b", "<", "&amp;", "&x;", "]]>", "9" * 400, "x" * 5000,
    "\x00", "\ud800", "polygon", "terrain", "spawn", "base64", "zlib", "csv",
])
SCALARS = st.one_of(NASTY, st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True), st.booleans(), st.none(),
                    st.text(max_size=30))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(NASTY, inner, max_size=4)), max_leaves=12)


def _outcome(load, path: Path) -> None:
    """Loaded, or the project's own error in one line; within the budgets."""
    run, peak = guarded_traced(lambda: load(path))
    if run.error is not None:
        assert isinstance(run.error, RulesError), f"{type(run.error).__name__}: {run.error}"
        assert "\n" not in str(run.error), str(run.error)
    assert run.cpu_s < CPU_S, f"{run.cpu_s:.1f} s of CPU"
    assert peak < PEAK_BYTES, f"peak {peak >> 20} MiB"


def _folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="fuzz-"))


GOOD_TMX = tmx(tile_layer("g", grid(4, 3)), object_layer(
    "o", obj("terrain", 32, 32, 64, 32, props={"wall": True}),
    obj("spawn", 16, 16, props={"side": "red"}), obj("spawn", 112, 80, props={"side": "blue"}),
    obj("terrain", 0, 0, shape='   <polygon points="0,0 64,0 64,64"/>\n', props={"water": True})))


@st.composite
def mutated_text(draw, good: str):
    """`good` with a few of its attribute values, text or bytes replaced by hostile pieces."""
    text = good
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["value", "insert", "cut", "repeat"]))
        at = draw(st.integers(0, len(text)))
        if kind == "value":
            start = text.find('="', at)
            if start < 0:
                continue
            end = text.find('"', start + 2)
            piece = draw(NASTY).replace('"', "&quot;").replace("<", "&lt;")
            text = text[:start + 2] + piece + text[end:]
        elif kind == "insert":
            text = text[:at] + draw(NASTY) + text[at:]
        elif kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 200)):]
        else:
            end = text.find(">", at)
            if end > 0:
                text = text[:end + 1] + text[at:end + 1] * draw(st.integers(2, 2000)) + text[end + 1:]
    return text


@SETTINGS
@given(text=mutated_text(GOOD_TMX))
def test_fuzzed_tmx_maps_load_or_are_refused_in_one_line(text):
    folder = _folder()
    write_world(folder)
    path = folder / "m.tmx"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    _outcome(load_map, path)


def _good_json() -> dict:
    return {"type": "map", "orientation": "orthogonal", "width": 4, "height": 3, "tilewidth": 32,
            "tileheight": 32, "infinite": False, "tilesets": [{"firstgid": 1, "source": "t.tsx"}],
            "properties": [{"name": "title", "type": "string", "value": "t"}],
            "layers": [{"type": "tilelayer", "name": "g", "width": 4, "height": 3, "data": [1] * 12},
                       {"type": "objectgroup", "name": "o", "objects": [
                           {"id": 1, "type": "spawn", "x": 16, "y": 16, "properties": [
                               {"name": "side", "type": "string", "value": "red"}]},
                           {"id": 2, "type": "terrain", "x": 0, "y": 0, "polygon": [
                               {"x": 0, "y": 0}, {"x": 64, "y": 0}, {"x": 0, "y": 64}]}]}]}


def _paths(value, prefix=()):
    """Every place in a JSON document, as a path of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


@st.composite
def mutated_json(draw, good: dict):
    document = json.loads(json.dumps(good))
    for _ in range(draw(st.integers(1, 4))):
        places = [p for p in _paths(document) if p]
        place = draw(st.sampled_from(places))
        holder = document
        for key in place[:-1]:
            holder = holder[key]
        if isinstance(holder, (dict, list)):
            holder[place[-1]] = draw(JSON_VALUES)
    return document


@SETTINGS
@given(document=mutated_json(_good_json()))
def test_fuzzed_json_maps_load_or_are_refused_in_one_line(document):
    folder = _folder()
    write_world(folder)
    path = folder / "m.tmj"
    path.write_text(json.dumps(document), encoding="utf-8", errors="surrogatepass")
    _outcome(load_map, path)


GOOD_SCENARIO = '''title = "t"
ruleset = "bfrpg"
seed = 3
[map]
ascii = """
......
..#...
......
"""
[[figures]]
id = "a"
side = "red"
template = "foot"
x = 0
y = 0
weapons = ["sword"]
[[figures]]
id = "b"
side = "blue"
template = "archer"
x = 5
y = 2
facing = "W"
'''


TOML_VALUES = st.sampled_from([
    '""', "-1", "9" * 30, "1e999", "nan", "inf", "true", "[]", "{}", '["sword", "sword"]', "[[]]", "{x = 1}",
    '"\\u202e"', '"/etc/passwd"', '"../../x.tmx"', '"x.toml"', "1979-05-27", '"""\n"""', "[" * 40,
])


@st.composite
def mutated_toml(draw, good: str):
    lines = good.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        valued = [i for i, line in enumerate(lines) if " = " in line]
        i = draw(st.sampled_from(valued))
        key = lines[i].split(" = ")[0]
        lines[i] = f"{draw(st.sampled_from([key, key, 'extra', 'id', 'footprint', 'mount', 'asset_root']))} = " \
                   f"{draw(TOML_VALUES)}"
    return "\n".join(lines)


@SETTINGS
@given(text=st.one_of(mutated_toml(GOOD_SCENARIO), mutated_text(GOOD_SCENARIO)))
def test_fuzzed_scenarios_load_or_are_refused_in_one_line(text):
    path = _folder() / "s.toml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    _outcome(load_scenario, path)


def _good_save() -> dict:
    from battles import fig, make_battle
    from game.core.values.actions import Move
    battle = make_battle("bfrpg", "......\n......\n......", [fig("a", "red", 0, 0), fig("b", "blue", 5, 2)])
    battle.apply(Move("a", (1, 1)))
    return battle.to_save_data()


GOOD_SAVE = _good_save()


@SETTINGS
@given(document=mutated_json({k: v for k, v in GOOD_SAVE.items() if k != "ruleset"}))
def test_fuzzed_saves_load_or_are_refused_in_one_line(document):
    path = _folder() / "s.json"
    path.write_text(json.dumps({**document, "ruleset": GOOD_SAVE["ruleset"]}), encoding="utf-8",
                    errors="surrogatepass")
    _outcome(load_battle, path)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(text=mutated_text(GOOD_TMX))
def test_fuzzed_maps_through_the_command_line_exit_0_or_2(text):
    folder = _folder()
    path = write_map(folder, text.encode("utf-8", "surrogatepass"))
    assert main(["check-map", str(path), "--json"]) in (0, 2)
