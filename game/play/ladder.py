"""The AI ladder: every pair of levels plays each mirrored battle from both sides under every
ruleset; the results are pairwise win rates with 95% intervals and a rating per level.

A battle is a pure function of (setup, seed, which level plays which side): run *i* of a battle
and ruleset is played with the seed `sha256("ladder", S, battle, ruleset, i)`, the same for every
pair and for both side assignments (so each pair meets the same dice from both sides, and the side
a level happens to start on cancels out). Battles are played by `simulate`'s workers and gathered
in task order before anything is added up, so the same seed gives the same table with any number
of workers.

Win rates count decisive battles only (a draw is a battle still going after max_rounds); the
rating is a Bradley-Terry fit of every pair's results (a draw counts half a win each, and every
pair gets one virtual draw so a level that never won still has a finite rating), on the Elo
scale (400 points = 10 to 1 odds) with the first level at 0.
"""
from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from ..ai.brain import DIFFICULTIES, stable_seed
from ..core.values.errors import RulesError
from .edge import split_level
from .ladder_worth import format_mistakes, format_worth, mistakes_by_level, to_hit_worth
from .simulate import _init_worker, _worker_run, run_one, wilson

LEVELS = ("naive", "easy", "normal", "hard")
BUNDLED_PATTERN = "mirror_*.toml"


def bundled_battles(maps_dir: Path) -> list[Path]:
    """The mirrored battles bundled in maps/ (the scenarios named mirror_*; one plays a Tiled map)."""
    return sorted(maps_dir.glob(BUNDLED_PATTERN))


@dataclass(frozen=True)
class Task:
    battle: str          # the battle's name (its file's stem)
    ruleset: str
    stronger: str        # the pair, in ladder order (later levels are meant to be stronger)
    weaker: str
    run: int
    swapped: bool        # False: the weaker level plays the first side
    seed: int
    sides: tuple         # (first side, second side)

    @property
    def key(self) -> str:
        return f"{self.battle}|{self.ruleset}"

    @property
    def difficulty(self) -> dict:
        first, second = (self.stronger, self.weaker) if self.swapped else (self.weaker, self.stronger)
        return {self.sides[0]: first, self.sides[1]: second}

    def level_of(self, side: str | None) -> str | None:
        return None if side is None else self.difficulty.get(side)


def check_levels(levels) -> tuple[str, ...]:
    levels = tuple(dict.fromkeys(levels))
    unknown = [lv for lv in levels if lv not in DIFFICULTIES]
    if unknown:
        raise RulesError(f"unknown AI level {unknown[0]!r}: use some of {', '.join(DIFFICULTIES)}")
    if len(levels) < 2:
        raise RulesError("a ladder needs at least two levels to play each other")
    return tuple(lv for lv in DIFFICULTIES if lv in levels)


def check_edges(edges, levels) -> tuple[str, ...]:
    """`LEVEL+K` entrants (K > 0): LEVEL with +K to hit, each played against LEVEL (the calibration)."""
    out = []
    for text in dict.fromkeys(e.strip() for e in edges or ()):
        name, k = split_level(text)
        if k <= 0:
            raise RulesError(f"--edge {text!r}: write LEVEL+K with K at least 1 (e.g. naive+2)")
        if name not in levels:
            raise RulesError(f"--edge {text!r}: {name} is not among the levels played ({', '.join(levels)})")
        out.append(f"{name}+{k}")
    return tuple(sorted(out, key=lambda e: (levels.index(split_level(e)[0]), split_level(e)[1])))


def pair_list(levels, edges=()) -> list[tuple[str, str]]:
    """(weaker, stronger) for every pair played: each pair of levels, and each edge against its level."""
    return list(combinations(levels, 2)) + [(split_level(e)[0], e) for e in edges]


def tasks_for(setups: dict, sides: dict, levels, runs: int, seed: int, edges=()) -> list[Task]:
    """Every battle to play: each pair of levels (and each LEVEL+K against its LEVEL), each battle and
    ruleset, `runs` seeds, both sides: the same seeds for every pair."""
    out = []
    for (battle, rid) in setups:
        for weaker, stronger in pair_list(levels, edges):
            for i in range(runs):
                s = stable_seed("ladder", seed, battle, rid, i) % (2 ** 31)
                for swapped in (False, True):
                    out.append(Task(battle, rid, stronger, weaker, i, swapped, s, sides[(battle, rid)]))
    return out


