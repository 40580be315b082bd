"""`fivefoot run SCENARIO`: play the scenario's scripted actions and print every event."""
from __future__ import annotations

import json
import sys

from .common import add_json_flag, add_scenario_arg, load


def register(subparsers) -> None:
    p = subparsers.add_parser("run", help="play the scenario's scripted [[actions]] and print the events")
    add_scenario_arg(p)
    p.add_argument("--seed", type=int, help="dice seed (default: the scenario's)")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.battle import Battle
    from ..core.script import ScriptNeedsRules, parse_script, run_script
    sc = load(args)
    if args.seed is not None:
        from .common import MAX_SEED, bounded
        bounded("--seed", args.seed, 0, MAX_SEED)
        sc.seed = args.seed
    battle = Battle.from_scenario(sc)
    script = parse_script(sc.actions, sc.source, [f.id for f in sc.figures])
    start = list(battle.events)
    try:
        events = run_script(battle, script, sc.source)
    except ScriptNeedsRules as err:
        # Nothing was played: say what is missing, and which bundled rulesets have every rule the script uses.
        print(f"fivefoot: {err}; the bundled rulesets with every rule it uses: {_playable_under(script) or 'none'}",
              file=sys.stderr)
        return 1
    except Exception:
        _print(start + battle.events[len(start):], args.json)
        raise
    _print(start + events, args.json)
    if not args.json:
        print(_summary(battle))
    sys.stdout.flush()
    return 0


def _playable_under(script) -> str:
    from ..core.script import script_needs
    from ..io.rulesets import bundled_ruleset_ids, load_ruleset
    return ", ".join(rid for rid in bundled_ruleset_ids() if not script_needs(load_ruleset(rid), script))


def _print(events, as_json: bool) -> None:
    for event in events:
        if as_json:
            sys.stdout.write(json.dumps(event.to_json(), sort_keys=False) + "\n")
        else:
            sys.stdout.write(event.text + "\n")


def _summary(battle) -> str:
    parts = []
    for fid in battle.figures:
        st = battle.status(fid)
        cond = f" [{', '.join(st.conditions)}]" if st.conditions else ""
        parts.append(f"{st.name} {st.hp}/{st.max_hp} hp{cond}")
    state = f"over: {battle.winner or 'draw'} " if battle.is_over else f"round {battle.round}, {battle.current} to act; "
    return f"-- {state}" + "; ".join(parts)
