"""rulesets/README.md lists every key the ruleset schema accepts, exactly as the schema says."""
from pathlib import Path

from game.commands.rulesets import keys_markdown
from game.core.ruleset import SCHEMA
from game.core.ruleset.schema import describe

README = Path(__file__).resolve().parents[2] / "rulesets" / "README.md"
BEGIN, END = "<!-- keys:begin -->", "<!-- keys:end -->"


def test_readme_key_table_is_current():
    text = README.read_text()
    table = text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip()
    rows = [{"key": k, "type": f.kind, "allowed": f.allowed(), "doc": f.doc} for k, f in describe(SCHEMA)]
    assert table == keys_markdown(rows), (
        "rulesets/README.md is out of date: run `python -m game.commands.rulesets_readme` to regenerate it")
