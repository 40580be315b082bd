"""The player's settings, kept between runs: animation speed, sound, default ruleset and AI level,
and whether the first-run guide has been seen.

A small JSON file in the user's config folder (`$XDG_CONFIG_HOME/fivefoot/settings.json`, else
`~/.config/fivefoot/settings.json`), written atomically (a temporary file in the same folder, then
renamed over the old one) and validated on load: a value of the wrong kind or out of its choices
is replaced by its default and said once (`notes`), an unreadable file starts from the defaults,
and nothing in it can stop the window opening.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

ANIMATIONS = ("normal", "fast", "slow", "off")
AI_LEVELS = ("ai", "ai-easy", "ai-hard")          # the AI the solo preset and the start screen offer first
AI_LEVEL_WORDS = {"ai": "normal", "ai-easy": "easy", "ai-hard": "hard"}
MAX_BYTES = 64 * 1024


def settings_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "fivefoot" / "settings.json"


@dataclass
class Settings:
    animation: str = "normal"
    sound: bool = True
    ruleset: str = ""            # "" plays each battle under its own ruleset
    ai_level: str = "ai"
    guide_seen: bool = False
    path: Path | None = field(default=None, compare=False, repr=False)
    notes: list = field(default_factory=list, compare=False, repr=False)

    def data(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k not in ("path", "notes")}

    def save(self) -> str | None:
        """Write the settings atomically; the reason when they could not be written (else None)."""
        if self.path is None:
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(self.data(), out, indent=2, sort_keys=True)
                    out.write("\n")
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as err:
            return f"settings not saved to {self.path}: {err.strerror or err}"
        return None


def _checked(key: str, value, rulesets) -> tuple[object, str | None]:
    default = getattr(Settings, key)
    allowed = {"animation": ANIMATIONS, "ai_level": AI_LEVELS}.get(key)
    if isinstance(default, bool):
        return (value, None) if isinstance(value, bool) else (default, "true or false")
    if not isinstance(value, str):
        return default, "a string"
    if allowed is not None and value not in allowed:
        return default, "one of " + ", ".join(allowed)
    if key == "ruleset" and value and rulesets is not None and value not in rulesets:
        return default, "a bundled ruleset id (" + ", ".join(rulesets) + ") or \"\""
    return value, None


def load_settings(path: Path | None = None, rulesets=None) -> Settings:
    """The settings from `path` (default settings_path()); defaults where the file is missing or wrong."""
    path = settings_path() if path is None else Path(path)
    out = Settings(path=path)
    try:
        if not path.is_file():
            return out
        if path.stat().st_size > MAX_BYTES:
            out.notes.append(f"{path}: larger than {MAX_BYTES // 1024} KB; the defaults are used")
            return out
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        out.notes.append(f"{path}: not readable settings ({type(err).__name__}); the defaults are used")
        return out
    if not isinstance(raw, dict):
        out.notes.append(f"{path}: settings must be a JSON object; the defaults are used")
        return out
    for f in fields(Settings):
        if f.name in ("path", "notes") or f.name not in raw:
            continue
        value, wanted = _checked(f.name, raw[f.name], rulesets)
        if wanted:
            out.notes.append(f"{path}: '{f.name}' must be {wanted}; using {getattr(Settings, f.name)!r}")
        setattr(out, f.name, value)
    return out
