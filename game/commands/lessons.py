"""`fivefoot lessons [FILE] [--ruleset R] [--step N] [--json]`: the bundled lessons, or one read step by step.

Without FILE, lists the lessons in maps/lessons/ (title, the rule taught, steps, file). With FILE, prints
each step's caption and the text of every event it makes, headless, under the lesson's ruleset or
another one (`--ruleset`: the position before each step re-judged by it, what it refuses said).
"""
from __future__ import annotations

import sys

from .common import add_json_flag, emit_json


def register(subparsers) -> None:
    p = subparsers.add_parser("lessons", help="list the bundled lessons, or read one step by step")
    p.add_argument("lesson", metavar="FILE", nargs="?", help="a lesson .toml (docs/lessons.md)")
    p.add_argument("--ruleset", help="play each step under this ruleset instead of the lesson's")
    p.add_argument("--step", type=int, metavar="N", help="only step N (from 1)")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..core.values.errors import RulesError
    if args.lesson is None:
        if args.ruleset or args.step is not None:
            raise RulesError("--ruleset and --step read one lesson: give its FILE (see `fivefoot lessons`)")
        return _list(args.json)
    from ..io.lessons import load_lesson
    lesson = load_lesson(args.lesson)
    count = len(lesson.steps)
    if args.step is not None and not 1 <= args.step <= count:
        raise RulesError(f"--step {args.step}: the lesson has steps 1 to {count}")
    ruleset = None
    if args.ruleset:
        from ..io.rulesets import load_ruleset
        ruleset = load_ruleset(args.ruleset)
    from ..client.lessons import LessonPlayer
    player = LessonPlayer(lesson)
    numbers = [args.step] if args.step is not None else range(1, count + 1)
    shown = []
    for n in numbers:
        _battle, events, refusals = player.position(n - 1, ruleset)
        shown.append((n, lesson.steps[n - 1], events, refusals))
    under = ruleset.id if ruleset is not None else lesson.ruleset.id
    if args.json:
        emit_json({"title": lesson.title, "rule": lesson.rule, "summary": lesson.summary, "file": args.lesson,
                   "ruleset": under, "lesson_ruleset": lesson.ruleset.id, "steps": [
                       {"step": n, "caption": step.caption, "actions": [a.to_json() for a in step.actions],
                        "events": [e.to_json() for e in events], "refusals": [r.to_json() for r in refusals]}
                       for n, step, events, refusals in shown]})
        return 0
    out = [f"{lesson.title}: {lesson.rule}" + (f" (played under {under})" if under != lesson.ruleset.id else ""),
           *([lesson.summary] if lesson.summary else [])]
    for n, step, events, refusals in shown:
        out += ["", f"Step {n} of {count}: {step.caption}"]
        out += [f"  {e.text}" for e in events]
        out += [f"  refused: {r.text}" for r in refusals]
        if not events and not refusals:
            out.append("  (no action: look at the position)")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _list(as_json: bool) -> int:
    from ..io.lessons import bundled_lessons, load_lesson
    from ..io.paths import PROJECT_ROOT
    rows = []
    for path in bundled_lessons():
        lesson = load_lesson(path)
        rows.append({"title": lesson.title, "rule": lesson.rule, "ruleset": lesson.ruleset.id,
                     "steps": len(lesson.steps), "file": path.relative_to(PROJECT_ROOT).as_posix(),
                     "summary": lesson.summary})
    if as_json:
        emit_json({"lessons": rows})
        return 0
    width = max((len(r["title"]) for r in rows), default=5)
    rule_width = max((len(r["rule"]) for r in rows), default=4)
    lines = [f"{'lesson':<{width}}  {'rule':<{rule_width}}  steps  file"]
    lines += [f"{r['title']:<{width}}  {r['rule']:<{rule_width}}  {r['steps']:>5}  {r['file']}" for r in rows]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
