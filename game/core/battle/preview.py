"""What an action would do now, as a value: the resolver's refusal, or the planned path with the
parting shots it draws, the attack's breakdown, a manoeuvre's odds, and the rules it would set off."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..combat.breakdown import Breakdown
from ..moves.positioning import PlannedMove
from ..values.actions import Action
from ..values.refusals import Refusal

if TYPE_CHECKING:
    from .manoeuvre_odds import ManoeuvreOdds


@dataclass(frozen=True)
class Preview:
    """What an action would do now, worked out by the same check `apply` runs."""
    action: Action
    refusal: Refusal | None
    planned: PlannedMove | None = None       # the path it would walk and the parting shots it would draw
    breakdown: Breakdown | None = None       # the attack it would make: every modifier and the odds
    manoeuvre: ManoeuvreOdds | None = None   # a grapple, trip, push, ...: the chance of each outcome and what it does
    warnings: tuple = ()                     # the rules it would set off, with their odds (foresight.Foresight)

    @property
    def allowed(self) -> bool:
        return self.refusal is None

    def to_json(self) -> dict:
        out: dict = {"action": self.action.to_json(), "allowed": self.allowed}
        if self.refusal is not None:
            out["refusal"] = self.refusal.to_json()
        if self.planned is not None:
            out["move"] = self.planned.to_json()
        if self.breakdown is not None:
            out["breakdown"] = self.breakdown.to_json()
        if self.manoeuvre is not None:
            out["manoeuvre"] = self.manoeuvre.to_json()
        out["warnings"] = [w.to_json() for w in self.warnings]
        return out
