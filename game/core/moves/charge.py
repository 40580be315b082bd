"""Charge lanes: whether a figure may charge a target, along which squares, or why not.

A lane is the 8-connected straight line (Bresenham) from the charger's square toward the
target, ending on the square from which the charger strikes. A charge is a run, so the
charger must already face within 45 degrees of the lane (it may not turn before running its
turning distance); large incorporeal flyers are exempt.

A body bigger than a square runs its anchor along the line that brings its cell nearest the
target onto the target's nearest cell; the lane must be clear for every cell of the body at
every step, and the charge ends where the body is within striking distance of the target's
body (values/bodies.py; an engine choice, the documents ask only for a clear straight path).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from ..values.figure import Figure
from ..values.numbers import plain_number
from ..values.geometry import FACINGS, bearing_octant, distance_ft, grid_distance_ft, step_cost_ft
from ..values.bodies import nearest_cells, offsets
from .engagement import weapon_reach_ft
from .los import SightMap
from .path import ReachEntry


@dataclass(frozen=True)
class ChargeLane:
    """A charge at one target: the squares of its lane, and whether the rules allow it (and why or why not)."""

    attacker_id: str
    target_id: str
    legal: bool
    squares: tuple[tuple[int, int], ...]   # from the first square moved into to the end square
    distance_ft: float                     # what the rules measure (movement or distance to target)
    reason: str                            # why it is legal, or why not, in a player's words
    rule: str
    limits: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"attacker": self.attacker_id, "target": self.target_id, "legal": self.legal,
                "squares": [list(s) for s in self.squares], "distance_ft": plain_number(self.distance_ft),
                "reason": self.reason, "rule": self.rule, "limits": self.limits}


def bresenham(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    err = dx + dy
    out = [(x0, y0)]
    while (x0, y0) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
        out.append((x0, y0))
    return out


_LIMITS: dict = {}


def charge_limits(ruleset, figure: Figure, mounted: bool = False) -> tuple[float, float, bool]:
    """(least, greatest, least is exclusive) distance for this figure's charge; a mounted charger
    also keeps to the mounted limits where the ruleset has them (bfrpg: 20 to 80 ft). A function of
    the ruleset, the speed and the mount alone: kept (the AI asks for every foe and square)."""
    key = (id(ruleset), figure.move_ft, figure.move_ft.__class__, mounted)    # 30 and 30.0 multiply differently
    got = _LIMITS.get(key)
    if got is None or got[0] is not ruleset:
        if len(_LIMITS) > 256:
            _LIMITS.clear()
        got = _LIMITS[key] = (ruleset, _charge_limits(ruleset, figure, mounted))
    return got[1]


def _charge_limits(ruleset, figure: Figure, mounted: bool) -> tuple[float, float, bool]:
    ch = ruleset.section("charge")
    least = max(ch["min_ft"], float(figure.move_ft * _fraction(ch["min_move_multiple"])))
    most = float(figure.move_ft * _fraction(ch["max_move_multiple"]))
    if mounted_limits_apply(ruleset, mounted):
        least = max(least, float(ch["mounted_min_ft"]))
        most = min(most, float(ch["mounted_max_ft"])) if ch["mounted_max_ft"] else most
    return least, most, ch["min_exclusive"]


@lru_cache(maxsize=256)
def _fraction(value) -> Fraction:
    """A ruleset's multiple as a Fraction, parsed once (the AI asks charge limits many times a turn)."""
    return Fraction(value)


def mounted_limits_apply(ruleset, mounted: bool) -> bool:
    ch = ruleset.section("charge")
    return mounted and bool(ch["mounted_min_ft"] or ch["mounted_max_ft"])


def lane_step_costs(planner, squares) -> list[float]:
    """Cost of each step along a lane (diagonal rule with its parity, difficult terrain doubled)."""
    costs = []
    diagonals = 0
    mult = planner.difficult_multiplier
    for (ax, ay), (bx, by) in zip(squares, squares[1:]):
        diagonal = ax != bx and ay != by
        cost = step_cost_ft(planner.diagonal, diagonal, diagonals) if planner.diagonal != "none" or not diagonal else 10
        if diagonal:
            diagonals += 1
        if planner.map.difficult[by, bx]:
            cost *= mult
        costs.append(cost)
    return costs


