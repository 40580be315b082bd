"""How long the AI takes for one figure's turn: 10 figures a side on a 60x60 map (or more a side).

    .venv/bin/python bench/bench_ai.py [--ruleset bfrpg|all] [--difficulty naive|easy|normal|hard|all] [--rounds 3]
                                       [--per-side 100]

An AI turn is every choose() call the AI makes for one figure between the start and the end of
that figure's turn (planning, Battle.check of its choice, the rest of its plan). The battle is
played through the resolver; only the AI's own time is measured. Prints median and max ms per
AI turn. The goals at 10 a side: hard under 1 s, every other level under 500 ms; with
--per-side 100 (a 100x100 map, the roster repeated in ranks) the goal is a worst turn under
300 ms (issue "faster where players wait").
Times are CPU time (process_time), so other work on a shared machine adds little; each is also
printed as a ratio to an anchor measured in the same run (the median of 3 runs of a fixed piece of
resolver work on the same battle: every blue figure's attack breakdown on every red one, and three
planner searches), so runs on different machines or loads compare.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import AI  # noqa: E402
from game.core.battle import Battle, BattleSetup  # noqa: E402
from game.core.values.refusals import ActionRefused# noqa: E402
from game.core.values.actions import EndTurn  # noqa: E402
from game.core.values.ascii_map import parse_ascii_map  # noqa: E402
from game.core.scenario import figure_from_entry  # noqa: E402
from game.io.rulesets import bundled_ruleset_ids, load_ruleset  # noqa: E402

GOALS_MS = {"hard": 1000}     # every other level: 500 ms
ROSTER = ["foot", "foot", "foot", "spearman", "spearman", "archer", "archer", "knight", "monster", "flyer"]


def big_map(size: int = 60) -> str:
    """Open field with woods, low walls, a hill and a ruin: every kind of square the AI weighs."""
    rows = [["."] * size for _ in range(size)]
    for y in range(size):
        for x in range(size):
            h = (x * 7 + y * 13) % 29
            if h == 0:
                rows[y][x] = "T"
            elif h == 5 and 10 < x < 50:
                rows[y][x] = '"'
    for x in range(18, 42):
        rows[22][x] = "="
        rows[38][x] = "="
    for y in range(26, 34):
        for x in range(26, 34):
            rows[y][x] = "2" if 27 < x < 32 and 27 < y < 32 else "1"
    for x in range(44, 52):
        rows[10][x] = "#"
    for y in range(10, 16):
        rows[y][44] = "#"
    return "\n".join("".join(r) for r in rows)


def setup(ruleset_id: str, seed: int = 3, size: int = 60, per_side: int = 10) -> BattleSetup:
    rs = load_ruleset(ruleset_id)
    bmap = parse_ascii_map(big_map(size))
    figures = []
    taken: dict = {}
    per_rank = 10 if per_side <= 10 else (size - 16) // 3
    for side, y0, facing, back in (("blue", 8, "S", -1), ("red", size - 9, "N", 1)):
        for i in range(per_side):
            template = ROSTER[i % len(ROSTER)]
            if rs.template(template) is None:
                template = "foot"
            if per_side <= 10:
                x, y = 8 + i * 4, y0 + (i % 2)
            else:   # ranks three squares apart, each further back from the middle
                x, y = 8 + (i % per_rank) * 3, y0 + back * 2 * (i // per_rank)
            while bmap.blocks_move[y, x]:
                x += 1
            entry = {"id": f"{side}{i}", "side": side, "x": x, "y": y, "name": "", "template": template,
                     "facing": facing, "altitude_ft": 0, "running": False, "stats": {},
                     **{k: None for k in ("move_ft", "turning_ft", "flyer", "size", "weapons")}}
            figures.append(figure_from_entry(entry, rs, bmap, "bench", f"{side}{i}", taken))
    return BattleSetup(bmap, rs, tuple(figures), seed, "bench", "")


def anchor_ms(ruleset_id: str = "bfrpg") -> float:
    """CPU ms of a fixed piece of resolver work on a fresh bench battle (median of 3): 100 attack
    breakdowns and 3 planner searches."""
    times = []
    for _ in range(3):
        battle = Battle(setup(ruleset_id))
        blue = [f for f in battle.figures.values() if f.side == "blue"]
        red = [f for f in battle.figures.values() if f.side == "red"]
        t0 = time.process_time()
        for a in blue:
            for b in red:
                battle.explain_attack(a.id, b.id)
        for f in blue[:3]:
            battle.search(f, "walk")
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def run(ruleset_id: str, difficulty: str, rounds: int, per_side: int = 10, size: int | None = None,
        warm: bool = False) -> list[float]:
    """CPU ms of every AI turn (all choose calls of one figure's turn) over `rounds` rounds; `warm`:
    one choice made first, outside the measure (imports and first-use caches)."""
    return [ms for _round, ms in run_by_round(ruleset_id, difficulty, rounds, per_side, size, warm)]


def run_by_round(ruleset_id: str, difficulty: str, rounds: int, per_side: int = 10, size: int | None = None,
                 warm: bool = False) -> list[tuple[int, float]]:
    """(round, CPU ms) of every AI turn over `rounds` rounds (run's turns, with their round)."""
    size = size or (60 if per_side <= 10 else 100)
    battle = Battle(setup(ruleset_id, size=size, per_side=per_side))
    ais = {"blue": AI(difficulty), "red": AI(difficulty)}
    if warm:
        ais["blue"].choose(battle, battle.current)
    turns: list[tuple[int, float]] = []
    key, spent, actions = None, 0.0, 0
    guard = 0
    while not battle.is_over and battle.round <= rounds and guard < 20000:
        guard += 1
        fid = battle.current
        if fid is None:
            break
        k = (battle.round, fid, battle.current_phase)
        if k != key:
            if key is not None:
                turns.append((key[0], spent))
            key, spent, actions = k, 0.0, 0
        actions += 1
        if actions > 12:  # a stuck AI would loop forever: end its turn and count it
            battle.apply(EndTurn(figure=fid))
            continue
        t0 = time.process_time()
        action = ais[battle.figures[fid].side].choose(battle, fid)
        spent += (time.process_time() - t0) * 1000
        try:
            battle.apply(action)
        except ActionRefused:
            battle.apply(EndTurn(figure=fid))
    if key is not None:
        turns.append((key[0], spent))
    return turns


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="bfrpg", help="ruleset id or 'all'")
    p.add_argument("--difficulty", default="all", help="naive, easy, normal, hard, a list (normal,hard) or all")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--per-side", type=int, default=10, help="figures a side (over 10: a 100x100 map)")
    args = p.parse_args(argv)
    rulesets = bundled_ruleset_ids() if args.ruleset == "all" else [args.ruleset]
    levels = ("naive", "easy", "normal", "hard") if args.difficulty == "all" else tuple(args.difficulty.split(","))
    size = 60 if args.per_side <= 10 else 100
    print(f"AI turn time (CPU), {args.per_side} figures a side, {size}x{size} map, {args.rounds} round(s)")
    anchor = anchor_ms(rulesets[0])
    print(f"anchor: {anchor:.1f} ms (100 attack breakdowns and 3 planner searches, {rulesets[0]})")
    print(f"{'ruleset':<12} {'level':<7} {'turns':>5} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} "
          f"{'median/anchor':>13} {'max/anchor':>10}")
    worst: dict[str, float] = {}
    for rid in rulesets:
        for level in levels:
            turns = run(rid, level, args.rounds, args.per_side)
            if not turns:
                continue
            turns.sort()
            p90 = turns[min(len(turns) - 1, int(len(turns) * 0.9))]
            worst[level] = max(worst.get(level, 0.0), turns[-1])
            med = statistics.median(turns)
            print(f"{rid:<12} {level:<7} {len(turns):>5} {med:>10.1f} {p90:>8.1f} {turns[-1]:>8.1f} "
                  f"{med / anchor:>13.2f} {turns[-1] / anchor:>10.2f}")
    for level, ms in worst.items():
        goal = GOALS_MS.get(level, 500) if args.per_side <= 10 else 300
        print(f"worst {level} turn: {ms:.0f} ms ({'within' if ms <= goal else 'OVER'} the {goal} ms goal"
              f"{'' if args.per_side <= 10 else ' at 100 v 100'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
