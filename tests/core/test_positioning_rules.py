"""Hand-worked positioning cases from the source documents, each citing its rule."""
import pytest

from game.core.values.errors import RulesError
from game.core.values.geometry import FACING_INDEX

from helpers import ascii_map, fig, open_map, positioning


# ----- movement: bfrpg Movement and Defense, Maneuverability -----

def test_diagonal_parity_is_carried_past_orthogonal_steps():
    """bfrpg:5-10-diagonals: an orthogonal step neither costs a diagonal nor resets the count."""
    pos = positioning(open_map(), "bfrpg", fig("w", "a", 5, 5, "E"))
    path = pos.plan("w", (8, 7)).path  # two diagonals and one straight step: 5 + 10 + 5
    assert path.total_ft == 20
    diag_costs = [s.cost_ft for s in path.steps[1:] if s.x != path.steps[path.steps.index(s) - 1].x
                  and s.y != path.steps[path.steps.index(s) - 1].y]
    assert diag_costs == [5, 10]


def test_horse_must_move_its_turning_distance_before_turning():
    """bfrpg:maneuverability: a horse with turning distance 20 ft goes 20 ft straight first."""
    pos = positioning(open_map(), "bfrpg", fig("horse", "a", 5, 10, "E", move_ft=60, turning_ft=20))
    with pytest.raises(RulesError, match="must move 20 ft straight ahead"):
        pos.plan("horse", (5, 8))
    path = pos.plan("horse", (10, 8)).path
    straight = [s for s in path.steps[1:5]]
    assert all(s.facing == FACING_INDEX["E"] for s in straight)
    assert path.total_ft == 35


def test_horse_turns_freely_when_it_stays_in_its_square():
    """bfrpg:maneuverability: a figure that does not leave its square may turn as it likes."""
    pos = positioning(open_map(), "bfrpg", fig("horse", "a", 5, 10, "E", move_ft=60, turning_ft=20))
    entry = pos.reach("horse")[(5, 10)]
    assert sorted(entry.facings) == list(range(8))


def test_a_45_degree_turn_is_a_full_facing_change():
    """bfrpg:maneuverability: after turning 45 degrees the horse must again go 20 ft straight."""
    pos = positioning(open_map(), "bfrpg", fig("horse", "a", 2, 10, "E", move_ft=60, turning_ft=20))
    path = pos.plan("horse", (11, 5)).path
    changes = [i for i, (a, b) in enumerate(zip(path.steps, path.steps[1:])) if a.facing != b.facing]
    for first, second in zip(changes, changes[1:]):
        assert second - first >= 2  # at least 20 ft (diagonals count 5 or 10) between changes


def test_running_man_cannot_turn_90_degrees():
    """bfrpg:maneuverability: running allows only 45 degree changes after 10 ft straight."""
    pos = positioning(open_map(), "bfrpg", fig("man", "a", 10, 10, "N", move_ft=40))
    walk = pos.plan("man", (12, 10)).path
    assert walk.total_ft == 10
    with pytest.raises(RulesError) as err:
        pos.plan("man", (12, 10), mode="run")
    assert "45 degrees" in str(err.value) and "10 ft straight" in str(err.value)


def test_sidestep_refused_while_running():
    """bfrpg:maneuverability: sidestepping only at walking speed."""
    pos = positioning(open_map(), "bfrpg", fig("man", "a", 10, 10, "N", running=True))
    with pytest.raises(RulesError, match="cannot sidestep while running"):
        pos.plan("man", (11, 10), mode="sidestep")


def test_sidestep_keeps_facing_and_moves_one_square_sideways():
    """bfrpg:maneuverability: one space laterally, facing preserved."""
    pos = positioning(open_map(), "bfrpg", fig("man", "a", 10, 10, "N"))
    path = pos.plan("man", (11, 10), mode="sidestep").path
    assert path.end.facing == FACING_INDEX["N"] and path.total_ft == 5
    assert set(pos.reach("man", "sidestep")) == {(9, 10), (11, 10), (10, 10)}
    with pytest.raises(RulesError, match="one square to the side"):
        pos.plan("man", (10, 9), mode="sidestep")