def _lane_cost(planner, squares) -> float:
    return sum(lane_step_costs(planner, squares))


def _facing_ok(figure: Figure, start, toward) -> bool:
    if figure.flyer == "incorporeal":
        return True
    dx, dy = toward[0] - start[0], toward[1] - start[1]
    lane_angle = math.degrees(math.atan2(dx, -dy)) % 360
    diff = abs((lane_angle - figure.facing * 45 + 180) % 360 - 180)
    return diff <= 45 + 1e-6


def _blocker(planner, squares, occupants, figure, rel=((0, 0),)) -> str | None:
    """What blocks the lane, for every cell `rel` of the body at each of the anchor's squares."""
    m = planner.map
    for (sx, sy), (tx, ty) in zip(squares, squares[1:]):
        for dx, dy in rel:
            ax, ay, bx, by = sx + dx, sy + dy, tx + dx, ty + dy
            if not m.in_bounds(bx, by) or m.blocks_move[by, bx]:
                return f"a wall at {bx},{by}" if m.in_bounds(bx, by) else f"the map's edge at {bx},{by}"
            if (m.in_bounds(ax, ay) and figure.flyer == "none"
                    and abs(int(m.elevation_ft[by, bx]) - int(m.elevation_ft[ay, ax])) > planner.climb_step_ft):
                return f"a drop or ledge at {bx},{by}"
            other = occupants.get((bx, by))
            if other is not None and other.id != figure.id:
                return f"{other.label} at {bx},{by}"
            if ax != bx and ay != by and not planner.corner_cutting and m.in_bounds(bx, ay) and m.in_bounds(ax, by):
                if m.blocks_move[ay, bx] or m.blocks_move[by, ax]:
                    return f"a wall corner at {bx},{ay}" if m.blocks_move[ay, bx] else f"a wall corner at {ax},{by}"
    return None


def _lane_body(figure: Figure, heading: int) -> tuple:
    """The charger's cells relative to its anchor while it runs this way (a long body lies along it)."""
    return offsets(heading, figure.footprint) if figure.big else ((0, 0),)


def _aim(planner, attacker: Figure, target: Figure) -> tuple[int, int]:
    """Where the charger's anchor heads: its nearest cell onto the target's nearest cell."""
    if not attacker.big and not target.big:
        return target.pos
    p, q = nearest_cells(planner.diagonal, attacker.cells, target.cells)
    return (attacker.x + q[0] - p[0], attacker.y + q[1] - p[1])


def _body_gap(planner, anchor, rel, target_cells) -> float:
    """Least open-ground distance between the body at anchor and the target's cells (-1: they overlap)."""
    body = [(anchor[0] + dx, anchor[1] + dy) for dx, dy in rel]
    if len(body) > 1 or len(target_cells) > 1:
        if not set(body).isdisjoint(target_cells):
            return -1.0
    return min(grid_distance_ft(planner.diagonal, b[0] - t[0], b[1] - t[1]) for b in body for t in target_cells)


