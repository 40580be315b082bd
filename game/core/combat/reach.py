"""Who is in melee reach of whom, and at what distance: the geometry combat shares.

Every function reads a *battle view*: anything with `ruleset`, `map`, `figures` (id -> Figure),
`able(id)` and `positioning()`. The live battle is one; a hypothetical position (a figure put on
another square, facing another way) is another, so "what if" answers use these same functions.
"""
from __future__ import annotations

import math
from functools import lru_cache
from weakref import WeakKeyDictionary

from ..values.geometry import DIRECTION_DELTAS, bearing_octant, distance_ft
from ..moves.body_sight import body_sight, centre
from ..moves.los import crossed_squares

SIZE_ORDER = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "giant": 4}
DEFAULT_RANGES_FT = [50, 100, 150]
UNKNOWN_WEAPON = {"reach_ft": 5, "ranged": False, "thrown": False, "damage": "1d2", "damage_large": "", "range_ft": [],
                  "reload_rounds": 0, "reload_is_busy": False, "in_melee_penalty": 0, "stuck_dex": 0, "stuck_bleed": 0,
                  "charge": False, "set": False, "hands": 1, "subdual": True}


def height_ft(bmap, fig) -> float:
    return float(bmap.elevation_ft[fig.y, fig.x]) + fig.altitude_ft


def gap_ft(battle, a, b) -> float:
    if a.big or b.big:
        return min(d for d, _p, _q in cell_pairs(battle, a, b))
    return distance_ft(battle.ruleset.diagonal, a.pos, b.pos, height_ft(battle.map, a), height_ft(battle.map, b))


def cell_pairs(battle, a, b) -> list:
    """(distance, cell of a, cell of b) for every pair of the two bodies' cells, nearest first: a body
    bigger than a square reaches and is reached from its nearest cell (values/bodies.py)."""
    m, rule = battle.map, battle.ruleset.diagonal
    out = [(distance_ft(rule, p, q, float(m.elevation_ft[p[1], p[0]]) + a.altitude_ft,
                        float(m.elevation_ft[q[1], q[0]]) + b.altitude_ft), p, q)
           for p in a.cells for q in b.cells]
    out.sort()
    return out


def weapon_data(battle, name: str) -> dict:
    """The ruleset's numbers for a weapon; a weapon the ruleset does not know strikes like a fist."""
    return battle.ruleset.weapon(name) or UNKNOWN_WEAPON


def melee_reach_ft(battle, fig, weapon_name: str | None = None) -> int:
    """How far a figure strikes in melee: its weapon's reach, at least the engagement zone."""
    name = weapon_name or fig.ready_weapon
    known = battle.ruleset.melee_reach_by_weapon.get(name)
    if known is not None:
        return known
    weapon = weapon_data(battle, name)
    reach = 5 if weapon["ranged"] else weapon["reach_ft"]
    return max(reach, battle.ruleset.section("engagement")["zone_ft"])


def in_melee_reach(battle, attacker, target, weapon_name: str | None = None) -> bool:
    squares_apart = max(abs(attacker.x - target.x), abs(attacker.y - target.y))
    if squares_apart > 1 and 5 * squares_apart > melee_reach_ft(battle, attacker, weapon_name) \
            and not (attacker.big or target.big):
        # Every diagonal rule measures at least 5 ft a square along the longer leg: most figures on
        # a field are out of reach without anything more worked out (asked for every pair, often).
        return False
    if attacker.big or target.big:
        return _bodies_in_reach(battle, attacker, target, weapon_name)
    if attacker.pos == target.pos:
        # Only a hold puts two figures in one square (the holder entered it): they are at arm's length.
        return attacker.id in (battle.state_of(target.id).holding,) or target.id in (battle.state_of(attacker.id).holding,)
    # Neighbouring squares (diagonals too, whatever the distance rule) at about the same height
    # are always within arm's reach: a euclidean 7.07 ft diagonal is still the next square.
    if squares_apart > 1:
        if gap_ft(battle, attacker, target) > melee_reach_ft(battle, attacker, weapon_name):
            return False
    elif abs(height_ft(battle.map, attacker) - height_ft(battle.map, target)) > 5 and \
            gap_ft(battle, attacker, target) > melee_reach_ft(battle, attacker, weapon_name):
        return False
    return battle.positioning().sight_map.clear_line(attacker.pos, target.pos, attacker.altitude_ft, target.altitude_ft)


