"""Missiles after a miss: cnc's missiles fly on along their line (002 ranged-combat), ch17's grenade-like
missiles scatter on the diagram by the target's facing and splash those near (003 grenade-like-missiles,
oil). The events carry the squares the window draws."""
from game.core.values.actions import Attack
from game.core.battle.missiles import scatter_square
from game.core.values.events import EventKind

from battles import fig, make_battle
from battles import until_phase
from dice import ForcedDice

WIDE = "\n".join(["." * 40] * 9)


def test_cnc_a_missed_arrow_flies_on_and_is_rolled_again_at_minus_1_per_10_ft_past_the_target():
    """002 ranged-combat: a miss carries on in a straight line within close range; each figure met is rolled
    for again at -1 per 10 ft beyond the original target."""
    b = make_battle("cnc", WIDE, [fig("a", "blue", 1, 4, "E", template="archer"), fig("b", "red", 4, 4, "W"),
                                  fig("c", "red", 7, 4, "W", stats={"hp": 20})])
    until_phase(b, "a")
    b.rng = ForcedDice([2, 20, 4])
    events = b.apply(Attack("a", target="b"))
    assert events[0].kind == EventKind.ATTACK and events[0].outcome == "miss"
    line, roll = [e for e in events if e.kind == EventKind.FLIES_ON][:2]
    assert line.outcome == "line" and line.rule == "cnc:ranged-combat"
    assert line.squares[0] == (4, 4) and line.squares[1:4] == ((5, 4), (6, 4), (7, 4))
    assert roll.target == "c" and roll.squares == ((4, 4), (7, 4))
    past = [m for m in roll.modifiers if m.key == "flies-on"]
    assert [(m.value, m.source) for m in past] == [(-2, "cnc:ranged-combat")]     # 15 ft past: the 2nd 10 ft
    assert roll.total == 20 + sum(m.value for m in roll.modifiers) + b.profile("a")["attack_bonus"]


def test_cnc_missile_beyond_close_range_is_lost_but_a_crossbow_bolt_goes_on_to_long_range():
    """002 ranged-combat: only within close range; crossbow bolts to long range."""
    figures = [fig("a", "blue", 1, 4, "E", template="archer"), fig("b", "red", 16, 4, "W")]
    b = make_battle("cnc", WIDE, figures)
    until_phase(b, "a")
    b.rng = ForcedDice([2])
    lost = [e for e in b.apply(Attack("a", target="b")) if e.kind == EventKind.FLIES_ON]
    assert [e.outcome for e in lost] == ["lost"]
    b = make_battle("cnc", WIDE, [dict(figures[0], weapons=["crossbow"]), figures[1]])
    until_phase(b, "a")
    b.rng = ForcedDice([2])
    line = [e for e in b.apply(Attack("a", target="b")) if e.kind == EventKind.FLIES_ON][0]
    assert line.outcome == "line" and line.data["limit_ft"] == 240 and line.squares[-1] == (39, 4)


def test_scatter_diagram_is_read_by_the_target_facing():
    """003 grenade-like-missiles (choice-scatter): 8 lands 10 ft behind the target, 3 in front, 5 on its right."""
    assert scatter_square((6, 3), 6, {"across": 0, "along": -1}, 2) == (8, 3)   # facing W: behind is east
    assert scatter_square((6, 3), 6, {"across": 0, "along": 1}, 2) == (4, 3)
    assert scatter_square((6, 3), 6, {"across": 1, "along": 0}, 2) == (6, 1)    # its right is north
    assert scatter_square((6, 3), 0, {"across": 0, "along": 2}, 2) == (6, -1)   # facing N: far in front


