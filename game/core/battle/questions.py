"""The questions the AI, the window and the command line ask of a battle (or of a hypothetical view
of one), beyond check, preview and options: each answered by the resolver's own rule code, so no
caller works a rule out for itself.

`Questions` is mixed into `Battle` and `BattleView`; it reads only what both have (`ruleset`,
`map`, `figures`, `profile`, `state_of`, `able`, `positioning`, `state`).
"""
from __future__ import annotations

from ..combat.breakdown import Breakdown
from ..combat.modifiers import facing_bonus
from ..combat.reach import arc_of_square, cell_pairs, melee_reach_ft, melee_weapon, weapon_data
from ..combat.rounds import attacks_after_moving
from ..moves.charge import charge_limits, lane_may_open
from ..moves.planner import capped_planner
from ..values.figure import Figure
from .budgets import strike_move_ft, turn_still_to_come
from .retreat import free_attack_chance


class Questions:
    # ----- weapons and reach -----
    def weapon(self, name: str) -> dict:
        """The ruleset's numbers for a weapon (one it does not know strikes like a fist)."""
        return weapon_data(self, name)

    def melee_weapon(self, figure: Figure) -> str:
        """The first weapon the figure strikes with in melee (its fists when it has none)."""
        return melee_weapon(self, figure)

    def melee_reach_ft(self, figure: Figure, weapon: str | None = None) -> int:
        """How far the figure strikes in melee with this weapon (its ready one by default)."""
        return melee_reach_ft(self, figure, weapon)

    def farthest_strike_ft(self, figure: Figure, weapon: str | None = None) -> float:
        """How far the figure strikes at most with this weapon (its ready one by default): its long
        range when it is shot or thrown, and at least its melee reach. A first look before `check`,
        which has the last word (cover, sight, the rules of shooting into a melee)."""
        spec = self.weapon(weapon or figure.ready_weapon)
        far = float((spec["range_ft"] or [0])[-1]) if spec["ranged"] or spec["thrown"] else 0.0
        return max(far, float(self.melee_reach_ft(figure, weapon)))

    def nearest_cells(self, a: Figure, b: Figure) -> tuple:
        """(distance, a's cell, b's cell) of the two bodies' nearest squares, as attacks measure them."""
        return cell_pairs(self, a, b)[0]

    # ----- attacks and moving -----
    def attacks_per_round(self, figure: Figure, moved_ft: float = 0.0, mode: str = "walk") -> int:
        """How many attacks the figure makes in a round in which it moves `moved_ft` in `mode` first:
        d20 rules, all of them within its move-and-attack allowance (none beyond, or after a run
        where a run allows no attack); d100 rules, what Move and Attack or Run and Attack leave."""
        n = max(1, int(self.profile(figure.id)["attacks"]))
        if self.ruleset.d100:
            return attacks_after_moving(self.ruleset, n, figure.move_ft, moved_ft, mode)[0]
        if mode in ("run", "jog") and moved_ft and self.ruleset.section("round")["run_attack_hit"] == 0:
            return 0
        return n if moved_ft <= self.strike_move_ft(figure) + 1e-9 else 0

    def strike_move_ft(self, figure: Figure) -> float:
        """How far the figure may walk in a round and still attack."""
        return strike_move_ft(self, figure)

    def free_attack_chance(self, mover_id: str, foe_id: str) -> float:
        """The chance a foe whose free attack a move draws (a parting shot, a foe passed) gets it: 1, or
        where a move out of melee is a retreat (odnd) the chance its d6 + DEX reaches the mover's."""
        return free_attack_chance(self, mover_id, foe_id)

    def turn_still_to_come(self, figure_id: str) -> bool:
        """Whether the figure acts later this round (its number not yet reached, or reached and not done)."""
        return turn_still_to_come(self, figure_id)

    # ----- where blows come from -----
    def facing_arc(self, target: Figure, square: tuple[int, int]) -> int:
        """The octant of a one-square figure on `square` seen from the target's facing (0 front ...
        4 directly behind), as rear and flank are judged."""
        return arc_of_square(target, square)

    def facing_bonus(self, attacker: Figure, target: Figure) -> int:
        """The to-hit a melee blow from where `attacker` stands gets for its place around the target
        (rear, flank, an ally on the far side): the breakdown's own facing modifiers, nothing else."""
        return facing_bonus(self, attacker, target)

    @property
    def reach_strikes_closing_foes(self) -> bool:
        """Whether this ruleset lets a reach weapon strike a foe that closes into it (bfrpg, ch17)."""
        return bool(self.ruleset.section("round")["reach_attacks_closing_foe"]) and not self.ruleset.d100

    def strikes_closing_foe(self, striker: Figure, mover: Figure, before: Figure, next_round: bool = False) -> bool:
        """Whether `striker`'s longer reach strikes `mover` for closing into it (it stood at `before`):
        bfrpg/ch17 reach weapons, on the striker's number. `next_round`: a closing move to come next
        round (the striker's turn to come, its attacks whole)."""
        from .walking import may_strike_closing_foe
        return may_strike_closing_foe(self, striker, mover, before, next_round)

    # ----- charges -----
    def charge_limits(self, figure: Figure) -> tuple[float, float, bool]:
        """(least, greatest, least is exclusive) distance of the figure's charge (a mounted charger
        keeps the mounted limits)."""
        return charge_limits(self.ruleset, figure, figure.id in self.positioning().mounted)

    def charge_lane_may_open(self, attacker: Figure, target: Figure) -> bool:
        """A cheap first look (a pre-filter): False only where the charge lane is surely refused (no
        charges, no charging weapon, out of the limits, a wall or a figure on the straight line)."""
        pos = self.positioning()
        return lane_may_open(pos.planner, attacker, target, pos.occupied_except(attacker.id),
                             attacker.id in pos.mounted)

    # ----- missiles into a melee -----
    def into_melee_risk(self, breakdown: Breakdown):
        """The friends a shot with this breakdown may strike in the melee it goes into, with the
        chance and the damage (the odds of the decisions the roll makes)."""
        from .strikes import into_melee_risk
        return into_melee_risk(self, breakdown)

    # ----- moving -----
    def search(self, figure: Figure, mode: str = "walk", budget_ft: float | None = None,
               ceiling_ft: int | None = None):
        """The planner's search for this figure (as it stands in the value given) among the figures
        on the field, within `budget_ft` (the mode's own by default), flyers kept to `ceiling_ft`
        above the floor where that is lower than the ruleset's ceiling (every path it finds is one
        the resolver accepts). RulesError when the figure may not move so."""
        pos = self.positioning()
        planner = pos.planner if ceiling_ft is None or figure.flyer == "none" else capped_planner(pos.planner, ceiling_ft)
        return planner.search(figure, mode, pos.occupants(figure.id), budget_ft=budget_ft)

    def plan_path(self, figure_id: str, to: tuple[int, int], mode: str = "walk", facing: int | None = None,
                  altitude_ft: int | None = None):
        """The planner's path for this figure to a square in a mode, whoever's turn it is and whatever it
        has spent this round (the game master's "how would it get there"): a PlannedMove (the path, its
        costs and the parting shots it draws), or RulesError with the reason there is none."""
        return self.positioning().plan(figure_id, tuple(to), mode, facing, altitude_ft)

    def path_warnings(self, figure_id: str, planned) -> tuple:
        """The rules walking this planned path would set off (parting shots, reach weapons striking it
        as it closes), with their odds (battle/foresight.py)."""
        from .foresight import path_warnings
        return path_warnings(self, self.positioning().body(figure_id), planned)

    def stops_short(self, figure: Figure, path) -> bool:
        """d100 rules: whether a move declared along this path would stop before its end at a square
        someone stands on now (moves that unfold across the segments stop there, friend or foe)."""
        if not self.ruleset.section("round")["segments"]:
            return False
        from .segments import stops_short
        return stops_short(self, figure, path.steps)

    def manoeuvre_actions(self, figure_id: str, foes) -> list:
        """Grapples, trips, pushes and overbears the figure may make now against these foes (allowed ones)."""
        from .manoeuvre_menu import manoeuvre_actions
        return manoeuvre_actions(self, self.figures[figure_id], foes)

    def unknown_weapons(self, figures) -> list[str]:
        """Notes for each weapon these figures carry that this ruleset does not know (it strikes as a fist)."""
        from ..scenario import weapons_missing_from
        return list(weapons_missing_from(figures, self.ruleset))

    # ----- what the ruleset offers (for menus) -----
    def disengage_styles(self) -> list[str]:
        return list(self.ruleset.section("disengage")["styles"])

    def manoeuvre_kinds(self) -> list[str]:
        """The manoeuvres this ruleset has (grapple, trip, push, overbear)."""
        rules = self.ruleset.section("manoeuvres")
        return [kind for kind in ("grapple", "trip", "push", "overbear") if rules[kind] != "none"]

    def defence_styles(self) -> list[str]:
        return [d["style"] for d in self.ruleset.data["defenses"]]