def play_tasks(setups: dict, tasks: list[Task], *, workers: int = 1, max_rounds: int = 30, progress=None) -> list[dict]:
    """Play every task (in worker processes when workers > 1); records come back in task order."""
    keyed = {f"{battle}|{rid}": setup for (battle, rid), setup in setups.items()}
    records: list[dict | None] = [None] * len(tasks)
    done = 0

    def tick(index: int, rec: dict) -> None:
        nonlocal done
        task = tasks[index]
        rec.update(battle=task.battle, stronger=task.stronger, weaker=task.weaker, swapped=task.swapped,
                   winner_level=task.level_of(rec["winner"]), levels=task.difficulty)
        records[index] = rec
        done += 1
        if progress:
            progress(done, len(tasks), rec)

    if workers <= 1 or len(tasks) <= 1:
        for i, t in enumerate(tasks):
            tick(i, run_one(keyed[t.key], t.run, t.seed, max_rounds, t.difficulty))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), initializer=_init_worker,
                                 initargs=(keyed,)) as pool:
            futures = {pool.submit(_worker_run, t.key, t.run, t.seed, max_rounds, t.difficulty): i
                       for i, t in enumerate(tasks)}
            for fut in as_completed(futures):
                tick(futures[fut], fut.result())
    return records


def ladder(setups: dict, sides: dict, *, levels=LEVELS, runs: int = 1, seed: int = 1, workers: int = 1,
           max_rounds: int = 30, progress=None, edges=()) -> dict:
    """Play the ladder and return its report (JSON-safe; the same for a seed whatever the workers).
    `edges`: LEVEL+K entrants; each pair's win rate is then also read as a to-hit worth per ruleset."""
    levels = check_levels(levels)
    edges = check_edges(edges, levels)
    if runs < 1:
        raise RulesError(f"--runs {runs}: play at least one battle")
    tasks = tasks_for(setups, sides, levels, runs, seed, edges)
    t0 = time.perf_counter()
    records = play_tasks(setups, tasks, workers=workers, max_rounds=max_rounds, progress=progress)
    elapsed = time.perf_counter() - t0
    report = aggregate(records, levels=levels, battles=list(dict.fromkeys(b for b, _ in setups)),
                       rulesets=list(dict.fromkeys(r for _, r in setups)), runs=runs, seed=seed, max_rounds=max_rounds,
                       edges=edges)
    battle_seconds = [r["seconds"] for r in records]
    report["timing"] = {"seconds": round(elapsed, 3), "battles": len(records), "workers": max(1, workers),
                        "seconds_per_battle": round(sum(battle_seconds) / len(records), 3) if records else None,
                        "seconds_per_battle_by_pair": _seconds_by_pair(records)}
    return report


def _seconds_by_pair(records) -> dict:
    out: dict[str, list] = {}
    for r in records:
        out.setdefault(f"{r['stronger']} vs {r['weaker']}", []).append(r["seconds"])
    return {k: round(sum(v) / len(v), 3) for k, v in out.items()}


# ----- adding up -----
def _tally(records) -> dict:
    stronger = sum(1 for r in records if r["winner_level"] == r["stronger"])
    weaker = sum(1 for r in records if r["winner_level"] == r["weaker"])
    draws = len(records) - stronger - weaker
    decisive = stronger + weaker
    lo, hi = wilson(stronger, decisive)
    return {"battles": len(records), "stronger_wins": stronger, "weaker_wins": weaker, "draws": draws,
            "win_rate": round(stronger / decisive, 4) if decisive else None,
            "ci95": [round(lo, 4), round(hi, 4)],
            "avg_rounds": round(sum(r["rounds"] for r in records) / len(records), 2) if records else None}


def aggregate(records: list[dict], *, levels, battles, rulesets, runs: int, seed: int, max_rounds: int,
              edges=()) -> dict:
    pairs = []
    for weaker, stronger in pair_list(levels, edges):
        mine = [r for r in records if r["stronger"] == stronger and r["weaker"] == weaker]
        pairs.append({
            "stronger": stronger, "weaker": weaker, "all": _tally(mine),
            "rulesets": {rid: _tally([r for r in mine if r["ruleset"] == rid]) for rid in rulesets},
            "battles": {b: _tally([r for r in mine if r["battle"] == b]) for b in battles},
            # The targets hold for every ruleset on every battle: each cell on its own.
            "cells": {b: {rid: _tally([r for r in mine if r["battle"] == b and r["ruleset"] == rid])
                          for rid in rulesets} for b in battles},
        })
    return {"levels": list(levels), "battles": list(battles), "rulesets": list(rulesets), "runs": runs, "seed": seed,
            "max_rounds": max_rounds, "pairs": pairs, "ratings": ratings(pairs, list(levels) + list(edges)),
            "refusals": sum(r["refusals"] for r in records), "stalled": sum(1 for r in records if r["stalled"]),
            "edges": list(edges), "worth": to_hit_worth(pairs, rulesets), "mistakes": mistakes_by_level(records)}


