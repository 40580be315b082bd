"""A scenario's objectives and round limit, checked against its map and figures (docs/scenarios.md,
Objectives). The same check serves `[[objectives]]` tables and a Tiled map's objective objects."""
from __future__ import annotations

from .values.battlemap import BattleMap
from .values.errors import DataFileError
from .values.objectives import EDGES, KINDS, MAX_OBJECTIVE_ROUNDS, MAX_OBJECTIVES, Objective, Objectives
from .ruleset.schema import Field, plain_name

OBJECTIVE_SCHEMA = {
    "id": Field("str", "unique id of the objective (default: objective-N)", "", check=lambda v: plain_name(v) if v else None),
    "side": Field("str", "the side that plays for it", check=plain_name),
    "kind": Field("str", "what the side must do", choices=KINDS),
    "label": Field("str", "shown in the window and the log (default: words for its kind)", "",
                   check=lambda v: plain_name(v) if v else None),
    "square": Field("list[int]", "hold, reach: one square [x, y]", None, lengths=(2,), minimum=0),
    "area": Field("list[int]", "hold, reach: the squares from [x0, y0] to [x1, y1], corners included", None,
                  lengths=(4,), minimum=0),
    "edge": Field("str", "reach: a map edge, N E S or W", "", choices=("",) + EDGES),
    "rounds": Field("int", "hold: rounds in a row; survive: the round to see out", 0, minimum=0,
                    maximum=MAX_OBJECTIVE_ROUNDS),
    "figure": Field("str", "protect, fell: the figure; reach: the one figure that must get through", "",
                    check=lambda v: plain_name(v) if v else None),
    "count": Field("int", "reach: figures to get through (default 1); break: foes out of the fight where the "
                   "ruleset checks no morale (default half)", 0, minimum=0, maximum=10_000),
    "points": Field("int", "victory points it is worth; 0: achieving it wins the battle", 0, minimum=0, maximum=1000),
}
ROUND_LIMIT_FIELD = Field("int", "the battle ends after this round; the most victory points wins (0: no limit)", 0,
                          minimum=0, maximum=MAX_OBJECTIVE_ROUNDS)


def edge_squares(bmap: BattleMap, edge: str) -> list[tuple[int, int]]:
    w, h = bmap.width, bmap.height
    if edge == "N":
        return [(x, 0) for x in range(w)]
    if edge == "S":
        return [(x, h - 1) for x in range(w)]
    if edge == "W":
        return [(0, y) for y in range(h)]
    return [(w - 1, y) for y in range(h)]