def test_fighting_withdrawal_backs_away_at_half_speed():
    """bfrpg:defensive-movement: back away at up to half walking movement, keeping facing."""
    pos = positioning(open_map(), "bfrpg", fig("man", "a", 10, 10, "N", move_ft=40))
    reach = pos.reach("man", "withdraw")
    assert max(e.cost_ft for e in reach.values()) <= 20
    assert all(y >= 10 for _, y in reach)
    path = pos.plan("man", (10, 14), mode="withdraw").path
    assert all(s.facing == FACING_INDEX["N"] for s in path.steps)
    with pytest.raises(RulesError, match="too far for a fighting withdrawal"):
        pos.plan("man", (10, 15), mode="withdraw")


def test_difficult_terrain_doubles_the_step_and_advances_the_diagonal_count():
    """Engine convention (all rulesets x2): a 5-ft diagonal into rubble costs 10, the next diagonal 10."""
    bmap = ascii_map("""
.,,,,
,,,,,
,,,,,
""")
    pos = positioning(bmap, "bfrpg", fig("w", "a", 0, 0, "SE"))
    path = pos.plan("w", (2, 2)).path
    assert [s.cost_ft for s in path.steps[1:]] == [10, 20]


def test_too_far_says_how_far():
    pos = positioning(open_map(), "bfrpg", fig("w", "a", 0, 0, "E", move_ft=40))
    with pytest.raises(RulesError, match="needs 45 ft, w has 40 ft"):
        pos.plan("w", (9, 0))


def test_cannot_end_on_a_figure_but_may_pass_an_ally():
    bmap = ascii_map("""
#####
.....
#####
""")
    pos = positioning(bmap, "bfrpg", fig("w", "a", 0, 1, "E"), fig("ally", "a", 2, 1), fig("foe", "b", 4, 1))
    assert pos.plan("w", (3, 1)).path.total_ft == 15
    with pytest.raises(RulesError, match="occupied by ally"):
        pos.plan("w", (2, 1))


def test_foes_block_movement():
    bmap = ascii_map("""
#####
.....
#####
""")
    pos = positioning(bmap, "bfrpg", fig("w", "a", 0, 1, "E"), fig("foe", "b", 2, 1))
    with pytest.raises(RulesError, match="cannot be reached"):
        pos.plan("w", (3, 1))


def test_cnc_jog_and_run_paces():
    """cnc:movement: jog doubles and run quadruples the movement rate."""
    pos = positioning(open_map(60, 10), "cnc", fig("una", "a", 0, 5, "E", move_ft=30))
    assert pos.planner.params(pos.figure("una"), "jog").budget_ft == 60
    assert pos.planner.params(pos.figure("una"), "run").budget_ft == 120
    with pytest.raises(RulesError, match="no jogging pace"):
        positioning(open_map(), "bfrpg", fig("x", "a", 1, 1)).plan("x", (2, 1), mode="jog")


# ----- flyers: bfrpg Maneuverability (altitude) -----

def test_winged_flyer_climbs_10_ft_per_maneuverability_distance():
    """bfrpg:maneuverability: +10 ft altitude after flying its maneuverability distance forward."""
    pos = positioning(open_map(), "bfrpg", fig("g", "a", 2, 5, "E", move_ft=20, turning_ft=10, flyer="winged", altitude_ft=20))
    with pytest.raises(RulesError):
        pos.plan("g", (2, 5), altitude_ft=30)  # cannot climb without flying forward
    path = pos.plan("g", (4, 5), altitude_ft=30).path
    assert path.end.altitude_ft == 30 and any(s.kind == "climb" for s in path.steps)
    with pytest.raises(RulesError):
        pos.plan("g", (4, 5), altitude_ft=40)  # 10 ft forward buys only one climb
    assert pos.plan("g", (6, 5), altitude_ft=40).path.end.altitude_ft == 40


