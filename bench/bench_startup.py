"""Whole CLI commands as a person runs them: CPU seconds per command (user + system).

Each command runs as its own process, several times, interleaved with the others so a busy
machine slows them alike; the best and median runs are printed beside the target. Bytecode
caching is left on (as on a user's machine after the first run), whatever the environment says.
Two floors are printed with them: Python starting and doing nothing, and Python importing numpy
(with one OpenBLAS thread, as the CLI sets it), which only a big flight's volume needs.

With --flights: where a flyer's reachable set is better left to the vectorised sweep (moves/volume.py)
than searched state by state (moves/planner.py, SWEEP_AFTER_STATES), for the flyers of maps/sky.toml
under every ruleset, walking and running: the states the general search settles, its CPU ms, the
sweep's (numpy loaded), what SearchResult.entries() takes with numpy loaded (the window, the AI) and
in a fresh process (a command's one question, numpy's import included when it sweeps).

    python bench/bench_startup.py [--runs N] [--flights]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_SQUARE_MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="1" height="1"
     tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">
 <layer id="1" name="ground" width="1" height="1"><data encoding="csv">0</data></layer>
</map>
"""


def commands(one_square: str) -> list[tuple[str, list[str], float]]:
    """(label, arguments, target CPU seconds)."""
    return [
        ("check-map 1x1", ["check-map", one_square], 0.15),
        ("check corridor", ["check", "maps/corridor.toml"], 0.15),
        ("reach corridor hero", ["reach", "maps/corridor.toml", "hero", "--json"], 0.15),
        ("path corridor hero", ["path", "maps/corridor.toml", "hero", "3,3", "--json"], 0.15),
        ("reach sky griffon", ["reach", "maps/sky.toml", "griffon", "--json"], 0.20),
    ]


FLOORS = [("python -c pass", ["-c", "pass"]), ("python -c 'import numpy'", ["-c", "import numpy"])]


def cpu_of(args: list[str], env: dict) -> float:
    """CPU seconds the child process used: `python -m game ARGS`, or python ARGS for a floor."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = args if args[0] == "-c" else ["-m", "game", *args]
    subprocess.run([sys.executable, *command], cwd=ROOT, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


FLIGHT_RULESETS = ("bfrpg", "odnd", "cnc", "ch17", "spelljammer")

# One flight's entries() in a fresh process: CPU ms of that call alone (numpy's import included).
FRESH_ENTRIES = """
import sys, time
from game.core.moves.planner import Planner
from game.io.rulesets import load_ruleset
from game.io.scenarios import load_scenario
sc = load_scenario("maps/sky.toml")
fig = next(f for f in sc.figures if f.id == sys.argv[1])
planner = Planner(sc.map, load_ruleset(sys.argv[2]))
search = planner.search(fig, sys.argv[3], {f.pos: f for f in sc.figures if f.id != fig.id})
t0 = time.process_time()
search.entries()
print((time.process_time() - t0) * 1000, len(search.t_settled), "numpy" in sys.modules)
"""


def flight_rows(runs: int, env: dict) -> list[tuple]:
    """(flight, states, general ms, sweep ms, entries ms with numpy loaded, fresh process ms, how)."""
    import time

    import numpy  # noqa: F401 (loaded, as in the window: the in-process columns pay no import)

    from game.core.moves import volume
    from game.core.moves.planner import Planner
    from game.io.rulesets import load_ruleset
    from game.io.scenarios import load_scenario

    def best_ms(fn) -> float:
        samples = []
        for _ in range(runs):
            t0 = time.process_time()
            fn()
            samples.append((time.process_time() - t0) * 1000)
        return min(samples)

    sc = load_scenario(ROOT / "maps" / "sky.toml")
    rows = []
    for fig in (f for f in sc.figures if f.flyer != "none"):
        occupants = {f.pos: f for f in sc.figures if f.id != fig.id}
        for rid in FLIGHT_RULESETS:
            planner = Planner(sc.map, load_ruleset(rid))
            for mode in ("walk", "run"):
                whole = planner.search(fig, mode, occupants)
                whole.run()
                general = best_ms(lambda: planner.search(fig, mode, occupants).run())
                sweep = best_ms(lambda: volume.volume_entries(planner.rules(fig, mode, occupants)))
                loaded = best_ms(lambda: planner.search(fig, mode, occupants).entries())
                fresh, how = [], ""
                for _ in range(runs):
                    done = subprocess.run([sys.executable, "-c", FRESH_ENTRIES, fig.id, rid, mode], cwd=ROOT, env=env,
                                          capture_output=True, text=True, check=True)
                    ms, settled, swept = done.stdout.split()
                    fresh.append(float(ms))
                    how = f"swept after {settled}" if swept == "True" else "searched"
                rows.append((f"{fig.id} {mode} {rid}", len(whole.t_settled), general, sweep, loaded, min(fresh), how))
    return rows


def print_flights(runs: int, env: dict) -> None:
    numpy_ms = 1000 * (min(cpu_of(["-c", "import numpy"], env) for _ in range(runs))
                       - min(cpu_of(["-c", "pass"], env) for _ in range(runs)))
    print(f"maps/sky.toml flights: reachable set, CPU ms (best of {runs}); numpy's import in a fresh "
          f"process: {numpy_ms:.0f} ms")
    print(f"{'flight':<28} {'states':>7} {'general':>8} {'sweep':>7} {'entries':>8} {'fresh':>7}  fresh process")
    for label, states, general, sweep, loaded, fresh, how in flight_rows(runs, env):
        print(f"{label:<28} {states:>7} {general:>8.1f} {sweep:>7.1f} {loaded:>8.1f} {fresh:>7.1f}  {how}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--flights", action="store_true", help="the general search against the sweep, per flight")
    args = p.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["SDL_VIDEODRIVER"] = "dummy"
    env.setdefault("OPENBLAS_NUM_THREADS", "1")   # as game/cli.py sets it (for the numpy floor)
    if args.flights:
        print_flights(args.runs, env)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        one_square = str(Path(tmp) / "one.tmx")
        Path(one_square).write_text(ONE_SQUARE_MAP)
        cmds = commands(one_square) + [(label, argv_, None) for label, argv_ in FLOORS]
        times: dict[str, list[float]] = {label: [] for label, _, _ in cmds}
        for _, argv_, _ in cmds:     # warm the bytecode cache
            cpu_of(argv_, env)
        for _ in range(args.runs):
            for label, argv_, _ in cmds:
                times[label].append(cpu_of(argv_, env))
    print(f"CLI start-up, CPU seconds per command ({args.runs} runs each, interleaved)")
    print(f"{'command':<26} {'best':>6} {'median':>7} {'target':>7}")
    for label, _, target in cmds:
        t = times[label]
        if target is None:
            print(f"{label:<26} {min(t):>6.3f} {statistics.median(t):>7.3f}  (floor)")
            continue
        verdict = "within" if min(t) <= target else "OVER"
        print(f"{label:<26} {min(t):>6.3f} {statistics.median(t):>7.3f} {target:>7.2f}  {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
