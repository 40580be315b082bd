"""Figures bigger than a square through the resolver: worked examples, each citing the document
section that speaks to the space a figure takes where one does (the footprint itself is the
engine's choice: docs/combat.md, Figures bigger than a square)."""
import json

import pytest

from game.core.values.actions import Charge, EndTurn, Move, Turn
from game.core.battle import Battle
from game.core.values.errors import DataFileError
from game.core.values.bodies import cells
from game.io import saves
from game.io.scenarios import load_scenario

from helpers import RULESET_IDS
from battles import OPEN, fig, make_battle

CORRIDOR = "\n".join([
    "############",
    "#..........#",
    "#..........#",
    "#####..#####",
    "#####..#####",
    "#####.######",
    "#####.######",
    "############",
])


def _turn_of(b, fid):
    while b.current != fid:
        b.apply(EndTurn(b.current))


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_ruleset_has_the_horse_and_the_ogre(ruleset_id):
    b = make_battle(ruleset_id, OPEN, [fig("o", "red", 2, 2, "S", template="ogre"),
                                       fig("h", "blue", 8, 2, "E", template="horse")])
    assert b.figures["o"].footprint == (2, 2) and b.figures["o"].size == "large"
    assert b.figures["h"].footprint == (1, 2) and b.figures["h"].cells == ((8, 2), (7, 2))


def test_an_ogre_fits_a_corridor_two_squares_wide_and_not_one_square_wide():
    b = make_battle("bfrpg", CORRIDOR, [fig("o", "red", 5, 1, "S", template="ogre", move_ft=40, turning_ft=0)])
    reach = b.positioning().reach("o")
    ends = {sq for sq, e in reach.items() if e.can_end}
    assert (5, 3) in ends                   # body 5..6 x 3..4: the two-wide stretch
    assert (5, 4) not in ends and (5, 5) not in ends    # the body would stand on the walls of the narrow part
    refusal = b.check(Move("o", to=(5, 5)))
    assert refusal is not None


def test_engagement_is_measured_from_the_nearest_square_bfrpg_the_combat():
    # bfrpg:the-combat: within 5 ft is engaged. The ogre's anchor is 10 ft from the goblin, its
    # nearest square 5 ft: they are engaged, and it may strike from that square.
    b = make_battle("bfrpg", OPEN, [fig("o", "red", 2, 2, "E", template="ogre"), fig("g", "blue", 4, 3, "W")])
    pos = b.positioning()
    pairs = {(a.id, c.id): d for a, c, d in pos.engagement.engaged_pairs(pos.figures)}
    assert pairs == {("o", "g"): 5.0}
    assert (4, 3) in pos.engagement.threatened_squares(b.figures["o"])
    assert (5, 3) not in pos.engagement.threatened_squares(b.figures["o"])
    assert (1, 1) in pos.engagement.threatened_squares(b.figures["o"])     # every side of the body


def test_odnd_melee_zone_of_10_ft_from_the_nearest_square():
    # odnd:misc-combat-rules: "in melee" within 10 ft. From the horse's tail the goblin is 10 ft away.
    b = make_battle("odnd", OPEN, [fig("h", "red", 5, 2, "E", template="horse"), fig("g", "blue", 2, 2, "E")])
    assert b.figures["h"].cells == ((5, 2), (4, 2))
    pos = b.positioning()
    assert [(a.id, c.id, d) for a, c, d in pos.engagement.engaged_pairs(pos.figures)] == [("h", "g", 10.0)]


def test_a_horse_in_a_narrow_passage_turns_only_end_to_end_bfrpg_maneuverability():
    # bfrpg:maneuverability lets the GM forbid a horse's free turn in a narrow corridor: its body
    # pivots about its front square and would swing into the wall.
    b = make_battle("bfrpg", CORRIDOR, [fig("h", "red", 5, 5, "N", template="horse"), fig("g", "blue", 1, 1, "E")])
    assert b.figures["h"].cells == ((5, 5), (5, 6))
    _turn_of(b, "h")
    refusal = b.check(Turn("h", facing="E"))
    assert refusal is not None and "pivots about its front square and would cover 4,5" in str(refusal)
    assert b.check(Turn("h", facing="W")) is not None
    assert b.check(Turn("h", facing="S")) is None        # end to end: its tail swings up the passage
    b.apply(Turn("h", facing="S"))
    assert b.figures["h"].cells == ((5, 5), (5, 4))


def test_a_big_body_blocks_every_square_it_covers_and_a_fallen_one_blocks_none():
    figs = [fig("o", "red", 4, 1, "S", template="ogre"), fig("a", "blue", 2, 2, "E", stats={"hp": 20})]
    b = make_battle("bfrpg", CORRIDOR.replace("#####..#####", "############"), figs)
    _turn_of(b, "a")
    refusal = b.check(Move("a", to=(7, 2)))
    assert refusal is not None              # the ogre fills the hall's width at columns 4 and 5
    b.states["o"].conditions["dead"] = 0
    b.figures_moved()
    assert b.check(Move("a", to=(5, 2))) is None     # a living figure may stand where the body lies


def test_a_big_target_is_seen_by_any_square_and_takes_its_least_cover():
    m = "\n".join(["..........", ".....#....", "..........", "..........", ".........."])
    b = make_battle("bfrpg", m, [fig("a", "blue", 0, 3, "E", template="archer"), fig("o", "red", 7, 1, "W", template="ogre")])
    sight = b.positioning().sight("a", "o")
    assert sight.visible and sight.cover == "none"     # the pillar covers the anchor's square, not the one below
    one = make_battle("bfrpg", m, [fig("a", "blue", 0, 3, "E", template="archer"), fig("o", "red", 7, 1, "W")])
    assert one.positioning().sight("a", "o").cover == "1/2"


