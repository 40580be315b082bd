"""Headless AI-against-AI battles, many at once, and what they add up to.

Each run is a pure function of (battle setup, run seed): the seed comes from the base seed, the
ruleset id and the run index, so a report never depends on how many workers played it or in
which order they finished. Runs are played in worker processes (concurrent.futures) or on a
Dask cluster (`scheduler=`), and gathered back in run order before anything is added up.
"""
from __future__ import annotations

import gc
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import replace

from ..ai.brain import AI, stable_seed
from .mistakes import KINDS as MISTAKE_KINDS, SHORT as MISTAKE_SHORT, MistakeCounter, add_up
from .outcome import outcome, sides
from .report import NOTABLE, summarize_battle


def run_seed(base_seed: int, ruleset_id: str, index: int) -> int:
    return stable_seed("simulate", base_seed, ruleset_id, index) % (2 ** 31)


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _difficulty_for(difficulty, side: str) -> str:
    if isinstance(difficulty, dict):
        return difficulty.get(side, difficulty.get("*", "normal"))
    return difficulty or "normal"


BATTLE_GC_THRESHOLD = 20000   # objects allocated between young collections while a battle is played


@contextmanager
def fewer_collections():
    """A headless battle allocates many short-lived answers and frees them itself: the cyclic
    collector's young-generation passes (every 700 allocations by default) cost a few per cent of
    the play and find little, so they run less often while a battle is played. Restored after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], BATTLE_GC_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def play_battle(setup, *, max_rounds: int = 30, difficulty="normal") -> tuple:
    """Play one battle AI against AI. Returns (battle, outcome, info)."""
    from ..core.battle import Battle
    from ..play.turns import play_out
    from .edge import split_level, with_edge
    levels = {side: split_level(_difficulty_for(difficulty, side)) for side in dict.fromkeys(f.side for f in setup.figures)}
    for side, (_name, edge) in levels.items():
        setup = with_edge(setup, side, edge)        # LEVEL+K: +K to hit on every attack of that side
    battle = Battle(setup)
    ais = {side: AI(levels[side][0] if side in levels else _difficulty_for(difficulty, side), seed=setup.seed)
           for side in sides(battle)}
    counter = MistakeCounter()
    with fewer_collections():
        info = play_out(battle, ais, max_rounds=max_rounds, watch=counter)
    info["mistakes"] = counter.tally(battle)
    return battle, outcome(battle), info


def run_one(setup, run_index: int, seed: int, max_rounds: int, difficulty) -> dict:
    """One simulated battle as a JSON-safe record (what the workers send back)."""
    t0 = time.perf_counter()
    setup = replace(setup, seed=seed)
    battle, res, info = play_battle(setup, max_rounds=max_rounds, difficulty=difficulty)
    over = res.over
    summary = summarize_battle(battle, res, max_rounds_reached=not over)
    rounds = battle.round if over else max_rounds
    return {
        "ruleset": setup.ruleset.id, "run": run_index, "seed": seed, "over": over,
        "winner": res.winner if over else None, "rounds": min(rounds, max_rounds),
        "sides": summary["sides"], "notable": summary["notable"], "rules": summary["rules"],
        "modifiers": summary["modifiers"], "kinds": summary["kinds"],
        "actions": len(battle.actions), "refusals": info["refusals"], "stalled": info["stalled"],
        "forced_end_turns": info["forced_end_turns"], "mistakes": info["mistakes"], "seconds": time.perf_counter() - t0,
    }


# ----- the worker side -----
_SETUPS: dict = {}


def _init_worker(setups: dict) -> None:
    global _SETUPS
    _SETUPS = setups


def _worker_run(ruleset_id: str, run_index: int, seed: int, max_rounds: int, difficulty) -> dict:
    return run_one(_SETUPS[ruleset_id], run_index, seed, max_rounds, difficulty)


def dask_run(setups: dict, ruleset_id: str, run_index: int, seed: int, max_rounds: int, difficulty) -> dict:
    """The task a Dask worker runs (module-level so it pickles by reference)."""
    return run_one(setups[ruleset_id], run_index, seed, max_rounds, difficulty)


# ----- driving many runs -----
def setups_for(scenario, rulesets, notes: list | None = None) -> dict:
    """Battle setups per ruleset id, from a loaded scenario played under each ruleset: each figure takes
    that ruleset's numbers for its template (core.scenario.figure_under); what was kept goes to `notes`."""
    from ..core.battle import BattleSetup
    from ..core.scenario import figures_under, weapons_missing_from
    out = {}
    for rs in rulesets:
        figures, why = figures_under(scenario.figures, rs)
        if notes is not None:
            notes.extend(why + weapons_missing_from(figures, rs))
        out[rs.id] = BattleSetup(scenario.map, rs, tuple(figures), scenario.seed, scenario.title,
                                 scenario.description)
    return out


