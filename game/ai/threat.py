"""What the foes are likely to do to a figure where a plan leaves it, before its next turn.

Every number is the resolver's: a melee foe strikes from the square it would come from (a
hypothetical position, `Battle.hypothetical`, so facing, flanks, crowding and high ground count
as the roll would count them), a foe with a legal charge lane (`Positioning.charge_lane` in that
position) charges, an archer shoots through the cover the resolver finds, and parting shots are
the ones `Engagement.parting_shots` names for the path. Damage taken weighs CAUTION of damage
dealt: battles are won by striking.

Exposure comes in two grades. Quick sizes each foe up by what it deals a round (the resolver's
odds from beside its nearest foe, once a round) when it can reach the square: it spares a
Breakdown and a sight line per foe and candidate square. Exact asks the resolver for every blow
from where it would be struck, and takes the plan's stance on a copy of the battle. The best few
plans are re-scored exactly before the choice.
"""
from __future__ import annotations

from ..core.values.geometry import DIRECTION_DELTAS, SQUARE_FT, bearing_octant, combine_vertical_ft
from .context import HORIZON_ROUNDS, Context, Spot
from .decision import Plan

CAUTION = 0.7             # damage taken weighs this much against damage dealt
CLOSING_WEIGHT = 0.3      # a foe that can only close in this round (no attack) still threatens next round
SHARED_WEIGHT = 0.35      # a foe that can strike a friend of mine instead: my standing there costs the side less
ARCHER_STEPS = 4          # squares an archer with no shot from where it stands is thought to step to
CHARGE_LIKELY = 0.8       # a foe with a charge lane onto me does not always take it
CHARGE_QUICK = 1.5        # a charge hits harder than a plain blow (quick grade; exact reads the odds)


def approach_square(frm, to):
    """The square beside `to` on the side `frm` comes from."""
    dx, dy = DIRECTION_DELTAS[bearing_octant(to, frm)]
    return (to[0] + dx, to[1] + dy)


def strike_square(ctx: Context, frm, to, skip=()):
    """The square beside `to` a figure coming from `frm` would strike from: the one on its side, or
    when a wall or another figure holds that one, the free square beside `to` nearest `frm` (a
    figure standing by a wall is still struck from its open sides). None if every side is held."""
    bm = ctx.battle.map
    standing = ctx.standing

    def open_square(sq) -> bool:
        if not bm.in_bounds(*sq) or bm.blocks_move[sq[1], sq[0]]:
            return False
        who = standing.get(sq)
        return who is None or who in skip

    first = approach_square(frm, to)
    if open_square(first):
        return first
    free = [sq for sq in ((to[0] + dx, to[1] + dy) for dx, dy in DIRECTION_DELTAS) if open_square(sq)]
    return min(free, key=lambda sq: (ctx.flat(frm, sq), sq), default=None)