def _bodies_in_reach(battle, attacker, target, weapon_name) -> bool:
    """in_melee_reach for bodies bigger than a square: some pair of cells next to each other (or
    within the weapon's reach) with no wall between them."""
    if not set(attacker.cells).isdisjoint(target.cells):
        # As for one square: only a hold puts a figure on another's square (at arm's length).
        return attacker.id in (battle.state_of(target.id).holding,) or target.id in (battle.state_of(attacker.id).holding,)
    reach = melee_reach_ft(battle, attacker, weapon_name)
    sight = battle.positioning().sight_map
    m = battle.map
    for d, p, q in cell_pairs(battle, attacker, target):
        neighbours = (max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1
                      and abs(float(m.elevation_ft[p[1], p[0]]) + attacker.altitude_ft
                              - float(m.elevation_ft[q[1], q[0]]) - target.altitude_ft) <= 5)
        if d > reach and not neighbours:
            continue
        if sight.clear_line(p, q, attacker.altitude_ft, target.altitude_ft):
            return True
    return False


FIGHT_BLOCK = 8             # squares a side of the blocks `fighting` files figures in on a big field
FIGHT_INDEX_FROM = 40       # figures on the field from which it looks in the blocks near a figure only
_FIGHT_INDEX: WeakKeyDictionary = WeakKeyDictionary()     # battle -> (its positioning then, the index)


def fighting(battle, fig) -> list:
    """Able foes within melee reach of fig, or whose reach fig stands in."""
    out = []
    mine = melee_reach_ft(battle, fig)
    side, x, y, big = fig.side, fig.x, fig.y, fig.big
    for other in _near_figures(battle, fig, mine):
        if other.side == side:
            continue
        # Far figures first, by their squares (see in_melee_reach): most of a field is, and that
        # is cheaper to ask than whether they can still fight.
        apart = max(abs(other.x - x), abs(other.y - y))
        if apart > 1 and 5 * apart > mine and not (big or other.big) and 5 * apart > melee_reach_ft(battle, other):
            continue
        if not battle.able(other.id):
            continue
        if in_melee_reach(battle, other, fig) or in_melee_reach(battle, fig, other):
            out.append(other)
    return out