def simulate(setups: dict, runs: int, *, seed: int = 1, workers: int = 1, max_rounds: int = 30,
             difficulty="normal", progress=None, scheduler: str | None = None, title: str = "") -> dict:
    """Play `runs` battles per ruleset and return the report (JSON-safe, deterministic for a seed)."""
    if isinstance(difficulty, str):
        from .edge import split_level
        split_level(difficulty)             # a mistake is one message in words
    tasks = [(rid, i, run_seed(seed, rid, i)) for rid in setups for i in range(runs)]
    total = len(tasks)
    records: list[dict] = []
    done = 0
    t0 = time.perf_counter()

    def tick(rec):
        nonlocal done
        done += 1
        records.append(rec)
        if progress:
            progress(done, total, rec)

    if scheduler:
        _run_dask(scheduler, setups, tasks, max_rounds, difficulty, tick)
    elif workers <= 1 or total <= 1:
        for rid, i, s in tasks:
            tick(run_one(setups[rid], i, s, max_rounds, difficulty))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, total), initializer=_init_worker,
                                 initargs=(setups,)) as pool:
            futures = [pool.submit(_worker_run, rid, i, s, max_rounds, difficulty) for rid, i, s in tasks]
            for fut in as_completed(futures):
                tick(fut.result())
    order = {rid: k for k, rid in enumerate(setups)}
    records.sort(key=lambda r: (order[r["ruleset"]], r["run"]))
    elapsed = time.perf_counter() - t0
    report = aggregate(records, setups, runs=runs, seed=seed, max_rounds=max_rounds, difficulty=difficulty, title=title)
    report["timing"] = {"seconds": round(elapsed, 3), "battles_per_second": round(len(records) / elapsed, 3) if elapsed else None,
                        "workers": 1 if (workers <= 1 and not scheduler) else workers, "scheduler": scheduler}
    return report


def _run_dask(address: str, setups: dict, tasks, max_rounds, difficulty, tick) -> None:
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        from ..core.values.errors import RulesError
        raise RulesError("--scheduler needs Dask: install the cluster extra (pip install 'fivefoot[cluster]')") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as err:
        from ..core.values.errors import RulesError
        raise RulesError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    try:
        shared = client.scatter(setups, broadcast=True)
        futures = [client.submit(dask_run, shared, rid, i, s, max_rounds, difficulty, pure=False) for rid, i, s in tasks]
        for fut in dask_completed(futures):
            tick(fut.result())
    finally:
        client.close()


def aggregate(records: list[dict], setups: dict, *, runs: int, seed: int, max_rounds: int, difficulty, title: str = "") -> dict:
    """Per ruleset: wins per side with Wilson 95% intervals, draws, rounds, how often rules fired."""
    out = {"title": title, "seed": seed, "runs": runs, "max_rounds": max_rounds,
           "difficulty": difficulty if isinstance(difficulty, str) else dict(sorted(difficulty.items())),
           "rulesets": {}}
    for rid, setup in setups.items():
        recs = [r for r in records if r["ruleset"] == rid]
        n = len(recs)
        side_names = []
        for f in setup.figures:
            if f.side not in side_names:
                side_names.append(f.side)
        wins = {s: sum(1 for r in recs if r["winner"] == s) for s in side_names}
        draws = n - sum(wins.values())
        ended = [r for r in recs if r["over"]]
        notable: dict[str, int] = {}
        battles_with: dict[str, int] = {}
        for label, _test in NOTABLE:
            total = sum(r["notable"].get(label, 0) for r in recs)
            notable[label] = total
            battles_with[label] = sum(1 for r in recs if r["notable"].get(label, 0))
        rules: dict[str, int] = {}
        mods: dict[str, int] = {}
        for r in recs:
            for k, v in r["rules"].items():
                rules[k] = rules.get(k, 0) + v
            for k, v in r["modifiers"].items():
                mods[k] = mods.get(k, 0) + v
        casualties = {s: round(sum(r["sides"].get(s, {}).get("down", 0) for r in recs) / n, 3) if n else 0.0
                      for s in side_names}
        out["rulesets"][rid] = {
            "runs": n,
            "sides": {s: {"wins": wins[s], "win_rate": round(wins[s] / n, 4) if n else 0.0,
                          "ci95": [round(v, 4) for v in wilson(wins[s], n)],
                          "avg_down": casualties[s]} for s in side_names},
            "draws": draws, "draw_rate": round(draws / n, 4) if n else 0.0,
            "draw_ci95": [round(v, 4) for v in wilson(draws, n)],
            "avg_rounds": round(sum(r["rounds"] for r in recs) / n, 3) if n else 0.0,
            "avg_rounds_decided": round(sum(r["rounds"] for r in ended) / len(ended), 3) if ended else None,
            "rule_events": {k: v for k, v in notable.items() if v},
            "battles_with": {k: v for k, v in battles_with.items() if v},
            "rules": dict(sorted(rules.items())),
            "modifiers": dict(sorted(mods.items())),
            "avg_actions": round(sum(r["actions"] for r in recs) / n, 2) if n else 0.0,
            "refusals": sum(r["refusals"] for r in recs),
            "stalled": sum(1 for r in recs if r["stalled"]),
            # what each side's AI did that a rules-aware player never does (play/mistakes.py)
            "mistakes": {s: add_up([r["mistakes"].get(s, {}) for r in recs if "mistakes" in r]) for s in side_names},
        }
    return out


