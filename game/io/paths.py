"""Where the bundled data lives: the repository's rulesets/ and maps/ folders."""
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RULESETS_DIR = PROJECT_ROOT / "rulesets"
MAPS_DIR = PROJECT_ROOT / "maps"
ASSETS_DIR = PROJECT_ROOT / "assets"
DEFAULT_SCENARIO = MAPS_DIR / "corridor.toml"
