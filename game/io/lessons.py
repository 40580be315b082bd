"""Lesson files (TOML): loading them, validated as a whole, and saving them atomically.

A lesson names the rule of position it teaches, a battle (a bundled scenario by path, or an inline
[scenario] table in the scenario format) and its [[steps]]: a caption and the actions played, each
in the actions' JSON form. Loading checks every key, then plays the steps through the resolver
under the lesson's own ruleset: an action it refuses, or a step that does not show what it says it
shows (`expect`), is one message naming the file and steps[N], like every other data file. The
format is documented in docs/lessons.md; the bundled lessons live in maps/lessons/.
"""
from __future__ import annotations

import os
import tomllib
from contextlib import contextmanager
from pathlib import Path

from ..core.ruleset.fields import CITATIONS
from ..core.ruleset.schema import Field, shown, validate
from ..core.scenario import figures_under
from ..core.script import parse_script
from ..core.values.errors import DataFileError, RulesError
from ..core.values.events import EventKind
from ..core.values.lessons import Lesson, Step, play_action
from ..core.values.refusals import ActionRefused
from .paths import MAPS_DIR
from .rulesets import bundled_ruleset_ids, load_ruleset
from .saves import write_atomically
from .scenarios import MAP_SUFFIXES, _ruleset, load_scenario, scenario_from_data
from .toml_file import read_toml

LESSONS_DIR = MAPS_DIR / "lessons"
MAX_STEPS = 200
MAX_CAPTION = 2000
EVENT_KINDS = frozenset(str(k) for k in EventKind)


def _one_line(value: str) -> str | None:
    if not value.strip():
        return "must not be empty"
    if "\n" in value or not value.replace("\t", " ").isprintable():
        return f"{shown(value)} holds a line break or control character; write it on one line"
    return None


def _caption(value: str) -> str | None:
    if not value.strip():
        return "must not be empty: say what the table is shown at this step"
    if len(value) > MAX_CAPTION:
        return f"is {len(value)} characters long; a caption has at most {MAX_CAPTION}"
    return None


STEP_SCHEMA = {
    "caption": Field("str", "what the table is told at this step", check=_caption),
    "actions": Field("list[table]", "the actions played at this step, each in the actions' JSON form "
                     "(docs/scenarios.md, Scripted actions; gm-place sets a position up)"),
    "expect": Field("list[str]", "event kinds or rule ids (ruleset:section) this step's events show under the "
                    "lesson's own ruleset", []),
}

LESSON_SCHEMA = {
    "title": Field("str", "the lesson's title", check=_one_line),
    "rule": Field("str", "the rule of position it teaches, as ruleset:section (e.g. bfrpg:5-10-diagonals)",
                  check=_one_line),
    "summary": Field("str", "what the lesson shows, in a sentence or two", ""),
    "ruleset": Field("str", "the ruleset it is played under by default: an id (bfrpg, odnd, cnc, ch17, spelljammer) "
                     "or a path to a ruleset .toml (default: the scenario's)", ""),
    "seed": Field("int", "the dice seed, over the scenario's", None, minimum=0),
    "steps": Field("list[table]", "the steps, each a caption and its actions", entry=STEP_SCHEMA),
}
SCENARIO_KEY_WORDS = ("a path to a scenario .toml or a Tiled map (relative to the lesson's folder), or an inline "
                      "[scenario] table in the scenario format (docs/scenarios.md)")


@contextmanager
def _within(path: Path, prefix: str):
    """A DataFileError from a part of the lesson (its inline scenario, a step's actions) named from the lesson's top."""
    try:
        yield
    except DataFileError as err:
        if err.path != str(path):
            raise
        where = f"{prefix}.{err.where}" if err.where else prefix
        raise DataFileError(path, where, err.problem) from None