def deterministic_part(report: dict) -> dict:
    """The report without wall-clock numbers (what must match for the same seed)."""
    return {k: v for k, v in report.items() if k != "timing"}


def format_report(report: dict) -> str:
    """The report as a plain-text table."""
    diff = report["difficulty"]
    diff_text = diff if isinstance(diff, str) else ", ".join(f"{k}={v}" for k, v in diff.items())
    lines = [f"{report.get('title') or 'simulation'}: {report['runs']} run(s) per ruleset, seed {report['seed']}, "
             f"at most {report['max_rounds']} rounds, AI {diff_text}", ""]
    rulesets = report["rulesets"]
    side_names: list[str] = []
    for data in rulesets.values():
        for s in data["sides"]:
            if s not in side_names:
                side_names.append(s)
    header = f"{'ruleset':<12} {'runs':>5}  " + "  ".join(f"{s + ' wins (95% CI)':<26}" for s in side_names) + \
        f"  {'draws':>6}  {'avg rounds':>10}"
    lines.append(header)
    lines.append("-" * len(header))
    for rid, data in rulesets.items():
        cells = []
        for s in side_names:
            sd = data["sides"].get(s)
            if sd is None:
                cells.append(f"{'-':<26}")
                continue
            lo, hi = sd["ci95"]
            cells.append(f"{sd['win_rate'] * 100:5.1f}% ({lo * 100:4.1f}-{hi * 100:5.1f}%){'':<6}"[:26].ljust(26))
        lines.append(f"{rid:<12} {data['runs']:>5}  " + "  ".join(cells) + f"  {data['draws']:>6}  {data['avg_rounds']:>10.2f}")
    labels = [label for label, _ in NOTABLE if any(d["rule_events"].get(label) for d in rulesets.values())]
    if labels:
        lines.append("")
        lines.append("rules fired (events over all runs / battles where it happened):")
        ids = list(rulesets)
        lines.append(f"{'':<32}" + "".join(f"{rid:>16}" for rid in ids))
        for label in labels:
            row = f"{label:<32}"
            for rid in ids:
                d = rulesets[rid]
                row += f"{str(d['rule_events'].get(label, 0)) + ' / ' + str(d['battles_with'].get(label, 0)):>16}"
            lines.append(row)
    mods = {}
    for d in rulesets.values():
        for k, v in d["modifiers"].items():
            mods[k] = mods.get(k, 0) + v
    if mods:
        lines.append("")
        top = sorted(mods.items(), key=lambda kv: (-kv[1], kv[0]))[:12]
        lines.append("most used situational modifiers: " + ", ".join(f"{k} x{v}" for k, v in top))
    if any(any(d.get("mistakes", {}).values()) for d in rulesets.values()):
        lines += ["", "mistakes per side over all runs (docs/ai.md):",
                  f"  {'ruleset':<12} {'side':<10}" + "".join(f" {MISTAKE_SHORT[k]:>12}" for k in MISTAKE_KINDS)]
        for rid, d in rulesets.items():
            for side, counts in d.get("mistakes", {}).items():
                lines.append(f"  {rid:<12} {side:<10}" + "".join(f" {counts.get(k, 0):>12}" for k in MISTAKE_KINDS))
    problems = [(rid, d["refusals"], d["stalled"]) for rid, d in rulesets.items() if d["refusals"] or d["stalled"]]
    for rid, refusals, stalled in problems:
        lines.append(f"note: {rid}: {refusals} AI action(s) refused by the resolver, {stalled} battle(s) stalled")
    timing = report.get("timing")
    if timing and timing.get("battles_per_second"):
        lines.append("")
        lines.append(f"{sum(d['runs'] for d in rulesets.values())} battles in {timing['seconds']:.1f} s "
                     f"({timing['battles_per_second']:.2f} battles/s, "
                     f"{'scheduler ' + timing['scheduler'] if timing.get('scheduler') else str(timing['workers']) + ' worker(s)'})")
    return "\n".join(lines)


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)
