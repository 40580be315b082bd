"""`fivefoot skirmish`: generate a fair battle from a seed and save it as a scenario file (that
loads like any other), then optionally play it at once (docs/skirmish.md)."""
from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    from ..play.skirmish import DEFAULT_POINTS, OBJECTIVES, SIZES, TERRAINS
    p = subparsers.add_parser("skirmish", help="generate a fair battle from a seed, save it as a scenario, play it")
    p.add_argument("--ruleset", default="bfrpg", help="bundled ruleset id (default bfrpg)")
    p.add_argument("--size", choices=tuple(SIZES), default="small", help="map and force size (default small)")
    p.add_argument("--points", type=int, default=DEFAULT_POINTS,
                   help=f"points each side spends on figures, 10 to 1000 (default {DEFAULT_POINTS})")
    p.add_argument("--seed", type=int, default=1, help="seed for the map, the forces and the dice (default 1)")
    p.add_argument("--terrain", choices=TERRAINS, default="open", help="kind of ground (default open)")
    p.add_argument("--objective", choices=OBJECTIVES, default="none",
                   help="what both sides play for besides felling the other (default none)")
    p.add_argument("--out", metavar="FILE.toml", help="where to save it (default skirmish-SEED.toml here)")
    p.add_argument("--play", action="store_true", help="open it in the window at once")
    p.add_argument("--json", action="store_true", help="print what was made as JSON")
    p.set_defaults(func=run)


def run(args):
    from ..core.values.errors import RulesError
    from ..io.paths import bundled_ruleset_ids
    from ..io.rulesets import load_ruleset
    from ..io.saves import write_atomically
    from ..io.scenarios import load_scenario
    from ..play.skirmish import SkirmishSpec, generate, to_toml
    from .common import MAX_SEED, bounded, emit_json
    if args.ruleset not in bundled_ruleset_ids():
        raise RulesError(f"--ruleset {args.ruleset!r}: use one of {', '.join(bundled_ruleset_ids())}")
    bounded("--points", args.points, 10, 1000, "the points each side spends must be")
    bounded("--seed", args.seed, 0, MAX_SEED)
    spec = SkirmishSpec(args.ruleset, args.size, args.points, args.seed, args.terrain, args.objective)
    data = generate(spec, load_ruleset(args.ruleset))
    out = Path(args.out or f"skirmish-{args.seed}.toml")
    if out.suffix.lower() != ".toml":
        raise RulesError(f"--out {out}: a scenario file ends in .toml")
    write_atomically(out, to_toml(data).encode("utf-8"))
    scenario = load_scenario(out)          # what was saved loads like any other scenario
    if args.json:
        emit_json({"file": str(out), "title": scenario.title, "ruleset": scenario.ruleset.id,
                   "figures": [{"id": f.id, "side": f.side, "template": f.stats.get("template", ""), "x": f.x, "y": f.y}
                               for f in scenario.figures],
                   "objectives": [o.to_json() for o in scenario.objectives.items],
                   "round_limit": scenario.objectives.round_limit})
    else:
        print(f"{scenario.title} [{scenario.ruleset.id}] saved to {out}")
        print(f"  {scenario.description}")
        for o in scenario.objectives.items:
            print(f"  objective {o.id}: {o.side} {o.kind} ({o.title})")
        print(f"  play it: fivefoot play {out}")
    if args.play:
        from .play import WindowRequest
        sides = {s: ("human" if i == 0 else "ai") for i, s in enumerate(dict.fromkeys(f.side for f in scenario.figures))}
        return WindowRequest(scenario=scenario, sides=sides, ask=True)
    return 0
