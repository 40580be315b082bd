"""A flyer's reachable set from the vectorised sweep (moves/volume.py) against the general search
and the exhaustive reference (docs/movement.md): the same squares in the same order, the same
least cost per square, end facing and altitude, and the same can_end, under all five rulesets,
for winged, floating and incorporeal flyers at every pace they have, with turning distances,
altitudes, moves continued from earlier in the round, walls with and without heights, ledges,
foes to pass over and allies, under the planning ceiling and a low one; a stalled flyer's forced dive is left to the general search.
SearchResult.entries searches state by state up to a cap and hands bigger flights to the sweep:
wherever the cap falls, the same entries, and the search stopped at the cap resumes whole.
"""
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.moves import planner as planner_module
from game.core.moves import volume
from game.core.moves.planner import Planner
from game.core.ruleset import Ruleset
from game.io.rulesets import load_ruleset

from helpers import RULESET_IDS, fig
from movement_reference import Reference

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}


def _capped(rs: Ruleset, ceiling_ft: int) -> Ruleset:
    """The ruleset with a lower planning ceiling (the AI plans flights under one)."""
    data = dict(rs.data)
    data["altitude"] = dict(data["altitude"], max_altitude_ft=ceiling_ft)
    return Ruleset(rs.id, rs.name, data)


CAPPED = {(rid, ceiling): _capped(rs, ceiling) for rid, rs in RULESETS.items() for ceiling in (20, 35)}
QUICK = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def sky(draw, size):
    """Walls (some a flyer passes over, some it never does), rocks, ridges, hollows and rough ground."""
    bmap = BattleMap.empty(size, size)
    centre = (size // 2, size // 2)
    cells = draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1), st.sampled_from("#tt^^v,")),
                          max_size=size * 3))
    for x, y, kind in cells:
        if (x, y) == centre:
            continue
        if kind == "#":
            bmap.add_wall(x, y, height_ft=draw(st.sampled_from([0, 10000])))
        elif kind == "t":
            bmap.add_wall(x, y, height_ft=draw(st.sampled_from([5, 15, 30])))
        elif kind == "^":
            bmap.elevation_ft[y, x] = draw(st.sampled_from([5, 10, 30]))
        elif kind == "v":
            bmap.elevation_ft[y, x] = draw(st.sampled_from([-5, -10]))
        else:
            bmap.difficult[y, x] = True
    return bmap


@st.composite
def flight(draw, size):
    """(ruleset, map, mover, occupants, mode) for a flyer in the middle of the map."""
    rid = draw(st.sampled_from(RULESET_IDS))
    bmap = draw(sky(size))
    centre = size // 2
    flyer = draw(st.sampled_from(["winged", "floater", "incorporeal"]))
    mode = draw(st.sampled_from(["walk", "walk", "run", "withdraw", "jog"]))
    if mode == "jog":
        rid = "cnc"     # the only ruleset with a jogging pace
    mover = fig("m", "blue", centre, centre, move_ft=draw(st.sampled_from([15, 20])),
                turning_ft=draw(st.sampled_from([0, 5, 10, 20])), flyer=flyer,
                altitude_ft=draw(st.sampled_from([0, 5, 10, 20, 40]))).moved_to(centre, centre, draw(st.integers(0, 7)))
    if draw(st.booleans()):
        mover = replace(mover, has_moved=True, diagonals_moved=draw(st.integers(0, 3)),
                        straight_ft=float(draw(st.sampled_from([0, 5, 10, 15]))))
    if flyer == "winged" and draw(st.integers(0, 5)) == 0:
        mover, mode = replace(mover, must_dive=True), "walk"
    occupants = {}
    for fid, side in (("foe", "red"), ("ally", "blue"), ("foe2", "red")):
        if draw(st.booleans()):
            x, y = draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))
            if (x, y) != (centre, centre) and (x, y) not in occupants:
                occupants[(x, y)] = fig(fid, side, x, y, altitude_ft=draw(st.sampled_from([0, 0, 10])))
    ceiling = draw(st.sampled_from([None, None, 20, 35]))
    rs = RULESETS[rid] if ceiling is None else CAPPED[(rid, ceiling)]
    return rs, bmap, mover, occupants, mode