def test_a_charge_lane_must_be_wide_enough_for_the_body():
    m = "\n".join(["............", "............", "......#.....", "............"])
    base = [fig("g", "blue", 10, 1, "W", template="spearman")]
    b = make_battle("bfrpg", m, base + [fig("o", "red", 1, 1, "E", template="ogre", weapons=["horns"])])
    lane = b.positioning().charge_lane("o", "g")
    assert not lane.legal and "6,2" in lane.reason      # its lower row runs into the pillar
    clear = make_battle("bfrpg", m.replace("#", "."), base + [fig("o", "red", 1, 1, "E", template="ogre",
                                                                 weapons=["horns"])])
    lane = clear.positioning().charge_lane("o", "g")
    assert lane.legal and lane.squares[-1] == (8, 1)     # ends with its front squares next to the spearman
    _turn_of(clear, "o")
    assert clear.check(Charge("o", target="g")) is None


def test_a_bad_footprint_is_refused_with_the_shapes_allowed():
    with pytest.raises(DataFileError) as err:
        make_battle("bfrpg", OPEN, [fig("o", "red", 2, 2, "S", footprint=[2, 3])])
    assert "figures[1].footprint" in str(err.value) and "[n, n]" in str(err.value) and "[1, n]" in str(err.value)
    with pytest.raises(DataFileError, match="already taken by o"):
        make_battle("bfrpg", OPEN, [fig("o", "red", 2, 2, "S", template="ogre"), fig("g", "blue", 3, 3, "N")])
    with pytest.raises(DataFileError, match="off the map"):
        make_battle("bfrpg", OPEN, [fig("o", "red", 15, 2, "S", template="ogre")])


def test_a_save_carries_the_footprint_and_checks_it(tmp_path):
    sc = load_scenario("maps/ogre_corridor.toml")
    b = Battle.from_scenario(sc)
    path = saves.save_battle(b, tmp_path / "b.json")
    loaded = saves.load_battle(path)
    assert loaded.figures["ogre"].footprint == (2, 2) and loaded.figures["horse"].footprint == (1, 2)
    data = json.loads(path.read_text())
    data["figures"][0]["footprint"] = [3, 1]
    path.write_text(json.dumps(data))
    with pytest.raises(DataFileError, match=r"figures\[1\]\.footprint"):
        saves.load_battle(path)


def test_cells_of_the_bundled_bodies():
    assert cells(1, 1, 4, (2, 2)) == ((1, 1), (2, 1), (1, 2), (2, 2))
    assert cells(4, 10, 2, (1, 2)) == ((4, 10), (3, 10))
    assert cells(4, 4, 3, (1, 3)) == ((4, 4), (3, 3), (2, 2))


@pytest.mark.parametrize("ruleset_id", ["bfrpg", "ch17"])
def test_the_ai_counts_a_square_beside_any_square_of_a_big_body_as_one_to_strike_from(ruleset_id):
    """A square beside the ogre's far side is 10 ft from its anchor but 5 ft from its nearest
    square: the AI may strike from there (bfrpg:the-combat, ch17:attack: within 5 ft)."""
    from game.ai.context import Context
    from game.ai.levels import LEVELS
    from game.ai.plans.attack import _attack_altitude
    b = make_battle(ruleset_id, OPEN, [fig("o", "red", 2, 2, "E", template="ogre", stats={"hp": 40}),
                                       fig("g", "blue", 6, 4, "W", stats={"hp": 30})])
    _turn_of(b, "g")
    import random
    ctx = Context(LEVELS["normal"], b, "g", random.Random(1), {})
    entry = ctx.search("walk").entries[(4, 3)]
    ogre = b.figures["o"]
    assert _attack_altitude(ctx, entry, (4, 3), ogre, 5) == 0      # beside the ogre's square 3,3
    assert _attack_altitude(ctx, entry, (5, 3), ogre, 5) is None   # 10 ft from its nearest square


def test_front_flank_and_rear_of_a_big_body_are_measured_from_its_middle():
    """odnd flanking +1 / from behind +2 (Misc Combat Rules): behind the ogre is behind its whole
    body, not behind its top-left square. An ogre facing N at 2,2 covers 2..3 x 2..3."""
    from game.core.combat.reach import facing_arc
    b = make_battle("odnd", OPEN, [fig("o", "red", 2, 2, "N", template="ogre"),
                                   fig("r", "blue", 3, 4, "N"), fig("f", "blue", 4, 3, "N"), fig("t", "blue", 2, 1, "N")])
    ogre = b.figures["o"]
    assert facing_arc(ogre, b.figures["t"]) == 0 or facing_arc(ogre, b.figures["t"]) == 7   # in front
    assert facing_arc(ogre, b.figures["r"]) in (4, 3, 5)                                    # behind
    assert facing_arc(ogre, b.figures["f"]) in (2, 3)                                       # its right flank
    breakdown = b.explain_attack("r", "o")
    assert any(m.key == "rear" for m in breakdown.attack_mods), breakdown.attack_mods


def test_a_big_body_has_its_back_to_a_wall_only_when_the_whole_back_is_against_it():
    from game.core.combat.reach import back_to_wall
    wall = "\n".join(["########", "#......#", "#......#", "#......#", "########"])
    b = make_battle("odnd", wall, [fig("o", "red", 2, 1, "S", template="ogre"), fig("p", "blue", 5, 3, "N")])
    assert back_to_wall(b, b.figures["o"])           # facing S, its back (row 0) is the wall
    b2 = make_battle("odnd", wall, [fig("o", "red", 2, 2, "S", template="ogre"), fig("p", "blue", 5, 3, "N")])
    assert not back_to_wall(b2, b2.figures["o"])
