"""Scripted actions from a scenario's [[actions]] tables, validated and played through the resolver.

Each table is an action's JSON form (see docs/scenarios.md, "Scripted actions"). By default
the runner first passes the turns of whoever acts before the scripted figure, so a script
only lists the actions that matter; `wait = false` turns that off for one action. A script that
uses a rule the battle's ruleset does not have (a set spear under cnc, a trip under odnd) is not
played at all: ScriptNeedsRules names each such action and what is missing.
"""
from __future__ import annotations

from .battle.rules_present import rules_missing
from .values.actions import Action, action_from_json
from .values.errors import DataFileError, RulesError
from .values.events import Event
from .values.lessons import play_action
from .values.refusals import ActionRefused


class ScriptNeedsRules(DataFileError):
    """The script uses rules the battle's ruleset does not have: `missing` holds (actions[N], kind, words)."""

    def __init__(self, path: str, ruleset, missing: list[tuple[int, str, str]]):
        self.ruleset_id = ruleset.id
        self.missing = missing
        listed = "; ".join(f"actions[{i}] ({kind}): {words}" for i, kind, words in missing)
        super().__init__(path, "", f"the script cannot be played under {ruleset.id}: it uses rules that {ruleset.id} "
                                   f"does not have: {listed}")


def parse_script(entries: list, path: str, figure_ids) -> list[tuple[Action, bool]]:
    """Every scripted action checked for form (not legality), or DataFileError naming actions[N]."""
    out = []
    for i, entry in enumerate(entries, start=1):
        where = f"actions[{i}]"
        if not isinstance(entry, dict):
            raise DataFileError(path, where, "each [[actions]] entry must be a table")
        data = {k: v for k, v in entry.items() if v is not None}
        wait = data.pop("wait", True)
        if not isinstance(wait, bool):
            raise DataFileError(path, f"{where}.wait", "must be true or false")
        try:
            action = action_from_json(data)
        except RulesError as err:
            raise DataFileError(path, where, str(err)) from None
        if action.figure not in figure_ids:
            raise DataFileError(path, f"{where}.figure", f"no figure {action.figure!r}; figures: {', '.join(figure_ids)}")
        for key in ("target", "until"):
            other = getattr(action, key, None)
            if other is not None and other not in figure_ids:
                raise DataFileError(path, f"{where}.{key}", f"no figure {other!r}; figures: {', '.join(figure_ids)}")
        out.append((action, wait))
    return out


def script_needs(ruleset, script: list[tuple[Action, bool]]) -> list[tuple[int, str, str]]:
    """(N, kind, why) for each scripted action (actions[N]) the ruleset has no rule for."""
    return [(i, action.kind, refusal.words) for i, action, refusal in rules_missing(ruleset, [a for a, _w in script])]


def run_script(battle, script: list[tuple[Action, bool]], path: str) -> list[Event]:
    """Apply the script; ScriptNeedsRules (before anything is played) if it uses rules the battle's ruleset
    lacks, else DataFileError naming actions[N] and the refusal if one cannot be played."""
    missing = script_needs(battle.ruleset, script)
    if missing:
        raise ScriptNeedsRules(path, battle.ruleset, missing)
    events: list[Event] = []
    for i, (action, wait) in enumerate(script, start=1):
        if battle.is_over:
            raise DataFileError(path, f"actions[{i}]", "the battle is already over before this action")
        try:
            events.extend(play_action(battle, action, wait))
        except ActionRefused as refusal:
            raise DataFileError(path, f"actions[{i}]", f"refused: {refusal.reason}") from None
    return events
