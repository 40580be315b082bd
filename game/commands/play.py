"""`fivefoot play [SCENARIO|MAP]`: open the game window (the bundled default battle if none given).

Automation: --headless draws into memory with no window; --script plays a file of actions
(JSON lines or TOML [[actions]]) through the resolver, printing each event; --screenshot
saves the last frame (the first one when there is no script) and exits. See docs/ui.md.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field


def register(subparsers) -> None:
    from .common import add_asset_root_arg
    p = subparsers.add_parser("play", help="open the game window")
    p.add_argument("scenario", metavar="SCENARIO|MAP", nargs="?", help="a scenario .toml or a Tiled .tmx map")
    p.add_argument("--ruleset", help="play under this ruleset instead of the scenario's")
    add_asset_root_arg(p)
    p.add_argument("--load", metavar="SAVE.json", help="go on with a saved battle (validated and replayed first)")
    p.add_argument("--headless", action="store_true", help="no window (for tests and scripts)")
    p.add_argument("--script", metavar="ACTIONS", help="apply these actions (JSON lines or TOML [[actions]])")
    p.add_argument("--screenshot", metavar="OUT.png", help="save the frame after the script (or the first) and exit")
    p.add_argument("--frames", type=int, help="stop after this many frames")
    p.add_argument("--side", action="append", default=[], metavar="SIDE=WHO",
                   help="who plays a side: human or ai (repeatable), e.g. --side red=ai")
    p.add_argument("--hotseat", action="store_true", help="people play every side")
    p.add_argument("--watch", action="store_true", help="the AI plays every side; watch")
    p.add_argument("--size", metavar="WxH", help="window size in pixels (default: fit the screen; 1280x800 headless)")
    p.add_argument("--save-dir", metavar="DIR",
                   help="folder of the save slots Ctrl+S and Ctrl+O use (default ~/.local/share/fivefoot/saves)")
    p.add_argument("--lesson", metavar="LESSON.toml",
                   help="show a lesson step by step (Right/Left: steps, [ ]: another ruleset; see `fivefoot lessons`)")
    p.add_argument("--step", type=int, metavar="N", help="with --lesson: open it at step N (default 1)")
    p.add_argument("--animation", choices=("normal", "fast", "slow", "off"),
                   help="how moves and strikes are played out (default normal; off headless)")
    p.set_defaults(func=run)


def _sides(args, scenario) -> tuple[dict, bool]:
    """(side -> kind, whether the start screen should ask)."""
    from ..core.values.errors import RulesError
    sides = []
    for f in scenario.figures:
        if f.side not in sides:
            sides.append(f.side)
    chosen: dict[str, str] = {}
    if args.watch:
        chosen = {s: "ai" for s in sides}
    elif args.hotseat:
        chosen = {s: "human" for s in sides}
    for spec in args.side:
        if "=" not in spec:
            raise RulesError(f"--side {spec!r}: write SIDE=WHO, for example red=ai")
        side, who = spec.split("=", 1)
        if side not in sides:
            raise RulesError(f"--side {spec!r}: there is no side {side!r}; sides here: {', '.join(sides)}")
        chosen[side] = who
    decided = bool(chosen)
    if not decided:  # default: a solo player against the AI (the start screen can change it)
        chosen = {s: ("human" if i == 0 else "ai") for i, s in enumerate(sides)}
    for side in sides:
        chosen.setdefault(side, "human")
    return chosen, not decided


def _saved(path: str):
    """A saved battle and the scenario the window shows it as (its map's own file gives the art)."""
    from ..core.scenario import Scenario
    from ..io.saves import load_battle
    battle = load_battle(path)
    setup = battle.setup
    scenario = Scenario(setup.title, setup.description, battle.ruleset, battle.map, list(setup.figures), setup.seed,
                        source=battle.map.source or str(path))
    return battle, scenario


@dataclass(frozen=True)
class WindowRequest:
    """What `play` asks the window to open (the command line opens it: commands never import the
    window, game/ui/launch.py does the drawing)."""
    scenario: object
    battle: object = None
    sides: dict = field(default_factory=dict)
    ask: bool = False              # the start screen asks who plays each side
    size: tuple | None = None
    headless: bool = False
    script: list | None = None
    screenshot: str | None = None
    frames: int | None = None
    save_dir: str | None = None
    animation: str | None = None
    lesson: object = None          # a lesson shown step by step (game/ui/lessonbar.py)
    lesson_step: int = 1
    lesson_ruleset: str | None = None
    opens_window = True


def run(args) -> "WindowRequest":
    """Everything `play` checks before a window opens; the window itself is the command line's to open."""
    return _play(args)


def _play(args) -> "WindowRequest":
    from ..core.values.errors import RulesError
    from ..io.paths import DEFAULT_SCENARIO
    from .common import MAX_FRAMES, MAX_WINDOW, bounded, load, output_file
    scenario_given = args.scenario is not None
    if args.scenario is None:
        args.scenario = str(DEFAULT_SCENARIO)
    size = None
    if args.size:
        try:
            size = tuple(int(v) for v in args.size.lower().split("x"))
            width, height = size
        except ValueError:
            raise RulesError(f"--size {args.size!r}: write WIDTHxHEIGHT, for example 1280x800") from None
        if not (320 <= width <= MAX_WINDOW[0] and 240 <= height <= MAX_WINDOW[1]):
            raise RulesError(f"--size {args.size!r}: a window is 320x240 to {MAX_WINDOW[0]}x{MAX_WINDOW[1]} pixels")
    if args.frames is not None:
        bounded("--frames", args.frames, 1, MAX_FRAMES, "the frames to draw must number")
    if args.screenshot:
        output_file("--screenshot", args.screenshot)
    battle = None
    lesson = None
    if args.step is not None and not args.lesson:
        raise RulesError("--step N opens a lesson at a step: give --lesson FILE too")
    if args.lesson:
        if scenario_given or args.load or args.script:
            raise RulesError("--lesson brings its own battle: give no SCENARIO, --load or --script with it")
        from ..io.lessons import load_lesson
        lesson = load_lesson(args.lesson)
        if args.step is not None and not 1 <= args.step <= len(lesson.steps):
            raise RulesError(f"--step {args.step}: the lesson has steps 1 to {len(lesson.steps)}")
        if args.ruleset:
            from ..io.rulesets import load_ruleset
            args.ruleset = load_ruleset(args.ruleset).id
    if lesson is not None:
        scenario = lesson.scenario
    elif args.load:
        if args.ruleset:
            raise RulesError("--load plays a save under its own ruleset; switch rules in the window (G, then [ or ])")
        battle, scenario = _saved(args.load)
    else:
        scenario = load(args)
    script = None
    if args.script:
        from ..client.script import load_script
        script = load_script(args.script)
    headless = args.headless or bool(args.screenshot and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"))
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    sides, ask = _sides(args, scenario)
    if lesson is not None:
        sides, ask = {s: "human" for s in sides}, False    # a lesson is shown, not played against the AI
    if script is not None and not (args.side or args.watch or args.hotseat):
        sides = {s: "human" for s in sides}  # a script plays every side itself
    return WindowRequest(scenario=scenario, battle=battle, sides=sides, ask=ask and not headless and script is None,
                         size=size, headless=headless, script=script, screenshot=args.screenshot, frames=args.frames,
                         save_dir=args.save_dir, animation=args.animation, lesson=lesson,
                         lesson_step=args.step or 1, lesson_ruleset=args.ruleset if lesson is not None else None)
