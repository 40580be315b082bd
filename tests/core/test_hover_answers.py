"""The hover's answer (Positioning.plan: the path, or why not in words) is the one whole searches
give: every relaxed search aimed at the square and stopped at its budget's edge, the flood asked
from both ends (moves/flood.py), and the resolver's view aiming rather than running a whole
search, change no path, no cost and no word. Held on random small maps under all five rulesets,
for runners, horses walking and running, big bodies and flyers, every square of the map asked,
against the explainer as it was: every relaxed search run whole (resumed square by square), the
flood run over the whole map."""
import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.values.battlemap import BattleMap
from game.core.values.errors import RulesError
from game.core.values.geometry import FACINGS, turn_octants
from game.core.moves.explain import Explainer, _behind, _deltas, _ft
from game.core.moves.flood import Flood
from game.core.moves.positioning import Positioning
from game.core.moves.shots import fewest_shots
from game.io.rulesets import load_ruleset

from helpers import RULESET_IDS, fig

RULESETS = {rid: load_ruleset(rid) for rid in RULESET_IDS}
SIZE = 10

# kind -> (mode, Figure keywords)
KINDS = {
    "runner": ("run", dict(move_ft=15, turning_ft=0)),
    "horse walking": ("walk", dict(move_ft=25, turning_ft=20)),
    "horse running": ("run", dict(move_ft=15, turning_ft=20)),
    "big body": ("walk", dict(move_ft=20, turning_ft=5, footprint=(2, 2))),
    "long body": ("walk", dict(move_ft=20, turning_ft=10, footprint=(1, 2))),
    "winged flyer": ("walk", dict(move_ft=20, turning_ft=10, flyer="winged", altitude_ft=10)),
    "floater": ("walk", dict(move_ft=20, turning_ft=5, flyer="floater", altitude_ft=5)),
    "withdrawing": ("withdraw", dict(move_ft=30, turning_ft=10)),
}


