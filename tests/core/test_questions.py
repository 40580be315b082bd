"""The questions the AI and the window ask (game/core/battle/questions.py), each held to the exact
answer the resolver gives, over random positions under all five rulesets:

- the charge-lane pre-filter never turns down a lane `charge_lane` allows;
- the facing bonus is the breakdown's own rear and flank modifiers from that square;
- the attacks a figure keeps after walking are what check and the round's initiative allow.
"""
from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core.values.actions import Attack, Move
from game.core.values.geometry import FACINGS, bearing_octant
from game.io.rulesets import bundled_ruleset_ids

from battles import fig, make_battle, until_turn

RULESETS = bundled_ruleset_ids()
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.filter_too_much])


@st.composite
def fields(draw, templates=("foot", "knight", "spearman", "monster", "archer", "ogre")):
    """A walled field, an attacker and a target anywhere, a third figure maybe in between."""
    ruleset = draw(st.sampled_from(RULESETS))
    w, h = 14, 9
    rows = [["."] * w for _ in range(h)]
    for x, y in draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), max_size=10)):
        rows[y][x] = draw(st.sampled_from("#%="))
    (ax, ay), (tx, ty), (ox, oy) = draw(st.lists(st.tuples(st.integers(0, w - 3), st.integers(0, h - 3)),
                                                 min_size=3, max_size=3, unique=True))
    figures = [fig("a", "blue", ax, ay, draw(st.sampled_from(FACINGS)), template=draw(st.sampled_from(templates))),
               fig("t", "red", tx, ty, draw(st.sampled_from(FACINGS)), template=draw(st.sampled_from(templates)))]
    if draw(st.booleans()):
        figures.append(fig("o", draw(st.sampled_from(("blue", "red"))), ox, oy, "N"))
    for f in figures:
        for dx in (0, 1):
            for dy in (0, 1):
                rows[f["y"] + dy][f["x"] + dx] = "."
    try:
        return make_battle(ruleset, "\n".join("".join(r) for r in rows), figures, seed=draw(st.integers(1, 99)))
    except Exception:                       # bodies that overlap: not a position
        assume(False)


@st.composite
def charges(draw):
    """A field where a charge is likely: the attacker facing the target from 3 to 12 squares away."""
    b = draw(fields())
    a, t = b.figures["a"], b.figures["t"]
    b.set_figure(a.moved_to(a.x, a.y, bearing_octant(a.pos, t.pos)))
    return b


@SETTINGS
@given(st.one_of(fields(), charges()))
def test_the_charge_lane_pre_filter_never_turns_down_a_legal_lane(b):
    pos = b.positioning()
    lane = pos.charge_lane("a", "t")
    if lane.legal:
        assert b.charge_lane_may_open(pos.body("a"), pos.body("t")), (lane.to_json(), b.ruleset.id)


@SETTINGS
@given(fields(templates=("foot", "spearman", "knight", "monster")), st.integers(-1, 1), st.integers(-1, 1))
def test_the_facing_bonus_is_the_breakdowns_rear_and_flank(b, dx, dy):
    """The strike-square sort reads this bonus; the odds read the breakdown: they agree."""
    t = b.figures["t"]
    assume((dx, dy) != (0, 0) and not t.big)
    sq = (t.x + dx, t.y + dy)
    assume(b.map.in_bounds(*sq) and not b.map.blocks_move[sq[1], sq[0]])
    assume(all(f.pos != sq for f in b.figures.values() if f.id != "a"))
    a = b.figures["a"]
    assume(not a.big)
    placed = a.moved_to(sq[0], sq[1], (b.facing_arc(t, a.pos) + 4) % 8)
    bd = b.hypothetical(placed).explain_attack("a", "t")
    assume(bd.kind == "melee" and not b.state_of("t").has("surprised"))
    shown = sum(m.value for m in bd.attack_mods if m.key in ("rear", "flank"))
    assert b.facing_bonus(placed, t) == shown, (bd.lines(), b.ruleset.id)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.sampled_from(RULESETS), st.integers(0, 8), st.sampled_from(("walk", "run")))
def test_the_attacks_kept_after_a_walk_are_what_the_resolver_allows(rid, squares, mode):
    b = make_battle(rid, "\n".join(["." * 16] * 5), [fig("a", "blue", 0, 2, "E", stats={"attacks": 2}),
                                                     fig("t", "red", squares + 1, 2, "W", stats={"hp": 99})])
    me = b.figures["a"]
    cost = 5.0 * squares
    expected = b.attacks_per_round(me, cost, mode)
    if b.ruleset.d100:
        # Declared in the declaration turn; the round's per-attack initiative gives the attacks kept.
        until_turn(b, "a", declare=True)
        move = Move("a", to=(squares, 2), mode=mode)
        assume(b.check(move) is None)
        b.apply(move)
        from game.core.combat.rounds import attacks_this_round
        assert attacks_this_round(b, "a")[0] == expected
        return
    until_turn(b, "a")
    if cost:
        move = Move("a", to=(squares, 2), mode=mode)
        assume(b.check(move) is None)
        b.apply(move)
    refusal = b.check(Attack("a", target="t"))
    assert (refusal is None) == (expected > 0) or (refusal and refusal.key not in (
        "attack.moved-too-far", "attack.ran")), (refusal, expected, cost, mode)


def test_the_pre_filter_measures_a_big_chargers_lane_from_its_nearest_square():
    """odnd:charging-attacks: an ogre (2 x 2, move 30) 45 ft from its foe by its anchor but 40 ft by its
    nearest square charges 30 ft and ends within 10 ft: the lane is legal, and the pre-filter (which
    measured from the anchor and turned it down) agrees. Found by the property test above."""
    b = make_battle("odnd", "\n".join(["." * 12] * 6), [fig("a", "blue", 0, 0, "E", template="ogre"),
                                                       fig("t", "red", 9, 0, "N")])
    pos = b.positioning()
    assert pos.charge_lane("a", "t").legal
    assert b.charge_lane_may_open(pos.body("a"), pos.body("t"))
