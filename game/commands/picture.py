"""`fivefoot picture SCENARIO|LESSON|SAVE --out FILE.png`: a position drawn headless, for the table or a handout.

The command checks the arguments and works out the positions to draw (a scenario's start, a lesson's
step, a save's last position; a lesson's steps or a save's actions one by one for --gif and --frames),
all without pygame; the command line hands the request to the window's side (game/ui/launch.py,
game/ui/pictures.py), which draws them with the chosen overlays, selection and hover, and writes
PNGs or an animated GIF (Pillow). See docs/cli.md.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .common import add_scenario_arg, parse_square

OVERLAY_NAMES = ("reach", "path", "zones", "threat", "lanes", "sight", "parting", "markers", "grid")
DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (480, 360)
LESSON_DELAY_MS = 4000
REPLAY_DELAY_MS = 900


def register(subparsers) -> None:
    p = subparsers.add_parser("picture", help="draw a scenario, a lesson's step or a save into a PNG or an animated GIF")
    add_scenario_arg(p)
    p.set_defaults(func=run)
    p.add_argument("--out", metavar="FILE.png", help="write the picture here")
    p.add_argument("--gif", metavar="FILE.gif", help="a lesson's steps or a save's replay as an animated GIF")
    p.add_argument("--frames", metavar="DIR", help="... or as numbered PNGs in this folder")
    p.add_argument("--overlays", default="default",
                   help=f"overlays drawn: a comma list of {', '.join(OVERLAY_NAMES)}, or all, none, default")
    p.add_argument("--select", metavar="ID", help="select this figure (its reach, lanes, the hovered path)")
    p.add_argument("--hover", metavar="X,Y", help="the pointer over this square (the path, the tooltip, the odds)")
    p.add_argument("--step", type=int, metavar="N", help="a lesson's step N, from 1 (default: the last)")
    p.add_argument("--size", metavar="WxH", help=f"picture size in pixels (default {DEFAULT_SIZE[0]}x{DEFAULT_SIZE[1]})")
    p.add_argument("--legend", action="store_true", help="draw the legend of every overlay colour and mark")
    p.add_argument("--delay", type=int, metavar="MS", help="milliseconds each GIF frame shows (default: 4000 for a "
                   f"lesson's step, {REPLAY_DELAY_MS} for a replayed action)")


@dataclass(frozen=True)
class Frame:
    """One position to draw: the battle, for a lesson the step's caption and the event shown on the map (its
    index in the battle's events: the event the step is about, as if picked in the log)."""
    battle: object
    caption: str = ""
    picked: int | None = None


@dataclass(frozen=True)
class PictureRequest:
    """What `picture` asks the window's side to draw (commands never import the window)."""
    scenario: object
    frames: tuple
    out: str | None = None
    gif: str | None = None
    frames_dir: str | None = None
    overlays: tuple = ()
    select: str | None = None
    hover: tuple | None = None
    size: tuple = DEFAULT_SIZE
    legend: bool = False
    delay_ms: int = LESSON_DELAY_MS
    still: int = 0                 # the frame --out draws
    opens_window = True
    draws = "picture"


def parse_size(text: str | None, least=MIN_SIZE) -> tuple[int, int]:
    from ..core.values.errors import RulesError
    if not text:
        return DEFAULT_SIZE
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise RulesError(f"--size {text!r}: write WIDTHxHEIGHT, for example 1024x700") from None
    if width < least[0] or height < least[1] or width > 8000 or height > 8000:
        raise RulesError(f"--size {text!r}: a picture is {least[0]}x{least[1]} to 8000x8000 pixels")
    return width, height


def parse_overlays(text: str) -> tuple[str, ...]:
    from ..client.state import OVERLAYS
    from ..core.values.errors import RulesError
    words = [w.strip() for w in text.split(",") if w.strip()]
    if words == ["all"]:
        return OVERLAY_NAMES
    if words == ["none"]:
        return ()
    if words == ["default"]:
        return tuple(k for k in OVERLAY_NAMES if OVERLAYS[k][1])
    unknown = [w for w in words if w not in OVERLAY_NAMES]
    if unknown or not words:
        raise RulesError(f"--overlays {text!r}: {unknown[0] if unknown else 'nothing'} is no overlay; name some of "
                         f"{', '.join(OVERLAY_NAMES)}, or all, none, default")
    return tuple(dict.fromkeys(words))