def test_winged_flyer_dives_at_twice_its_rate_and_stalls_when_slow():
    """bfrpg:maneuverability: dive at up to 2x move; under 1/3 of its speed it stalls."""
    pos = positioning(open_map(), "bfrpg", fig("g", "a", 2, 5, "E", move_ft=60, turning_ft=10, flyer="winged", altitude_ft=60))
    dive = pos.plan("g", (3, 5), altitude_ft=0).path
    assert dive.total_ft == 5 + 30  # 60 ft of dive costs 30 ft of movement
    assert dive.stall  # only 5 ft across: under a third of 60 ft
    assert not pos.plan("g", (8, 5)).path.stall


def test_floater_rises_straight_up_at_half_rate():
    """bfrpg:maneuverability: floaters climb vertically at half their movement rate."""
    pos = positioning(open_map(), "bfrpg", fig("f", "a", 5, 5, flyer="floater", move_ft=40))
    assert pos.plan("f", (5, 5), altitude_ft=20).path.total_ft == 40
    with pytest.raises(RulesError):
        pos.plan("f", (5, 5), altitude_ft=25)


# ----- engagement and reach -----

def test_bfrpg_engaged_within_5_ft():
    """bfrpg:the-combat: within 5 ft of each other figures are engaged."""
    pos = positioning(open_map(), "bfrpg", fig("a", "x", 5, 5), fig("b", "y", 6, 6), fig("c", "y", 7, 5))
    pairs = {(a.id, b.id) for a, b, _ in pos.engagement.engaged_pairs(pos.figures)}
    assert pairs == {("a", "b")}


def test_odnd_melee_zone_is_10_ft_and_a_wall_breaks_it():
    """odnd:misc-combat-rules: in melee within 10 ft unless separated by an obstacle."""
    open_ = positioning(open_map(), "odnd", fig("a", "x", 5, 5), fig("b", "y", 7, 5))
    assert len(open_.engagement.engaged_pairs(open_.figures)) == 1
    walled = positioning(ascii_map("""
.........
.........
.........
.........
.........
......#..
"""), "odnd", fig("a", "x", 5, 5), fig("b", "y", 7, 5))
    assert walled.engagement.engaged_pairs(walled.figures) == []


def test_spear_threatens_10_ft_but_not_the_far_diagonal():
    """bfrpg:initiative (long reach); 10 ft reach under the 5-10 rule covers (2,1) but not (2,2)."""
    pos = positioning(open_map(), "bfrpg", fig("s", "x", 5, 5, weapons=("spear",)))
    threatened = set(pos.engagement.threatened_squares(pos.figure("s")))
    assert (7, 6) in threatened and (7, 7) not in threatened and (5, 3) in threatened


def test_odnd_whip_reaches_10_ft():
    """odnd:misc-combat-rules: a whip strikes a foe 10 ft away."""
    pos = positioning(open_map(), "odnd", fig("w", "x", 5, 5, weapons=("whip",)))
    assert (7, 5) in set(pos.engagement.threatened_squares(pos.figure("w")))


# ----- parting shots -----

def _duel(ruleset, *extra):
    return positioning(open_map(), ruleset, fig("hero", "blue", 5, 5, "E"), fig("orc", "red", 6, 5, "W"), *extra)


def test_bfrpg_parting_shot_when_turning_away_not_when_withdrawing():
    """bfrpg:defensive-movement: +2 parting shot for turning your back; a fighting withdrawal avoids it."""
    pos = _duel("bfrpg")
    shots = pos.plan("hero", (2, 5)).parting_shots
    assert [(s.attacker_id, s.bonus, s.rule) for s in shots] == [("orc", 2, "bfrpg:defensive-movement")]
    assert pos.plan("hero", (3, 5), mode="withdraw").parting_shots == ()


