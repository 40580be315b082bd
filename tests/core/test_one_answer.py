"""One answer to every question, as properties over random positions under all five rulesets
(beside test_one_engine.py, which holds check to apply):

- the odds an attack's Breakdown shows are the frequencies of the roll `resolve` makes, enumerated
  face by face (automatic results, criticals, fumbles, over-20 reduction, subdual, PROT, parries, a
  holder's blow without a roll, a flask's splash on the one it hits);
- how far a figure may still move (`limits`, `status()`) and where a move may end (`reachable`)
  are exactly what `check` accepts.
"""
from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core.values.actions import Attack, Defend, EndTurn, Move
from game.core.values.events import ATTACK_KINDS
from game.core.values.geometry import FACINGS
from game.core.values.modes import MOVE_MODES
from game.io.rulesets import bundled_ruleset_ids

from battles import fig, make_battle, until_turn
from dice import every_outcome, the_roll

RULESETS = bundled_ruleset_ids()
TEMPLATES = ("foot", "archer", "spearman", "knight", "monster", "normal_man")
OPEN = "\n".join(["." * 9] * 7)


@st.composite
def attacks(draw):
    """An attacker to act and a target it can strike (melee beside it, or a missile at range)."""
    ruleset = draw(st.sampled_from(RULESETS))
    a_t, t_t = draw(st.sampled_from(TEMPLATES)), draw(st.sampled_from(TEMPLATES))
    gap = 1 if a_t != "archer" else draw(st.integers(2, 6))
    stats_a = {"hp": 40, "attack_bonus": draw(st.integers(-4, 12)), "sc": draw(st.integers(20, 160))}
    stats_t = {"hp": draw(st.integers(1, 40)), "ac": draw(st.integers(8, 30)), "def": draw(st.integers(0, 140)),
               "prot": draw(st.integers(0, 6))}
    figures = [fig("a", "blue", 1, 3, "E", template=a_t, stats=stats_a),
               fig("t", "red", 1 + gap, 3, draw(st.sampled_from(FACINGS)), template=t_t, stats=stats_t)]
    # The weapon: the ready one, or a fist (bare hands: subdual in full), or a thrown oil flask (ch17: a direct
    # hit adds its splash); a fist may strike a figure it holds (bfrpg: without a roll).
    weapons = [None] + (["fist"] if "fist" in ruleset_weapons(ruleset) and a_t != "archer" else []) \
        + (["oil_flask"] if "oil_flask" in ruleset_weapons(ruleset) and a_t == "archer" else [])
    weapon = draw(st.sampled_from(weapons))
    if weapon == "oil_flask":
        figures[0]["weapons"] = ["oil_flask"]
    b = make_battle(ruleset, OPEN, figures, seed=draw(st.integers(1, 999)))
    if weapon == "fist" and draw(st.booleans()):
        b.state_of("a").holding = "t"
        b.state_of("t").held_by = ["a"]
        b.state_of("t").conditions["held"] = 0
    stance = draw(st.sampled_from([None] + [d["style"] for d in b.ruleset.data["defenses"]]))
    subdue = draw(st.booleans()) and a_t != "archer"
    return b, stance, subdue, weapon


