"""One figure's decision: what the battle says now, and the answers the plans share.

Everything here is asked of the resolver: the figure's status and what it has left
(`Battle.status`, `Battle.limits`), who is still in the fight (`Battle.able`), where it may go
(`Battle.search`, one search per movement mode and budget), weapons, reach, charge limits and
attacks after a move (`Battle.weapon`, `melee_reach_ft`, `charge_limits`, `attacks_per_round`,
`strike_move_ft`), and the odds of any attack from any square (`Battle.explain_attack` on
`Battle.hypothetical(...)` views), turned into numbers by `odds.Odds`. The answers are cached for
the one decision; nothing here changes the battle.
"""
from __future__ import annotations

from dataclasses import replace
from functools import cached_property

from ..core.values.errors import RulesError
from ..core.values.figure import Figure
from ..core.values.geometry import DIRECTION_DELTAS, bearing_octant, distance_ft, grid_distance_ft
from .levels import Level
from .odds import Odds

HORIZON_ROUNDS = 3.0      # how many rounds a foe left standing keeps hurting us
WINGED_SEARCH_FT = 60     # how far the AI looks for a winged flyer's next square (its search is costly)

Spot = tuple  # (x, y, facing, altitude_ft): where and how a figure stands
LOCAL_FROM = 24           # figures in the fight beyond which a decision weighs only those near it
NEAR_FOES, NEAR_SHOOTERS, NEAR_FRIENDS = 12, 6, 12