def charge_lane(planner, sight: SightMap, attacker: Figure, target: Figure, occupants: dict,
                mounted: bool = False) -> ChargeLane:
    rs = planner.ruleset
    ch = rs.section("charge")
    rule = rs.cite(ch["rule"])
    who, whom = attacker.label, target.label

    def refuse(reason, squares=(), dist=0.0, limits=None):
        return ChargeLane(attacker.id, target.id, False, tuple(squares), dist, reason, rule, limits or {})

    if not ch["allowed"]:
        return refuse(f"{rs.name} has no charge; run and attack instead")
    if ch["requires_charge_weapon"]:
        weapon = rs.weapon(attacker.ready_weapon)
        if weapon is None or not weapon["charge"]:
            fit = ", ".join(sorted(n for n, w in rs.section("weapons").items() if w["charge"]))
            return refuse(f"{who}'s {attacker.ready_weapon} is not suitable for charging (needs one of: {fit})")
    if ch["requires_line_of_sight"]:
        # Seen when any square of one body sees any of the other's (one pair for one-square figures).
        if not any(sight.visible(p, q, attacker.altitude_ft, target.altitude_ft)
                   for p in attacker.cells for q in target.cells):
            return refuse(f"{who} cannot see {whom} from where it starts: no line of sight, no charge")
    least, most, exclusive = charge_limits(rs, attacker, mounted)
    limits = {"least_ft": plain_number(least), "most_ft": plain_number(most), "least_exclusive": exclusive, "measure": ch["measure"]}
    mounted_words = (f" (a mounted charge: {plain_number(least)}-{plain_number(most)} ft, {rs.cite(ch['mounted_rule'])})"
                     if mounted_limits_apply(rs, mounted) else "")
    aim = _aim(planner, attacker, target)
    rel = _lane_body(attacker, bearing_octant(attacker.pos, aim))
    line = bresenham(attacker.pos, aim)
    if len(line) <= 2:
        return refuse(f"{whom} is adjacent to {who}: too close to charge (a charge must cover at least "
                      f"{plain_number(least)} ft)", limits=limits)
    end_within = max(ch["end_within_ft"], weapon_reach_ft(rs, attacker) if ch["end_within_ft"] > 5 else 5)
    candidates = [i for i in range(1, len(line) - 1)
                  if 0 <= _body_gap(planner, line[i], rel, target.cells) <= end_within]
    if not candidates:
        return refuse(f"{whom} is too close to {who} to charge (a charge must cover at least {plain_number(least)} ft)",
                      limits=limits)
    if not _facing_ok(attacker, attacker.pos, aim):
        return refuse(f"{who} faces {attacker.facing_name} and the lane to {whom} bends more than 45 degrees from that: "
                      f"a charging figure runs straight ahead and may not turn before running "
                      f"{rs.running_turning_ft(attacker.turning_ft)} ft", line[1:-1], limits=limits)
    end_index = candidates[-1]
    squares = line[: end_index + 1]
    blocked = _blocker(planner, squares, occupants, attacker, rel)
    if blocked:
        return refuse(f"the straight lane to {whom} is blocked by {blocked}; a charge must run in a straight, clear line",
                      squares[1:], limits=limits)
    if ch["measure"] == "distance-to-target":
        measured = (distance_ft(planner.diagonal, attacker.pos, target.pos) if not (attacker.big or target.big)
                    else _body_gap(planner, attacker.pos, _lane_body(attacker, attacker.facing), target.cells))
        what = f"{whom} is {plain_number(measured)} ft away"
    else:
        # Prefer the longest lane within the limit; an earlier stop still inside end_within may do.
        for idx in reversed(candidates):
            cost = _lane_cost(planner, line[: idx + 1])
            if cost <= most:
                end_index, measured = idx, cost
                break
        else:
            measured = _lane_cost(planner, squares)
        squares = line[: end_index + 1]
        what = f"the charge covers {plain_number(measured)} ft"
    too_short = measured <= least if exclusive else measured < least
    if too_short:
        need = f"more than {plain_number(least)}" if exclusive else f"at least {plain_number(least)}"
        return refuse(f"too close: {what}; a charge must cover {need} ft{mounted_words}", squares[1:], measured, limits)
    if measured > most:
        return refuse(f"too far: {what}; {who} may charge at most {plain_number(most)} ft{mounted_words}", squares[1:], measured,
                      limits)
    direction = bearing_octant(attacker.pos, aim)
    return ChargeLane(attacker.id, target.id, True, tuple(squares[1:]), measured,
                      f"{what} in a straight line (limits {plain_number(least)}-{plain_number(most)} ft), heading {FACINGS[direction]}",
                      rule, limits)