class Threats:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._cache: dict = {}

    # ----- exposure -----
    def exposure(self, end: Spot, *, exact: bool = False, exclude: dict | None = None, set_spear: bool = False,
                 battle=None, sight_lines: bool = True) -> tuple[float, list]:
        """Value lost to foes' likely attacks before my next turn, standing at `end`.

        `battle` is a copy with the plan's stance taken (defend, set); `exclude` maps a foe id to the
        chance it is felled first (the plan's own target)."""
        if not self.ctx.level.foresight:
            return 0.0, []       # a level without foresight does not ask what the foes will do next
        excluded = exclude or {}
        cache = self._cache
        key = (end, exact, tuple(sorted(excluded.items())), set_spear, id(battle))
        got = cache.get(key)
        if got is not None:
            return got
        ctx = self.ctx
        me_there = ctx.placed(end)
        total, parts = 0.0, []
        x, y = me_there.x, me_there.y
        # The quick grade reads where I stand and my height, not my facing: plans ending on one
        # square facing different ways share it.
        square = (x, y, me_there.altitude_ft)
        comers: list = []           # (value, index in parts) of melee foes that must come beside me to strike
        for e, farthest in self._threat_ranges():
            if SQUARE_FT * max(abs(e.x - x), abs(e.y - y)) > farthest:
                continue    # beyond anything foe_threat or charge_threat count (no distance is less than that)
            weight = 1.0 - excluded.get(e.id, 0.0)
            if weight <= 0:
                continue
            precise = exact and (sight_lines or not ctx.is_archer(e))
            fkey = ("foe", e.id, end if precise else square, precise, set_spear, id(battle))
            dmg = cache.get(fkey)
            if dmg is None:
                dmg = self.foe_threat(e, me_there, exact=precise, battle=battle)
                if not set_spear:
                    dmg = max(dmg, self.charge_threat(e, me_there, exact=precise, battle=battle))
                cache[fkey] = dmg
            if dmg <= 0:
                continue
            weight *= self.attention(e, me_there)
            v = dmg * weight * CAUTION
            total += v
            parts.append((e.label, v))
            if not ctx.is_archer(e) and ctx.reach_ft(e) <= SQUARE_FT and max(abs(e.x - x), abs(e.y - y)) > 1:
                comers.append((v, len(parts) - 1))
        total -= self._crowded_out(me_there, comers, parts)
        credit = self.closing_reach_credit(me_there, exclude)
        if credit:
            total -= credit
            parts.append(("reach strikes a closing foe", -credit))
        got = cache[key] = (total, parts)
        return got

    def _crowded_out(self, me_there, comers: list, parts: list) -> float:
        """Foes that must come beside me to strike need a free square each: in a corridor or a corner
        only as many as there are open squares beside me strike this round (the worst of them); the
        rest can only close in (counted at CLOSING_WEIGHT). Returns the value taken off the total."""
        if me_there.big or me_there.altitude_ft or len(comers) < 2:
            return 0.0
        ctx = self.ctx
        bm = ctx.battle.map
        standing = ctx.standing
        room = 0
        for dx, dy in DIRECTION_DELTAS:
            sq = (me_there.x + dx, me_there.y + dy)
            if not bm.in_bounds(*sq) or bm.blocks_move[sq[1], sq[0]]:
                continue
            who = standing.get(sq)
            if who is None or who == ctx.me.id:
                room += 1           # free (a foe already beside me holds its square and is not among the comers)
        if len(comers) <= room:
            return 0.0
        off = 0.0
        for v, i in sorted(comers, reverse=True)[room:]:
            cut = v * (1 - CLOSING_WEIGHT)
            off += cut
            name, old = parts[i]
            parts[i] = (name, old - cut)
        return off

    def _threat_ranges(self) -> list:
        """(foe, the farthest it threatens a figure from): an archer its long range after moving, a foe
        in melee two moves and its reach, or a charge's longest lane; once per decision."""
        got = self._cache.get("threat-ranges")
        if got is None:
            ctx = self.ctx
            got = []
            for e in ctx.enemies:
                if ctx.is_archer(e):
                    farthest = ctx.long_range_ft(e) + ctx.strike_budget(e)
                else:
                    farthest = max(2 * e.move_ft + ctx.reach_ft(e), ctx.charge_limits(e)[1] + 10)
                got.append((e, farthest))
            self._cache["threat-ranges"] = got
        return got

    def out_of_reach(self, move_ft: float) -> bool:
        """No foe weighed can threaten me wherever a move of `move_ft` from here ends (each foe's
        farthest threat, `_threat_ranges`, short of me by more than the move)."""
        me = self.ctx.me
        flat = self.ctx.flat
        return all(flat(e.pos, me.pos) > farthest + move_ft for e, farthest in self._threat_ranges())

    def attention(self, e, me_there) -> float:
        """How much of foe e's blows at me at me_there my side loses because I stand there. A foe that
        can reach a friend of mine too strikes one of us anyway: standing there mostly moves its blow
        from a friend to me (and spreads the blows over us), so it counts SHARED_WEIGHT. A foe that can
        reach only me strikes because I came: it counts in full. So a figure alone ahead of its friends
        draws every foe, and one beside its friends (or staying in their fight) costs the side little."""
        ctx = self.ctx
        key = ("attention", e.id)
        got = self._cache.get(key)
        if got is None:
            reach = ctx.long_range_ft(e) if ctx.is_archer(e) else ctx.strike_budget(e) + ctx.reach_ft(e)
            shared = any(ctx.flat(e.pos, a.pos) <= reach for a in ctx.allies)
            got = self._cache[key] = SHARED_WEIGHT if shared else 1.0
        return got

    def loss(self, odds) -> float:
        """What a blow with these odds would cost me: hit points, and my whole worth if it fells me."""
        return self.ctx.damage_value(self.ctx.me, odds)

    def quick_loss(self, damage: float) -> float:
        """The same, sized up from the damage a foe deals a round (no Breakdown asked)."""
        ctx = self.ctx
        rate = ctx.threat_rate(ctx.me)
        # Kept per damage (a foe's rate, asked for every square weighed) and my rate, the one input
        # besides my hit points, which stand still for the decision.
        key = ("quick loss", damage, rate)
        got = self._cache.get(key)
        if got is None:
            hp = ctx.hp(ctx.me)
            fell = min(1.0, damage / hp) ** 2
            got = self._cache[key] = min(hp, damage) * ctx.hp_worth(ctx.me) + fell * 0.5 * rate * HORIZON_ROUNDS
        return got

    def foe_threat(self, e, me_there, *, exact: bool = False, battle=None) -> float:
        """What foe e could cost me at me_there before my next turn (value, not yet weighed by CAUTION)."""
        ctx = self.ctx
        if ctx.is_archer(e):
            if ctx.dist(e.pos, e.altitude_ft, me_there.pos, me_there.altitude_ft) > ctx.long_range_ft(e) + ctx.strike_budget(e):
                return 0.0
            if not exact:
                # Sized up without a sight line: what it deals a round (the best plans are re-scored exactly).
                return self.quick_loss(ctx.threat_rate(e))
            odds = ctx.odds(e, me_there, placed=(me_there,), battle=battle)
            if not odds.allowed:
                odds = self._shot_after_a_step(e, me_there, battle)
            return self.loss(odds) if odds is not None and odds.allowed else 0.0
        reach = ctx.reach_ft(e)
        horiz = ctx.flat(me_there.pos, e.pos)
        dz = 0 if e.flyer != "none" else ctx.height(me_there.pos, me_there.altitude_ft) - ctx.height(e.pos, e.altitude_ft)
        diag = ctx.rs.diagonal
        scale = 1.0
        if combine_vertical_ft(diag, max(0.0, horiz - ctx.strike_budget(e)), dz) > reach:
            if combine_vertical_ft(diag, max(0.0, horiz - e.move_ft * 2), dz) > reach:
                return 0.0
            scale = CLOSING_WEIGHT
        if not exact:
            return self.quick_loss(ctx.threat_rate(e)) * scale
        # It strikes from the side it comes from (the nearest open side if a wall or a figure holds that one), facing me.
        src = e.pos if horiz <= reach else (strike_square(ctx, e.pos, me_there.pos, (ctx.me.id, e.id)) or e.pos)
        mover = e.moved_to(src[0], src[1], bearing_octant(src, me_there.pos)) if src != e.pos else e
        walked = ctx.flat(e.pos, src)
        odds = ctx.odds(mover, me_there, placed=(me_there, mover) if mover is not e else (me_there,),
                        after_move=walked if walked <= ctx.strike_budget(e) else 0.0, battle=battle)
        # Out of reach from there (a wall, a ledge) it may still find a way: count it, a little less.
        got = self.loss(odds) if odds.allowed else self.quick_loss(0.5 * odds.breakdown.chance() * odds.mean_damage)
        return got * scale

    def _shot_after_a_step(self, e, me_there, battle=None):
        """An archer with no shot from where it stands (a wall, a figure in the line, a foe at its
        elbow) steps first where the ruleset lets it move and still shoot: the resolver's odds from
        the first few squares its walk reaches, nearest its mark first (not beside the mark). None
        when none of them has a shot."""
        ctx = self.ctx
        if e.big or e.flyer != "none" or ctx.strike_budget(e) < SQUARE_FT:
            return None
        budget = ctx.strike_budget(e)
        search = ctx.search("walk", budget=budget, fig=e)
        if search is None:
            return None
        squares = sorted((ctx.flat(sq, me_there.pos), entry.cost_ft, sq)
                         for sq, entry in search.stops(budget, leave=e.pos)
                         if ctx.flat(sq, me_there.pos) > SQUARE_FT
                         and ctx.flat(sq, me_there.pos) <= ctx.long_range_ft(e))
        for _d, cost, sq in squares[:ARCHER_STEPS]:
            there = e.moved_to(sq[0], sq[1], bearing_octant(sq, me_there.pos))
            odds = ctx.odds(there, me_there, placed=(me_there, there), after_move=cost, battle=battle)
            if odds.allowed:
                return odds
        return None

    def lane_onto(self, e, me_there, battle=None):
        """Foe e's legal charge lane onto me standing at me_there (it may face me first where the
        ruleset lets a figure turn freely before it moves), or None."""
        ctx = self.ctx
        if ctx.is_archer(e) or not self._lane_may_open(e, me_there):
            return None
        if ctx.rs.section("facing")["stationary_turns_free"]:
            e = e.moved_to(e.x, e.y, bearing_octant(e.pos, me_there.pos))
        key = ("lane", e.id, e.facing, me_there.pos, me_there.altitude_ft, id(battle))
        if key not in self._cache:
            view = (battle or ctx.battle).hypothetical(me_there, e)
            got = view.positioning().charge_lane(e.id, ctx.me.id)
            self._cache[key] = got if got.legal and got.squares else None
        return self._cache[key]

    def charge_threat(self, e, me_there, *, exact: bool = False, battle=None) -> float:
        """Expected damage of foe e charging me at me_there, if it has a legal lane (0 if not)."""
        ctx = self.ctx
        if not exact:
            if not self._lane_likely(e, me_there):
                return 0.0
            return self.quick_loss(ctx.threat_rate(e) * CHARGE_QUICK) * CHARGE_LIKELY
        lane = self.lane_onto(e, me_there, battle)
        if lane is None:
            return 0.0
        end = lane.squares[-1]
        charger = e.moved_to(end[0], end[1], bearing_octant(e.pos, me_there.pos))
        odds = ctx.odds(charger, me_there, placed=(me_there, charger), charge=True, battle=battle)
        return self.loss(odds) * CHARGE_LIKELY if odds.allowed else 0.0

    def _lane_likely(self, e, me_there) -> bool:
        """The quick grade's guess at a charge lane: not an archer's, not shorter than its least
        charge (the resolver's limits, measured on open ground), and the resolver's pre-filter."""
        ctx = self.ctx
        if ctx.is_archer(e) or ctx.flat(me_there.pos, e.pos) < ctx.charge_limits(e)[0]:
            return False
        return self._lane_may_open(e, me_there)

    def _lane_may_open(self, e, me_there) -> bool:
        """The resolver's pre-filter (Battle.charge_lane_may_open): False only where no lane can be."""
        key = ("lane may open", e.id, me_there.pos)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self.ctx.battle.charge_lane_may_open(e, me_there)
        return got

    def closing_reach_credit(self, me_there, exclude) -> float:
        """A foe coming at me next round walks into my reach: where the resolver says my longer
        reach strikes it first (bfrpg, ch17: `Battle.strikes_closing_foe`), half that blow's worth."""
        ctx = self.ctx
        if not ctx.battle.reach_strikes_closing_foes or ctx.is_archer(me_there) or ctx.reach_ft(me_there) <= ctx.zone_ft:
            return 0.0
        mine = ctx.reach_ft(me_there)
        best = 0.0
        for e in ctx.enemies:
            # A foe whose reach is as long as mine strikes from its own reach: it does not walk into mine.
            if (exclude or {}).get(e.id, 0.0) >= 1 or ctx.is_archer(e) or ctx.reach_ft(e) >= mine:
                continue
            d = ctx.flat(me_there.pos, e.pos)
            if d > ctx.strike_budget(e) + ctx.reach_ft(e):
                continue
            src = strike_square(ctx, e.pos, me_there.pos, (ctx.me.id, e.id))
            if src is None:
                continue
            e_there = e.moved_to(src[0], src[1], bearing_octant(src, me_there.pos))
            if not ctx.battle.strikes_closing_foe(me_there, e_there, e, next_round=True):
                continue
            odds = ctx.odds(me_there, e_there, placed=(me_there, e_there))
            best = max(best, 0.5 * ctx.damage_value(e, odds) if odds.allowed else 0.0)
        return best

    # ----- reach weapons striking a figure that closes in -----
    def closing_cost(self, end: Spot, plan: Plan, only=None) -> float:
        """Value lost to foes whose longer reach strikes me as I close into it (bfrpg, ch17: on my
        number, before my own blow). Which foes strike is the resolver's own test for the move
        (`may_strike_closing_foe`, me where the plan ends against me where I stand); `only`: the one foe
        that may (a charge's target)."""
        ctx = self.ctx
        if not ctx.battle.reach_strikes_closing_foes or (end[0], end[1]) == ctx.me.pos:
            return 0.0
        me_there = ctx.placed(end)
        total = 0.0
        for e in ctx.enemies:
            if (only is not None and e.id != only) or ctx.reach_ft(e) <= ctx.zone_ft:
                continue
            if not ctx.battle.strikes_closing_foe(e, me_there, ctx.me):
                continue
            odds = ctx.odds(e, me_there, placed=(me_there,))
            if not odds.allowed:
                continue
            v = self.loss(odds)          # it surely comes, on my own number
            plan.add(f"{e.label}'s {e.ready_weapon} strikes first as it closes", -v)
            total += v
        return total

    # ----- parting shots along a path -----
    def parting_cost(self, steps, mode: str, plan: Plan, shots=None) -> float:
        """Value lost to the parting shots the path draws (the resolver's Engagement names them;
        `shots` when a preview already did)."""
        ctx = self.ctx
        if len(steps) < 2:
            return 0.0
        figures = ctx.figures
        eng = ctx.engagement
        if shots is None and eng.draws_no_parting_shots(ctx.me, mode, figures):
            shots, stretches = [], False    # the path and every stretch of it draw none
        else:
            shots, stretches = list(shots) if shots is not None else eng.parting_shots(ctx.me, steps, mode, figures), True
        if stretches and ctx.rs.section("round")["segments"] and len(steps) > 2:
            # d100: a declared move unfolds segment by segment and each stretch is judged on its own,
            # so leaving melee halfway draws the free attack even if the end re-engages.
            seen = {s.attacker_id for s in shots}
            for stretch in eng.stretch_parting_shots(ctx.me, steps, mode, figures):
                for shot in stretch:
                    if shot.attacker_id not in seen:
                        seen.add(shot.attacker_id)
                        shots.append(shot)
        total, standing = 0.0, 1.0
        for shot in shots:
            foe = ctx.active.get(shot.attacker_id)
            if foe is None:
                continue
            st = steps[shot.step_index]
            turned = steps[min(shot.step_index + 1, len(steps) - 1)].facing
            me_there = ctx.me.moved_to(st.x, st.y, turned, st.altitude_ft)
            weapon = None if not ctx.is_archer(foe) else ctx.battle.melee_weapon(foe)
            odds = ctx.odds(foe, me_there, weapon, placed=(me_there,), parting_shot=True)
            # a parting shot comes (odnd: if the foe's retreat roll reaches mine): no CAUTION discount
            comes = ctx.battle.free_attack_chance(ctx.me.id, foe.id)
            v = self.loss(odds) * comes
            plan.add(f"parting shot from {foe.label} {shot.bonus:+d}", -v)
            total += v
            standing *= 1.0 - odds.p_kill(ctx.hp(ctx.me)) * comes
        plan.data["parting_shots"] = len(shots)
        return total + self._blow_lost_on_the_way(plan, 1.0 - standing)

    def _blow_lost_on_the_way(self, plan: Plan, felled: float) -> float:
        """A figure felled by a parting shot on its way never strikes the blow its plan moved for:
        that blow's worth times the chance (the shot's own cost, hit points and the figure's
        worth, is counted above; this is what the move was for)."""
        ctx = self.ctx
        odds, target = plan.data.get("odds"), ctx.active.get(plan.data.get("target"))
        if felled < 0.005 or odds is None or target is None:
            return 0.0
        lost = felled * ctx.damage_value(target, odds)
        plan.data["felled_on_the_way"] = felled
        plan.add(f"{felled:.0%} to fall to the parting shots before it strikes {target.label}", -lost)
        return lost


def add_exposure(plan: Plan, v: float, parts) -> None:
    """Put a plan's exposure among its reasons (and keep the number for re-scoring)."""
    plan.data["exposure"] = v
    plan.data["exposure_parts"] = parts
    if v:
        foes = [p for p in parts if p[1] > 0]
        worst = max(foes, key=lambda p: p[1])[0] if foes else ""
        plan.add(f"exposed to {len(foes)} foe(s)" + (f", most {worst}" if worst else ""), -v)
