"""`fivefoot play [SCENARIO|MAP]`: open the game window (the bundled default battle if none given)."""
from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="open the game window")
    p.add_argument("scenario", metavar="SCENARIO|MAP", nargs="?", help="a scenario .toml or a Tiled .tmx map")
    p.add_argument("--ruleset", help="play under this ruleset instead of the scenario's")
    p.add_argument("--headless", action="store_true", help="no window (for tests and scripts)")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the first frame to a PNG and exit")
    p.add_argument("--frames", type=int, help="stop after this many frames")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..io.paths import DEFAULT_SCENARIO
    from ..ui.preview import run as run_window
    from .common import load
    if args.scenario is None:
        args.scenario = str(DEFAULT_SCENARIO)
    scenario = load(args)
    if args.screenshot:
        Path(args.screenshot).parent.mkdir(parents=True, exist_ok=True)
    return run_window(scenario, headless=args.headless, screenshot=args.screenshot, frames=args.frames)
