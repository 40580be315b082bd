"""docs/combat.md's table of every rule and its test is whole and true: every section of every bundled
ruleset's document has a row, and every test a row names exists."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from game.io.rulesets import bundled_ruleset_ids, load_ruleset

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "combat.md"


def _rows() -> list[str]:
    text = TABLE.read_text()
    part = text[text.index("## Every rule and its test"):]
    return [line for line in part.splitlines() if line.startswith("| ") and not line.startswith("| rule ")]


def test_every_section_of_every_document_has_a_row():
    cited = set()
    for row in _rows():
        cited.update(re.findall(r"`([a-z0-9]+:[a-z0-9-]+)`", row))
    for rid in bundled_ruleset_ids():
        sections = load_ruleset(rid).data["document"]["sections"]
        missing = [s for s in sections if f"{rid}:{s}" not in cited]
        assert not missing, f"docs/combat.md has no row for {rid}: {missing}"


def test_every_test_the_table_names_exists():
    named = set()
    for row in _rows():
        named.update(re.findall(r"`([a-z_]+/test_\w+\.py)::(test_\w+)`", row))
    assert len(named) > 150
    defined: dict = {}
    for path, test in sorted(named):
        if path not in defined:
            tree = ast.parse((ROOT / "tests" / path).read_text())
            defined[path] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert test in defined[path], f"docs/combat.md names {path}::{test}, which does not exist"


def test_every_row_has_a_test_or_says_why_not():
    for row in _rows():
        last = row.rstrip(" |").rsplit("|", 1)[-1]
        assert "::test_" in last or "not modelled" in last, row