def _general_entries(planner, mover, mode, occupants):
    """The reachable set as the general search gives it (every state settled one at a time), read as
    entries() gives a flight's (planner.like_the_sweep)."""
    result = planner.search(mover, mode, occupants)
    result.run()
    entries = result._collect_entries()
    return planner_module.like_the_sweep(entries) if result.rules.free_flight else entries


def _same(got: dict, want: dict, tolerance: float) -> None:
    """The same squares, costs and ends; end facings and altitudes in the same order and of the same
    types (10 and 10.0 print differently in `reach --json`)."""
    assert list(got) == list(want), "the squares differ (or their order)"
    for square, entry in want.items():
        mine = got[square]
        assert abs(mine.cost_ft - entry.cost_ft) <= tolerance, (square, mine.cost_ft, entry.cost_ft)
        assert mine.can_end == entry.can_end, square
        for name in ("facings", "altitudes"):
            a, b = getattr(mine, name), getattr(entry, name)
            assert [(k, type(k)) for k in a] == [(k, type(k)) for k in b], (square, name, a, b)
            for key in b:
                assert abs(a[key] - b[key]) <= tolerance, (square, name, key, a[key], b[key])


def _same_as_reference(got: dict, reference: dict) -> None:
    assert set(got) == set(reference)
    for square, (cost, facings, altitudes, can_end) in reference.items():
        entry = got[square]
        assert abs(entry.cost_ft - cost) < 1e-6 and entry.can_end == can_end, square
        assert set(entry.facings) == set(facings) and set(entry.altitudes) == set(altitudes), square
        assert all(abs(entry.facings[f] - c) < 1e-6 for f, c in facings.items()), square
        assert all(abs(entry.altitudes[a] - c) < 1e-6 for a, c in altitudes.items()), square


@QUICK
@given(flight(size=9))
def test_the_sweep_matches_the_general_and_the_exhaustive_search(case):
    rs, bmap, mover, occupants, mode = case
    planner = Planner(bmap, rs)
    rules = planner.rules(mover, mode, occupants)
    swept = volume.volume_entries(rules)
    if rules.must_dive:
        assert swept is None    # a forced dive is the general search's (a handful of states)
    else:
        assert swept is not None
        _same(swept, _general_entries(planner, mover, mode, occupants), 1e-9)
    # What callers get (the sweep where it applies) is the exhaustive search's answer.
    _same_as_reference(planner.search(mover, mode, occupants).entries(),
                       Reference(bmap, rs, mover, mode, occupants).entries())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flight(size=13), st.sampled_from([7, 64, volume.CHUNK]))
def test_longer_flights_match_the_general_search(case, chunk):
    """Farther and higher (a 40-ft move on a wider field), the frontier moved in slices of any size."""
    rs, bmap, mover, occupants, mode = case
    mover = replace(mover, move_ft=40)
    planner = Planner(bmap, rs)
    rules = planner.rules(mover, mode, occupants)
    if rules.must_dive:
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(volume, "CHUNK", chunk)
        swept = volume.volume_entries(rules)
    assert swept is not None
    _same(swept, _general_entries(planner, mover, mode, occupants), 1e-9)


def test_the_griffon_over_the_gorge():
    """maps/sky.toml's griffon (90 ft, turning 10, 40 ft up): the volume the bench measures."""
    from pathlib import Path

    from game.io.scenarios import load_scenario
    sc = load_scenario(Path(__file__).resolve().parents[2] / "maps" / "sky.toml")
    planner = Planner(sc.map, sc.ruleset)
    griffon = next(f for f in sc.figures if f.id == "griffon")
    occupants = {f.pos: f for f in sc.figures if f.id != griffon.id}
    swept = planner.search(griffon, "walk", occupants).entries()
    _same(swept, _general_entries(planner, griffon, "walk", occupants), 0)
    assert swept[(2, 5)].altitudes[40] == 0 and max(swept[(2, 5)].altitudes) > 40   # it climbs


def test_too_big_a_volume_is_left_to_the_general_search(monkeypatch):
    bmap = BattleMap.empty(9, 9)
    mover = fig("m", "blue", 4, 4, move_ft=20, turning_ft=5, flyer="winged", altitude_ft=20)
    planner = Planner(bmap, RULESETS["bfrpg"])
    want = _general_entries(planner, mover, "walk", {})
    monkeypatch.setattr(volume, "MAX_CELLS", 10)
    assert volume.volume_entries(planner.rules(mover, "walk", {})) is None
    _same(planner.search(mover, "walk", {}).entries(), want, 0)