def test_ch17_a_missed_oil_flask_scatters_behind_the_target_and_splashes_with_a_save():
    """003 grenade-like-missiles: on a miss 1d10 on the diagram, each number a 10 ft area; 003 oil: 1d6 to
    all within 5 ft of where it lands, a save vs Death Ray avoids it."""
    b = make_battle("ch17", WIDE, [fig("a", "blue", 1, 3, "E", template="archer", weapons=["oil_flask"]),
                                   fig("b", "red", 6, 3, "W"), fig("e", "red", 8, 4, "W", stats={"hp": 20})])
    until_phase(b, "a")
    b.rng = ForcedDice([2, 8, 3, 4])       # miss; d10 8 (behind); e's save d20 3 fails; 1d6 4
    events = b.apply(Attack("a", target="b"))
    spread = [e for e in events if e.kind == EventKind.SCATTER][0]
    assert spread.rule == "ch17:grenade-like-missiles" and spread.total == 8 and spread.outcome == "behind"
    assert spread.data["landing"] == [8, 3] and (8, 4) in spread.squares and len(spread.squares) == 9
    splash = [e for e in events if e.kind == EventKind.SPLASH][0]
    assert splash.target == "e" and splash.total == 4 and b.state_of("e").hp == 16
    assert not [e for e in events if e.kind == EventKind.FRIENDLY_FIRE]


def test_a_flyer_felled_in_the_air_falls_with_the_rulesets_falling_damage():
    """002 falling-damage (cumulative d6s): a flyer brought down 30 ft up falls 30 ft: 1d6 + 2d6 + 3d6."""
    b = make_battle("cnc", WIDE, [fig("a", "blue", 1, 4, "E", template="archer"),
                                  fig("f", "red", 6, 4, "W", template="flyer", altitude_ft=30, stats={"hp": 1})])
    until_phase(b, "a")
    b.rng = ForcedDice([20, 6] + [1] * 6)
    events = b.apply(Attack("a", target="f"))
    fall = [e for e in events if e.kind == EventKind.FALL]
    assert fall and fall[0].data["fall_ft"] == 30 and fall[0].rolls[-1].dice == "6d6"
    assert b.figures["f"].altitude_ft == 0


# ----- geometry of the line and the scatter (property tests) -----
from hypothesis import given, settings, strategies as st  # noqa: E402

from game.core.battle.handlers.shoving import line_squares  # noqa: E402
from game.core.battle.missiles import line_beyond  # noqa: E402
from game.core.values.geometry import distance_ft  # noqa: E402

_LINE_BATTLE = make_battle("cnc", "\n".join(["." * 30] * 30), [fig("a", "blue", 0, 0), fig("b", "red", 29, 29)])
squares = st.tuples(st.integers(0, 29), st.integers(0, 29))


@settings(max_examples=150, deadline=None)
@given(squares, squares, st.integers(10, 200))
def test_a_missiles_line_goes_on_beyond_the_target_step_by_step_within_its_limit(start, through, limit):
    line = line_beyond(_LINE_BATTLE, start, through, limit)
    if start == through:
        assert line == []
        return
    assert through not in line and start not in line
    previous = through
    for sq in line:
        assert max(abs(sq[0] - previous[0]), abs(sq[1] - previous[1])) == 1     # no square skipped
        assert distance_ft(_LINE_BATTLE.ruleset.diagonal, start, sq) <= limit
        assert distance_ft("euclidean", start, sq) >= distance_ft("euclidean", start, through) - 1e-9
        previous = sq


@settings(max_examples=150, deadline=None)
@given(squares, squares)
def test_a_forced_moves_squares_end_where_it_goes_without_gaps(a, b):
    path = line_squares(a, b)
    if a == b:
        assert path == []
        return
    assert path[-1] == b and a not in path
    prev = a
    for sq in path:
        assert max(abs(sq[0] - prev[0]), abs(sq[1] - prev[1])) == 1
        prev = sq


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 7), st.sampled_from([(0, -2), (1, 1), (0, 1), (-1, 1), (1, 0), (-1, 0), (1, -1), (0, -1),
                                           (-1, -1), (0, 2)]))
def test_every_scatter_number_lands_its_diagram_steps_from_the_target(facing, offset):
    across, along = offset
    landing = scatter_square((10, 10), facing, {"across": across, "along": along}, 2)
    assert max(abs(landing[0] - 10), abs(landing[1] - 10)) == 2 * max(abs(across), abs(along)) or facing % 2
    behind_or_front = along != 0
    if facing % 2 == 0 and behind_or_front and across == 0:
        fx, fy = ((0, -1), None, (1, 0), None, (0, 1), None, (-1, 0))[facing]
        assert landing == (10 + 2 * along * fx, 10 + 2 * along * fy)