class WholeExplainer(Explainer):
    """The explainer as it was: each relaxed search run whole, resumed for every square asked, the
    search with turning rules asked for the turning reason even where it is not read, the flood
    run over the whole map."""

    def _whole(self, name: str):
        got = self._searches.get(name)
        if got is None:
            got = self._searches[name] = self.planner.unstarted_search(self.figure, self.mode, self.occupants,
                                                                      **self._relax(name))
        return got

    def _aimed(self, name, target, facing, altitude_ft):
        return self._whole(name).path_to(target, facing, altitude_ft)

    def connected(self, target, ledges: bool) -> bool:
        got = self._connected.get(ledges)
        if got is None:
            got = self._connected[ledges] = Flood(self.rules, ledges).everything()
        return self.planner.grid.index(*target) in got

    def _withdraw(self, target, facing, altitude_ft) -> str:
        fig, who = self.figure, self.figure.label
        x, y = target
        rear = [FACINGS[(fig.facing + d) % 8] for d in self.rules.params.directions]
        if not _behind(fig.facing, self.rules.params.directions, x - fig.x, y - fig.y, self.rules.no_diagonals):
            return (f"a fighting withdrawal backs away from the facing ({fig.facing_name}) without turning, stepping "
                    f"{', '.join(rear)}: {x},{y} is not behind {who}")
        if facing is not None and facing != fig.facing:
            return f"a fighting withdrawal keeps the facing: {who} ends facing {fig.facing_name}, not {FACINGS[facing]}"
        free = self._whole("unlimited").path_to(target, None, altitude_ft)
        if free is None:
            if self.connected(target, ledges=True):
                return (f"too far for a fighting withdrawal: {x},{y} is more than {_ft(self.bound)} ft back, "
                        f"{who} may back away {_ft(self.rules.budget)} ft")
            return f"{x},{y} is behind {who}, but walls, foes or drops close every way back to it"
        return (f"too far for a fighting withdrawal: needs {_ft(free.total_ft)} ft, "
                f"{who} may back away {_ft(self.rules.budget)} ft")

    def _general(self, target, facing, altitude_ft) -> str:
        fig, who, rules = self.figure, self.figure.label, self.rules
        x, y = target
        where = f"{x},{y}" + (f" at {altitude_ft} ft up" if altitude_ft is not None else "")
        anywhere = self._whole("free").path_to(target, None, altitude_ft)
        if anywhere is None:
            if altitude_ft is not None and self._whole("free").path_to(target) is not None:
                return self._altitude_unreachable(target, altitude_ft)
            if not self.connected(target, ledges=True):
                misfit = self._body_misfit(target)
                if misfit is not None:
                    return misfit
                if fig.flyer == "none" and self.connected(target, ledges=False):
                    return (f"{x},{y} cannot be reached: ledges or drops too high to step (more than "
                            f"{self.planner.climb_step_ft} ft) close every way there")
                return f"{x},{y} cannot be reached: walls, foes or drops close every way there"
            return (f"too far: {where} is more than {_ft(self.bound)} ft away by any way there, {who} has "
                    f"{_ft(rules.budget)} ft ({self.mode})")
        no_limits = anywhere.total_ft
        with_turning = self._whole("unlimited").path_to(target, facing, altitude_ft)
        if no_limits > rules.budget + 1e-9 and (with_turning is None or with_turning.total_ft >= no_limits):
            return f"too far: {where} needs {_ft(no_limits)} ft, {who} has {_ft(rules.budget)} ft ({self.mode})"
        reason = self._turning_reason(target, facing, altitude_ft, with_turning)
        lateral = [(fig.x + dx, fig.y + dy) for dx, dy in _deltas(fig.facing, (6, 2))]
        if self.mode in ("run", "jog") and (x, y) in lateral:
            reason += "; a sidestep would keep its facing, but sidestepping is only allowed at walking pace"
        return reason

    def _turning_reason(self, target, facing, altitude_ft, with_turning) -> str:
        fig, who, rules = self.figure, self.figure.label, self.rules
        x, y = target
        arrival = self._whole("budget").path_to(target, None, altitude_ft)
        angle_only = self._aimed("any-angle", target, facing, altitude_ft) is not None
        distance_only = self._aimed("any-time", target, facing, altitude_ft) is not None
        if facing is not None and arrival is not None:
            arrive = arrival.end
            lead = f"{who} can reach {x},{y} but not facing {FACINGS[facing]}: it arrives facing {FACINGS[arrive.facing]}"
            if turn_octants(arrive.facing, facing) > rules.params.max_turn:
                why = rules.turn_angle_words(arrive.facing, facing)
            else:
                turned = any(s.kind in ("turn+step", "climb") for s in arrival.steps)
                why = rules.straight_words(self._straight_on_arrival(arrival), turned, arrive.facing)
            if with_turning is None:
                return f"{lead}, and {why}; no way there ends facing {FACINGS[facing]}"
            return (f"{lead}, and {why}; ending facing {FACINGS[facing]} needs {_ft(with_turning.total_ft)} ft "
                    f"and it has {_ft(rules.budget)} ft")
        if distance_only:
            lead = rules.straight_words(rules.start[3] if rules.tracks_straight else 0, False, fig.facing)
        elif angle_only:
            lead = (f"{who} cannot turn sharply enough: a facing change turns at most "
                    f"{rules.params.max_turn * 45} degrees{rules.running_words()}")
        else:
            lead = (f"{who} cannot turn that way within its turning rules: {rules.turning} ft straight ahead "
                    f"between facing changes, at most {rules.params.max_turn * 45} degrees each{rules.running_words()}")
        if with_turning is None:
            return f"{lead}; no path to {x},{y} keeps to its turning rules"
        return (f"{lead}; keeping to its turning rules, {x},{y} needs {_ft(with_turning.total_ft)} ft and it has "
                f"{_ft(rules.budget)} ft")


def random_map(rng: random.Random, density: float, keep: set) -> BattleMap:
    bmap = BattleMap.empty(SIZE, SIZE)
    for y in range(SIZE):
        for x in range(SIZE):
            if (x, y) in keep:
                continue
            roll = rng.random()
            if roll < density:
                bmap.add_wall(x, y, height_ft=rng.choice([0, 0, 10]))   # some a flyer passes over
            elif roll < density + 0.05:
                bmap.elevation_ft[y, x] = rng.choice([10, 20])          # ledges
            elif roll < density + 0.1:
                bmap.difficult[y, x] = True                             # dearer to walk into, not to fly over
    return bmap


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.0, 0.1, 0.25]), st.sampled_from(RULESET_IDS),
       st.sampled_from(sorted(KINDS)), st.integers(0, 7), st.sampled_from([None, None, 0, 3]),
       st.sampled_from([None, None, 0, 10, 20]), st.booleans())
