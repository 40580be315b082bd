"""The window's odds map (O): who attacks whom, under which ruleset, shaded by what, and the map
itself, kept until the position or the choice changes. The numbers are the resolver's
(`Battle.odds_map`); this module only chooses and groups them for drawing. Pure (no pygame)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.battle import ODDS_MEASURES, OddsMap, OddsSquare, square_words
from ..core.values.numbers import percent
from .rulesview import position_key

BANDS = 5          # shades from the weakest square to the best


@dataclass
class OddsView:
    attacker: str | None = None
    target: str | None = None
    ruleset_id: str | None = None     # None: the ruleset in play
    measure: str = "chance"
    _key: tuple | None = field(default=None, repr=False)
    _map: OddsMap | None = field(default=None, repr=False)

    @property
    def on(self) -> bool:
        return self.attacker is not None and self.target is not None

    def show(self, attacker: str, target: str) -> None:
        if (attacker, target) != (self.attacker, self.target):
            self.attacker, self.target = attacker, target
            self._key = None

    def hide(self) -> None:
        self.attacker = self.target = None
        self.ruleset_id = None
        self.measure = "chance"
        self._key, self._map = None, None

    def next_measure(self) -> bool:
        """Chance, then expected damage; False once past the last (the map is turned off)."""
        i = ODDS_MEASURES.index(self.measure) + 1
        if i >= len(ODDS_MEASURES):
            return False
        self.measure = ODDS_MEASURES[i]
        return True

    def next_ruleset(self, ids: list[str], in_play: str) -> str:
        """The next ruleset in `ids` after the one shown (back to the one in play after the last)."""
        shown = self.ruleset_id or in_play
        nxt = ids[(ids.index(shown) + 1) % len(ids)] if shown in ids else ids[0]
        self.ruleset_id = None if nxt == in_play else nxt
        return nxt

    def get(self, battle) -> OddsMap | None:
        """The map in `battle` (the battle in play, or the same position under the ruleset shown)."""
        if not self.on or self.attacker not in battle.figures or self.target not in battle.figures:
            return None
        key = (position_key(battle), battle.ruleset.id, self.attacker, self.target)
        if key != self._key:
            self._key, self._map = key, battle.odds_map(self.attacker, self.target)
        return self._map

    # ----- grouped for drawing -----
    def bands(self, odds: OddsMap) -> list[tuple[int, list]]:
        """(band 0..BANDS-1, squares) of the squares an attack can be made from, by their number
        against the best one's; band -1 holds the reachable squares that allow none."""
        top = max((s.value(self.measure) for s in odds.squares if s.allowed), default=0.0)
        out: dict[int, list] = {}
        walks = {s.square for s in odds.squares if s.how != "charge" and s.allowed}
        for s in odds.squares:
            if s.how == "charge":
                continue
            if not s.allowed:
                if s.square not in walks:
                    out.setdefault(-1, []).append(s.square)
                continue
            band = BANDS - 1 if top <= 0 else min(BANDS - 1, int(BANDS * s.value(self.measure) / top - 1e-9))
            out.setdefault(band, []).append(s.square)
        return sorted(out.items())

    def label(self, square: OddsSquare) -> str:
        """The number a square shows: its chance in percent, or its expected damage."""
        if self.measure == "damage":
            return f"{square.expected_damage:.1f}"
        return str(round(square.chance * 100))

    def words(self, odds: OddsMap, square: tuple[int, int]) -> list[str]:
        """What the map says about one square, for the tooltip: each way there, its number and why."""
        return [square_words(s, self.measure) for s in odds.at(square)]

    def title(self, odds: OddsMap, figures: dict) -> str:
        what = "chance to hit" if self.measure == "chance" else "expected damage"
        best = odds.best(self.measure)
        top = (percent(best[0].chance) if self.measure == "chance" else f"{best[0].expected_damage:.1f}") if best else "none"
        when = "" if odds.its_turn else " (on its turn, from where it stands)"
        return (f"Odds map [{odds.ruleset}]: {figures[odds.attacker].label} -> {figures[odds.target].label}, "
                f"{what}{when}; best {top}")