def ratings(pairs: list[dict], levels) -> dict:
    """Bradley-Terry strengths (minorisation-maximisation), on the Elo scale, first level at 0."""
    wins = {lv: {other: 0.0 for other in levels} for lv in levels}
    played = {lv: {"wins": 0, "losses": 0, "draws": 0} for lv in levels}
    for p in pairs:
        s, w, t = p["stronger"], p["weaker"], p["all"]
        wins[s][w] += t["stronger_wins"] + 0.5 * t["draws"] + 0.5      # + one virtual draw per pair
        wins[w][s] += t["weaker_wins"] + 0.5 * t["draws"] + 0.5
        played[s]["wins"] += t["stronger_wins"]
        played[s]["losses"] += t["weaker_wins"]
        played[w]["wins"] += t["weaker_wins"]
        played[w]["losses"] += t["stronger_wins"]
        for lv in (s, w):
            played[lv]["draws"] += t["draws"]
    strength = {lv: 1.0 for lv in levels}
    for _ in range(500):
        new = {}
        for i in levels:
            total_wins = sum(wins[i][j] for j in levels if j != i)
            denom = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j]) for j in levels if j != i)
            new[i] = total_wins / denom if denom else strength[i]
        norm = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {k: v / norm for k, v in new.items()}
        converged = max(abs(new[k] - strength[k]) for k in levels) < 1e-10
        strength = new
        if converged:
            break
    base = strength[levels[0]]
    return {lv: {"rating": round(400 * math.log10(strength[lv] / base)), **played[lv]} for lv in levels}


def deterministic_part(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timing"}


# ----- the table -----
def _cell(t: dict) -> str:
    if t["win_rate"] is None:
        return "no result"
    lo, hi = t["ci95"]
    return f"{t['win_rate'] * 100:3.0f}% ({lo * 100:.0f}-{hi * 100:.0f})"


def format_report(report: dict) -> str:
    rulesets = report["rulesets"]
    n_battles = len(report["battles"])
    lines = [f"AI ladder: {n_battles} mirrored battle(s) x {len(rulesets)} ruleset(s), {report['runs']} run(s) per pair, "
             f"battle and ruleset from each side; seed {report['seed']}, at most {report['max_rounds']} rounds", "",
             "Win rate of the first level over the second, in decisive battles (95% interval); "
             "W-L-D over all rulesets:", ""]
    head = f"{'pair':<18} {'all rulesets':<16} {'W-L-D':<9}" + "".join(f" {rid:<16}" for rid in rulesets)
    lines.append(head)
    lines.append("-" * len(head))
    for p in report["pairs"]:
        t = p["all"]
        wld = f"{t['stronger_wins']}-{t['weaker_wins']}-{t['draws']}"
        row = f"{p['stronger'] + ' vs ' + p['weaker']:<18} {_cell(t):<16} {wld:<9}"
        row += "".join(f" {_cell(p['rulesets'][rid]):<16}" for rid in rulesets)
        lines.append(row)
    if len(rulesets) > 1 and len(report["battles"]) > 1:
        for p in report["pairs"]:
            lines += ["", *_cell_grid(p, report["battles"], rulesets)]
    lines += ["", "rating (Bradley-Terry, Elo scale, " + report["levels"][0] + " = 0):"]
    for lv, r in sorted(report["ratings"].items(), key=lambda kv: -kv[1]["rating"]):
        lines.append(f"  {lv:<8} {r['rating']:+6d}   {r['wins']} won, {r['losses']} lost, {r['draws']} drawn")
    lines += format_worth(report)
    lines += format_mistakes(report)
    if report["refusals"] or report["stalled"]:
        lines.append(f"note: {report['refusals']} AI action(s) refused by the resolver, {report['stalled']} battle(s) stalled")
    timing = report.get("timing")
    if timing and timing.get("battles"):
        lines += ["", f"{timing['battles']} battles in {timing['seconds']:.0f} s with {timing['workers']} worker(s); "
                  f"{timing['seconds_per_battle']:.1f} s of play per battle"]
    return "\n".join(lines)


def _cell_grid(pair: dict, battles, rulesets) -> list[str]:
    """A pair's win rate on each battle under each ruleset (W-L), and its weakest cell: the dice
    move a cell of a few dozen battles by ten points and more, so read it with its count."""
    def short(t: dict) -> str:
        if t["win_rate"] is None:
            return "-"
        return f"{t['win_rate'] * 100:.0f}% {t['stronger_wins']}-{t['weaker_wins']}"

    cells = pair["cells"]
    width = max(len(b) for b in battles)
    out = [f"{pair['stronger']} vs {pair['weaker']}, by battle and ruleset (win rate, W-L):",
           f"  {'':<{width}}" + "".join(f" {rid:<13}" for rid in rulesets)]
    for b in battles:
        out.append(f"  {b:<{width}}" + "".join(f" {short(cells[b][rid]):<13}" for rid in rulesets))
    decided = [(cells[b][rid]["win_rate"], b, rid) for b in battles for rid in rulesets
               if cells[b][rid]["win_rate"] is not None]
    if decided:
        rate, b, rid = min(decided)
        out.append(f"  weakest: {b} under {rid}, {rate * 100:.0f}%")
    return out
