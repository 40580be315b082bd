"""Big maps and big battles, as far as the window's drawing and the one turn loop go.

- A 1000 x 1000 map opened in the window: CPU seconds from App() to the first frame drawn (the
  planner's grid, the sight tables, the ground's first chunks, the selected figure's reach), and
  the process's peak resident memory, each in a fresh process (target: 2 s and 300 MB). The
  anchor: the same process copying the map's layers into lists once (tolist of every layer).
- odnd's Mass Combat scale: N figures a side (default 150) on an open field under odnd, played
  headless through play/turns.py's play_out by a scripted controller that walks each figure to
  the reachable square nearest a foe and strikes (the resolver's own answers: reachable, check)
  so that what is measured is the resolver and the loop, not the AI (issue 28 measures the AI):
  CPU ms per turn against the same battle at 10 a side (the anchor, in the same run); then the
  window with all of them on screen: frame CPU ms (median, p95) still and panning at 1920x1080.

    SDL_VIDEODRIVER=dummy .venv/bin/python bench/bench_mass.py [--side N] [--rounds R] [--frames F]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

OPEN_BIG = """
import resource, sys, time
sys.path.insert(0, {bench!r})
from bench_frame import big_scenario
sc = big_scenario(1000, 40)
t = time.process_time()
for name in ("blocks_move", "blocks_sight", "difficult", "elevation_ft", "obstacle_height_ft", "cover", "concealment"):
    getattr(sc.map, name).tolist()
anchor = time.process_time() - t
from game.ui.app import App
t = time.process_time()
app = App(sc, sides={{"blue": "human", "red": "human"}}, size=(1920, 1080), background=False)
app.select(app.battle.current)
app.frame([])
app.settle()
spent = time.process_time() - t
print(spent, anchor, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def open_big(runs: int) -> None:
    rows = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", OPEN_BIG.format(bench=str(ROOT / "bench"))], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
        rows.append(tuple(float(v) for v in out))
    spent = [r[0] for r in rows]
    anchor = [r[1] for r in rows]
    rss = [r[2] for r in rows]
    print(f"1000x1000 map opened in the window ({runs} fresh processes): CPU {statistics.median(spent):.2f} s median, "
          f"{max(spent):.2f} s worst (target 2); anchor (layers to lists) {statistics.median(anchor):.2f} s, "
          f"ratio {statistics.median(s / a for s, a in zip(spent, anchor)):.1f}; peak memory "
          f"{statistics.median(rss):.0f} MB median, {max(rss):.0f} MB worst (target 300)")


def mass_scenario(per_side: int, seed: int = 3):
    from game.core.scenario import Scenario
    from game.core.values.battlemap import BattleMap
    from game.core.values.figure import Figure
    from game.io.rulesets import load_ruleset
    rs = load_ruleset("odnd")
    cols = 25
    rows = (per_side + cols - 1) // cols
    width, height = cols * 2 + 20, rows * 2 * 2 + 24
    m = BattleMap.empty(width, height, title="Mass combat")
    figs = []
    for side, y0, facing in (("blue", 4, 4), ("red", height - 5, 0)):
        for i in range(per_side):
            x = 10 + (i % cols) * 2
            y = y0 + (i // cols) * 2 * (1 if side == "blue" else -1)
            figs.append(Figure(id=f"{side[0]}{i}", side=side, x=x, y=y, facing=facing, name=f"{side} {i}", move_ft=60,
                               weapons=("spear",) if i % 4 == 0 else ("sword",), stats={"hp": 4, "hp_max": 4}))
    return Scenario(title="Mass combat", description=f"{per_side} a side", ruleset=rs, map=m, figures=figs, seed=seed)


class Advance:
    """Strike a foe in reach; else walk to the reachable square nearest the nearest foe; else end."""

    name = "advance"
    is_human = False

    def choose(self, battle, figure_id):
        from game.core.values.actions import Attack, EndTurn, Move
        me = battle.figures[figure_id]
        foes = [f for f in battle.figures.values() if f.side != me.side and battle.able(f.id)]
        if not foes:
            return EndTurn(figure_id)
        for foe in sorted(foes, key=lambda f: max(abs(f.x - me.x), abs(f.y - me.y)))[:3]:
            attack = Attack(figure_id, target=foe.id)
            if battle.check(attack) is None:
                return attack
        if battle.state_of(figure_id).moved_ft == 0 and battle.check(Move(figure_id, to=me.pos)) is not None:
            pass
        target = min(foes, key=lambda f: max(abs(f.x - me.x), abs(f.y - me.y)))
        if battle.state_of(figure_id).moved_ft == 0:
            ends = battle.reachable(figure_id, "walk").ends
            best = min(ends, key=lambda sq: (max(abs(sq[0] - target.x), abs(sq[1] - target.y)), sq), default=None)
            if best is not None and best != me.pos:
                move = Move(figure_id, to=best)
                if battle.check(move) is None:
                    return move
        return EndTurn(figure_id)


def turn_ms(per_side: int, rounds: int) -> tuple[float, float, int]:
    from game.core.battle import Battle
    from game.play.turns import play_out
    sc = mass_scenario(per_side)
    battle = Battle.from_scenario(sc)
    controllers = {"blue": Advance(), "red": Advance()}
    t = time.process_time()
    play_out(battle, controllers, max_rounds=rounds)
    spent = time.process_time() - t
    turns = sum(1 for a in battle.actions if type(a).__name__ == "EndTurn")
    return spent * 1000 / max(1, turns), spent, turns


def frames(per_side: int, count: int) -> None:
    from game.ui.app import App
    sc = mass_scenario(per_side)
    app = App(sc, sides={"blue": "human", "red": "human"}, size=(1920, 1080), background=False)
    for name in app.ui.overlays:
        app.set_overlay(name, True)
    app.select(app.battle.current)
    app.camera.set_cell(24)
    app.camera.center_on((sc.map.width / 2, sc.map.height / 2))
    app.settle()
    for _ in range(10):
        app.frame([])

    def run(step):
        times = []
        for i in range(count):
            step(i)
            t = time.process_time()
            app.frame([])
            times.append((time.process_time() - t) * 1000)
        times.sort()
        return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))]
    still = run(lambda i: None)
    panning = run(lambda i: app.camera.pan(7 if (i // 40) % 2 == 0 else -7, 3 if (i // 60) % 2 == 0 else -3))
    print(f"window with {2 * per_side} figures, every overlay on, 24 px: still frame median {still[0]:.2f} ms "
          f"p95 {still[1]:.2f} ms; panning median {panning[0]:.2f} ms p95 {panning[1]:.2f} ms")
    import pygame
    pygame.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--opens", type=int, default=3)
    parser.add_argument("--no-open", action="store_true", help="skip the 1000x1000 map")
    args = parser.parse_args()
    if not args.no_open:
        open_big(args.opens)
    small = turn_ms(10, args.rounds)
    big = turn_ms(args.side, args.rounds)
    print(f"odnd mass combat, turn loop + resolver (scripted advance-and-strike, {args.rounds} rounds): "
          f"10 a side {small[0]:.1f} ms a turn ({small[2]} turns); {args.side} a side {big[0]:.1f} ms a turn "
          f"({big[2]} turns, {big[1]:.1f} s); ratio {big[0] / small[0]:.1f}")
    frames(args.side, args.frames)
    return 0


if __name__ == "__main__":
    sys.exit(main())