def lane_may_open(planner, attacker: Figure, target: Figure, occupants: dict, mounted: bool = False) -> bool:
    """A cheap first look at a charge lane (a pre-filter for the AI's many squares): False only when
    `charge_lane` surely refuses it (no charges, no charging weapon, the target beyond the longest
    charge, a wall or a figure on the straight line between them). tests/core hold it to charge_lane."""
    terms = _lane_terms(planner.ruleset, attacker, mounted)
    if terms is None:
        return False
    most, end_within = terms
    diagonal = planner.diagonal
    if attacker.big or target.big:      # bodies are as near as their nearest squares
        gap = min(grid_distance_ft(diagonal, a[0] - t[0], a[1] - t[1]) for a in attacker.cells for t in target.cells)
    else:
        gap = grid_distance_ft(diagonal, attacker.x - target.x, attacker.y - target.y)
    if gap > most + 10:
        return False
    line = bresenham(attacker.pos, _aim(planner, attacker, target))
    if attacker.big or target.big:
        rel = _lane_body(attacker, bearing_octant(attacker.pos, line[-1]))
        first = next((i for i in range(1, len(line) - 1)
                      if 0 <= _body_gap(planner, line[i], rel, target.cells) <= end_within), None)
    else:        # one square each: _body_gap is the grid distance to the target's square
        tx, ty = target.pos
        first = next((i for i in range(1, len(line) - 1)
                      if grid_distance_ft(diagonal, line[i][0] - tx, line[i][1] - ty) <= end_within), None)
    if first is None:
        return False
    blocks = planner.map.blocks_move
    for x, y in line[1: first + 1]:          # every lane the rules allow runs at least this far
        if blocks[y, x]:
            return False
        other = occupants.get((x, y))
        if other is not None and other.id not in (attacker.id, target.id):
            return False
    return True


_LANE_TERMS: dict = {}


def _lane_terms(ruleset, attacker: Figure, mounted: bool):
    """(longest charge, how near the lane ends to the target) for this charger, or None where it
    may not charge at all; a function of the ruleset, the weapon, the speed and the mount: kept."""
    key = (id(ruleset), attacker.ready_weapon, attacker.move_ft, attacker.move_ft.__class__, mounted)
    got = _LANE_TERMS.get(key)
    if got is None or got[0] is not ruleset:
        ch = ruleset.section("charge")
        weapon = ruleset.weapon(attacker.ready_weapon)
        if not ch["allowed"] or (ch["requires_charge_weapon"] and (weapon is None or not weapon["charge"])):
            terms = None
        else:
            end_within = max(ch["end_within_ft"], weapon_reach_ft(ruleset, attacker) if ch["end_within_ft"] > 5 else 5)
            terms = (charge_limits(ruleset, attacker, mounted)[1], end_within)
        if len(_LANE_TERMS) > 256:
            _LANE_TERMS.clear()
        got = _LANE_TERMS[key] = (ruleset, terms)
    return got[1]


def charge_reach(planner, figure: Figure, occupants: dict, mounted: bool = False):
    """Squares a charge could end on (a straight, clear lane within the limits), for overlays."""
    rs = planner.ruleset
    out = {}
    if not rs.section("charge")["allowed"]:
        return out
    least, most, exclusive = charge_limits(rs, figure, mounted)
    r = int(most // 5) + 1
    for y in range(max(0, figure.y - r), min(planner.map.height, figure.y + r + 1)):
        for x in range(max(0, figure.x - r), min(planner.map.width, figure.x + r + 1)):
            if (x, y) == figure.pos or (x, y) in occupants or not _facing_ok(figure, figure.pos, (x, y)):
                continue
            squares = bresenham(figure.pos, (x, y))
            if _blocker(planner, squares, occupants, figure, _lane_body(figure, bearing_octant(figure.pos, (x, y)))):
                continue
            cost = _lane_cost(planner, squares)
            if cost > most or (rs.section("charge")["measure"] == "movement" and (cost <= least if exclusive else cost < least)):
                continue
            direction = bearing_octant(figure.pos, (x, y))
            out[(x, y)] = ReachEntry(cost_ft=cost, facings={direction: cost}, altitudes={figure.altitude_ft: cost})
    return out