def run(args) -> PictureRequest:
    from ..core.values.errors import RulesError
    from .common import output_file
    if not (args.out or args.gif or args.frames):
        raise RulesError("say where to draw: --out FILE.png, --gif FILE.gif or --frames DIR")
    for name, value, suffix in (("--out", args.out, ".png"), ("--gif", args.gif, ".gif")):
        if value and not value.lower().endswith(suffix):
            raise RulesError(f"{name} {value!r}: name a {suffix} file")
        if value:
            output_file(name, value)
    if args.frames and Path(args.frames).exists() and not Path(args.frames).is_dir():
        raise RulesError(f"--frames {args.frames!r} is a file; name a folder for the numbered PNGs")
    if args.delay is not None and not 20 <= args.delay <= 60000:
        raise RulesError(f"--delay {args.delay}: a frame shows 20 to 60000 ms")
    size = parse_size(args.size)
    overlays = parse_overlays(args.overlays)
    hover = parse_square(args.hover) if args.hover else None
    scenario, frames, still, delay = _positions(args)
    battle = frames[still].battle
    if args.select and args.select not in battle.figures:
        raise RulesError(f"--select {args.select!r}: no such figure; figures: {', '.join(battle.figures)}")
    if hover is not None and not battle.map.in_bounds(*hover):
        raise RulesError(f"--hover {args.hover}: off the map ({battle.map.width} x {battle.map.height} squares)")
    if (args.gif or args.frames) and len(frames) < 2 and not args.out:
        raise RulesError("--gif and --frames animate a lesson's steps or a save's replay; a scenario has one position: "
                         "use --out FILE.png")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    return PictureRequest(scenario=scenario, frames=tuple(frames), out=args.out, gif=args.gif, frames_dir=args.frames,
                          overlays=overlays, select=args.select, hover=hover, size=size, legend=args.legend,
                          delay_ms=args.delay or delay, still=still)


def _positions(args):
    """(scenario shown, frames, index of the frame --out draws, the GIF's delay) for the source given."""
    from ..core.values.errors import RulesError
    from ..io.toml_file import read_toml
    path = Path(args.scenario)
    suffix = path.suffix.lower()
    if suffix == ".json" and not _is_map_json(path):
        return _save_frames(args)
    if suffix == ".toml" and "steps" in read_toml(path):
        return _lesson_frames(args)
    if args.step is not None:
        raise RulesError("--step picks a lesson's step; this is a scenario")
    from ..core.battle import Battle
    from .common import load
    scenario = load(args)
    return scenario, [Frame(Battle.from_scenario(scenario))], 0, REPLAY_DELAY_MS


def _is_map_json(path: Path) -> bool:
    """A Tiled JSON map (its layers), not a save."""
    import json
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig")[:64 * 1024 * 1024])
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "layers" in data and "tilewidth" in data


def _lesson_frames(args):
    from ..client.lessons import LessonPlayer
    from ..core.values.errors import RulesError
    from ..io.lessons import load_lesson
    lesson = load_lesson(args.scenario)
    count = len(lesson.steps)
    if args.step is not None and not 1 <= args.step <= count:
        raise RulesError(f"--step {args.step}: the lesson has steps 1 to {count}")
    player = LessonPlayer(lesson)
    ruleset = args.ruleset or None
    frames = []
    for i, step in enumerate(lesson.steps):
        battle, events, refusals = player.position(i, ruleset)
        caption = f"Step {i + 1} of {count} ({battle.ruleset.id}): {step.caption}"
        if refusals:
            caption += " [" + "; ".join(r.text for r in refusals) + "]"
        frames.append(Frame(battle, caption, _picked(battle, events, step.expect)))
    still = (args.step or count) - 1
    return lesson.scenario, frames, still, LESSON_DELAY_MS


def _picked(battle, events, expect) -> int | None:
    """The step's event to show on the map: the last of a kind it expects, else its last that is not a pass."""
    first = len(battle.events) - len(events)
    kinds = [str(e.kind) for e in events]
    for wanted in (lambda k: k in expect, lambda k: k not in ("end-turn", "round", "initiative", "order", "declare")):
        found = [i for i, k in enumerate(kinds) if wanted(k)]
        if found:
            return first + found[-1]
    return None


def _save_frames(args):
    from ..core.battle import Battle
    from ..core.values.errors import RulesError
    from .play import _saved
    if args.step is not None:
        raise RulesError("--step picks a lesson's step; a save's replay draws every action (--gif, --frames)")
    battle, scenario = _saved(args.scenario)
    start = Battle(battle.setup) if battle.origin is None else battle.origin.rejudged(battle.ruleset)
    frames = [Frame(start.clone())]
    for action in battle.actions:
        start.apply(action)             # the same seed and actions: never refused
        frames.append(Frame(start.clone()))
    if args.ruleset:
        from ..io.rulesets import load_ruleset
        ruleset = load_ruleset(args.ruleset)
        frames = [Frame(f.battle.rejudged(ruleset)) for f in frames]
    return scenario, frames, len(frames) - 1, REPLAY_DELAY_MS