def ruleset_weapons(rid: str) -> set:
    from game.io.rulesets import load_ruleset
    return set(load_ruleset(rid).section("weapons"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(attacks())
def test_the_shown_odds_are_the_frequencies_of_the_roll(case):
    b, stance, subdue, weapon = case
    if stance:
        b.state_of("t").defense = stance
    try:
        until_turn(b, "a")
        while b.current_phase not in ("all", "missile", "melee"):
            b.apply(EndTurn("a"))
            until_turn(b, "a")
    except AssertionError:
        assume(False)
    action = Attack("a", target="t", subdue=subdue, weapon=weapon)
    assume(b.check(action) is None)
    bd = b.explain_attack("a", "t", weapon, subdue=subdue, surprise_round=b.round == 1)
    odds = bd.odds()
    rolled = every_outcome(the_roll(b, bd))
    tol = 1e-9
    p_hit = sum(p for key, p in rolled.items() if key[0] in ("hit", "parried"))
    assert abs(p_hit - odds.p_hit) < tol, (p_hit, odds.p_hit, bd.lines())
    assert abs(bd.chance() - odds.p_hit) < 1e-12
    p_crit = sum(p for key, p in rolled.items() if key[0] in ("hit", "parried") and key[2])
    assert abs(p_crit - odds.p_critical) < tol, (p_crit, odds.p_critical)
    parried = sum(p for key, p in rolled.items() if key[0] == "parried")
    assert abs(parried - odds.p_parried) < tol
    fumbled = sum(p for key, p in rolled.items() if key[3])
    assert abs(fumbled - odds.p_fumble) < tol, (fumbled, odds.p_fumble)
    if p_hit:
        damage: dict = {}
        for key, p in rolled.items():
            if key[0] in ("hit", "parried"):
                damage[key[1]] = damage.get(key[1], 0.0) + p / p_hit
        shown = dict(odds.damage)
        assert set(damage) == set(shown), (sorted(damage.items()), odds.damage, bd.lines())
        for v, p in damage.items():
            assert abs(p - shown[v]) < tol / p_hit, (v, p, shown[v])


def test_a_bfrpg_blow_that_needs_23_still_hits_on_a_natural_20():
    """bfrpg:attack (Combat Sequence): a natural 20 always hits; the shown chance counts it (it was 0%)."""
    b = make_battle("bfrpg", OPEN, [fig("a", "blue", 1, 3, "E", stats={"attack_bonus": 0}),
                                    fig("t", "red", 2, 3, "W", stats={"ac": 23})])
    bd = b.explain_attack("a", "t")
    assert bd.needed_on_die >= 21
    assert abs(bd.chance() - 1 / 20) < 1e-12
    assert bd.to_json()["chance"] == 0.05
    assert bd.to_json()["odds"]["always_hit_faces"] == [20]


@st.composite
def moving(draw):
    """A small field with walls, a figure to act (maybe after a stance, a first move), and a foe."""
    ruleset = draw(st.sampled_from(RULESETS))
    rows = [["."] * 8 for _ in range(7)]
    for x, y in draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 6)), max_size=7)):
        rows[y][x] = "#"
    (ax, ay), (bx, by) = draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 6)), min_size=2, max_size=2,
                                       unique=True))
    rows[ay][ax] = rows[by][bx] = "."
    figures = [fig("a", "blue", ax, ay, draw(st.sampled_from(FACINGS)), template=draw(st.sampled_from(("foot", "knight", "archer", "monster")))),
               fig("b", "red", bx, by, draw(st.sampled_from(FACINGS)), stats={"hp": 30})]
    b = make_battle(ruleset, "\n".join("".join(r) for r in rows), figures, seed=draw(st.integers(1, 999)))
    return b, draw(st.sampled_from([None] + [d["style"] for d in b.ruleset.data["defenses"]])), draw(st.integers(0, 60))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(moving(), st.sampled_from(MOVE_MODES))
def test_where_a_move_may_end_is_exactly_what_check_accepts(case, mode):
    b, stance, first_ft = case
    try:
        until_turn(b, "a", declare=b.state.phase == "declare")
    except AssertionError:
        assume(False)
    if stance and b.check(Defend("a", style=stance)) is None:
        b.apply(Defend("a", style=stance))
    elif first_ft:
        first = sorted(b.reachable("a", "walk").squares(), key=lambda sq: (abs(sq[0] - first_ft % 8), sq))
        if first and b.check(Move("a", to=first[0])) is None and b.current == "a":
            b.apply(Move("a", to=first[0]))
    assume(b.current == "a")
    reach = b.reachable("a", mode)
    limits = b.limits("a")
    assert reach.limit == limits.move(mode)
    assert b.status("a").movement_left_ft == limits.left_ft("walk")
    for y in range(b.map.height):
        for x in range(b.map.width):
            refusal = b.check(Move("a", to=(x, y), mode=mode))
            assert ((x, y) in reach.ends) == (refusal is None), ((x, y), mode, refusal, limits.to_json())


def test_bfrpg_total_defence_leaves_5_ft_of_move_and_the_overlay_says_so():
    """bfrpg:parrying-and-defensive-combat: in total defence a figure moves no more than 5 ft; status()
    said 40 ft were left and the window shaded 109 squares of which check refused 100."""
    b = make_battle("bfrpg", "\n".join(["." * 12] * 10), [fig("a", "blue", 5, 5, "E"), fig("b", "red", 9, 5, "W")])
    until_turn(b, "a")
    b.apply(Defend("a", style="total-defense"))
    assert b.status("a").movement_left_ft == 5
    assert b.limits("a").move("walk").bound == "stance"
    ends = b.reachable("a", "walk").ends
    assert ends == {(x, y) for x in (4, 5, 6) for y in (4, 5, 6)}        # its own square: a move of 0 ft
    assert all(b.check(Move("a", to=sq)) is None for sq in ends)
    assert b.check(Move("a", to=(7, 5))).key == "move.stance-limit"


def test_an_attack_kind_event_carries_the_odds_it_was_rolled_from():
    """Every attack event's breakdown JSON holds the odds (the log and the CLI read them from events)."""
    b = make_battle("odnd", OPEN, [fig("a", "blue", 1, 3, "E"), fig("t", "red", 2, 3, "W", stats={"hp": 30})])
    until_turn(b, "a")
    events = b.apply(Attack("a", target="t"))
    attack = next(e for e in events if e.kind in ATTACK_KINDS)
    assert "odds" in attack.data["breakdown"]
    assert attack.data["breakdown"]["chance"] == attack.data["breakdown"]["odds"]["hit"] or \
        abs(attack.data["breakdown"]["chance"] - attack.data["breakdown"]["odds"]["hit"]) < 1e-3
