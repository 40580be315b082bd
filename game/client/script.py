"""Action scripts for `fivefoot play --script`: JSON lines, or a TOML file with an [[actions]] list.

Each action is the JSON form of game.core.values.actions (action_from_json), for example
    {"action": "move", "figure": "hero", "to": [7, 6]}
Blank lines and lines starting with # are skipped in JSON-lines files.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..core.values.actions import Action, action_from_json
from ..core.values.errors import RulesError


def load_script(path: str | Path) -> list[Action]:
    path = Path(path)
    if path.suffix.lower() == ".toml":
        from ..io.toml_file import read_toml
        data = read_toml(path)
        entries = data.get("actions")
        if not isinstance(entries, list):
            raise RulesError(f"{path}: a TOML script needs an [[actions]] list")
        return [_action(path, f"actions[{i}]", e) for i, e in enumerate(entries, start=1)]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesError(f"{path}: file not found") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not UTF-8 text") from None
    actions = []
    stripped = text.strip()
    if stripped.startswith("["):  # a JSON list of actions is accepted too
        try:
            entries = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise RulesError(f"{path}: not valid JSON: {err}") from None
        return [_action(path, f"item {i}", e) for i, e in enumerate(entries, start=1)]
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            raise RulesError(f"{path}, line {number}: not valid JSON: {err.msg}") from None
        actions.append(_action(path, f"line {number}", data))
    return actions


def _action(path, where, data) -> Action:
    try:
        return action_from_json(data)
    except RulesError as err:
        raise RulesError(f"{path}, {where}: {err}") from None
    except TypeError as err:
        raise RulesError(f"{path}, {where}: {err}") from None
