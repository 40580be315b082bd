"""Where the bundled data lives: the repository's rulesets/ and maps/ folders."""
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RULESETS_DIR = PROJECT_ROOT / "rulesets"
MAPS_DIR = PROJECT_ROOT / "maps"
DEFAULT_SCENARIO = MAPS_DIR / "first_battle.toml"   # the battle `make play` opens
BASE_NAME = "base"  # rulesets/base.toml: what the bundled rulesets share


def bundled_ruleset_ids() -> list[str]:
    """The bundled rulesets' ids (here, not in io.rulesets, so a map check need not load the schema)."""
    return sorted(p.stem for p in RULESETS_DIR.glob("*.toml") if p.stem != BASE_NAME)