def load_lesson(path: str | Path) -> Lesson:
    """A lesson file, checked whole and played through once under its own ruleset, or one DataFileError."""
    path = Path(path)
    data = read_toml(path)
    scenario_value = data.pop("scenario", None)
    checked = validate(data, LESSON_SCHEMA, str(path))
    if scenario_value is None:
        raise DataFileError(path, "scenario", f"missing required key (the battle the lesson starts from); expected "
                            f"{SCENARIO_KEY_WORDS}")
    scenario, scenario_file, table = _scenario(scenario_value, checked["ruleset"], path)
    ruleset = scenario.ruleset
    if checked["ruleset"]:
        ruleset = _ruleset(checked["ruleset"], path)
        if ruleset.id != scenario.ruleset.id:
            scenario.figures, _notes = figures_under(scenario.figures, ruleset)
            scenario.ruleset = ruleset
    if checked["seed"] is not None:
        scenario.seed = checked["seed"]
    _check_rule(checked["rule"], path)
    if not checked["steps"]:
        raise DataFileError(path, "steps", "no steps; a lesson needs at least one [[steps]] entry with a caption")
    if len(checked["steps"]) > MAX_STEPS:
        raise DataFileError(path, "steps", f"{len(checked['steps'])} steps; a lesson has at most {MAX_STEPS}")
    ids = [f.id for f in scenario.figures]
    steps = []
    for i, entry in enumerate(checked["steps"], start=1):
        with _within(path, f"steps[{i}]"):
            script = parse_script(entry["actions"], str(path), ids)
        expect = tuple(entry["expect"])
        for k, word in enumerate(expect, start=1):
            if word not in EVENT_KINDS and not _looks_like_rule(word):
                raise DataFileError(path, f"steps[{i}].expect[{k}]", f"{shown(word)} is neither an event kind nor a "
                                    f"rule id; expected an event kind ({', '.join(sorted(EVENT_KINDS))}) or "
                                    "ruleset:section")
        steps.append(Step(entry["caption"].strip(), tuple(a for a, _ in script), tuple(w for _, w in script), expect))
    lesson = Lesson(title=checked["title"], rule=checked["rule"], summary=checked["summary"], ruleset=ruleset,
                    scenario=scenario, steps=tuple(steps), ruleset_spec=checked["ruleset"] or "",
                    scenario_file=scenario_file, scenario_table=table, source=str(path), seed=checked["seed"])
    check_steps(lesson, path)
    return lesson


def _scenario(value, ruleset_spec: str, path: Path):
    """(Scenario, the file it came from or "", the inline table or None)."""
    if isinstance(value, str):
        if not value.strip():
            raise DataFileError(path, "scenario", f"is empty; expected {SCENARIO_KEY_WORDS}")
        target = path.parent / value
        if target.suffix.lower() not in MAP_SUFFIXES + (".toml",):
            raise DataFileError(path, "scenario", f"{shown(value)} is neither a scenario .toml nor a Tiled map "
                                f"({', '.join(MAP_SUFFIXES)}); expected {SCENARIO_KEY_WORDS}")
        if not target.is_file():
            what = "a folder" if target.is_dir() else "no such file"
            raise DataFileError(path, "scenario", f"{shown(value)}: {what} ({target}); the path is relative to the "
                                "lesson's folder")
        try:
            scenario = load_scenario(target)
        except DataFileError as err:
            raise DataFileError(path, "scenario", f"{shown(value)}: {err}") from None
        scenario.actions = []        # a lesson plays its own steps, not the scenario's scripted actions
        return scenario, str(target), None
    if not isinstance(value, dict):
        raise DataFileError(path, "scenario", f"wrong type ({shown(value)}); expected {SCENARIO_KEY_WORDS}")
    if value.get("actions"):
        raise DataFileError(path, "scenario.actions", "a lesson's battle scripts no actions; put them in the steps")
    table = dict(value)
    data = dict(table)
    if not data.get("ruleset") and ruleset_spec:
        data["ruleset"] = ruleset_spec
    with _within(path, "scenario"):
        scenario = scenario_from_data(data, path)
    return scenario, "", table


def _looks_like_rule(word: str) -> bool:
    head, sep, tail = word.partition(":")
    return bool(sep and head and tail and " " not in word)


def _check_rule(rule: str, path: Path) -> None:
    """`ruleset:section`, the ruleset bundled and the section one it knows (a heading of its document, a
    documented choice, or an engine rule its [citations] table places)."""
    ruleset_id, sep, section = rule.partition(":")
    if not sep or not section:
        raise DataFileError(path, "rule", f"{shown(rule)} is not ruleset:section; for example bfrpg:5-10-diagonals")
    if ruleset_id not in bundled_ruleset_ids():
        raise DataFileError(path, "rule", f"{shown(ruleset_id)} is not a bundled ruleset; expected one of "
                            f"{', '.join(bundled_ruleset_ids())}")
    ruleset = load_ruleset(ruleset_id)
    known = ruleset.known_sections() | set(CITATIONS)
    if section not in known:
        raise DataFileError(path, "rule", f"{ruleset_id} has no section {shown(section)}; its sections: "
                            f"{', '.join(sorted(known))}")


def cited_rule(lesson: Lesson) -> str:
    """The lesson's rule as events cite it (an engine rule name goes through its ruleset's [citations])."""
    ruleset_id, _, section = lesson.rule.partition(":")
    ruleset = lesson.ruleset if ruleset_id == lesson.ruleset.id else load_ruleset(ruleset_id)
    return ruleset.cite(section) if section in CITATIONS else lesson.rule


def step_shows(events, words) -> list[str]:
    """Which of `words` (event kinds or rule ids) the events do not show. An event shows its kind and its
    rule, and an attack the rules of its modifiers (flank, rear, cover, charge, high ground ...)."""
    seen = set()
    for e in events:
        seen.update((str(e.kind), e.rule))
        seen.update(m.source for m in e.modifiers)
        seen.update(s.get("rule", "") for s in e.data.get("steps", ()) if isinstance(s, dict))
        breakdown = e.data.get("breakdown") or {}
        for key in ("attack_modifiers", "defense_modifiers", "damage_modifiers"):
            seen.update(m.get("source", "") for m in breakdown.get(key, ()) if isinstance(m, dict))
    return [w for w in words if w not in seen]


