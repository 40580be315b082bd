"""The AI's levels: how far and how well each one thinks. None gets extra dice or sees what a
player could not (future rolls, the other side's plans); they differ only in how many options
they weigh and how far ahead they look.

    naive   advances on the nearest foe and attacks it (the floor of the ladder)
    easy    weighs few squares and targets, and ignores what the foes will do next
    normal  weighs every kind of plan, with what each foe can do to it where the plan ends
    hard    normal's plans, then searches the best few through the resolver: it plays each one
            on a copy of the battle and lets the foes answer with their own best replies
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    name: str
    targets: int = 4            # foes considered as targets
    attack_squares: int = 3     # squares to strike each target from
    approach: int = 6           # squares to move to without attacking
    shoot: int = 6              # squares for archers to shoot from / fall back to
    withdraw: int = 4           # squares to withdraw to, per way of withdrawing
    turn_facings: int = 1       # facings tried before moving, for figures with a turning distance
    foresight: bool = True      # weighs what the foes can do where a plan ends
    exact_plans: int = 6        # best plans re-scored with the resolver's odds for every foe's blow
    sight_squares: int = 3      # ... and archers' shots at the first few of their squares
    search_plans: int = 0       # best plans searched through the resolver (hard)
    search_foes: int = 0        # foes whose replies are searched in each branch, nearest first
    holds: bool = False         # holds its action until a foe has acted, to strike first when it comes
    morale: bool = False        # weighs the morale check a kill would force (break the enemy, avoid a rout)
    focus_fire: bool = False    # its best plans weigh the friends still to strike their target this round
    naive: bool = False
    # What it weighs where hundreds of figures fight (more than context.LOCAL_FROM in the fight), so
    # that a round keeps within its time (docs/ai.md, Speed); None: the same as on a small field.
    big_field: "Level | None" = None

    def on_field(self, figures: int, local_from: int) -> "Level":
        return self.big_field if self.big_field is not None and figures > local_from else self


LEVELS: dict[str, Level] = {
    "naive": Level("naive", naive=True, foresight=False),
    "easy": Level("easy", targets=2, attack_squares=1, approach=3, shoot=3, withdraw=2, turn_facings=0,
                  foresight=False, exact_plans=0),
    "normal": Level("normal", morale=True, focus_fire=True,
                    # fewer plans re-scored exactly and squares to approach: a round of hundreds keeps its time
                    big_field=Level("normal", exact_plans=3, approach=4, morale=True, focus_fire=True)),
    "hard": Level("hard", targets=5, attack_squares=4, approach=8, shoot=8, withdraw=5, turn_facings=2,
                   exact_plans=8, sight_squares=4, search_plans=5, search_foes=3, holds=True, morale=True,
                   focus_fire=True,
                   # normal's breadth there, fewer plans searched: the search still plays the blows near it
                   big_field=Level("hard", exact_plans=3, approach=4, search_plans=3, search_foes=2, holds=True,
                                   morale=True, focus_fire=True)),
}
DIFFICULTIES = tuple(LEVELS)


def level(name: str) -> Level:
    from ..core.values.errors import RulesError
    try:
        return LEVELS[name]
    except KeyError:
        raise RulesError(f"unknown AI level {name!r}: use one of {', '.join(LEVELS)}") from None
