"""The AI on big battles (issue 30, item 4): every level's worst turn at 100 a side, a whole round
of AI time at 200 a side, and whether a turn's cost grows with figures far from it.

    .venv/bin/python bench/bench_ai_big.py [--levels naive,easy,normal,hard] [--ruleset bfrpg] [--rounds 1]
                                           [--rounds-200 1]

In one run, per level: the anchor is the median AI turn at 10 a side (60x60 map); then one round
at 100 a side (100x100 map: worst turn, median; `--rounds N`: the worst over N rounds, the lines
meeting in rounds 2-3) and one round at 200 a side (140x140 map: the round's total AI time, worst
turn, median; `--rounds-200 N`: N rounds, the costliest round's total, the lines fighting from
round 4 or 5). Reported as figures and as ratios to the anchor, and
the far-figures ratio: the median turn of the first round at 200 a side over that at 100 a side (about 1 when a
turn's cost does not grow with figures far from it; each decision weighs only the figures near
it, game/ai/context.py `_keep_local`). Goals: worst turn at 100 a side within 300 ms, a round at
200 a side within 10 s of AI time. Times are CPU time (process_time), so other work on a shared
machine adds little; no test asserts them.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ai import run, run_by_round  # noqa: E402

SIZES = {10: 60, 100: 100, 200: 140}
WORST_100_MS, ROUND_200_S = 300, 10.0


def play_round(ruleset: str, level: str, per_side: int, rounds: int = 1) -> list[float]:
    """CPU ms of every AI turn over `rounds` rounds at `per_side` figures a side (bench_ai's battle)."""
    return run(ruleset, level, rounds, per_side, size=SIZES[per_side], warm=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--levels", default="naive,easy,normal,hard")
    p.add_argument("--ruleset", default="bfrpg")
    p.add_argument("--rounds", type=int, default=1, help="rounds played at 100 a side (the worst turn over them)")
    p.add_argument("--rounds-200", type=int, default=1, help="rounds played at 200 a side (the costliest round)")
    args = p.parse_args(argv)
    print(f"AI on big battles ({args.ruleset}), CPU time; anchor = median turn at 10 a side in the same run; "
          f"{args.rounds} round(s) at 100 a side, {args.rounds_200} at 200 a side")
    print(f"{'level':<7} {'anchor ms':>9} {'100: worst ms':>13} {'x anchor':>8} {'median':>7} "
          f"{'200: round s (r)':>17} {'worst ms':>9} {'median':>7} {'far ratio':>9}  goals")
    for level in [lv.strip() for lv in args.levels.split(",") if lv.strip()]:
        anchor = statistics.median(play_round(args.ruleset, level, 10, rounds=2))
        t100_by_round = run_by_round(args.ruleset, level, args.rounds, 100, size=SIZES[100], warm=True)
        t100 = [ms for _r, ms in t100_by_round]
        by_round = run_by_round(args.ruleset, level, args.rounds_200, 200, size=SIZES[200], warm=True)
        totals = {}
        for r, ms in by_round:
            totals[r] = totals.get(r, 0.0) + ms
        costliest = max(totals, key=lambda r: (totals[r], r))
        t200 = [ms for r, ms in by_round if r == costliest]
        worst100, med100 = max(t100), statistics.median(t100)
        total200, worst200, med200 = totals[costliest] / 1000, max(t200), statistics.median(t200)
        # far figures: the first round (the approach) at 200 a side against the first at 100 a side
        far = (statistics.median([ms for r, ms in by_round if r == 1])
               / max(statistics.median([ms for r, ms in t100_by_round if r == 1]), 1e-9))
        goals = (f"100 a side worst {'within' if worst100 <= WORST_100_MS else 'OVER'} {WORST_100_MS} ms; "
                 f"200 a side round {'within' if total200 <= ROUND_200_S else 'OVER'} {ROUND_200_S:g} s")
        print(f"{level:<7} {anchor:>9.1f} {worst100:>13.0f} {worst100 / max(anchor, 1e-9):>8.1f} {med100:>7.1f} "
              f"{total200:>11.1f} (r{costliest}) {worst200:>9.0f} {med200:>7.1f} {far:>9.2f}  {goals}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