def test_a_wall_in_a_hollow_is_flown_over():
    """A 5-ft wall standing in a 10-ft hollow tops out 5 ft below the flyer's ground: it flies over
    it (its top is a height, not a sign that no flyer passes), in the sweep and the general search."""
    bmap = BattleMap.empty(9, 9)
    bmap.add_wall(8, 3, height_ft=5)
    bmap.elevation_ft[3, 8] = -10
    mover = fig("m", "blue", 4, 4, move_ft=20, turning_ft=0, flyer="winged").moved_to(4, 4, 0)
    planner = Planner(bmap, RULESETS["bfrpg"])
    want = Reference(bmap, RULESETS["bfrpg"], mover, "walk", {}).entries()
    assert want[(8, 3)][0] == 20
    _same_as_reference(planner.search(mover, "walk", {}).entries(), want)
    _same_as_reference(_general_entries(planner, mover, "walk", {}), want)


def _capped_at(mp, states: int) -> None:
    mp.setattr(planner_module, "SWEEP_AFTER_STATES", states)
    mp.setattr(planner_module, "FIRST_SWEEP_AFTER_STATES", states)


@QUICK
@given(flight(size=9), st.sampled_from([0, 1, 25, 10 ** 9]))
def test_entries_are_the_same_wherever_the_sweep_takes_over(case, cap):
    """The sweep from the first state on, after some states, or never (the general search alone)."""
    rs, bmap, mover, occupants, mode = case
    planner = Planner(bmap, rs)
    want = _general_entries(planner, mover, mode, occupants)
    with pytest.MonkeyPatch.context() as mp:
        _capped_at(mp, cap)
        result = planner.search(mover, mode, occupants)
        got = result.entries()
    _same(got, want, 0)
    # A search the sweep took over from is resumed when its states are asked for: all of them.
    assert len(result.settled) == len(planner.search(mover, mode, occupants).settled)


@pytest.mark.parametrize("numpy_loaded", [True, False])
def test_when_the_sweep_takes_over(monkeypatch, numpy_loaded):
    """sky.toml's sorcerer (a 40-ft floater, 572 states) and griffon (31614 states): with numpy loaded
    both are handed to the sweep after SWEEP_AFTER_STATES; before numpy is loaded (a command's one
    question) the sorcerer is searched to the end, and the griffon, whose first states already
    promise more than FIRST_SWEEP_AFTER_STATES, is handed over as soon."""
    from pathlib import Path
    from types import SimpleNamespace

    from game.io.scenarios import load_scenario
    sc = load_scenario(Path(__file__).resolve().parents[2] / "maps" / "sky.toml")
    planner = Planner(sc.map, sc.ruleset)
    if not numpy_loaded:
        monkeypatch.setattr(planner_module, "sys", SimpleNamespace(modules={}))
    swept = []
    monkeypatch.setattr(planner_module, "_volume_entries", lambda rules: swept.append(rules.figure.id) or
                        volume.volume_entries(rules))
    for fid in ("sorcerer", "griffon"):
        fig = next(f for f in sc.figures if f.id == fid)
        occupants = {f.pos: f for f in sc.figures if f.id != fid}
        result = planner.search(fig, "walk", occupants)
        _same(result.entries(), _general_entries(planner, fig, "walk", occupants), 0)
        searched_whole = fid == "sorcerer" and not numpy_loaded
        assert len(result.t_settled) == (572 if searched_whole else planner_module.SWEEP_AFTER_STATES)
    assert swept == (["griffon"] if not numpy_loaded else ["sorcerer", "griffon"])


def test_reach_of_a_small_flight_loads_no_numpy():
    """`fivefoot reach` of a flight under the cap answers without importing numpy (~0.1 s of start-up)."""
    code = ("import sys, io, contextlib; from game.cli import main; out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out): code = main(['reach', 'maps/sky.toml', 'sorcerer', '--json'])\n"
            "assert code == 0 and '\"squares\"' in out.getvalue(), out.getvalue()\n"
            "assert 'numpy' not in sys.modules, 'numpy imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
