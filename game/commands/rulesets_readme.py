"""Regenerate the key table in rulesets/README.md: `python -m game.commands.rulesets_readme`."""
from __future__ import annotations

from pathlib import Path

from ..core.ruleset import SCHEMA
from ..core.ruleset.schema import describe
from .rulesets import keys_markdown

README = Path(__file__).resolve().parents[2] / "rulesets" / "README.md"
BEGIN, END = "<!-- keys:begin -->", "<!-- keys:end -->"


def regenerate(readme: Path = README) -> None:
    rows = [{"key": k, "type": f.kind, "allowed": f.allowed(), "doc": f.doc} for k, f in describe(SCHEMA)]
    text = readme.read_text()
    head = text[:text.index(BEGIN) + len(BEGIN)]
    tail = text[text.index(END):]
    readme.write_text(f"{head}\n{keys_markdown(rows)}\n{tail}")


if __name__ == "__main__":
    regenerate()