def test_moving_around_a_foe_inside_its_reach_is_no_parting_shot():
    pos = _duel("bfrpg")
    assert pos.plan("hero", (5, 6)).parting_shots == ()


def test_entering_reach_is_no_parting_shot():
    pos = positioning(open_map(), "bfrpg", fig("hero", "blue", 2, 5, "E"), fig("orc", "red", 6, 5, "W"))
    assert pos.plan("hero", (5, 5)).parting_shots == ()


def test_odnd_free_attack_from_foes_passed_within_10_ft():
    """odnd:retreat: foes the mover passes within 10 ft without engaging them also strike."""
    rows = ["#.#...."] * 14
    rows[8] = "#......"  # an alcove opens onto the corridor where the orc waits
    hero = fig("hero", "blue", 1, 2, "S", move_ft=60)
    pos = positioning(ascii_map("\n".join(rows)), "odnd", hero, fig("orc", "red", 3, 8, "W"))
    shots = pos.plan("hero", (1, 12)).parting_shots
    assert [s.attacker_id for s in shots] == ["orc"] and shots[0].bonus == 2
    # Behind a wall the orc is as close but cannot strike: odnd zones stop at obstacles.
    walled = positioning(ascii_map("\n".join(["#.#...."] * 14)), "odnd", hero, fig("orc", "red", 3, 8, "W"))
    assert walled.plan("hero", (1, 12)).parting_shots == ()
    open_ = positioning(open_map(), "odnd", fig("hero", "blue", 1, 2, "S", move_ft=60), fig("orc", "red", 3, 8, "W"))
    assert open_.plan("hero", (2, 8)).parting_shots == ()  # engaging it is not passing it by  # engaging it is not passing it by


def test_odnd_busy_foe_gives_no_free_attack():
    """odnd:misc-combat-rules: disengaging from a foe engaged with another draws no free attack."""
    pos = _duel("odnd", fig("ally", "blue", 7, 5, "W"))
    assert pos.plan("hero", (0, 5)).parting_shots == ()


def test_cnc_hasty_disengage_vs_fighting_disengage():
    """cnc:disengaging-from-combat: hasty gives a free attack; fighting disengagement does not."""
    pos = positioning(open_map(), "cnc", fig("hero", "blue", 5, 5, "W"), fig("orc", "red", 6, 5, "W"))
    shots = pos.plan("hero", (0, 5), mode="run").parting_shots
    assert [(s.attacker_id, s.rule) for s in shots] == [("orc", "cnc:disengaging-from-combat")]
    pos = _duel("cnc")
    assert pos.plan("hero", (3, 5), mode="withdraw").parting_shots == ()


def test_spelljammer_maneuvering_to_another_foe_is_not_withdrawing():
    """spelljammer:withdrawing-from-melee: only a complete withdrawal draws the free attack."""
    pos = _duel("spelljammer", fig("orc2", "red", 5, 8, "N"))
    assert pos.plan("hero", (5, 7)).parting_shots == ()
    shots = pos.plan("hero", (1, 5)).parting_shots
    assert [s.attacker_id for s in shots] == ["orc"]
    assert pos.plan("hero", (3, 5), mode="withdraw").parting_shots != ()  # no pace avoids it here


# ----- charge lanes -----

def _lancer(ruleset, target_at, **kw):
    return positioning(kw.pop("bmap", open_map(40, 20)), ruleset,
                       fig("k", "blue", 2, 10, "E", move_ft=kw.pop("move_ft", 60), turning_ft=20, weapons=("lance",)),
                       fig("t", "red", target_at[0], target_at[1], "W"), *kw.pop("extra", ()))


def test_charge_refused_at_5_ft():
    """bfrpg:charging: at least 10 ft of movement."""
    lane = _lancer("bfrpg", (3, 10)).charge_lane("k", "t")
    assert not lane.legal and "too close" in lane.reason


def test_charge_needs_10_ft_of_movement():
    lane = _lancer("bfrpg", (4, 10)).charge_lane("k", "t")
    assert not lane.legal and "too close" in lane.reason
    assert _lancer("bfrpg", (5, 10)).charge_lane("k", "t").legal