def test_the_hover_answers_as_whole_searches_do(seed, density, rid, kind, facing, end_facing, altitude, foes):
    rng = random.Random(seed)
    mode, traits = KINDS[kind]
    start = (4, 4)
    bmap = random_map(rng, density, {(x, y) for x in range(3, 6) for y in range(3, 6)})
    mover = fig("m", "blue", *start, **traits).moved_to(*start, facing)
    others = []
    if foes:    # a foe and an ally somewhere open: foes block, allies are passed, neither is ended on
        free = [(x, y) for y in range(SIZE) for x in range(SIZE)
                if not bmap.blocks_move[y, x] and max(abs(x - 4), abs(y - 4)) > 2]
        for i, side in enumerate(("red", "blue")):
            if free:
                x, y = free.pop(rng.randrange(len(free)))
                others.append(fig(f"o{i}", side, x, y))
    if mover.flyer == "none":
        altitude = None if altitude is None else 0
    every_square_as_whole_searches(bmap, rid, mover, mode, others, end_facing, altitude)


def every_square_as_whole_searches(bmap, rid, mover, mode, others, end_facing, altitude):
    pos = Positioning(bmap, RULESETS[rid], [mover, *others])
    occupants = pos.occupants("m")
    old = WholeExplainer(pos.planner, mover, mode, occupants)
    whole = pos.planner.search(mover, mode, occupants)
    for y in range(SIZE):
        for x in range(SIZE):
            try:
                planned = pos.plan("m", (x, y), mode=mode, facing=end_facing, altitude_ft=altitude)
            except RulesError as err:
                said = str(err)
            else:
                chosen = fewest_shots(whole, pos.engagement, mover, pos.figures, (x, y), end_facing, altitude)
                assert chosen is not None, (x, y)
                assert (planned.path, planned.parting_shots, planned.choice) == chosen, (x, y)
                continue
            assert fewest_shots(whole, pos.engagement, mover, pos.figures, (x, y), end_facing, altitude) is None, (x, y)
            assert said == old.why((x, y), end_facing, altitude), (x, y)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.1, 0.3, 0.45]), st.sampled_from(["none", "winged"]),
       st.booleans(), st.sampled_from(["walk", "withdraw"]))
def test_the_flood_from_both_ends_joins_what_the_whole_flood_joins(seed, density, flyer, ledges, mode):
    rng = random.Random(seed)
    start = (rng.randrange(SIZE), rng.randrange(SIZE))
    bmap = random_map(rng, density, {start})
    mover = fig("m", "blue", *start, move_ft=20, flyer=flyer).moved_to(*start, rng.randrange(8))
    foe = (rng.randrange(SIZE), rng.randrange(SIZE))
    figures = [mover] if foe == start else [mover, fig("f", "red", *foe)]
    pos = Positioning(bmap, RULESETS["bfrpg"], figures)
    rules = pos.planner.rules(mover, mode, pos.occupants("m"))
    everything = Flood(rules, ledges).everything()
    asked = Flood(rules, ledges)     # one kept across the questions, as the explainer keeps it
    for y in range(SIZE):
        for x in range(SIZE):
            idx = rules.grid.index(x, y)
            assert Flood(rules, ledges).joins(idx) == (idx in everything), (x, y)
            assert asked.joins(idx) == (idx in everything), (x, y)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.sampled_from([0.0, 0.15, 0.3]), st.sampled_from(RULESET_IDS),
       st.sampled_from(["winged flyer", "floater"]), st.sampled_from(["walk", "run"]), st.integers(0, 7),
       st.sampled_from([None, None, 0, 3]), st.sampled_from([0, 10, 20]), st.sampled_from([None, None, 10]),
       st.sampled_from([0, 10, 20]), st.sampled_from(["", "ally", "foe", "foe beside"]), st.sampled_from([0, 0, 0.1]))