class Context:
    def __init__(self, level: Level, battle, figure_id: str, rng, memo: dict, fresh_turn: bool = False):
        """`fresh_turn`: decide as if the figure were starting a turn of its own now (a foe's reply
        in the look-ahead), with its whole move and its attacks."""
        self.level = level
        self.battle = battle
        self.rs = battle.ruleset
        self.rng = rng
        self.memo = memo                      # the AI's answers kept across decisions (same battle)
        self.me: Figure = battle.figures[figure_id]
        if fresh_turn:
            self.me = self.me.fresh_round()
        self._status: dict = {}
        self._hp: dict = {}
        self._weapons: dict = {}
        self._archers: dict = {}
        self._reaches: dict = {}
        self._charge_limits: dict = {}
        self.status = self.status_of(figure_id)
        self.state = battle.state_of(figure_id)
        self.active = {fid: f for fid, f in battle.figures.items() if battle.able(fid)}
        self.enemies = [f for f in self.active.values() if f.side != self.me.side]
        self.allies = [f for f in self.active.values() if f.side == self.me.side and f.id != self.me.id]
        self.round = battle.round
        self.phase = "all" if fresh_turn else battle.current_phase
        self.declaring = self.phase == "declare"
        # What this ruleset's declaration step takes: moves (d100, spread over the segments) or
        # only announcements (cnc: charges, disengagements, defences) before initiative.
        self.declares = set(self.rs.section("round")["declared"]) if self.declaring else set()
        self.announcing = self.declaring and "move" not in self.declares
        self.positioning = battle.positioning()
        self.engagement = self.positioning.engagement
        self.zone_ft = float(self.rs.section("engagement")["zone_ft"])
        self.diagonal = self.rs.diagonal
        # rows of plain ints, read for every square weighed: made once per map, not per decision
        floors = memo.setdefault("floor rows", {})
        kept = floors.get(id(battle.map))
        if kept is None or kept[0] is not battle.map:
            kept = floors[id(battle.map)] = (battle.map, battle.map.elevation_ft.tolist())
        self._floor = kept[1]
        self._strike_budgets: dict = {}
        self._foe_reaches: list | None = None
        self._attacks: dict = {}
        self.moved = 0.0 if fresh_turn else float(self.status.moved_ft)
        self.move_left = float(self.me.move_ft) if self.declaring or fresh_turn else float(self.status.movement_left_ft)
        self.attack_budget = max(0.0, self.strike_budget(self.me) - (0.0 if self.declaring else self.moved))
        self.turn_actions = [] if fresh_turn else this_turn(battle, figure_id)
        self.attacked = any(a.kind in ("attack", "charge") for a in self.turn_actions)
        self.acted = any(a.kind in ("attack", "charge", "set", "defend", "disengage", "aim") for a in self.turn_actions)
        self.can_attack = not self.declaring and (fresh_turn or self.status.attacks_left > 0)
        self.can_move = ((self.declaring or self.move_left > 0) and not self.state.set_vs_charge
                         and self.phase not in ("missile", "melee"))
        # d100 declarations and bfrpg's movement turn inside a shared number: the blow comes later.
        self.strike_later = self.declaring or self.phase == "movement"
        self.strike_kinds = {"missile": ("ranged",), "melee": ("melee",)}.get(self.phase, ("melee", "ranged"))
        self.routed = "routed" in self.status.conditions
        self.walk_only = False
        self.fresh_turn = fresh_turn
        self._searches: dict = {}
        self._views: dict = {}
        self._odds: dict = {}
        self._breakdowns: dict = {}
        self.cache: dict = {}                 # plan generators and threat keep their own answers here
        if len(self.active) > LOCAL_FROM:
            self.level = level.on_field(len(self.active), LOCAL_FROM)
            self._keep_local()

    def _keep_local(self) -> None:
        """On a big field a decision weighs the figures near it: the nearest foes and friends, and the
        foes with a missile that reaches it this round (nearest first), so a turn's cost does not grow
        with figures far from it (docs/ai.md, Speed). Small battles weigh everyone."""
        me = self.me
        flat = self.flat
        foes = sorted(self.enemies, key=lambda f: (flat(me.pos, f.pos), f.id))
        near, far = foes[:NEAR_FOES], foes[NEAR_FOES:]
        shooters = [f for f in far if self.is_archer(f)
                    and flat(me.pos, f.pos) <= self.long_range_ft(f) + self.strike_budget(f)][:NEAR_SHOOTERS]
        self.enemies = near + shooters
        self.allies = sorted(self.allies, key=lambda f: (flat(me.pos, f.pos), f.id))[:NEAR_FRIENDS]

    @cached_property
    def limits(self):
        """What the figure has left this round (Battle.limits), asked when a plan moves."""
        return self.battle.limits(self.me.id)

    # ----- figures -----
    def status_of(self, fid: str):
        st = self._status.get(fid)
        if st is None:
            st = self._status[fid] = self.battle.status(fid)
        return st

    def hp(self, fig: Figure) -> float:
        got = self._hp.get(fig.id)
        if got is None:         # asked for every blow weighed; it stands still for the decision
            st = self.battle.state_of(fig.id)
            got = self._hp[fig.id] = max(0.5, float(st.hp - st.subdual))
        return got

    def hp_max(self, fig: Figure) -> float:
        return float(max(1, self.battle.state_of(fig.id).max_hp))

    def weapon(self, name: str) -> dict:
        got = self._weapons.get(name)
        if got is None:     # the ruleset's own numbers, asked for every foe of every square weighed
            got = self._weapons[name] = self.battle.weapon(name)
        return got

    def is_archer(self, fig: Figure) -> bool:
        got = self._archers.get(fig.ready_weapon)
        if got is None:
            got = self._archers[fig.ready_weapon] = bool(self.weapon(fig.ready_weapon)["ranged"])
        return got

    def reach_ft(self, fig: Figure, weapon: str | None = None) -> int:
        """How far it strikes in melee (the resolver's reach: a function of the weapon's name)."""
        name = weapon or fig.ready_weapon
        got = self._reaches.get(name)
        if got is None:
            got = self._reaches[name] = self.battle.melee_reach_ft(fig, weapon)
        return got

    def charge_limits(self, fig: Figure) -> tuple[float, float, bool]:
        """The resolver's charge limits for this figure (a mounted charger keeps the mounted ones)."""
        key = (fig.id, fig.move_ft, fig.move_ft.__class__)     # 30 and 30.0 multiply differently
        got = self._charge_limits.get(key)
        if got is None:     # a function of the ruleset, the speed and the mount alone (exact fractions: slow)
            got = self._charge_limits[key] = self.battle.charge_limits(fig)
        return got

    def long_range_ft(self, fig: Figure) -> float:
        bands = self.weapon(fig.ready_weapon)["range_ft"] or [50, 100, 150]
        return float(bands[-1])

    @cached_property
    def figures(self) -> list:
        """The positioning's figures as one list for the decision: the resolver's parting-shot questions
        keep their answers per list (a fresh list each path made them sort the field out again)."""
        return list(self.positioning.figures)

    @cached_property
    def standing(self) -> dict:
        """Who stands on each square (figures still in the fight; built once a decision)."""
        return {f.pos: f.id for f in self.active.values()}

    def floor_ft(self, pos) -> float:
        """The ground's height at a square (read off plain rows: asked for every square weighed)."""
        return float(self._floor[pos[1]][pos[0]])

    def height(self, pos, alt) -> float:
        return float(self._floor[pos[1]][pos[0]]) + alt

    def dist(self, a_pos, a_alt, b_pos, b_alt) -> float:
        floor = self._floor
        return distance_ft(self.diagonal, a_pos, b_pos, float(floor[a_pos[1]][a_pos[0]]) + a_alt,
                           float(floor[b_pos[1]][b_pos[0]]) + b_alt)

    def flat(self, a, b) -> float:
        return grid_distance_ft(self.diagonal, a[0] - b[0], a[1] - b[1])

    def attacks(self, fig: Figure, moved_ft: float = 0.0) -> int:
        """How many attacks the figure makes in a round it walks `moved_ft` first (the resolver's answer)."""
        key = (fig.id, fig.move_ft, moved_ft)
        got = self._attacks.get(key)
        if got is None:
            got = self._attacks[key] = self.battle.attacks_per_round(fig, moved_ft)
        return got

    def foe_reaches(self) -> list:
        """(foe, its melee reach, how far it strikes after moving: strike_budget + reach) for every
        foe, worked out once per decision (asked for each square weighed)."""
        if self._foe_reaches is None:
            self._foe_reaches = [(o, self.reach_ft(o), self.strike_budget(o) + self.reach_ft(o)) for o in self.enemies]
        return self._foe_reaches

    def strike_budget(self, fig: Figure) -> float:
        """How far a figure may walk on its turn and still strike (the resolver's strike_move_ft)."""
        budget = self._strike_budgets.get(fig.move_ft)
        if budget is None:      # a function of the speed alone (asked for every foe, often)
            budget = self._strike_budgets[fig.move_ft] = self.battle.strike_move_ft(fig)
        return budget

    # ----- odds, from the resolver -----
    def view(self, placed: tuple[Figure, ...], key: tuple | None = None):
        """The battle with these figures standing elsewhere (Battle.hypothetical), cached (`key`:
        their spots, when the caller has them already)."""
        if key is None:
            key = tuple([(f.id, f.x, f.y, f.facing, f.altitude_ft) for f in placed])
        got = self._views.get(key)
        if got is None:
            got = self._views[key] = self.battle.hypothetical(*placed)
        return got

    def odds(self, attacker: Figure, target: Figure, weapon: str | None = None, *, placed: tuple[Figure, ...] = (),
             charge: bool = False, set_vs_charge: bool = False, parting_shot: bool = False, after_move: float = 0.0,
             free_attack: bool = False, careful: bool = False, battle=None) -> Odds:
        """The odds of attacker's attack on target with these figures placed (attacker or target among
        them, standing where they say), read from the resolver's Breakdown for that position.
        `after_move`: the feet the attacker walked this round first (the attacks it keeps are the
        resolver's). `careful`: a shot into a melee taking the ruleset's penalty so as never to hit a friend."""
        battle = battle or self.battle
        spots = tuple([(f.id, f.x, f.y, f.facing, f.altitude_ft) for f in placed])
        single = charge or set_vs_charge or parting_shot or free_attack
        attacks = 1 if single else self.attacks(attacker, after_move)
        key = (id(battle), attacker.id, target.id, weapon, spots, charge, set_vs_charge, parting_shot, free_attack, careful,
               attacks)
        got = self._odds.get(key)
        if got is None:
            bkey = key[:-1]      # the breakdown is the same whatever the attacks a move leaves
            bd = self._breakdowns.get(bkey)
            if bd is None:
                source = battle if not placed else (self.view(placed, spots) if battle is self.battle
                                                    else battle.hypothetical(*placed))
                bd = self._breakdowns[bkey] = source.explain_attack(
                    attacker.id, target.id, weapon, charge=charge, set_vs_charge=set_vs_charge, parting_shot=parting_shot,
                    free_attack=free_attack, careful=careful, surprise_round=self.round == 1)
            got = self._odds[key] = Odds.of(battle, bd, attacks)
        return got

    def best_odds(self, attacker: Figure, target: Figure, *, placed=(), after_move: float = 0.0,
                  battle=None) -> Odds | None:
        """The attacker's best allowed attack on target (each of its weapons), or None; `battle`: a view to
        ask instead of the battle (with `placed` already standing in it)."""
        best = None
        hp = self.hp(target)
        gap = self.dist(attacker.pos, attacker.altitude_ft, target.pos, target.altitude_ft)
        for w in dict.fromkeys(attacker.weapons or ("fist",)):
            spec = self.weapon(w)
            far = float((spec["range_ft"] or [50, 100, 150])[-1]) if spec["ranged"] or spec["thrown"] else 0.0
            if gap > max(far, spec["reach_ft"] if not spec["ranged"] else 0, self.zone_ft, 7.5):
                continue            # out of its reach and range: no need to ask
            o = self.odds(attacker, target, None if w == attacker.ready_weapon else w, placed=placed,
                          after_move=after_move, battle=battle)
            if o.allowed and o.breakdown.kind in self.strike_kinds and (
                    best is None or o.expected(hp) > best.expected(hp) + 1e-9):
                best = o
        return best

    # ----- what figures are worth -----
    def threat_rate(self, fig: Figure) -> float:
        """About how much damage this figure deals a round: its best weapon against its nearest foe,
        from a square beside that foe, or for a missile already in range (and out of the foe's melee
        reach) from where it stands (the resolver's odds; cached for the round)."""
        key = ("rate", fig.id, self.round)
        got = self.memo.get(key)
        if got is not None:
            return got
        foes = [f for f in self.active.values() if f.side != fig.side]
        if not foes:
            return 0.0
        foe = min(foes, key=lambda f: (self.flat(fig.pos, f.pos), f.id))
        best = 0.0
        for w in dict.fromkeys(fig.weapons or ("fist",)):
            ranged = self.weapon(w)["ranged"]
            spot = self._square_toward(foe.pos, fig.pos, 4 if ranged else 1)
            if ranged and self.reach_ft(foe) < self.flat(fig.pos, foe.pos) <= self.long_range_ft(fig):
                # In range and out of the foe's melee reach, it shoots from where it stands: its range,
                # the cover between. Held in melee it would step back first: a clear shot then.
                spot = fig.pos
            placed = fig.moved_to(spot[0], spot[1], bearing_octant(spot, foe.pos), 0 if fig.flyer == "none" else fig.altitude_ft)
            bd = self.battle.hypothetical(placed).explain_attack(fig.id, foe.id, None if w == fig.ready_weapon else w)
            odds = Odds.of(self.battle, bd, self.attacks(fig))
            p = odds.p_hit if bd.allowed else _chance_anyway(odds)
            best = max(best, p * odds.mean_damage * odds.attacks)
        if len(self.memo) > 4096:
            self.memo.clear()
        self.memo[key] = best
        return best

    def _square_toward(self, frm, to, squares: int):
        """A square about `squares` steps from frm toward to, on the map (for sizing up a weapon)."""
        bm = self.battle.map
        dx, dy = DIRECTION_DELTAS[bearing_octant(frm, to)]
        best = to
        for k in range(squares, 0, -1):
            x, y = frm[0] + dx * k, frm[1] + dy * k
            if bm.in_bounds(x, y) and not bm.blocks_move[y, x]:
                return (x, y)
        return best

    def value_rate(self, fig: Figure) -> float:
        """Worth of one of this figure's hit points, in rounds of its damage."""
        return self.threat_rate(fig) * HORIZON_ROUNDS / max(self.hp(fig), 1.0)

    def hp_worth(self, fig: Figure) -> float:
        return 0.35 + 0.5 * self.value_rate(fig)

    def damage_value(self, target: Figure, odds: Odds) -> float:
        """Worth of an attack: hit points taken, more from dangerous foes, and the chance to fell it
        (and, for a level that weighs morale, the rout that felling it may bring)."""
        hp = self.hp(target)
        felled = 0.5 * self.threat_rate(target) * HORIZON_ROUNDS
        if self.level.morale:
            rout = self.rout_chance(target)
            if rout:        # what the side is worth is asked of every figure on it: only when a rout may come
                felled += rout * self.side_worth(target.side)
        return odds.expected(hp) * self.hp_worth(target) + odds.p_kill(hp) * felled

    def into_melee_risk(self, bd):
        """The resolver's odds of a shot into a melee striking friends (kept for the decision)."""
        key = ("into melee", bd.attacker, bd.target, bd.weapon, bd.attack_total, bd.friends_in_melee)
        got = self.cache.get(key)
        if got is None:
            got = self.cache[key] = self.battle.into_melee_risk(bd)
        return got

    def rout_chance(self, fig: Figure) -> float:
        """Chance that felling this figure makes its side fail a morale check and flee (the resolver's answer)."""
        key = ("rout", fig.id)
        if key not in self.cache:
            self.cache[key] = self.battle.rout_chance(fig.id)
        return self.cache[key]

    def side_worth(self, side: str) -> float:
        """What a side's figures still standing are worth (their hit points and their blows)."""
        key = ("worth", side)
        if key not in self.cache:
            self.cache[key] = sum(self.hp(f) * self.hp_worth(f) + 0.5 * self.threat_rate(f) * HORIZON_ROUNDS
                                  for f in self.active.values() if f.side == side)
        return self.cache[key]

    # ----- where it may go -----
    def search(self, mode: str, budget: float | None = None, fig: Figure | None = None) -> "Reach | None":
        """One search per mode and budget (`Battle.search`), shared by every plan (None: it may not move so)."""
        fig = fig or self.me
        key = (fig.id, fig.facing, mode, budget)
        if key in self._searches:
            return self._searches[key]
        ceiling = None
        if fig.flyer != "none":
            # The AI plans flights up to FLYER_CEILING_FT above the floor (or 10 ft above where it
            # flies): a search within a lower ceiling finds only paths the resolver accepts.
            ceiling = max(FLYER_CEILING_FT, fig.altitude_ft + 10)
            if fig.flyer == "winged" and budget is not None:
                budget = min(budget, max(WINGED_SEARCH_FT, fig.move_ft / 3 + 5))
        # A search is a function of the map, the ruleset, the figure (every field), the mode, the
        # budget and who stands where: a later decision of the battle asking the same (a figure
        # that struck and decides again, a foe's turn that moved no one near) reuses it, and the
        # paths already traced on it. The map and ruleset are held, so their ids stay theirs.
        searches = self.memo.setdefault("searches", {})
        bm, rs = self.battle.map, self.rs
        # Who stands where, by the figure values themselves (immutable; the entry holds them, so their
        # ids stay theirs): the same objects stand in the same places. Hashing every occupant's
        # fields instead cost more than the searches it saved on a big field.
        standing = tuple(self.positioning.figures)
        same = (id(bm), id(rs), fig, mode, budget, ceiling, tuple(map(id, standing)))
        kept = searches.get(same)
        if kept is not None:
            got = kept[0]
        else:
            try:
                got = Reach(self.battle.search(fig, mode, budget_ft=budget, ceiling_ft=ceiling))
            except RulesError:
                got = None
            if len(searches) >= 64:
                # the oldest goes: emptying the memo at once freed 64 searches (their maps too)
                # inside one decision
                del searches[next(iter(searches))]
            searches[same] = (got, bm, rs, standing)
        self._searches[key] = got
        return got

    def mode_budget(self, mode: str) -> float:
        """Feet a move in this mode may still cost (the resolver's limits; a turn to come: the
        mode's whole allowance)."""
        limit = self.limits.move(mode)
        if self.declaring or self.fresh_turn:
            return limit.budget_ft
        return limit.left_ft if limit.allowed else 0.0

    def mode_ok(self, mode: str) -> bool:
        """The ruleset has the mode for this figure now (jogging, a sidestep at its pace)."""
        return self.limits.move(mode).budget_ft > 0

    def placed(self, spot: Spot, fig: Figure | None = None) -> Figure:
        fig = fig or self.me
        return fig.moved_to(spot[0], spot[1], spot[2], spot[3])

    def ranked_targets(self) -> list[Figure]:
        """Foes in the order worth looking at: near, wounded and dangerous first."""
        me = self.me

        def key(e):
            d = self.dist(me.pos, me.altitude_ft, e.pos, e.altitude_ft)
            return (d / 5 - 3 * (1 - self.hp(e) / self.hp_max(e)) - self.threat_rate(e), e.id)
        return sorted(self.enemies, key=key)

    def with_facing(self, facing: int) -> "Context":
        """The same decision for the figure turned to `facing` first (it may turn freely before moving)."""
        twin = object.__new__(Context)
        twin.__dict__.update(self.__dict__)
        twin.me = replace(self.me, facing=facing)
        twin._searches = {}
        twin.walk_only = True
        return twin


