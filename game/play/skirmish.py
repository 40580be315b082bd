"""A fair skirmish from a seed: a map with walls, cover, heights, difficult ground and water, two
forces bought with equal points from the ruleset's templates, placed on opposite sides, and an
objective if asked; written as a scenario file that loads like any other (docs/skirmish.md).

Fair by construction, then measured (`bench/skirmish_fairness.py`): the map is point-symmetric
(what stands at x, y on one half stands at W-1-x, H-1-y on the other), both sides buy the same
list of figures, each set up as the mirror of the other, and the objectives are the same for
both. What is left to chance is the dice (initiative first of all).
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

TERRAINS = ("open", "woods", "ruins", "hills", "dungeon")
OBJECTIVES = ("none", "hold", "reach", "fell", "protect", "break")
SIZES = {"small": (14, 10, 5), "medium": (18, 12, 7), "large": (24, 16, 10)}   # width, height, most figures a side
DEFAULT_POINTS = 60
SIDES = ("blue", "red")
# What each terrain scatters over a half of the map: (ASCII char, how many patches, patch size).
FEATURES = {
    "open": (('"', 2, 2), ("T", 1, 1), ("=", 1, 2), ("1", 1, 3), ("~", 1, 2), (",", 1, 2)),
    "woods": (("T", 4, 1), ('"', 4, 3), ("~", 1, 2), ("1", 1, 2), (",", 1, 1), ("=", 1, 1)),
    "ruins": (("#", 3, 3), ("=", 3, 2), (",", 4, 3), ("T", 1, 1), ("~", 1, 1), ("1", 1, 2)),
    "hills": (("1", 3, 4), ("2", 2, 2), ('"', 2, 2), ("=", 1, 2), ("~", 1, 2), ("T", 1, 1), (",", 1, 2)),
    "dungeon": (("#", 5, 3), ("T", 2, 1), ("%", 1, 2), (",", 2, 2), ("~", 1, 1), ("2", 1, 2), ("=", 1, 1)),
}
BLOCKING = set("#T")


@dataclass(frozen=True)
class SkirmishSpec:
    ruleset: str = "bfrpg"
    size: str = "small"
    points: int = DEFAULT_POINTS
    seed: int = 1
    terrain: str = "open"
    objective: str = "none"


def template_cost(template: dict, weapons: dict) -> int:
    """Points for one figure of a template: its average hit points, armour and attack (a bow or
    other missile weapon adds a little)."""
    count, _, sides = str(template.get("hit_dice", "1d8")).partition("d")
    try:
        hp = int(count or 1) * (int(sides or 8) + 1) / 2
    except ValueError:
        hp = 4.5
    ac = int(template.get("ac", 10))
    ranged = any(weapons.get(w, {}).get("ranged") for w in template.get("weapons", ()))
    return max(4, round(hp * 1.5 + max(0, ac - 10) + 2 * int(template.get("attack_bonus", 0)) + (4 if ranged else 0)))


def buyable(ruleset) -> dict[str, int]:
    """The templates a skirmish buys from (one square, on foot, not flying), with their cost."""
    templates = ruleset.section("templates")
    weapons = ruleset.section("weapons")
    out = {}
    for name, t in sorted(templates.items()):
        if list(t.get("footprint", [1, 1])) != [1, 1] or t.get("flyer", "none") != "none" or t.get("mounted") \
                or any(weapons.get(w, {}).get("mounted_only") or w == "lance" for w in t.get("weapons", ())):
            continue          # a rider's lance wants its horse: riders are not bought on foot
        if int(t.get("move_ft", 0)) <= 0 or not t.get("weapons"):
            continue
        out[name] = template_cost(t, weapons)
    return out


def buy(costs: dict[str, int], points: int, most: int, rng: random.Random) -> list[str]:
    """A force of at most `most` figures costing at most `points`: random picks among what it can
    still afford, at least one figure."""
    force: list[str] = []
    left = points
    while len(force) < most:
        affordable = [n for n, c in costs.items() if c <= left]
        if not affordable:
            break
        pick = rng.choice(affordable)
        force.append(pick)
        left -= costs[pick]
    if not force:
        force.append(min(costs, key=lambda n: (costs[n], n)))
    return force


def _mirror(x: int, y: int, w: int, h: int) -> tuple[int, int]:
    return w - 1 - x, h - 1 - y


def make_map(terrain: str, width: int, height: int, rng: random.Random) -> list[list[str]]:
    """Rows of ASCII squares, point-symmetric, with the deployment columns (3 each side) kept open
    and every open square of one side's columns reachable from the other's."""
    for _attempt in range(50):
        rows = [["."] * width for _ in range(height)]
        if terrain == "dungeon":
            for x in range(width):
                rows[0][x] = rows[height - 1][x] = "#"
        half = width // 2
        for char, patches, size in FEATURES[terrain]:
            for _ in range(patches):
                x, y = rng.randrange(3, max(4, half)), rng.randrange(0, height)
                for _ in range(size):
                    if 3 <= x < width - 3 and 0 <= y < height:
                        rows[y][x] = char
                        mx, my = _mirror(x, y, width, height)
                        rows[my][mx] = char
                    dx, dy = rng.choice(((1, 0), (0, 1), (-1, 0), (0, -1)))
                    x, y = x + dx, y + dy
        if _connected(rows, width, height):
            return rows
    return [["."] * width for _ in range(height)]


def _connected(rows, width: int, height: int) -> bool:
    """Every open square is reachable from every other (a blocked pocket would strand a figure)."""
    open_sq = [(x, y) for y in range(height) for x in range(width) if rows[y][x] not in BLOCKING]
    if not open_sq:
        return False
    seen = {open_sq[0]}
    todo = deque([open_sq[0]])
    while todo:
        x, y = todo.popleft()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and 0 <= ny < height and (nx, ny) not in seen and rows[ny][nx] not in BLOCKING:
                seen.add((nx, ny))
                todo.append((nx, ny))
    return len(seen) == len(open_sq)


def placements(rows, count: int, width: int, height: int) -> list[tuple[int, int]]:
    """Squares for blue's figures in its deployment columns (nearest the middle row first, on open
    floor); red stands on their mirrors."""
    mid = (height - 1) / 2
    spots = [(x, y) for x in (1, 0, 2) for y in sorted(range(height), key=lambda y: (abs(y - mid), y))
             if rows[y][x] == "."]
    return spots[:count]


def objectives_for(kind: str, width: int, height: int, force: list[str], costs: dict[str, int]) -> tuple[list[dict], int]:
    """The same objective for both sides (mirrored), and the round limit."""
    if kind == "none":
        return [], 0
    out = []
    captain = max(range(len(force)), key=lambda i: (costs[force[i]], -i))
    for side, foe in (SIDES, SIDES[::-1]):
        if kind == "hold":
            cx, cy = width // 2 - 1, height // 2 - 1
            out.append({"id": f"{side}-hold", "side": side, "kind": "hold", "label": "the middle",
                        "area": [cx, cy, cx + 1, cy + 1], "rounds": 2})
        elif kind == "reach":
            out.append({"id": f"{side}-reach", "side": side, "kind": "reach", "label": "the far edge",
                        "edge": "E" if side == "blue" else "W", "count": max(1, (len(force) + 1) // 2)})
        elif kind in ("fell", "protect"):
            out.append({"id": f"{side}-fell", "side": side, "kind": "fell", "label": f"fell {foe}'s captain",
                        "figure": f"{foe}{captain + 1}"})
            if kind == "protect":
                out.append({"id": f"{side}-protect", "side": side, "kind": "protect",
                            "label": f"keep {side}'s captain alive", "figure": f"{side}{captain + 1}"})
        elif kind == "break":
            out.append({"id": f"{side}-break", "side": side, "kind": "break"})
    return out, 12


def generate(spec: SkirmishSpec, ruleset) -> dict:
    """The scenario's tables (as a scenario file holds them) for this spec."""
    if spec.terrain not in TERRAINS:
        raise ValueError(f"terrain {spec.terrain!r}: use one of {', '.join(TERRAINS)}")
    if spec.objective not in OBJECTIVES:
        raise ValueError(f"objective {spec.objective!r}: use one of {', '.join(OBJECTIVES)}")
    width, height, most = SIZES[spec.size]
    rng = random.Random(f"skirmish|{spec.ruleset}|{spec.size}|{spec.points}|{spec.seed}|{spec.terrain}")
    rows = make_map(spec.terrain, width, height, rng)
    costs = buyable(ruleset)
    force = buy(costs, spec.points, most, rng)
    spots = placements(rows, len(force), width, height)
    force = force[:len(spots)]
    figures = []
    # Who is set up first breaks ties (spelljammer's declarations follow it): each side first on every other seed.
    for side in (SIDES if spec.seed % 2 == 0 else SIDES[::-1]):
        for i, (template, (x, y)) in enumerate(zip(force, spots), start=1):
            if side == "red":
                x, y = _mirror(x, y, width, height)
            figures.append({"id": f"{side}{i}", "side": side, "template": template, "x": x, "y": y,
                            "facing": "E" if side == "blue" else "W"})
    objectives, limit = objectives_for(spec.objective, width, height, force, costs)
    spent = sum(costs[t] for t in force)
    title = f"Skirmish {spec.seed}: {spec.terrain}, {spec.size}"
    what = f", objective {spec.objective}" if spec.objective != "none" else ""
    data = {
        "title": title,
        "description": f"A generated {spec.terrain} skirmish under {spec.ruleset}: two forces of {spent} points "
                       f"each ({', '.join(force)}){what}. Made by `fivefoot skirmish --seed {spec.seed}`.",
        "ruleset": spec.ruleset, "seed": spec.seed,
        "map": {"ascii": "\n".join("".join(r) for r in rows)},
        "figures": figures,
    }
    if objectives:
        data["round_limit"] = limit
        data["objectives"] = objectives
    return data


def to_toml(data: dict) -> str:
    """A scenario's tables as TOML text (the few value kinds a skirmish uses)."""
    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        text = str(v).replace("\\", "\\\\").replace('"', '\\"')
        return f'"{text}"'

    lines = [f"{k} = {value(data[k])}" for k in ("title", "description", "ruleset", "seed", "round_limit") if k in data]
    lines += ["", "[map]", "ascii = '''", data["map"]["ascii"], "'''"]
    for table in ("figures", "objectives"):
        for entry in data.get(table, []):
            lines += ["", f"[[{table}]]"] + [f"{k} = {value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"
