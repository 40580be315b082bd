"""Whole CLI commands as a person runs them: CPU seconds per command (user + system).

Each command runs as its own process, several times, interleaved with the others so a busy
machine slows them alike; the best and median runs are printed beside the target. Bytecode
caching is left on (as on a user's machine after the first run), whatever the environment says.
Two floors are printed with them: Python starting and doing nothing, and Python importing numpy
(with one OpenBLAS thread, as the CLI sets it), which only the flyer's volume needs.

    python bench/bench_startup.py [--runs N]
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


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7)
    args = p.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["SDL_VIDEODRIVER"] = "dummy"
    env.setdefault("OPENBLAS_NUM_THREADS", "1")   # as game/cli.py sets it (for the numpy floor)
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
