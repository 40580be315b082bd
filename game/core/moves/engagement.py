"""Who is engaged with whom, which squares each figure threatens, and who gets a parting shot.

Distances between figures count their heights (geometry.distance_ft); reach and zones never
pass through walls. The parting-shot triggers are data (ruleset [parting_shots].trigger):
  leave-reach          leaving the reach of an adjacent foe, back turned (bfrpg, ch17)
  leave-zone           leaving a foe's melee zone, plus foes passed within pass_by_ft (odnd)
  hasty-disengage      leaving melee at any pace but a fighting disengagement (cnc)
  withdraw-from-melee  ending the move engaged with no foe at all (spelljammer)
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import is_

from ..values.battlemap import BattleMap
from ..values.figure import Figure
from ..values.geometry import SQUARE_FT, distance_ft
from ..values.bodies import bounds, cells
from .los import SightMap, terrain
from ..ruleset import Ruleset


@dataclass(frozen=True)
class PartingShot:
    """A free strike a foe gets at a figure leaving its reach, with its bonus and the rule."""

    attacker_id: str
    attacker: str
    step_index: int         # index in the path's steps of the square the mover leaves from
    bonus: int
    rule: str
    reason: str

    def to_json(self) -> dict:
        return {"attacker": self.attacker_id, "step": self.step_index, "bonus": self.bonus,
                "rule": self.rule, "reason": self.reason}


def weapon_reach_ft(ruleset: Ruleset, figure: Figure) -> int:
    """How far the figure's ready weapon strikes in melee (5 ft for missile weapons and unknown ones)."""
    weapon = ruleset.weapon(figure.ready_weapon)
    return 5 if weapon is None or weapon["ranged"] else weapon["reach_ft"]


