"""Named save slots: a folder of battle saves (game.io.saves) and an index of what each holds.

Each slot is `slot-N.json` (written atomically by game.io.saves) and `index.json` records its
name, scenario, ruleset, round and when it was saved, so the load box lists them without
replaying every save. A damaged or missing index only loses those labels, never a save.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..core.values.errors import RulesError

SLOTS = 8
INDEX = "index.json"


@dataclass(frozen=True)
class Slot:
    number: int
    path: Path
    used: bool
    name: str = ""
    title: str = ""
    ruleset: str = ""
    round: int = 0
    saved: str = ""            # local time, "2024-05-01 18:03"

    def words(self) -> str:
        if not self.used:
            return f"{self.number}. (empty)"
        return f"{self.number}. {self.name}  ·  {self.title} [{self.ruleset}], round {self.round}  ·  {self.saved}"


def default_folder() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fivefoot" / "saves"


def _index(folder: Path) -> dict:
    try:
        data = json.loads((folder / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def slots(folder: Path) -> list[Slot]:
    index = _index(folder)
    out = []
    for n in range(1, SLOTS + 1):
        path = folder / f"slot-{n}.json"
        meta = index.get(str(n)) if isinstance(index.get(str(n)), dict) else {}
        if not path.exists():
            out.append(Slot(n, path, False))
            continue
        out.append(Slot(n, path, True, str(meta.get("name", f"slot {n}")), str(meta.get("title", "?")),
                        str(meta.get("ruleset", "?")), int(meta.get("round", 0) or 0), str(meta.get("saved", ""))))
    return out


def save(folder: Path, number: int, battle, name: str) -> Slot:
    """Save the battle into slot `number` and record its label; OSError or RulesError on failure."""
    from ..io.saves import folder_lock, save_battle, write_atomically
    if not 1 <= number <= SLOTS:
        raise RulesError(f"there is no save slot {number} (slots are 1 to {SLOTS})")
    folder.mkdir(parents=True, exist_ok=True)
    path = save_battle(battle, folder / f"slot-{number}.json")
    with folder_lock(folder, ".index.lock"):  # another fivefoot saving at once must not lose this label
        index = _index(folder)
        index[str(number)] = {"name": name, "title": battle.setup.title, "ruleset": battle.ruleset.id,
                              "round": battle.round, "saved": datetime.now().strftime("%Y-%m-%d %H:%M")}
        write_atomically(folder / INDEX, json.dumps(index, indent=1, sort_keys=True).encode("utf-8"))
    return Slot(number, path, True, name, battle.setup.title, battle.ruleset.id, battle.round,
                index[str(number)]["saved"])


def load(slot: Slot):
    """The saved battle; OSError or RulesError (one message) when the save cannot be read."""
    from ..io.saves import load_battle
    return load_battle(slot.path)