def _squares(entry: dict, bmap: BattleMap, path: str, where: str) -> tuple[tuple[int, int], ...]:
    given = [k for k in ("square", "area", "edge") if entry.get(k)]
    if entry.get("squares"):        # a Tiled object's squares, worked out by the map loader
        given.append("squares")
    if entry["kind"] not in ("hold", "reach"):
        if given:
            raise DataFileError(path, f"{where}.{given[0]}", f"a {entry['kind']} objective has no squares; "
                                "square, area and edge belong to hold and reach objectives")
        return ()
    if len(given) != 1:
        raise DataFileError(path, where, f"a {entry['kind']} objective needs exactly one of square, area or edge"
                            + ("" if entry["kind"] == "reach" else " (edge: reach only)")
                            + (f"; it gives {', '.join(given)}" if given else ""))
    key = given[0]
    if key == "edge":
        if entry["kind"] != "reach":
            raise DataFileError(path, f"{where}.edge", "only a reach objective may name an edge; give square or area")
        cells = edge_squares(bmap, entry["edge"])
    elif key == "square":
        cells = [tuple(entry["square"])]
    elif key == "area":
        x0, y0, x1, y1 = entry["area"]
        if x1 < x0 or y1 < y0:
            raise DataFileError(path, f"{where}.area", f"[{x0}, {y0}, {x1}, {y1}]: the second corner must be right of "
                                "and below the first ([x0, y0, x1, y1] with x0 <= x1 and y0 <= y1)")
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 10_000:
            raise DataFileError(path, f"{where}.area", "more than 10000 squares; an objective's area is smaller")
        cells = [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
    else:
        cells = [tuple(sq) for sq in entry["squares"]]
    for x, y in cells:
        if not bmap.in_bounds(x, y):
            raise DataFileError(path, f"{where}.{key}", f"square {x},{y} is off the map ({bmap.width} x {bmap.height} "
                                "squares)")
    open_cells = tuple((x, y) for x, y in cells if not bmap.blocks_move[y, x])
    if not open_cells:
        raise DataFileError(path, f"{where}.{key}", "every square of it is a wall: no figure could stand there")
    return open_cells


def build_objectives(entries: list[dict], round_limit: int, bmap: BattleMap, figures, path: str,
                     prefix: str = "objectives") -> Objectives:
    """Checked objective tables (OBJECTIVE_SCHEMA) as Objectives, or one DataFileError naming the entry."""
    if len(entries) > MAX_OBJECTIVES:
        raise DataFileError(path, prefix, f"{len(entries)} objectives; at most {MAX_OBJECTIVES}")
    sides = list(dict.fromkeys(f.side for f in figures))
    by_id = {f.id: f for f in figures}
    out: list[Objective] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries, start=1):
        where = entry.get("where") or f"{prefix}[{i}]"
        oid = entry["id"] or f"objective-{i}"
        if oid in seen:
            raise DataFileError(path, f"{where}.id", f"id {oid!r} is already used; objective ids must be unique")
        seen.add(oid)
        kind, side = entry["kind"], entry["side"]
        if side not in sides:
            raise DataFileError(path, f"{where}.side", f"no figure is on side {side!r}; sides: {', '.join(sides)}")
        figure = entry["figure"]
        if kind in ("protect", "fell") and not figure:
            raise DataFileError(path, f"{where}.figure", f"a {kind} objective names the figure ({OBJECTIVE_SCHEMA['figure'].doc})")
        if figure and kind not in ("protect", "fell", "reach"):
            raise DataFileError(path, f"{where}.figure", f"a {kind} objective names no figure")
        if figure:
            fig = by_id.get(figure)
            if fig is None:
                raise DataFileError(path, f"{where}.figure", f"no figure {figure!r}; figures: {', '.join(by_id)}")
            if kind == "fell" and fig.side == side:
                raise DataFileError(path, f"{where}.figure", f"{figure!r} is on side {side!r} itself; fell a foe")
            if kind in ("protect", "reach") and fig.side != side:
                raise DataFileError(path, f"{where}.figure", f"{figure!r} is on side {fig.side!r}, not {side!r}; "
                                    f"a {kind} objective names one of the side's own figures")
        if kind in ("hold", "survive") and entry["rounds"] < 1:
            raise DataFileError(path, f"{where}.rounds", f"a {kind} objective needs rounds, at least 1")
        if kind not in ("hold", "survive") and entry["rounds"]:
            raise DataFileError(path, f"{where}.rounds", f"a {kind} objective counts no rounds; leave rounds out")
        count = entry["count"]
        if kind == "reach" and not figure:
            count = count or 1
            own = sum(1 for f in figures if f.side == side)
            if count > own:
                raise DataFileError(path, f"{where}.count", f"{count} figures must get through but side {side!r} has {own}")
        elif count and kind != "break":
            raise DataFileError(path, f"{where}.count", f"a {kind} objective counts no figures; leave count out")
        if round_limit and kind == "survive" and entry["rounds"] > round_limit:
            raise DataFileError(path, f"{where}.rounds", f"round {entry['rounds']} comes after the round limit "
                                f"({round_limit}); the battle would be over first")
        out.append(Objective(id=oid, side=side, kind=kind, label=entry["label"],
                             squares=_squares(entry, bmap, path, where), rounds=entry["rounds"], figure=figure,
                             count=count, points=entry["points"]))
    if any(o.points for o in out) and not round_limit:
        first = next(i for i, o in enumerate(out, start=1) if o.points)
        raise DataFileError(path, "round_limit", f"{prefix}[{first}] is worth victory points, which are counted at the "
                            "round limit; set round_limit (the last round)")
    return Objectives(tuple(out), round_limit)