class Engagement:
    """Engagement and reach queries for the figures on one map under one ruleset."""

    def __init__(self, bmap: BattleMap, ruleset: Ruleset, sight: SightMap | None = None, attacking: dict | None = None):
        self.map = bmap
        # figure id -> the figures it is attacking this round (its targets of the round before until it
        # has made an attack): what "busy" means where a foe must be attacking only the mover's allies.
        self.attacking = attacking or {}
        self.ruleset = ruleset
        self.sight = sight or SightMap(bmap, ruleset.section("cover")["figure_between_degree"])
        self.zone_ft = ruleset.section("engagement")["zone_ft"]
        self.obstacle_breaks = ruleset.section("engagement")["obstacle_breaks"]
        self.diagonal = ruleset.diagonal
        self._floor = None
        self._starts: dict = {}
        self._last_start: tuple | None = None

    def height(self, x: int, y: int, altitude_ft: float) -> float:
        floor = self._floor
        if floor is None:   # the map's floors as a plain list of rows (a numpy scalar read is slow)
            floor = self._floor = terrain(self.map).floor
        return floor[y][x] + altitude_ft

    def gap_ft(self, a: Figure, a_pos=None, a_alt=None, b: Figure | None = None, a_facing=None) -> float:
        ax, ay = a_pos or a.pos
        alt = a.altitude_ft if a_alt is None else a_alt
        if a.big or b.big:
            return min(d for d, _p, _q in self._pairs(self.body(a, (ax, ay), a_facing), alt, b.cells, b.altitude_ft))
        return distance_ft(self.diagonal, (ax, ay), b.pos, self.height(ax, ay, alt), self.height(b.x, b.y, b.altitude_ft))

    # ----- bodies bigger than a square: measured from their nearest cells (values/bodies.py) -----
    @staticmethod
    def body(fig: Figure, pos=None, facing=None) -> tuple:
        """The cells of fig's body with its anchor at pos (default: where it stands)."""
        x, y = pos or fig.pos
        if not fig.big:
            return ((x, y),)
        return cells(x, y, fig.facing if facing is None else facing, fig.footprint)

    def _pairs(self, body_a, alt_a, body_b, alt_b):
        """(distance, cell of a, cell of b) for every pair of cells, nearest first."""
        out = [(distance_ft(self.diagonal, p, q, self.height(p[0], p[1], alt_a), self.height(q[0], q[1], alt_b)), p, q)
               for p in body_a for q in body_b]
        out.sort()
        return out

    def _bodies_within(self, body_a, alt_a, body_b, alt_b, limit, need_line: bool) -> bool:
        """Is some cell of one body within `limit` ft of some cell of the other (and, if asked, the
        line between that pair clear of walls)?"""
        for d, p, q in self._pairs(body_a, alt_a, body_b, alt_b):
            if d > limit:
                return False
            if not need_line or self.sight.clear_line(p, q, alt_a, alt_b):
                return True
        return False

    def reach_ft(self, figure: Figure) -> int:
        return weapon_reach_ft(self.ruleset, figure)

    def in_zone(self, a: Figure, b: Figure, a_pos=None, a_alt=None, a_facing=None) -> bool:
        """Is b within a's engagement zone when a stands at a_pos (default: where it is)."""
        pos = a_pos or a.pos
        if a.big or b.big:
            alt = a.altitude_ft if a_alt is None else a_alt
            body_a = self.body(a, pos, a_facing)
            if alt == b.altitude_ft and not set(body_a).isdisjoint(b.cells):
                return True
            return self._bodies_within(body_a, alt, b.cells, b.altitude_ft, self.zone_ft,
                                       self.obstacle_breaks or self.zone_ft <= 5)
        if pos == b.pos and (a_alt if a_alt is not None else a.altitude_ft) == b.altitude_ft:
            return True
        if SQUARE_FT * max(abs(pos[0] - b.x), abs(pos[1] - b.y)) > self.zone_ft:
            return False    # no distance rule makes squares nearer than their larger offset: most figures end here
        if self.gap_ft(a, pos, a_alt, b) > self.zone_ft:
            return False
        if self.obstacle_breaks or self.zone_ft <= 5:
            alt = a.altitude_ft if a_alt is None else a_alt
            return self.sight.clear_line(pos, b.pos, alt, b.altitude_ft)
        return True

    def threatens(self, foe: Figure, pos, altitude_ft: float = 0, body=None) -> bool:
        """Can foe strike a figure standing at pos (and altitude) with its ready weapon; `body`: the
        cells of a big figure anchored at pos (its nearest cell counts)."""
        if foe.big or (body is not None and len(body) > 1):
            mine = body or (tuple(pos),)
            if not set(mine).isdisjoint(foe.cells):
                return False
            return self._bodies_within(foe.cells, foe.altitude_ft, mine, altitude_ft, self.reach_ft(foe), True)
        if pos == foe.pos:
            return False
        reach = self.reach_ft(foe)
        if SQUARE_FT * max(abs(pos[0] - foe.x), abs(pos[1] - foe.y)) > reach:
            return False
        d = distance_ft(self.diagonal, foe.pos, pos, self.height(foe.x, foe.y, foe.altitude_ft),
                        self.height(pos[0], pos[1], altitude_ft))
        return d <= reach and self.sight.clear_line(foe.pos, pos, foe.altitude_ft, altitude_ft)

    def threatened_squares(self, figure: Figure) -> list[tuple[int, int]]:
        reach = self.reach_ft(figure)
        r = reach // 5 + 1
        out = []
        x0, y0, x1, y1 = bounds(figure.cells)
        for y in range(max(0, y0 - r), min(self.map.height, y1 + r + 1)):
            for x in range(max(0, x0 - r), min(self.map.width, x1 + r + 1)):
                if not self.map.blocks_move[y, x] and self.threatens(figure, (x, y), 0):
                    out.append((x, y))
        return out

    def zone_squares(self, figure: Figure) -> list[tuple[int, int]]:
        """Ground squares inside the figure's engagement zone (a foe standing there would be engaged)."""
        r = self.zone_ft // 5 + 1
        out = []
        x0, y0, x1, y1 = bounds(figure.cells)
        body = figure.cells
        for y in range(max(0, y0 - r), min(self.map.height, y1 + r + 1)):
            for x in range(max(0, x0 - r), min(self.map.width, x1 + r + 1)):
                if (x, y) in body or self.map.blocks_move[y, x]:
                    continue
                probe = Figure(id="", side="", x=x, y=y)
                if self.in_zone(figure, probe):
                    out.append((x, y))
        return out

    def engaged_pairs(self, figures: list[Figure]) -> list[tuple[Figure, Figure, float]]:
        pairs = []
        for i, a in enumerate(figures):
            for b in figures[i + 1:]:
                if a.side != b.side and self.in_zone(a, b):
                    pairs.append((a, b, self.gap_ft(a, None, None, b)))
        return pairs

    def foes_engaging(self, mover: Figure, figures: list[Figure], pos=None, alt=None, facing=None) -> list[Figure]:
        return [f for f in figures if f.side != mover.side and f.id != mover.id and self.in_zone(mover, f, pos, alt, facing)]

    # ----- parting shots -----
    def parting_shots(self, mover: Figure, steps, mode: str, figures: list[Figure]) -> list[PartingShot]:
        """Free attacks that moving along `steps` (planner Steps) would give foes."""
        ps = self.ruleset.section("parting_shots")
        if len(steps) < 2 or (mode == "withdraw" and ps["withdrawal_avoids"]):
            return []
        foes, allies, engaged_at_start, busy_foes, engaging_at = self._start_of_moves(mover, figures)
        rule = self.ruleset.cite(ps["rule"])
        trigger = ps["trigger"]
        shots: list[PartingShot] = []
        retreat = self.ruleset.section("disengage")
        decided = (f" (a retreat: {retreat['retreat_die']} + DEX against the mover's decides)"
                   if retreat["move_is_retreat"] and mode != "charge" else "")

        def busy(foe: Figure) -> bool:
            got = busy_foes.get(id(foe))
            if got is None:
                got = busy_foes[id(foe)] = self.busy(foe, mover, allies)
            return got

        if trigger == "withdraw-from-melee":
            if not engaged_at_start:
                return []       # not in melee where it starts: nothing to withdraw from
            return list(self._withdrawal_shots(mover, steps[-1], foes, engaged_at_start, busy, engaging_at, ps, rule))

        for foe in engaged_at_start:
            if busy(foe):
                continue
            left_at = self._leaves(mover, foe, steps, trigger)
            if left_at is None:
                continue
            words = {
                "leave-reach": f"{mover.label} turns away from {foe.label} and moves out of {foe.label}'s reach",
                "leave-zone": f"{mover.label} retreats out of {foe.label}'s {self.zone_ft} ft melee zone",
                "hasty-disengage": f"{mover.label} disengages hastily from {foe.label}",
            }[trigger]
            shots.append(PartingShot(foe.id, foe.label, left_at, ps["attack_bonus"], rule, words + decided))

        if ps["pass_by_ft"]:
            end = steps[-1]
            for foe in foes:
                if foe in engaged_at_start:
                    continue
                if self.in_zone(mover, foe, (end.x, end.y), end.altitude_ft, end.facing if mover.big else None):
                    continue  # it engages that foe: no free attack for passing
                for i, st in enumerate(steps[1:], start=1):
                    if self.passes_within(mover, (st.x, st.y), st.altitude_ft, st.facing if mover.big else None, foe,
                                          ps["pass_by_ft"]):
                        if busy(foe):   # asked last: among hundreds of figures, of the few foes passed
                            break
                        shots.append(PartingShot(foe.id, foe.label, i, ps["attack_bonus"], rule,
                                                 f"{mover.label} passes within {ps['pass_by_ft']} ft of {foe.label} "
                                                 f"without engaging it{decided}"))
                        break
        return shots

    def busy(self, foe: Figure, mover: Figure, allies) -> bool:
        """Is the foe busy with one of the mover's allies, so that leaving it draws no free attack? odnd
        (MISC COMBAT RULES 4): it is engaged with one; spelljammer (Withdrawing From Melee): it is
        attacking only allies this round, one of them within its zone, never the mover."""
        ps = self.ruleset.section("parting_shots")
        if not ps["busy_foe_exempt"]:
            return False
        if ps["busy_means"] == "attacking-only-an-ally":
            targets = self.attacking.get(foe.id)
            if not targets or mover.id in targets:
                return False
            return any(ally.id in targets and self.in_zone(foe, ally) for ally in allies)
        return any(self.in_zone(foe, ally) for ally in allies)

    def _withdrawal_shots(self, mover: Figure, end, foes, engaged_at_start, busy, engaging_at, ps, rule) -> tuple:
        """withdraw-from-melee: the shots a stretch ending on step `end` draws."""
        where = (end.x, end.y, end.altitude_ft, end.facing if mover.big else None)
        # Paths that share their first steps end their stretches on the same squares: what a
        # stretch ending there draws depends on nothing else (the mover and figures are the entry's).
        kept = engaging_at.get(where)
        if kept is not None:
            return kept
        shots = []
        still = self.foes_engaging(mover, foes, (end.x, end.y), end.altitude_ft, where[3])
        if not (ps["only_when_leaving_all_melee"] and still):
            for foe in engaged_at_start:
                if foe in still:
                    continue
                if busy(foe):
                    continue
                if mover.flyer == "winged" and end.altitude_ft > mover.altitude_ft + 5:
                    continue  # an agile flyer escaping upward is not struck
                shots.append(PartingShot(foe.id, foe.label, 0, ps["attack_bonus"], rule,
                                         f"{mover.label} withdraws from melee with {foe.label}"))
        got = engaging_at[where] = tuple(shots)
        return got

    def stretch_parting_shots(self, mover: Figure, steps, mode: str, figures: list[Figure]) -> list:
        """parting_shots of each stretch steps[:i], i from 2 to len(steps) - 1, in that order (a d100
        move is judged segment by segment). A withdrawal's stretch draws by where it ends alone: the
        mover's start is worked out once for all of them, without the stretches' copies."""
        ps = self.ruleset.section("parting_shots")
        if ps["trigger"] != "withdraw-from-melee" or (mode == "withdraw" and ps["withdrawal_avoids"]):
            return [self.parting_shots(mover, steps[:i], mode, figures) for i in range(2, len(steps))]
        foes, allies, engaged_at_start, busy_foes, engaging_at = self._start_of_moves(mover, figures)
        if not engaged_at_start:
            return [[] for _ in range(2, len(steps))]
        rule = self.ruleset.cite(ps["rule"])

        def busy(foe: Figure) -> bool:
            got = busy_foes.get(id(foe))
            if got is None:
                got = busy_foes[id(foe)] = self.busy(foe, mover, allies)
            return got

        return [self._withdrawal_shots(mover, steps[i - 1], foes, engaged_at_start, busy, engaging_at, ps, rule)
                for i in range(2, len(steps))]

    def draws_no_parting_shots(self, mover: Figure, mode: str, figures: list[Figure]) -> bool:
        """True when no path of the mover in this mode, among these figures, can draw a parting shot:
        a withdrawal that avoids them, or no foe engaging it where it starts and no passing-by shots
        (what parting_shots answers first, asked once for every stretch of a path)."""
        ps = self.ruleset.section("parting_shots")
        if mode == "withdraw" and ps["withdrawal_avoids"]:
            return True
        if self._start_of_moves(mover, figures)[2]:
            return False
        return ps["trigger"] == "withdraw-from-melee" or not ps["pass_by_ft"]

    def _start_of_moves(self, mover: Figure, figures: list[Figure]) -> tuple:
        """(foes, allies, foes engaging the mover where it stands, foe id -> busy with an ally,
        (x, y, altitude, facing) -> the shots a withdrawal ending there draws) among these figures:
        the same for every path a mover weighs (the AI prices dozens a decision). Kept per the
        figure objects themselves (immutable; the entry holds them, so their ids stay theirs)."""
        last = self._last_start     # a path's stretches are weighed one after another with one list
        if last is not None and last[5] is mover and last[-1] is figures and len(figures) == len(last[6]) \
                and all(map(is_, figures, last[6])):
            return last[:5]
        key = (id(mover), *map(id, figures))
        got = self._starts.get(key)
        if got is None:
            others = [f for f in figures if f.id != mover.id]
            foes = [f for f in others if f.side != mover.side]
            allies = [f for f in others if f.side == mover.side]
            if len(self._starts) > 1024:
                self._starts.clear()
            got = self._starts[key] = (foes, allies, [f for f in foes if self.in_zone(mover, f)], {}, {}, mover,
                                       tuple(figures))
        self._last_start = got + (figures,)
        return got[:5]

    def passes_within(self, mover: Figure, pos, alt, facing, foe: Figure, pass_by_ft) -> bool:
        """Is the mover, at pos on its way, within pass_by_ft of the foe with a clear line?"""
        if mover.big or foe.big:
            return self._bodies_within(self.body(mover, pos, facing), alt, foe.cells, foe.altitude_ft, pass_by_ft, True)
        x, y = pos
        if SQUARE_FT * max(abs(x - foe.x), abs(y - foe.y)) > pass_by_ft:
            return False    # no distance rule makes squares nearer than their larger offset
        gap = distance_ft(self.diagonal, (x, y), foe.pos, self.height(x, y, alt), self.height(foe.x, foe.y, foe.altitude_ft))
        return gap <= pass_by_ft and self.sight.clear_line((x, y), foe.pos, alt, foe.altitude_ft)

    def _leaves(self, mover: Figure, foe: Figure, steps, trigger: str) -> int | None:
        """Index of the step the mover leaves the foe's reach or zone from, if it does."""
        for i in range(len(steps) - 1):
            a, b = steps[i], steps[i + 1]
            if (a.x, a.y, a.altitude_ft) == (b.x, b.y, b.altitude_ft):
                continue
            fa, fb = (a.facing, b.facing) if mover.big else (None, None)
            body_a = self.body(mover, (a.x, a.y), fa) if mover.big else None
            body_b = self.body(mover, (b.x, b.y), fb) if mover.big else None
            if trigger == "leave-reach":
                inside_a = (self.threatens(foe, (a.x, a.y), a.altitude_ft, body_a)
                            or self.in_zone(mover, foe, (a.x, a.y), a.altitude_ft, fa))
                inside_b = (self.threatens(foe, (b.x, b.y), b.altitude_ft, body_b)
                            or self.in_zone(mover, foe, (b.x, b.y), b.altitude_ft, fb))
            else:
                inside_a = self.in_zone(mover, foe, (a.x, a.y), a.altitude_ft, fa)
                inside_b = self.in_zone(mover, foe, (b.x, b.y), b.altitude_ft, fb)
            if inside_a and not inside_b:
                return i
        return None