def test_charge_up_to_double_move():
    """bfrpg:charging: up to double the movement rate."""
    assert _lancer("bfrpg", (27, 10)).charge_lane("k", "t").legal      # 120 ft
    lane = _lancer("bfrpg", (28, 10)).charge_lane("k", "t")
    assert not lane.legal and "too far" in lane.reason


def test_charge_lane_blocked():
    """bfrpg:charging: the path must be reasonably clear."""
    pos = _lancer("bfrpg", (12, 10), extra=(fig("ally", "blue", 7, 10),))
    lane = pos.charge_lane("k", "t")
    assert not lane.legal and "blocked by ally" in lane.reason


def test_charge_needs_line_of_sight_at_the_start():
    """bfrpg:charging: no line of sight at the start, no charge."""
    bmap = open_map(40, 20)
    bmap.blocks_sight[:, 7] = True  # a bank of thick smoke: walkable, but nothing is seen through it
    pos = _lancer("bfrpg", (12, 10), bmap=bmap)
    lane = pos.charge_lane("k", "t")
    assert not lane.legal and "line of sight" in lane.reason


def test_charge_refused_for_an_unsuitable_weapon():
    """bfrpg:charging: spear, lance, pole arm or horns."""
    pos = positioning(open_map(), "bfrpg", fig("a", "blue", 2, 5, "E", weapons=("sword",)), fig("t", "red", 8, 5))
    lane = pos.charge_lane("a", "t")
    assert not lane.legal and "not suitable for charging" in lane.reason


def test_charger_must_face_the_lane():
    pos = positioning(open_map(), "bfrpg", fig("a", "blue", 10, 5, "E", weapons=("spear",)), fig("t", "red", 3, 5))
    lane = pos.charge_lane("a", "t")
    assert not lane.legal and "45 degrees" in lane.reason


def test_cnc_charge_band_is_move_to_jog():
    """cnc:charging: Una (move 30) may charge an orc between 30 and 60 ft away."""
    def lane(distance_squares):
        pos = positioning(open_map(40, 10), "cnc", fig("una", "blue", 1, 5, "E", move_ft=30),
                          fig("orc", "red", 1 + distance_squares, 5, "W"))
        return pos.charge_lane("una", "orc")
    assert not lane(5).legal and "too close" in lane(5).reason   # 25 ft
    assert lane(6).legal and lane(12).legal                      # 30 and 60 ft
    assert not lane(13).legal and "too far" in lane(13).reason   # 65 ft


def test_odnd_charge_more_than_half_move_ending_within_10_ft():
    """odnd:charging-attacks: more than half the Turn movement, up to all of it, ending within 10 ft."""
    def lane(distance_squares):
        pos = positioning(open_map(40, 10), "odnd", fig("f", "blue", 1, 5, "E", move_ft=60),
                          fig("o", "red", 1 + distance_squares, 5, "W"))
        return pos.charge_lane("f", "o")
    assert not lane(6).legal             # 30 ft: only half
    assert lane(8).legal                 # 35 ft of movement
    assert lane(14).legal                # 65 ft away: runs 55 ft and ends 10 ft off
    assert not lane(16).legal


def test_spelljammer_has_no_charge():
    pos = positioning(open_map(), "spelljammer", fig("a", "blue", 2, 5, "E", weapons=("spear",)), fig("t", "red", 8, 5))
    assert "no charge" in pos.charge_lane("a", "t").reason


def test_running_to_a_sidestep_square_explains_the_sidestep_rule():
    """bfrpg:maneuverability: sidestep at walking speed only, so a runner cannot just shift over."""
    pos = positioning(open_map(), "bfrpg", fig("man", "a", 10, 10, "N"))
    with pytest.raises(RulesError, match="sidestepping is only allowed at walking pace"):
        pos.plan("man", (11, 10), mode="run", facing=FACING_INDEX["N"])
