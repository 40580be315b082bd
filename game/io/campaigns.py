"""Campaign files and campaign saves (docs/campaign.md): read, validated as a whole with the same
one-line messages as scenarios (file, key, what is wrong, what is allowed), and the save written
atomically between battles."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..core.ruleset.schema import Field, plain_name, validate
from ..core.values.errors import DataFileError
from .toml_file import read_toml

MAX_BATTLES = 20
MAX_CHOICES = 6
CAMPAIGN_SAVE = "fivefoot-campaign"
CAMPAIGN_SAVE_VERSION = 1
MAX_SAVE_BYTES = 1_000_000


def _name(value: str) -> str | None:
    return plain_name(value) if value else None


CHOICE_SCHEMA = {
    "id": Field("str", "unique id of the choice within its battle", check=plain_name),
    "text": Field("str", "what the player is offered, in words"),
    "heal": Field("int", "hit points every survivor gets back (up to its most)", 0, minimum=0, maximum=1000),
    "reinforce": Field("list[str]", "templates of the figures that join the side", [], check=lambda v: next(
        (p for p in (plain_name(t) for t in v) if p), None)),
    "next": Field("str", "the battle (id) fought next instead of the following one", "", check=_name),
}
BATTLE_SCHEMA = {
    "id": Field("str", "unique id of the battle", check=plain_name),
    "scenario": Field("str", "the scenario file, relative to the campaign file"),
    "intro": Field("str", "words shown before the battle", ""),
    "choices": Field("list[table]", "offered after the battle is won", entry=CHOICE_SCHEMA),
}
CAMPAIGN_SCHEMA = {
    "title": Field("str", "the campaign's title"),
    "description": Field("str", "what the campaign is", ""),
    "side": Field("str", "the player's side in every battle; its survivors go on to the next", check=plain_name),
    "battles": Field("list[table]", "the battles in order", entry=BATTLE_SCHEMA),
}


@dataclass(frozen=True)
class Choice:
    id: str
    text: str
    heal: int = 0
    reinforce: tuple[str, ...] = ()
    next: str = ""


@dataclass(frozen=True)
class CampaignBattle:
    id: str
    scenario: Path
    intro: str = ""
    choices: tuple[Choice, ...] = ()


@dataclass(frozen=True)
class Campaign:
    title: str
    description: str
    side: str
    battles: tuple[CampaignBattle, ...]
    source: str = ""

    def battle(self, battle_id: str) -> CampaignBattle:
        return next(b for b in self.battles if b.id == battle_id)

    def after(self, battle_id: str) -> str:
        """The id of the battle that follows in order ('' after the last)."""
        ids = [b.id for b in self.battles]
        i = ids.index(battle_id)
        return ids[i + 1] if i + 1 < len(ids) else ""


def load_campaign(path: str | Path) -> Campaign:
    path = Path(path)
    checked = validate(read_toml(path), CAMPAIGN_SCHEMA, str(path))
    if not checked["battles"]:
        raise DataFileError(path, "battles", "no battles; a campaign needs at least one [[battles]] entry")
    if len(checked["battles"]) > MAX_BATTLES:
        raise DataFileError(path, "battles", f"{len(checked['battles'])} battles; at most {MAX_BATTLES}")
    ids = [b["id"] for b in checked["battles"]]
    battles = []
    for i, entry in enumerate(checked["battles"], start=1):
        where = f"battles[{i}]"
        if ids.index(entry["id"]) != i - 1:
            raise DataFileError(path, f"{where}.id", f"id {entry['id']!r} is already used; battle ids must be unique")
        scenario = path.parent / entry["scenario"]
        if not scenario.is_file() or scenario.suffix.lower() != ".toml":
            raise DataFileError(path, f"{where}.scenario", f"{entry['scenario']!r}: no scenario file there ({scenario}); "
                                "the path is relative to the campaign file and names a .toml scenario")
        if len(entry["choices"]) > MAX_CHOICES:
            raise DataFileError(path, f"{where}.choices", f"{len(entry['choices'])} choices; at most {MAX_CHOICES}")
        choices = []
        for j, c in enumerate(entry["choices"], start=1):
            key = f"{where}.choices[{j}]"
            if [x["id"] for x in entry["choices"]].index(c["id"]) != j - 1:
                raise DataFileError(path, f"{key}.id", f"id {c['id']!r} is already used in this battle's choices")
            if c["next"] and c["next"] not in ids:
                raise DataFileError(path, f"{key}.next", f"no battle {c['next']!r}; battles: {', '.join(ids)}")
            if c["next"] and ids.index(c["next"]) <= i - 1:
                raise DataFileError(path, f"{key}.next", f"{c['next']!r} comes before this battle; a road only goes on")
            choices.append(Choice(c["id"], c["text"], c["heal"], tuple(c["reinforce"]), c["next"]))
        battles.append(CampaignBattle(entry["id"], scenario, entry["intro"], tuple(choices)))
    return Campaign(checked["title"], checked["description"], checked["side"], tuple(battles), str(path))


# ----- the save between battles -----
MEMBER_SCHEMA = {
    "id": Field("str", "the figure's id", check=plain_name),
    "template": Field("str", "its template", "", check=_name),
    "name": Field("str", "its name", ""),
    "max_hp": Field("int", "its most hit points (0: rolled in its first battle)", 0, minimum=0, maximum=10000),
    "hp": Field("int", "its hit points now", 0, minimum=0, maximum=10000),
    "stats": Field("table", "its own combat statistics, as its first battle's scenario gave them (checked "
                   "as a scenario figure's when it fights)"),
}
RECORD_SCHEMA = {
    "battle": Field("str", "the battle's id", check=plain_name),
    "winner": Field("str", "the side that won ('' a draw)", ""),
    "decided_by": Field("str", "what decided it", ""),
    "rounds": Field("int", "rounds fought", 0, minimum=0),
    "fallen": Field("list[str]", "the side's figures that fell", []),
    "choice": Field("str", "the choice taken after it", ""),
}
SAVE_SCHEMA = {
    "format": Field("str", f"always {CAMPAIGN_SAVE!r}", choices=(CAMPAIGN_SAVE,)),
    "version": Field("int", "the save format's version", minimum=CAMPAIGN_SAVE_VERSION, maximum=CAMPAIGN_SAVE_VERSION),
    "campaign": Field("str", "the campaign file"),
    "next": Field("str", "the battle fought next ('' when the campaign is over)", ""),
    "result": Field("str", "victory, defeat, or '' while it goes on", "", choices=("", "victory", "defeat")),
    "seed": Field("int", "seed for the battles' dice", 1, minimum=0, maximum=2 ** 63 - 1),
    "roster": Field("list[table]", "the side's figures still with it", entry=MEMBER_SCHEMA),
    "fallen": Field("list[str]", "the side's figures that fell on the way", []),
    "played": Field("list[table]", "each battle fought", entry=RECORD_SCHEMA),
}


@dataclass
class CampaignState:
    campaign: str
    next: str
    seed: int = 1
    result: str = ""
    roster: list[dict] = field(default_factory=list)
    fallen: list[str] = field(default_factory=list)
    played: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"format": CAMPAIGN_SAVE, "version": CAMPAIGN_SAVE_VERSION, "campaign": self.campaign,
                "next": self.next, "result": self.result, "seed": self.seed, "roster": self.roster,
                "fallen": self.fallen, "played": self.played}


def save_campaign(state: CampaignState, path: str | Path) -> Path:
    from .saves import write_atomically
    path = Path(path)
    write_atomically(path, json.dumps(state.to_json(), indent=1).encode("utf-8"))
    return path


def load_campaign_save(path: str | Path) -> CampaignState:
    path = Path(path)
    try:
        raw = path.read_bytes()[: MAX_SAVE_BYTES + 1]
    except OSError as err:
        raise DataFileError(path, "", f"cannot read it: {err.strerror or err}") from None
    if len(raw) > MAX_SAVE_BYTES:
        raise DataFileError(path, "", f"larger than {MAX_SAVE_BYTES} bytes; not a campaign save")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DataFileError(path, "", f"not a campaign save (JSON): {err}") from None
    checked = validate(data, SAVE_SCHEMA, str(path))
    return CampaignState(checked["campaign"], checked["next"], checked["seed"], checked["result"],
                         checked["roster"], checked["fallen"], checked["played"])
