"""Are hard's searched choices better than normal's? (issue 28: hard's edge over normal)

Hard weighs normal's plans, then re-ranks its best few by its search (game/ai/lookahead.py). Where
the search changes the first action from normal's best plan (a "flip"), this plays the rest of the
battle from each of the two choices, normal against normal, K times with the same seeds for both
(paired), and prints what hard's choice gained over normal's: wins (+1 won, 0 draw, -1 lost, hard's
minus normal's) and hit points left (its side's minus the other side's), in all and by the kinds of
plan flipped. A flip worth nothing on average is search that costs time for no edge.

    .venv/bin/python bench/ai_flips.py [--ruleset bfrpg] [--scenario maps/mirror_field.toml]
                                       [--seeds 0,1,2] [--continuations 2]

Battles are played as `simulate` plays them (run_seed of seed 1, hard on one side, normal on the
other, then the sides swapped). A continuation is the snapshot's copy with its dice reseeded; the
flipped figure's first action is applied, then both sides are played by normal.
"""
from __future__ import annotations

import argparse
import collections
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import game.ai.brain as brain  # noqa: E402
import game.ai.lookahead as lookahead  # noqa: E402
from game.ai import AI  # noqa: E402
from game.io.rulesets import load_ruleset  # noqa: E402
from game.io.scenarios import load_scenario  # noqa: E402
from game.play.outcome import outcome  # noqa: E402
from game.play.simulate import play_battle, run_seed, setups_for  # noqa: E402
from game.play.turns import play_out  # noqa: E402

FLIPS: list = []
MARGINS: list = []


def _searching(real):
    def search_ahead(ctx, threats, plans):
        before = plans[0] if plans else None
        searched = real(ctx, threats, plans)
        after = plans[0] if plans else None
        if searched and before is not None and after is not None and before.actions[0] != after.actions[0]:
            FLIPS.append((ctx.battle.clone(), ctx.me.side, before, after))
            # how far the search put its choice above normal's (both searched): its margin
            MARGINS.append(round(after.score - before.score, 3) if before.data.get("searched") else None)
        return searched
    return search_ahead


def worth(battle, side: str) -> tuple[int, int]:
    """(+1 won, 0 draw or not over, -1 lost; the side's hit points left minus the other sides')."""
    res = outcome(battle)
    hp: dict = collections.Counter()
    for fid, f in battle.figures.items():
        if battle.able(fid):
            hp[f.side] += max(0, battle.state_of(fid).hp)
    others = sum(v for s, v in hp.items() if s != side)
    return (1 if res.winner == side else -1 if res.winner else 0), hp[side] - others


def continue_from(snapshot, action, side: str, k: int) -> tuple[int, int] | None:
    board = snapshot.clone()
    board.rng.seed(1000 + k)
    if board.check(action) is not None:
        return None
    board.apply(action)
    play_out(board, {s: AI("normal", seed=7 + k) for s in dict.fromkeys(f.side for f in board.figures.values())},
             max_rounds=30)
    return worth(board, side)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="bfrpg")
    p.add_argument("--scenario", default="maps/mirror_field.toml")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--continuations", type=int, default=2)
    p.add_argument("--dump", help="also write one line a flip (kinds, margin, wins, hit points) to this file")
    args = p.parse_args(argv)
    brain.search_ahead = _searching(lookahead.search_ahead)
    setup0 = setups_for(load_scenario(args.scenario), [load_ruleset(args.ruleset)])[args.ruleset]
    sides = list(dict.fromkeys(f.side for f in setup0.figures))
    by_kind: dict = collections.defaultdict(lambda: [0, 0, 0, 0])     # flips, continuations, wins, hp
    total = [0, 0, 0]
    for index in (int(s) for s in args.seeds.split(",")):
        for hard in sides:
            FLIPS.clear()
            MARGINS.clear()
            levels = {s: ("hard" if s == hard else "normal") for s in sides}
            play_battle(replace(setup0, seed=run_seed(1, args.ruleset, index)), difficulty=levels)
            mine = [(f, m) for f, m in zip(FLIPS, MARGINS) if f[1] == hard]
            for (snapshot, side, before, after), margin in mine:
                row = by_kind[(before.kind, after.kind)]
                row[0] += 1
                flip = [0, 0, 0]
                for k in range(args.continuations):
                    got = [continue_from(snapshot, plan.actions[0], side, k) for plan in (after, before)]
                    if None in got:
                        continue
                    dw, dh = got[0][0] - got[1][0], got[0][1] - got[1][1]
                    row[1] += 1
                    row[2] += dw
                    row[3] += dh
                    total[0] += 1
                    total[1] += dw
                    total[2] += dh
                    flip[0] += 1
                    flip[1] += dw
                    flip[2] += dh
                if args.dump and flip[0]:
                    with open(args.dump, "a") as out:
                        out.write(f"{args.ruleset}\t{args.scenario}\t{index}\t{before.kind}\t{after.kind}\t{margin}\t"
                                  f"{flip[1] / flip[0]:.2f}\t{flip[2] / flip[0]:.2f}\n")
            print(f"battle {index}, hard as {hard}: {len(mine)} flips; so far {total[0]} continuations, "
                  f"wins {total[1]:+d}, hit points {total[2]:+d}", flush=True)
    print(f"hard's choice over normal's, per continuation: wins {total[1] / max(total[0], 1):+.3f}, "
          f"hit points {total[2] / max(total[0], 1):+.2f} ({total[0]} continuations)")
    print("by the kinds flipped (normal's -> hard's): flips, continuations, wins, hit points per continuation")
    for kinds, (n, c, w, h) in sorted(by_kind.items(), key=lambda kv: -kv[1][0]):
        print(f"  {kinds[0]} -> {kinds[1]}: {n}, {c}, {w:+d}, {h / max(c, 1):+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