def test_a_flyer_above_the_ground_answers_as_whole_searches_do(seed, density, rid, kind, mode, facing, end_facing,
                                                               start_altitude, altitude, floor, other, raised):
    """Over ground of one floor, or with some squares raised 5 or 10 ft, among walls no flyer passes and
    obstacles it may be above or not, a flyer's end at any height is searched at the height it flies at
    where no height can matter (moves/level.py: a path only to an end on its start's floor, what a way
    costs anywhere; out of reach at any height before a search at every height), at other heights in
    full: the answers are the whole searches' either way. Turning flyers climb only after
    their straight stretch, and the way there may wind among the walls; a foe beside the flyer may
    strike as it leaves, and a way at another height may draw fewer parting shots."""
    rng = random.Random(seed)
    traits = dict(KINDS[kind][1], altitude_ft=start_altitude, move_ft=rng.choice([15, 20, 30]),
                  turning_ft=rng.choice([0, 5, 10, 20]))
    if traits["flyer"] == "winged" and start_altitude == 0:
        traits["altitude_ft"] = rng.choice([0, 10])
    bmap = BattleMap.empty(SIZE, SIZE)
    keep = {(x, y) for x in range(3, 6) for y in range(3, 6)}
    for y in range(SIZE):
        for x in range(SIZE):
            if (x, y) not in keep and rng.random() < density:
                bmap.add_wall(x, y, height_ft=rng.choice([0, 0, 0, 10]))
            bmap.elevation_ft[y, x] = floor + (rng.choice([5, 10]) if rng.random() < raised else 0)
    mover = fig("m", "blue", 4, 4, **traits).moved_to(4, 4, facing)
    where = {"ally": (7, 2), "foe": (7, 2), "foe beside": (4, 5)}.get(other)
    others = [] if where is None else [fig("o", "blue" if other == "ally" else "red", *where)]
    if where is not None:
        bmap.blocks_move[where[1], where[0]] = False
    every_square_as_whole_searches(bmap, rid, mover, mode, others, end_facing, altitude)


def test_a_flyer_beside_a_foe_takes_the_way_drawing_fewest_shots_at_any_height():
    """odnd: a flyer 10 ft up beside a foe is in its 10-ft zone and draws a free attack leaving it; a way
    climbing first (free for a winged flyer that has already flown its straight stretch this round)
    may draw none. A level flight's path that draws shots is planned again at every height
    (moves/level.py), so the answer is the whole search's."""
    for kind, turning, straight in (("winged flyer", 10, 0), ("winged flyer", 10, 10), ("winged flyer", 0, 5),
                                    ("floater", 5, 0)):
        for facing in (0, 3, 4):
            mover = fig("m", "blue", 4, 4, **dict(KINDS[kind][1], altitude_ft=10, move_ft=30, turning_ft=turning))
            mover = replace(mover.moved_to(4, 4, facing), straight_ft=straight, has_moved=bool(straight))
            for end_facing in (None, 2):
                every_square_as_whole_searches(BattleMap.empty(SIZE, SIZE), "odnd", mover, "walk",
                                               [fig("o", "red", 4, 5)], end_facing, None)


def test_a_flyer_ending_over_raised_ground_climbs_to_keep_its_altitude_as_whole_searches_do():
    """A winged flyer 20 ft up ending over a square 10 ft higher than its start's keeps its altitude
    there (20 ft) by a free climb, where an equally cheap level way would end 10 ft above it: its path
    comes from the search at every height, what ways cost from the level one (moves/level.py). Over
    lower ground no way as cheap ends nearer its altitude (that takes a dive), nor does a floater's
    anywhere (its rises cost): those paths are level."""
    for start_floor in (0, 10):
        bmap = BattleMap.empty(SIZE, SIZE)
        for x, y in ((4, 1), (6, 2), (1, 4), (7, 7), (2, 8), (4, 4)):
            bmap.elevation_ft[y, x] = 10 if (x, y) != (4, 4) else start_floor
        for kind, altitude in (("winged", 20), ("floater", 15)):
            for facing in (0, 2, 5):
                for turning in (0, 10):
                    mover = fig("m", "blue", 4, 4, move_ft=20, turning_ft=turning, flyer=kind, altitude_ft=altitude)
                    for end_facing in (None, 0):
                        every_square_as_whole_searches(bmap, "bfrpg", mover.moved_to(4, 4, facing), "walk", [],
                                                       end_facing, None)
