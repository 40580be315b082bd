"""`fivefoot exam [--levels ...]`: the AI levels sit the tactics exam (maps/exam/*.toml): small
positions, each with one decision a rules-aware player would clearly make (docs/ai.md)."""
from __future__ import annotations

from pathlib import Path

from ..core.values.errors import RulesError
from .common import emit_json


def register(subparsers) -> None:
    p = subparsers.add_parser("exam", help="the AI levels sit the tactics exam: a score per level")
    p.add_argument("--levels", default="naive,easy,normal,hard", help="levels to examine (default: all four)")
    p.add_argument("--ruleset", default=None, help="only the positions under this ruleset")
    p.add_argument("--positions", default=None, metavar="DIR", help="a folder of position files (default: maps/exam)")
    p.add_argument("--only", default=None, metavar="ID[,ID...]", help="only these positions")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..ai.levels import DIFFICULTIES
    from ..play.exam import EXAM_DIR, exam, format_exam, load_positions
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    unknown = [lv for lv in levels if lv not in DIFFICULTIES]
    if unknown or not levels:
        raise RulesError(f"--levels {args.levels!r}: use some of {', '.join(DIFFICULTIES)}")
    folder = Path(args.positions) if args.positions else EXAM_DIR
    if not folder.is_dir():
        raise RulesError(f"--positions {folder}: not a folder")
    positions = load_positions(folder, args.ruleset)
    if args.only:
        wanted = [w.strip() for w in args.only.split(",")]
        missing = [w for w in wanted if w not in {p.id for p in positions}]
        if missing:
            raise RulesError(f"--only: no position {missing[0]!r}")
        positions = [p for p in positions if p.id in wanted]
    report = exam(levels, positions)
    if args.json:
        emit_json(report)
    else:
        print(format_exam(report))
    return 0