def check_steps(lesson: Lesson, path: Path | str) -> None:
    """Play every step under the lesson's own ruleset: each action accepted in order, each `expect` shown."""
    from ..core.battle import Battle
    battle = Battle.from_scenario(lesson.scenario)
    for i, step in enumerate(lesson.steps, start=1):
        events = []
        for k, (action, wait) in enumerate(step.waiting(), start=1):
            if battle.is_over:
                raise DataFileError(path, f"steps[{i}].actions[{k}]", "the battle is already over before this action")
            try:
                events.extend(play_action(battle, action, wait))
            except ActionRefused as refused:
                raise DataFileError(path, f"steps[{i}].actions[{k}]", f"refused under {lesson.ruleset.id}: "
                                    f"{refused.reason}") from None
        missing = step_shows(events, step.expect)
        if missing:
            made = ", ".join(dict.fromkeys(str(e.kind) for e in events)) or "none"
            raise DataFileError(path, f"steps[{i}].expect", f"the step shows no {', '.join(missing)} (its events: "
                                f"{made}); expect only what the step's events show")


# ----- saving -----
def lesson_to_toml(lesson: Lesson, path: Path) -> str:
    """The lesson as a TOML file at `path` (a scenario file named relative to its folder)."""
    lines = [f"title = {_toml(lesson.title)}", f"rule = {_toml(lesson.rule)}"]
    if lesson.summary:
        lines.append(f"summary = {_toml(lesson.summary)}")
    lines.append(f"ruleset = {_toml(_ruleset_spec(lesson, path))}")
    if lesson.seed is not None:
        lines.append(f"seed = {lesson.seed}")
    if lesson.scenario_file:
        lines.append(f"scenario = {_toml(_relative(lesson.scenario_file, path))}")
    for step in lesson.steps:
        lines += ["", "[[steps]]", f"caption = {_toml(step.caption)}"]
        if step.expect:
            lines.append(f"expect = {_toml(list(step.expect))}")
        entries = []
        for action, wait in step.waiting():
            data = action.to_json()
            if not wait:
                data["wait"] = False
            entries.append("{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in data.items()) + " }")
        lines.append("actions = [" + "".join(f"\n    {e}," for e in entries) + ("\n]" if entries else "]"))
    if lesson.scenario_table is not None:
        lines += ["", _table_toml("scenario", lesson.scenario_table)]
    return "\n".join(lines) + "\n"


def save_lesson(lesson: Lesson, path: str | Path) -> Path:
    """Write the lesson atomically (a temporary file, fsync, rename: game/io/saves.py)."""
    path = Path(path)
    text = lesson_to_toml(lesson, path)
    tomllib.loads(text)      # what is written reads back (a bug here must not leave a broken lesson)
    write_atomically(path, text.encode("utf-8"))
    return path


def _ruleset_spec(lesson: Lesson, path: Path) -> str:
    spec = lesson.ruleset_spec or lesson.ruleset.id
    if spec in bundled_ruleset_ids() or not lesson.source:
        return spec
    return _relative(str(Path(lesson.source).parent / spec), path)


def _relative(target: str, path: Path) -> str:
    return Path(os.path.relpath(Path(target).resolve(), path.resolve().parent)).as_posix()


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        if "\n" in value and "'''" not in value and value.replace("\n", "").isprintable():
            return "'''\n" + value + "'''"      # a map's rows, as written (a literal string)
        out = value.replace("\\", "\\\\").replace('"', '\\"')
        for ch in sorted({c for c in out if ord(c) < 32 or ord(c) == 127}):
            out = out.replace(ch, f"\\u{ord(ch):04x}")
        return f'"{out}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    raise RulesError(f"cannot write {shown(value)} in a lesson")


def _key(key: str) -> str:
    return key if key.replace("-", "").replace("_", "").isalnum() and key.isascii() else _toml(key)


def _table_toml(name: str, table: dict) -> str:
    """An inline scenario as TOML tables: its plain keys, [scenario.map], then [[scenario.figures]]."""
    lines = [f"[{name}]"]
    nested = []
    for key, value in table.items():
        if isinstance(value, dict):
            nested.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            nested.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_toml(value)}")
    for key, value in nested:
        if isinstance(value, dict):
            lines += ["", f"[{name}.{_key(key)}]"] + [f"{_key(k)} = {_toml(v)}" for k, v in value.items()]
        else:
            for entry in value:
                lines += ["", f"[[{name}.{_key(key)}]]"] + [f"{_key(k)} = {_toml(v)}" for k, v in entry.items()]
    return "\n".join(lines)


# ----- the bundled lessons -----
def bundled_lessons() -> list[Path]:
    """The lesson files in maps/lessons/, in name order."""
    return sorted(LESSONS_DIR.glob("*.toml"))