def _near_figures(battle, fig, mine: int):
    """The figures `fighting` must look at, in the battle's order: on a big field those filed in the
    blocks within the longest melee reach of fig, every body bigger than a square and a view's
    figures standing elsewhere; the others are beyond any reach (the same answer as all of them)."""
    figures = battle.figures
    base, placed = getattr(battle, "base", (battle, ()))
    if fig.big or len(figures) < FIGHT_INDEX_FROM or not isinstance(base.figures, dict):
        return figures.values()
    order, blocks, big, longest = _fight_index(base)
    if any(fid not in order for fid in placed):
        return figures.values()
    r = max(mine, longest) // 5 + 1
    ids = set(big)
    ids.update(placed)
    for bx in range((fig.x - r) // FIGHT_BLOCK, (fig.x + r) // FIGHT_BLOCK + 1):
        for by in range((fig.y - r) // FIGHT_BLOCK, (fig.y + r) // FIGHT_BLOCK + 1):
            ids.update(blocks.get((bx, by), ()))
    return [figures[fid] for fid in sorted(ids, key=order.__getitem__)]


def _fight_index(battle) -> tuple:
    """(id -> place in the battle's order, block -> ids filed there, ids of bodies bigger than a
    square, the longest melee reach on the field) for the battle as it stands: kept until its
    positioning is worked out again (any move, fall or flight)."""
    token = battle.positioning()
    kept = _FIGHT_INDEX.get(battle)
    if kept is not None and kept[0] is token:
        return kept[1]
    order, blocks, big, longest = {}, {}, [], 5
    for i, f in enumerate(battle.figures.values()):
        order[f.id] = i
        if f.big:
            big.append(f.id)
        else:
            blocks.setdefault((f.x // FIGHT_BLOCK, f.y // FIGHT_BLOCK), []).append(f.id)
        longest = max(longest, melee_reach_ft(battle, f))
    got = (order, blocks, big, longest)
    _FIGHT_INDEX[battle] = (token, got)
    return got


def attack_kind(battle, attacker, target, weapon_name: str) -> str:
    weapon = weapon_data(battle, weapon_name)
    if weapon["ranged"]:
        return "ranged"
    if weapon["thrown"] and not in_melee_reach(battle, attacker, target, weapon_name):
        return "ranged"
    return "melee"


def range_band(weapon: dict, dist: float) -> tuple[int, str]:
    bands = weapon["range_ft"] or DEFAULT_RANGES_FT
    for i, (limit, name) in enumerate(zip(bands, ("short", "medium", "long"))):
        if dist <= limit:
            return i, name
    return -1, "out of range"


def facing_arc(target, attacker) -> int:
    """Octant of the attacker from the target's facing (0 front, 4 directly behind), between the
    bodies' middles: a body bigger than a square has one front, flanks and rear (for one square
    the middles give the same octant as the squares)."""
    if not (target.big or attacker.big):     # the middles are the squares moved by half: the same octant
        return (bearing_octant(target.pos, attacker.pos) - target.facing) % 8
    return (bearing_octant(centre(target.cells), centre(attacker.cells)) - target.facing) % 8


def arc_of_square(target, square) -> int:
    """facing_arc(target, a one-square figure on `square`)."""
    if not target.big:
        return (bearing_octant(target.pos, square) - target.facing) % 8
    return (bearing_octant(centre(target.cells), (square[0] + 0.5, square[1] + 0.5)) - target.facing) % 8


def back_to_wall(battle, fig) -> bool:
    """Every square straight behind the body (behind each of its squares, outside it) is a wall
    or off the map (a choice for bodies bigger than a square: the whole back against the wall)."""
    dx, dy = DIRECTION_DELTAS[(fig.facing + 4) % 8]
    body = set(fig.cells)
    behind = {(x + dx, y + dy) for x, y in body} - body
    return all(not battle.map.in_bounds(x, y) or bool(battle.map.blocks_move[y, x]) for x, y in behind)


def melee_weapon(battle, fig) -> str:
    """The first weapon the figure can strike with in melee (its fists when it has none)."""
    for w in fig.weapons:
        if not weapon_data(battle, w)["ranged"]:
            return w
    return "fist"


def centre_line(a, b) -> set:
    """The squares the line from a's centre to b's centre crosses through their inside (not just a
    corner); the centres are the bodies' middles."""
    (x0, y0), (x1, y1) = centre(a.cells), centre(b.cells)
    ix, iy = math.floor(x0), math.floor(y0)
    return {(x + ix, y + iy) for x, y in _line_from_first_square(x0 - ix, y0 - iy, x1 - ix, y1 - iy)}


@lru_cache(maxsize=8192)
def _line_from_first_square(x0: float, y0: float, x1: float, y1: float) -> tuple:
    """crossed_squares of a centre line moved so that it starts in square (0, 0): the same squares
    moved back (centres are whole or half squares, so the move is exact), worked out once per shape."""
    return tuple((x, y) for x, y, _t in crossed_squares(x0, y0, x1, y1))



def cover_sight(battle, attacker, target):
    """(sight, figures set aside): the cover the target has against this attacker, counting as cover
    only the figures that stand between the two where the ruleset says so (cover.figure_must_be_between)."""
    positioning = battle.positioning()
    sight = positioning.sight_between(attacker, target)
    if not battle.ruleset.section("cover")["figure_must_be_between"]:
        return sight, ()
    in_the_way = {(bx, by) for bx, by, what in sight.blockers if what == "figure"}
    if not in_the_way:
        return sight, ()
    line = centre_line(attacker, target)     # worked out once, not once per figure
    pair = {attacker.id, target.id, attacker.mount, target.mount} - {""}   # a rider's mount is no cover for it
    # Only figures on the line or on a square in the way can be either (read from the squares' index).
    others = [f for f in positioning.figures_on(line | in_the_way) if f.id not in pair and f.mount not in pair]
    inside = [f for f in others if not line.isdisjoint(f.cells)]
    aside = tuple(f for f in others if f not in inside and not in_the_way.isdisjoint(f.cells))
    if not aside:
        return sight, ()
    standing = {cell: f.altitude_ft for f in inside for cell in f.cells}
    return (body_sight(positioning.sight_map, attacker.cells, target.cells, attacker.altitude_ft, target.altitude_ft,
                       standing), aside)