class Reach:
    """A finished planner search: every square it reaches (computed once) and the path to any of them."""

    def __init__(self, result):
        self.result = result
        self.entries = result.entries()

    def path_to(self, target, facing=None, altitude_ft=None):
        return self.result.path_to(target, facing, altitude_ft)

    def stops(self, budget_ft: float, leave=None):
        """(square, entry) of every square the figure may end on within budget_ft, but `leave`
        (the square it stands on, when the plan is to go somewhere)."""
        limit = budget_ft + 1e-9
        for sq, entry in self.entries.items():
            if entry.can_end and entry.cost_ft <= limit and sq != leave:
                yield sq, entry

    def stop(self, sq, budget_ft: float):
        """The entry for ending on this square within budget_ft, or None."""
        entry = self.entries.get(sq)
        return entry if entry is not None and entry.can_end and entry.cost_ft <= budget_ft + 1e-9 else None


FLYER_CEILING_FT = 25     # the AI plans flights up to this far above the floor (or its altitude + 10)


def _chance_anyway(odds: Odds) -> float:
    """The hit chance as if the attack could be made (for sizing up a weapon from a square it can't use)."""
    return odds.breakdown.chance()


def this_turn(battle, figure_id: str) -> list:
    """The figure's actions since the last end of a turn, in order."""
    out = []
    for a in reversed(battle.actions):
        if a.kind == "end-turn":
            break
        if a.figure == figure_id:
            out.append(a)
    return list(reversed(out))
