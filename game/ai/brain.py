"""The AI opponent: picks each action of a figure's turn by weighing candidate plans.

A plan is the rest of a figure's turn (move then attack, charge, set, withdraw, shoot from
cover, ...). Every plan gets a score in "hit points gained for my side" with the named
reasons that make it up, e.g. ("flank +1", 0.4) or ("parting shot from gob1 +2", -1.7).
The best plan's first action is returned; the rest is remembered so the turn continues
without searching again. Nothing here changes the battle: candidates are planned with the
battle's own Positioning (the planner a player uses), judged with the rules model
(game.ai.model) and, where the resolver can, with Battle.explain_attack.

Difficulty: "easy" looks at fewer squares, adds noise and never looks ahead; "normal" weighs
every kind of plan; "hard" also plays out the likely replies of each enemy (one ply) for the
best plans: where each foe could strike from (its real reach), and whether it can charge.
"""
from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field, replace

from ..core.actions import Action, Attack, Charge, Defend, Disengage, EndTurn, Move, SetAgainstCharge, Turn
from ..core.moves.charge import charge_lane
from ..core.errors import RulesError
from ..core.figure import Figure
from ..core.geometry import FACINGS, bearing_octant, combine_vertical_ft, grid_distance_ft, relative_arc, turn_octants
from . import compat
from .model import Estimate, Model, fraction

DIFFICULTIES = ("easy", "normal", "hard")

# How many candidate squares each kind of plan keeps after the cheap first sort.
_LIMITS = {
    "easy": {"targets": 2, "attack_squares": 1, "approach": 3, "shoot": 3, "withdraw": 2, "noise": 1.2, "lookahead": 0},
    "normal": {"targets": 4, "attack_squares": 3, "approach": 6, "shoot": 6, "withdraw": 4, "noise": 0.0, "lookahead": 0},
    "hard": {"targets": 5, "attack_squares": 4, "approach": 8, "shoot": 8, "withdraw": 5, "noise": 0.0, "lookahead": 6},
}
MAX_CHECKS = 16          # plans offered to Battle.check before settling for ending the turn
HORIZON_ROUNDS = 3.0      # how many rounds a foe left standing keeps hurting us
FUTURE_DISCOUNT = 0.5     # an attack next round is worth this much of one now
REPLY_SEARCHES = 3        # hard: foes whose replies are found with their real reach (the rest: by distance)
PRESSURE_FROM, PRESSURE_EVERY, PRESSURE_MAX = 3, 3.0, 5.0   # "closing in" weighs x1 until round 3, then grows
APPROACH_PRESORT = 80     # squares that get the full approach heuristic after a cheap sort
TEMPO = 0.25              # striking now rather than waiting: breaks even trades, so battles end
CAUTION = 0.7             # damage taken weighs this much against damage dealt: battles are won by striking
CLOSING_WEIGHT = 0.3      # a foe that can only close in this round (no attack) still threatens next round


@dataclass
class Plan:
    actions: tuple[Action, ...]
    label: str
    score: float = 0.0
    reasons: list = field(default_factory=list)   # (name, value)
    end: tuple | None = None                       # (x, y, facing, altitude) where the figure ends
    kind: str = ""
    data: dict = field(default_factory=dict)

    def add(self, name: str, v: float) -> None:
        if abs(v) >= 0.005:
            self.reasons.append((name, round(v, 2)))
        self.score += v

    def to_json(self) -> dict:
        return {"label": self.label, "score": round(self.score, 3), "actions": [a.to_json() for a in self.actions],
                "reasons": [[n, v] for n, v in self.reasons]}


@dataclass
class Decision:
    """What the AI weighed for one choice, best first; the GM view reads it."""

    figure: str
    round: int
    difficulty: str
    plans: list[Plan]
    elapsed_ms: float = 0.0
    chosen: int = 0

    @property
    def options(self) -> list[tuple[Action, float, list]]:
        """(first action, score, [(reason, value), ...]) for every plan, best first.

        On "hard" the first few were re-scored with the foes' likely replies and stay first."""
        return [(p.actions[0], round(p.score, 3), list(p.reasons)) for p in self.plans]

    @property
    def best(self) -> Plan:
        return self.plans[self.chosen]

    @property
    def action(self) -> Action:
        return self.best.actions[0]

    def explain(self, limit: int = 5) -> str:
        lines = [f"{self.figure} (round {self.round}, {self.difficulty}, {self.elapsed_ms:.0f} ms):"]
        for i, p in enumerate(self.plans[:limit]):
            mark = "*" if i == self.chosen else " "
            why = ", ".join(f"{n} {v:+.2f}" for n, v in p.reasons)
            lines.append(f" {mark} {p.score:+7.2f}  {p.label}  [{why}]")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"figure": self.figure, "round": self.round, "difficulty": self.difficulty,
                "elapsed_ms": round(self.elapsed_ms, 1), "chosen": self.chosen,
                "plans": [p.to_json() for p in self.plans]}


def _lane_steps(fig: Figure, squares, heading: int):
    """Planner steps along a charge lane (enough for Engagement.parting_shots)."""
    from ..core.moves.path import Step
    steps = [Step(fig.x, fig.y, fig.facing, fig.altitude_ft, 0, 0, "start", "", "")]
    for i, (x, y) in enumerate(squares, start=1):
        steps.append(Step(x, y, heading, fig.altitude_ft, 5, 5 * i, "step", "", ""))
    return steps


def _last(battle):
    return battle.actions[-1] if battle.actions else None


def _this_turn(battle, figure_id: str) -> list:
    out = []
    for a in reversed(battle.actions):
        if a.kind == "end-turn":
            break
        if a.figure == figure_id:
            out.append(a)
    return out


def stable_seed(*parts) -> int:
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class AI:
    """Plays figures of any side. `choose(battle, figure_id) -> Action`; `last_decision` explains."""

    def __init__(self, difficulty: str = "normal", seed: int | None = None):
        if difficulty not in DIFFICULTIES:
            raise RulesError(f"unknown AI difficulty {difficulty!r}: use one of {', '.join(DIFFICULTIES)}")
        self.difficulty = difficulty
        self.limits = _LIMITS[difficulty]
        self.seed = seed
        self.last_decision: Decision | None = None
        self.decisions: dict[str, Decision] = {}
        self._pending: dict | None = None       # the rest of the plan being played
        self._reach_cache: dict = {}

    # ----- the controller door -----
    def choose(self, battle, figure_id: str) -> Action:
        """The next action for this figure. Works on the live battle or on a private copy of it:
        the plan in progress is recognised by the battle's seed and action log, not its identity."""
        n = len(battle.actions)
        pend = self._pending
        if pend and pend["figure"] == figure_id and pend["seed"] == compat.battle_seed(battle):
            if pend["at"] == n and pend.get("given") is not None and _last(battle) == pend["last"]:
                # The action we gave was refused (nothing changed): take the next plan.
                return self._next_after_refusal(battle, figure_id)
            if pend["at"] + 1 == n and _last(battle) == pend.get("given") and pend["rest"]:
                nxt = pend["rest"][0]
                if self._still_good(battle, figure_id, nxt):
                    pend.update(at=n, given=nxt, rest=pend["rest"][1:], last=_last(battle))
                    return nxt
        decision = self.decide(battle, figure_id)
        return self._give(battle, figure_id, decision, 0)

    def _give(self, battle, figure_id, decision: Decision, index: int) -> Action:
        """The first plan from `index` on whose first action the resolver accepts (Battle.check)."""
        tried = 0
        done = _this_turn(battle, figure_id)
        for i in range(index, len(decision.plans)):
            plan = decision.plans[i]
            action = plan.actions[0]
            if action.kind in ("move", "turn", "set", "defend", "disengage", "aim", "charge") and action in done:
                plan.data["refused"] = "already done this turn"
                continue
            if action.kind != "end-turn":
                if tried >= MAX_CHECKS:
                    continue
                tried += 1
                why = compat.check(battle, action)
                if why is not None:
                    plan.data["refused"] = why
                    if action.kind == "attack" and battle.current_phase in ("movement", "missile") and i == index:
                        # The strike it moved in for comes in a later phase of this number: wait for it.
                        wait = Plan((EndTurn(figure=figure_id),), f"wait for the attack phase ({why})", kind="wait",
                                    score=plan.score, reasons=list(plan.reasons))
                        decision.plans.insert(i + 1, wait)
                        decision.chosen = i + 1
                        self._pending = None
                        return wait.actions[0]
                    continue
            decision.chosen = i
            self._pending = {"figure": figure_id, "seed": compat.battle_seed(battle), "at": len(battle.actions),
                             "last": _last(battle), "given": action, "rest": list(plan.actions[1:]),
                             "decision": decision}
            return action
        self._pending = None
        end = next((k for k, p in enumerate(decision.plans) if p.actions[0].kind == "end-turn"), None)
        if end is not None:
            decision.chosen = end
        return EndTurn(figure=figure_id)

    def _next_after_refusal(self, battle, figure_id) -> Action:
        pend = self._pending
        decision: Decision = pend["decision"]
        refused = pend["given"]
        decision.plans[decision.chosen].data["refused"] = "refused when applied"
        nxt = decision.chosen + 1
        while nxt < len(decision.plans) and decision.plans[nxt].actions[0] == refused:
            nxt += 1
        if nxt >= len(decision.plans):
            self._pending = None
            return EndTurn(figure=figure_id)
        return self._give(battle, figure_id, decision, nxt)

    def _still_good(self, battle, figure_id, action: Action) -> bool:
        if action.kind == "end-turn":
            # More attacks to make (several attacks a round): think again rather than stop.
            st = compat.status(battle, figure_id)
            return not (st.attacks_left and self._pending and self._pending["given"].kind == "attack")
        if action.kind == "attack":
            return compat.status(battle, action.target).active and compat.check(battle, action) is None
        return False

    # ----- deciding -----
    def decide(self, battle, figure_id: str) -> Decision:
        t0 = time.perf_counter()
        ctx = _Turn(self, battle, figure_id)
        plans = ctx.plans()
        for plan in plans:
            if self.limits["noise"]:
                plan.add("noise (easy)", ctx.rng.gauss(0, self.limits["noise"]))
        plans.sort(key=lambda p: (-p.score, p.label))
        if self.limits["lookahead"]:
            # Re-rank the best few by their likely replies; they stay ahead of the plans that were
            # not looked at (a deeper, more pessimistic score must not promote unexamined plans).
            top, rest = plans[: self.limits["lookahead"]], plans[self.limits["lookahead"]:]
            ctx.lookahead(top)
            top.sort(key=lambda p: (-p.score, p.label))
            plans = top + rest
        decision = Decision(figure_id, compat.round_number(battle), self.difficulty, plans,
                            (time.perf_counter() - t0) * 1000)
        self.last_decision = decision
        self.decisions[figure_id] = decision
        return decision


class _Turn:
    """Everything about one figure's decision: the state, caches and the plan generators."""

    def __init__(self, ai: AI, battle, figure_id: str):
        self.ai = ai
        self.limits = ai.limits
        self.battle = battle
        self.m = Model(battle)
        self.rs = battle.ruleset
        self.me: Figure = battle.figures[figure_id]
        self.st = self.m.status(figure_id)
        seed = ai.seed if ai.seed is not None else compat.battle_seed(battle)
        self.rng = random.Random(stable_seed(seed, figure_id, len(battle.actions), ai.difficulty))
        self.pos = self.m.positioning
        self.planner = self.pos.planner
        self.enemies = [f for f in self.m.active.values() if f.side != self.me.side]
        self.allies = [f for f in self.m.active.values() if f.side == self.me.side and f.id != self.me.id]
        mv = self.rs.section("movement")
        self.phase = compat.phase(battle)
        self.declaring = self.phase == "declare"
        self.attack_fraction = fraction(mv.get("attack_move_fraction", "1"))
        self.free_step = float(mv.get("free_step_ft", 0) or 0)
        self.moved = self.st.moved_ft
        if self.declaring:
            self.move_left = float(self.me.move_ft)
        elif self.st.movement_left_ft is not None:
            self.move_left = self.st.movement_left_ft
        else:
            self.move_left = max(0.0, self.me.move_ft - self.moved)
        self.attack_budget = max(0.0, self.me.move_ft * self.attack_fraction + self.free_step - (0 if self.declaring else self.moved))
        self.turn_actions = self._turn_actions()
        self.attacked = any(a.kind in ("attack", "charge") for a in self.turn_actions)
        self.acted = any(a.kind in ("attack", "charge", "set", "defend", "disengage", "aim") for a in self.turn_actions)
        if self.declaring:
            self.can_attack = False
        elif self.st.attacks_left is not None:
            self.can_attack = self.st.attacks_left > 0
        else:
            self.can_attack = not self.attacked
        self.can_move = (self.declaring or self.move_left > 0) and "set" not in self.st.conditions \
            and not (self.attacked and not self.rs.section("round").get("move_after_attack", False))
        self.my_value = self._value_rate(self.me)
        # The longer a battle goes, the more closing in is worth: stand-offs do not last.
        self.pressure = min(PRESSURE_MAX, 1 + max(0, compat.round_number(battle) - PRESSURE_FROM) / PRESSURE_EVERY)
        self._searches: dict = {}
        self._exposure_cache: dict = {}
        self.walk_only = False

    def _turn_actions(self) -> list[Action]:
        out = []
        for a in reversed(self.battle.actions):
            if a.kind == "end-turn":
                break
            if a.figure == self.me.id:
                out.append(a)
        return list(reversed(out))

    # ----- values -----
    def _value_rate(self, fig: Figure) -> float:
        """Worth of one hit point of this figure: how much it hurts per round over its hit points."""
        return self.m.threat_rate(fig) * HORIZON_ROUNDS / max(self.m.hp(fig), 1.0)

    def damage_value(self, target: Figure, est: Estimate) -> float:
        rate = self.m.threat_rate(target) * HORIZON_ROUNDS
        hp = max(self.m.hp(target), 1.0)
        return est.expected * (0.35 + 0.5 * rate / hp) + est.p_kill * 0.5 * rate

    def ff_value(self, est: Estimate, friends) -> float:
        if not est.friendly_fire or not friends:
            return 0.0
        f = friends[0]
        return est.friendly_fire * (0.35 + 0.5 * self._value_rate(f))

    # ----- searches -----
    def search(self, mode: str, fig: Figure | None = None, budget: float | None = None):
        fig = fig or self.me
        key = (fig.id, mode, budget)
        got = self._searches.get(key)
        if got is None:
            occupants = self.pos.occupants(fig.id)
            occupants = {p: f for p, f in occupants.items() if f.id in self.m.active}
            planner = self.planner if fig.flyer == "none" else _flyer_planner(self.planner, fig)
            if fig.flyer == "winged" and budget is not None:
                budget = min(budget, max(WINGED_SEARCH_FT, fig.move_ft / 3 + 5))
            try:
                got = planner.search(fig, mode, occupants, budget_ft=budget)
            except RulesError:
                got = None
            if got is not None:
                _cache_entries(got)
            self._searches[key] = got
        return got

    def reach(self, mode: str, budget: float | None = None) -> dict:
        res = self.search(mode, budget=budget)
        return res.entries() if res is not None else {}

    def mode_budget(self, mode: str) -> float:
        """Feet left for a move in this mode (the walk budget is the resolver's own count)."""
        try:
            full = self.planner.params(self.me, mode).budget_ft
        except RulesError:
            return 0.0
        if self.declaring:
            return full
        if mode == "walk":
            return self.move_left
        return max(0.0, full - self.moved)

    def mode_ok(self, mode: str) -> bool:
        mv = self.rs.section("movement")
        if mode == "jog":
            return bool(mv.get("jog_multiplier"))
        if mode == "sidestep":
            return bool(mv.get("sidestep")) and not self.me.running
        return True

    # ----- exposure: what the foes do to me where I end -----
    def exposure(self, at: tuple, *, ac_bonus: int = 0, exclude: dict | None = None, set_spear: bool = False,
                 charge_ac: int = 0) -> tuple[float, list]:
        """Value lost to foes' likely attacks before my next turn, standing at `at` = (x, y, facing, alt)."""
        key = (at, ac_bonus, tuple(sorted((exclude or {}).items())), set_spear, charge_ac)
        got = self._exposure_cache.get(key)
        if got is not None:
            return got
        x, y, facing, alt = at
        me_there = replace(self.me, x=x, y=y, facing=facing, altitude_ft=alt)
        others = dict(self.m.active)
        others[self.me.id] = me_there
        total, parts = 0.0, []
        for e in self.enemies:
            weight = 1.0 - (exclude or {}).get(e.id, 0.0)
            if weight <= 0:
                continue
            dmg = self._foe_threat(e, me_there, others, ac_bonus + charge_ac)
            if not set_spear:
                charge = self._charge_threat(e, me_there, others, ac_bonus + charge_ac)
                if charge > dmg:
                    dmg = charge
            if dmg <= 0:
                continue
            busy = any(self.m.dist(a.pos, a.altitude_ft, e.pos, e.altitude_ft) <= self.m.reach_ft(e) for a in self.allies)
            if busy and not self.m.is_archer(e):
                weight *= 0.6
            v = dmg * weight * (0.35 + 0.5 * self.my_value) * CAUTION
            total += v
            parts.append((e.label, v))
        credit = self._closing_reach_credit(me_there, others, exclude)
        if credit:
            total -= credit
            parts.append(("reach strikes a closing foe", -credit))
        got = (total, parts)
        self._exposure_cache[key] = got
        return got

    def _closing_reach_credit(self, me_there: Figure, others: dict, exclude) -> float:
        """bfrpg/ch17: a longer-reach weapon strikes a foe closing into its reach first."""
        m = self.m
        if not self.rs.section("round").get("reach_attacks_closing_foe"):
            return 0.0
        mine = m.reach_ft(me_there)
        if mine <= 5 or m.is_archer(me_there):
            return 0.0
        best = 0.0
        for e in self.enemies:
            if (exclude or {}).get(e.id, 0.0) >= 1 or m.is_archer(e) or m.reach_ft(e) >= mine:
                continue
            d = grid_distance_ft(m.diag, me_there.x - e.x, me_there.y - e.y)
            if d <= mine or d > e.move_ft * self.attack_fraction + m.reach_ft(e):
                continue
            src = self._approach_square(e.pos, me_there.pos)
            e_there = replace(e, x=src[0], y=src[1])
            est = m.estimate(me_there, e_there, others=others, check_reach=False, quick=True)
            if est.possible:
                best = max(best, 0.5 * self.damage_value(e, est))
        return best

    def _foe_threat(self, e: Figure, me_there: Figure, others: dict, ac_bonus: int) -> float:
        """Expected damage foe e could do to me at me_there next round (cheap: distances, not paths)."""
        m = self.m
        if m.is_archer(e):
            est = m.estimate(e, me_there, others=others, defender_ac_bonus=ac_bonus)
            return est.expected if est.possible else 0.0
        reach = m.reach_ft(e)
        horiz = grid_distance_ft(m.diag, me_there.x - e.x, me_there.y - e.y)
        dz = m.height(me_there.pos, me_there.altitude_ft) - m.height(e.pos, e.altitude_ft)
        if e.flyer != "none":
            dz = 0
        budget = e.move_ft * self.attack_fraction
        gap = combine_vertical_ft(m.diag, max(0.0, horiz - budget), dz)
        scale = 1.0
        if gap > reach:
            if combine_vertical_ft(m.diag, max(0.0, horiz - e.move_ft * 2), dz) > reach:
                return 0.0
            scale = CLOSING_WEIGHT
        # It strikes from the side it comes from.
        if horiz <= reach:
            src = e.pos
        else:
            src = self._approach_square(e.pos, me_there.pos)
        mover = replace(e, x=src[0], y=src[1]) if src != e.pos else e
        est = m.estimate(mover, me_there, others=others, check_reach=False, defender_ac_bonus=ac_bonus,
                         after_move=src != e.pos, quick=True)
        return est.expected * scale if est.possible else 0.0

    def _charge_threat(self, e: Figure, me_there: Figure, others: dict, ac_bonus: int) -> float:
        """Expected damage of foe e charging me at me_there, if it has a legal lane (0 if not)."""
        m = self.m
        ch = self.rs.section("charge")
        if not ch.get("allowed") or m.is_archer(e):
            return 0.0
        if ch.get("requires_charge_weapon") and not m.weapon(e.ready_weapon).get("charge"):
            return 0.0
        from ..core.moves.charge import charge_limits
        least, most, _ = charge_limits(self.rs, e)
        d = grid_distance_ft(m.diag, me_there.x - e.x, me_there.y - e.y)
        if d > most + 10 or d < least:
            return 0.0
        if self.rs.section("facing").get("stationary_turns_free", True):
            # On its own turn the foe may turn where it stands, then charge straight at me.
            e = replace(e, facing=bearing_octant(e.pos, me_there.pos))
        elif e.flyer != "incorporeal":
            # A charger runs straight ahead: the lane must lie within 45 degrees of its facing.
            import math
            ang = math.degrees(math.atan2(me_there.x - e.x, -(me_there.y - e.y))) % 360
            if abs((ang - e.facing * 45 + 180) % 360 - 180) > 45 + 1e-6:
                return 0.0
        key = ("charge", e.id, e.facing, me_there.pos, me_there.altitude_ft)
        lane = self._exposure_cache.get(key)
        if lane is None and not self._open_line(e, me_there, others):
            lane = self._exposure_cache[key] = False
        if lane is None:
            occupants = {f.pos: f for f in others.values() if f.id != e.id}
            try:
                lane = charge_lane(self.planner, m.sight_map, e, me_there, occupants)
            except Exception:
                lane = False
            self._exposure_cache[key] = lane
        if not lane or not lane.legal or not lane.squares:
            return 0.0
        end_sq = lane.squares[-1]
        e_there = replace(e, x=end_sq[0], y=end_sq[1], facing=bearing_octant(e.pos, me_there.pos))
        est = m.estimate(e_there, me_there, others=others, charge=True, check_reach=False, quick=True,
                         defender_ac_bonus=ac_bonus)
        return est.expected * 0.8 if est.possible else 0.0

    def _open_line(self, e: Figure, me_there: Figure, others: dict) -> bool:
        """Cheap first test of a charge lane: no wall or figure on the straight line between us."""
        from ..core.moves.charge import bresenham
        bm = self.m.map
        taken = {f.pos for f in others.values() if f.id not in (e.id, me_there.id)}
        for x, y in bresenham(e.pos, me_there.pos)[1:-1]:
            if bm.blocks_move[y, x] or (x, y) in taken:
                return False
        return True

    @staticmethod
    def _approach_square(frm, to):
        o = bearing_octant(to, frm)
        from ..core.geometry import DIRECTION_DELTAS
        dx, dy = DIRECTION_DELTAS[o]
        return (to[0] + dx, to[1] + dy)

    def _through_figures(self, path) -> bool:
        """Moves that unfold over segments (d100 rules) stop at any occupied square, friends too."""
        if not self.rs.section("round").get("segments"):
            return False
        occupied = {f.pos for f in self.m.active.values() if f.id != self.me.id}
        return any((st.x, st.y) in occupied for st in path.steps[1:])

    def parting_cost(self, steps, mode: str, plan: Plan) -> float:
        if len(steps) < 2:
            return 0.0
        figures = list(self.m.active.values())
        try:
            shots = self.pos.engagement.parting_shots(self.me, steps, mode, figures)
            if self.rs.section("round").get("segments") and len(steps) > 2:
                # d100: a declared move unfolds segment by segment and each stretch is judged on
                # its own, so leaving melee halfway draws the free attack even if the end re-engages.
                seen = {s.attacker_id for s in shots}
                for i in range(2, len(steps)):
                    for shot in self.pos.engagement.parting_shots(self.me, steps[:i], mode, figures):
                        if shot.attacker_id not in seen:
                            seen.add(shot.attacker_id)
                            shots.append(shot)
        except Exception:
            return 0.0
        total = 0.0
        for shot in shots:
            foe = self.m.active.get(shot.attacker_id)
            if foe is None:
                continue
            st = steps[shot.step_index]
            me_there = replace(self.me, x=st.x, y=st.y, facing=steps[min(shot.step_index + 1, len(steps) - 1)].facing)
            est = self.m.estimate(foe, me_there, check_reach=False, extra_mods=[("parting shot", shot.bonus)])
            v = est.expected * (0.35 + 0.5 * self.my_value) * CAUTION
            plan.add(f"parting shot from {foe.label} {shot.bonus:+d}", -v)
            total += v
        plan.data["parting_shots"] = len(shots)
        return total

    # ----- plan generators -----
    def plans(self) -> list[Plan]:
        me = self.me
        out: list[Plan] = []
        hold = self.hold_plan()
        out.append(hold)
        if not self.enemies:
            return out
        if self.st.routed:
            out.extend(self.flee_plans())
            return out
        if self.can_attack or self.declaring:
            out.extend(self.attack_here_plans())
            if not self.acted and not self.declaring:
                out.extend(self.charge_plans())
        if not self.acted:
            out.extend(self.set_plans(hold))
            out.extend(self.defend_plans(hold))
        if self.can_move:
            if self.can_attack or self.declaring:
                out.extend(self.move_attack_plans())
            out.extend(self.withdraw_plans())
            out.extend(self.approach_plans())
        if not self.declaring and (self.moved == 0 or me.turning_ft == 0):
            out.extend(self.turn_plans(hold))
        if self.can_move and me.turning_ft > 0 and self.moved == 0 and not self.acted \
                and me.flyer == "none" and self.rs.section("facing").get("stationary_turns_free", True):
            out.extend(self.turn_then_plans())
        return out

    def turn_then_plans(self) -> list[Plan]:
        """A figure with a turning distance turns freely before it moves: plans that start with a turn."""
        import copy
        me = self.me
        targets = self._ranked_targets()[:2]
        wanted: list[int] = []
        for e in targets:
            b = bearing_octant(me.pos, e.pos)
            for f in (b, (b + 1) % 8, (b + 7) % 8):
                if f != me.facing and f not in wanted:
                    wanted.append(f)
        out = []
        for f in wanted[: 1 if self.ai.difficulty == "easy" else 2]:
            sub = copy.copy(self)
            sub.me = replace(me, facing=f)
            sub._searches = {}
            sub.walk_only = True
            turn = Turn(figure=me.id, facing=FACINGS[f])
            for plan in sub.move_attack_plans() + sub.charge_plans() + sub.approach_plans():
                plan.actions = (turn,) + tuple(plan.actions)
                plan.label = f"turn {FACINGS[f]}, then {plan.label}"
                plan.kind = "turn-" + plan.kind
                plan.data.pop("planned", None)
                out.append(plan)
        return out

    def hold_plan(self) -> Plan:
        me = self.me
        plan = Plan((EndTurn(figure=me.id),), "end the turn here", kind="hold", end=(me.x, me.y, me.facing, me.altitude_ft))
        v, parts = self.exposure(plan.end)
        self._add_exposure(plan, v, parts)
        self._add_potential(plan)
        return plan

    def _add_exposure(self, plan: Plan, v: float, parts) -> None:
        plan.data["exposure"] = plan.data.get("exposure", 0.0) + v
        if v:
            foes = [p for p in parts if p[1] > 0]
            worst = max(foes, key=lambda p: p[1])[0] if foes else ""
            plan.add(f"exposed to {len(foes)} foe(s)" + (f", most {worst}" if worst else ""), -v)

    def _add_potential(self, plan: Plan) -> None:
        """Worth of where the plan ends for next round: foes I can strike then, closeness, high ground."""
        x, y, facing, alt = plan.end
        m = self.m
        best = 0.0
        nearest = None
        for e in self.enemies:
            d = grid_distance_ft(m.diag, x - e.x, y - e.y)
            nearest = d if nearest is None else min(nearest, d)
        if nearest is None:
            return
        if m.is_archer(self.me):
            w = m.weapon(self.me.ready_weapon)
            bands = list(w.get("range_ft") or [])
            in_range = [e for e in self.enemies if not bands or m.dist((x, y), alt, e.pos, e.altitude_ft) <= bands[min(1, len(bands) - 1)]]
            if in_range:
                best = 0.3
            plan.add("distance from the nearest foe", min(nearest, 40) / 40 * 0.6)
        else:
            budget = self.me.move_ft * self.attack_fraction + m.reach_ft(self.me)
            if nearest <= budget:
                best = 0.3
            plan.add("closing in", -0.01 * self.pressure * nearest)
        if best:
            plan.add("can strike next round", best * 0.5)
        elev = float(m.map.elevation_ft[y, x])
        if elev and (m.mods.get("higher_bonus") or 0):
            plan.add("high ground", 0.02 * min(elev, 20))

    def _end_facing(self, sq, entry_facings, prefer: Figure | None = None, alt: int = 0) -> int:
        """Facing to end with: toward the target, else toward the nearest foe."""
        options = list(entry_facings) if entry_facings else [self.me.facing]
        if prefer is None and self.enemies:
            prefer = min(self.enemies, key=lambda e: self.m.dist(sq, alt, e.pos, e.altitude_ft))
        if prefer is None:
            return options[0]
        want = bearing_octant(sq, prefer.pos)
        return min(options, key=lambda f: (turn_octants(f, want), entry_facings.get(f, 0) if isinstance(entry_facings, dict) else 0, f))

    # attack from where it stands
    def attack_here_plans(self) -> list[Plan]:
        me, m = self.me, self.m
        out = []
        for e in self.enemies:
            est = m.best_estimate(me, e, after_move=self.moved > 0)
            if est is None or not est.possible:
                continue
            for w in (est.weapon,):
                exp = compat.explain_attack(self.battle, me.id, e.id, None if w == me.ready_weapon else w)
                if compat.explained_refusal(exp):
                    continue
                chance = compat.explained_chance(exp)
                if chance is not None and est.p_hit > 0:
                    scale = chance / est.p_hit
                    est.expected *= scale
                    est.p_kill *= scale
                    est.p_hit = chance
                    named = compat.explained_modifiers(exp)
                    if named:
                        est.mods = named
                action = Attack(figure=me.id, target=e.id, weapon=None if w == me.ready_weapon else w)
                label = f"attack {e.label}" + ("" if w == me.ready_weapon else f" with {w}")
                actions = (action, EndTurn(figure=me.id))
                if self.declaring:
                    # d100 declarations: stay put now, strike on the initiative number.
                    actions, label = (EndTurn(figure=me.id),), f"stay and strike {e.label} on its number"
                plan = Plan(actions, label, kind="attack", end=(me.x, me.y, me.facing, me.altitude_ft),
                            data={"target": e.id})
                self._score_attack(plan, e, est)
                v, parts = self.exposure(plan.end, exclude={e.id: est.p_kill})
                self._add_exposure(plan, v, parts)
                if est.ranged:
                    self._add_potential(plan)
                out.append(plan)
        return out

    def _score_attack(self, plan: Plan, target: Figure, est: Estimate, what: str = "") -> None:
        """Value of the attack, split into what each rules modifier adds and the rest."""
        step = 100 if self.m.d100 else 20
        attacks = max(1, int(self.m.stats(self.me).get("attacks", 1) or 1))
        unit = est.dmg_mean * attacks * (0.35 + 0.5 * self._value_rate(target))
        total = self.damage_value(target, est)
        shares = 0.0
        for name, v in est.mods:
            share = (v / step) * unit
            plan.add(f"{name} {v:+d}", share)
            shares += share
        hp, hp_max = self.m.hp(target), self.m.hp_max(target)
        wounded = f" (wounded {hp:g}/{hp_max:g})" if hp < hp_max else ""
        plan.add(f"{what}{est.p_hit:.0%} to hit {target.label}, {est.p_kill:.0%} to fell it{wounded}", total - shares)
        plan.data["p_kill"] = est.p_kill
        plan.data["p_hit"] = est.p_hit
        plan.add("strikes this turn", TEMPO)
        if est.friendly_fire:
            friends = [a for a in self.allies if self.m.dist(a.pos, a.altitude_ft, target.pos, target.altitude_ft) <= 10]
            plan.add("may hit a friend in the melee", -self.ff_value(est, friends))

    # move, then attack
    def move_attack_plans(self) -> list[Plan]:
        me, m = self.me, self.m
        budget = min(self.mode_budget("walk"), self.attack_budget)
        if budget < 5:
            return []
        res = self.search("walk", budget=self.mode_budget("walk"))
        if res is None:
            return []
        entries = res.entries()
        reach = m.reach_ft(me)
        archer = m.is_archer(me)
        out = []
        targets = self._ranked_targets()[: min(self.limits["targets"], 3) if archer else self.limits["targets"]]
        shoot_k = max(2, self.limits["shoot"] // 2)
        for e in targets:
            cands = []
            for sq, entry in entries.items():
                if sq == me.pos or not entry.can_end or entry.cost_ft > budget + 1e-9:
                    continue
                if archer:
                    continue
                alt = self._attack_altitude(entry, sq, e, reach)
                if alt is None:
                    continue
                cands.append((self._attack_square_heuristic(sq, alt, e, entry.cost_ft), sq, alt, entry))
            if archer:
                cands = self._shoot_squares(entries, budget, e)
            cands.sort(key=lambda c: (-c[0], c[1]))
            for _h, sq, alt, entry in cands[: self.limits["attack_squares"] if not archer else shoot_k]:
                plan = self._move_attack_plan(res, sq, alt, entry, e)
                if plan is not None:
                    out.append(plan)
        return out

    def _attack_altitude(self, entry, sq, e: Figure, reach: float):
        alts = sorted(entry.altitudes) if entry.altitudes else [0]
        for alt in sorted(alts, key=lambda a: abs(a - e.altitude_ft)):
            if self.m.dist(sq, alt, e.pos, e.altitude_ft) <= reach and self.m.sight_map.clear_line(sq, e.pos, alt, e.altitude_ft):
                return alt
        return None

    def _attack_square_heuristic(self, sq, alt, e: Figure, cost: float) -> float:
        m = self.m
        arc = relative_arc(e.pos, e.facing, sq)
        h = 0.0
        if arc in (m.mods.get("rear_arcs") or []):
            h += 2 * (m.mods.get("rear_bonus") or 0.5)
        elif arc in (m.mods.get("flank_arcs") or []):
            h += 2 * (m.mods.get("flank_bonus") or 0.5)
        if m.mods.get("flank_by_opposite_ally"):
            here = bearing_octant(e.pos, sq)
            if any(m.dist(a.pos, a.altitude_ft, e.pos, e.altitude_ft) <= 5 and (bearing_octant(e.pos, a.pos) - here) % 8 in (3, 4, 5)
                   for a in self.allies):
                h += 2
        diff = m.height(sq, alt) - m.height(e.pos, e.altitude_ft)
        h += 0.1 * max(-10, min(10, diff))
        for o in self.enemies:
            if o.id != e.id and grid_distance_ft(m.diag, o.x - sq[0], o.y - sq[1]) <= m.reach_ft(o):
                h -= 1.5
        h -= cost / 100
        return h

    def _move_attack_plan(self, res, sq, alt, entry, e: Figure) -> Plan | None:
        me, m = self.me, self.m
        facing = self._end_facing(sq, entry.facings, e, alt)
        path = res.path_to(sq, facing, alt if me.flyer != "none" else None)
        if path is None:
            path = res.path_to(sq, None, alt if me.flyer != "none" else None)
            if path is None:
                return None
            facing = path.end.facing
        end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
        me_there = replace(me, x=sq[0], y=sq[1], facing=end[2], altitude_ft=end[3])
        others = dict(m.active)
        others[me.id] = me_there
        est = m.best_estimate(me_there, e, others=others, after_move=True)
        if est is None or not est.possible:
            return None
        if self._through_figures(path):
            return None
        move = Move(figure=me.id, to=sq, mode="walk", facing=FACINGS[end[2]],
                    altitude_ft=end[3] if me.flyer != "none" else None)
        w = None if est.weapon == me.ready_weapon else est.weapon
        actions = (move, Attack(figure=me.id, target=e.id, weapon=w), EndTurn(figure=me.id))
        label = f"move to {sq[0]},{sq[1]} and {'shoot' if est.ranged else 'attack'} {e.label}"
        if self.declaring:
            actions = (move, EndTurn(figure=me.id))
            label = f"declare a move to {sq[0]},{sq[1]} to {'shoot' if est.ranged else 'strike'} {e.label}"
        plan = Plan(actions, label, kind="move-attack", end=end,
                    data={"target": e.id, "cost_ft": path.total_ft, "planned": True})
        self._score_attack(plan, e, est)
        self.parting_cost(path.steps, "walk", plan)
        if path.stall:
            plan.add("stalls (flies too little)", -1.5)
        v, parts = self.exposure(end, exclude={e.id: est.p_kill})
        self._add_exposure(plan, v, parts)
        if est.ranged:
            self._add_potential(plan)
        return plan

    def _shoot_squares(self, entries, budget, e: Figure):
        """Squares to shoot e from: in range, away from melee, near cover. Cheap first sort."""
        m = self.m
        w = m.weapon(self.me.ready_weapon)
        bands = list(w.get("range_ft") or [60])
        cands = []
        for sq, entry in entries.items():
            if sq == self.me.pos or not entry.can_end or entry.cost_ft > budget + 1e-9:
                continue
            d = grid_distance_ft(m.diag, sq[0] - e.x, sq[1] - e.y)
            if d > bands[-1] or d <= 5:
                continue
            h = -0.5 * (bands.index(next(b for b in bands if d <= b)))
            h += self._cover_proxy(sq) * 0.7
            for o in self.enemies:
                if m.is_archer(o):
                    continue
                od = grid_distance_ft(m.diag, o.x - sq[0], o.y - sq[1])
                if od <= o.move_ft * self.attack_fraction + m.reach_ft(o):
                    h -= 2.0 if od <= 10 else 1.0
            h -= entry.cost_ft / 200
            alt = max(entry.altitudes) if entry.altitudes and self.me.flyer != "none" else 0
            cands.append((h, sq, alt, entry))
        return cands

    def _cover_proxy(self, sq) -> float:
        """How much hard cover stands next to a square (a cheap stand-in for sight from every foe)."""
        bm = self.m.map
        x, y = sq
        total = 0.0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and bm.in_bounds(x + dx, y + dy):
                    c = int(bm.cover[y + dy, x + dx])
                    if c:
                        total += c / 4
        total += int(bm.concealment[y, x]) / 4
        return min(total, 2.0)

    def _ranked_targets(self) -> list[Figure]:
        m = self.m
        me = self.me

        def key(e):
            d = m.dist(me.pos, me.altitude_ft, e.pos, e.altitude_ft)
            return (d / 5 - 3 * (1 - m.hp(e) / max(m.hp_max(e), 1)) - m.threat_rate(e), e.id)
        return sorted(self.enemies, key=key)

    # charge
    def charge_plans(self) -> list[Plan]:
        me, m = self.me, self.m
        if not self.rs.section("charge").get("allowed") or self.moved > 0:
            return []
        out = []
        for e in self._ranked_targets()[: max(3, self.limits["targets"])]:
            occupants = {f.pos: f for f in m.active.values() if f.id != me.id}
            try:
                lane = charge_lane(self.planner, m.sight_map, me, e, occupants)
            except RulesError:
                continue
            if not lane.legal or not lane.squares:
                continue
            end_sq = lane.squares[-1]
            heading = bearing_octant(me.pos, e.pos)
            me_there = replace(me, x=end_sq[0], y=end_sq[1], facing=heading)
            others = dict(m.active)
            others[me.id] = me_there
            est = m.estimate(me_there, e, others=others, charge=True, check_reach=False)
            if not est.possible:
                continue
            plan = Plan((Charge(figure=me.id, target=e.id), EndTurn(figure=me.id)), f"charge {e.label}", kind="charge",
                        end=(end_sq[0], end_sq[1], heading, me.altitude_ft), data={"target": e.id, "lane": lane.squares})
            self._score_attack(plan, e, est, "charge: ")
            self.parting_cost(_lane_steps(me, lane.squares, heading), "charge", plan)
            if "set" in m.status(e.id).conditions and m.weapon(e.ready_weapon).get("set"):
                back = m.estimate(e, me_there, others=others, set_vs_charge=True, check_reach=False)
                plan.add(f"{e.label}'s set {e.ready_weapon} strikes the charger", -back.expected * (0.35 + 0.5 * self.my_value))
            charge_ac = -int(m.mods.get("charge_defense", 0) or 0)
            v, parts = self.exposure(plan.end, exclude={e.id: est.p_kill}, charge_ac=-charge_ac)
            self._add_exposure(plan, v, parts)
            out.append(plan)
        return out

    # set against a charge
    def set_plans(self, hold: Plan) -> list[Plan]:
        me, m = self.me, self.m
        if not m.weapon(me.ready_weapon).get("set") or "set" in self.st.conditions:
            return []
        if not self.rs.section("charge").get("allowed"):
            return []
        threats = []
        for e in self.enemies:
            try:
                lane = self.pos.charge_lane(e.id, me.id)
            except RulesError:
                continue
            if lane.legal and lane.squares:
                threats.append((e, lane))
        if not threats:
            return []
        plan = Plan((SetAgainstCharge(figure=me.id), EndTurn(figure=me.id)),
                    f"set {me.ready_weapon} against a charge", kind="set", end=hold.end)
        for e, lane in threats:
            end_sq = lane.squares[-1]
            e_there = replace(e, x=end_sq[0], y=end_sq[1], facing=bearing_octant(e.pos, me.pos))
            est = m.estimate(me, e_there, set_vs_charge=True, check_reach=False)
            likely = 0.8 if m.weapon(e.ready_weapon).get("charge") else 0.5
            plan.add(f"{e.label} has a charge lane onto it: set {me.ready_weapon} x{m.mods.get('set_damage_multiplier', 1)}",
                     likely * self.damage_value(e, est))
            if m.mods.get("set_strikes_first"):
                plan.add("set weapon strikes first", likely * est.p_kill * 0.5 * self.m.threat_rate(e) * 2)
        v, parts = self.exposure(hold.end, set_spear=True)
        self._add_exposure(plan, v, parts)
        return [plan]

    # defend (parry, dodge, ...)
    def defend_plans(self, hold: Plan) -> list[Plan]:
        me = self.me
        engaged = [e for e in self.enemies if self.pos.engagement.in_zone(me, e)]
        if not engaged:
            return []
        out = []
        base, _ = self.exposure(hold.end)
        for d in self.rs.data.get("defenses", []) or []:
            style = d.get("style")
            # A parry roll is worth about +4 to defense; a flat bonus is what it says.
            bonus = int(d.get("bonus", 0) or 0) or (4 if d.get("parry_roll") else 0)
            if not style or bonus <= 0 or d.get("formula") == "trade":
                continue
            can_attack = bool(d.get("can_attack", False))
            # A style that still allows an attack is declared first; the attack is chosen after.
            actions = (Defend(figure=me.id, style=style),) + (() if can_attack else (EndTurn(figure=me.id),))
            plan = Plan(actions, f"defend ({style})", kind="defend", end=hold.end)
            v, parts = self.exposure(hold.end, ac_bonus=bonus)
            self._add_exposure(plan, base, parts)
            plan.add(f"{style} {bonus:+d} defense", base - v)
            if not can_attack:
                plan.add("gives up its attack", -0.2 - TEMPO)
            elif d.get("attack_penalty"):
                plan.add(f"attacks at {int(d['attack_penalty']):+d}", 0.05 * int(d["attack_penalty"]))
            out.append(plan)
        return out

    # withdraw from melee
    def withdraw_plans(self) -> list[Plan]:
        me, m = self.me, self.m
        engaged = [e for e in self.enemies if self.pos.engagement.in_zone(me, e)]
        if not engaged:
            return []
        out = []
        styles = list(self.rs.section("disengage").get("styles") or []) if "disengage" in self.rs.data else []
        modes = []
        if self.rs.section("parting_shots").get("withdrawal_avoids"):
            modes.append(("withdraw", None))
        for style in styles:
            modes.append(("walk" if style in ("retreat", "withdraw") else "withdraw" if style == "fighting" else "run", style))
        if not modes:
            modes.append(("walk", None))
        for mode, style in modes:
            budget = self.mode_budget(mode)
            if budget < 5:
                continue
            res = self.search(mode, budget=budget)
            if res is None:
                continue
            entries = res.entries()
            cands = []
            for sq, entry in entries.items():
                if sq == me.pos or not entry.can_end:
                    continue
                if entry.cost_ft > budget + 1e-9:
                    continue
                threat = 0.0
                for e in self.enemies:
                    d = grid_distance_ft(m.diag, e.x - sq[0], e.y - sq[1])
                    if d <= m.reach_ft(e) + (0 if e in engaged else e.move_ft * self.attack_fraction):
                        threat += 1
                cands.append((-threat - self._cover_proxy(sq) * (-0.3) + entry.cost_ft / 100, sq, entry))
            cands.sort(key=lambda c: (-c[0], c[1]))
            for _h, sq, entry in cands[: self.limits["withdraw"]]:
                facing = self._end_facing(sq, entry.facings)
                path = res.path_to(sq, facing) or res.path_to(sq)
                if path is None:
                    continue
                end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
                if style is None:
                    action = Move(figure=me.id, to=sq, mode=mode, facing=FACINGS[end[2]] if mode != "withdraw" else None)
                    label = f"{'fighting withdrawal' if mode == 'withdraw' else 'step back'} to {sq[0]},{sq[1]}"
                else:
                    action = Disengage(figure=me.id, to=sq, style=style)
                    label = f"disengage ({style}) to {sq[0]},{sq[1]}"
                plan = Plan((action, EndTurn(figure=me.id)), label, kind="withdraw", end=end)
                cost = self.parting_cost(path.steps, mode if style != "retreat" else "walk", plan)
                if style == "retreat" and cost:
                    # odnd: winning the opposed d6 roll avoids the free attack about half the time.
                    plan.add("opposed retreat roll may avoid it", cost * 0.45)
                if style == "hasty":
                    plan.add("hasty: -2 defense this round", -0.3)
                if mode == "withdraw":
                    plan.add("fighting withdrawal: no parting shot", 0.0)
                v, parts = self.exposure(end)
                self._add_exposure(plan, v, parts)
                self._add_potential(plan)
                if self.m.is_archer(me):
                    plan.add("archer out of melee", 0.8)
                out.append(plan)
        return out

    # approach or reposition without attacking
    def approach_plans(self) -> list[Plan]:
        me, m = self.me, self.m
        out = []
        archer = m.is_archer(me)
        modes = ["walk"]
        if not archer and me.flyer == "none" and not self.walk_only:
            for mode in ("jog", "run"):
                if self.mode_ok(mode) and self.planner.params(me, mode).budget_ft > self.planner.params(me, "walk").budget_ft:
                    modes.append(mode)
                    break
        target = self._ranked_targets()[0]
        engaged = [e for e in self.enemies if self.pos.engagement.in_zone(me, e)]
        for mode in modes:
            budget = self.mode_budget(mode)
            if budget < 5:
                continue
            res = self.search(mode, budget=budget if mode != "walk" else self.mode_budget("walk"))
            if res is None:
                continue
            entries = res.entries()
            cands = []
            usable = [(sq, entry) for sq, entry in entries.items()
                      if sq != me.pos and entry.can_end and entry.cost_ft <= budget + 1e-9]
            if len(usable) > APPROACH_PRESORT:
                # Cheap first cut: melee wants to be near the target, archers near their range and cover.
                if archer:
                    rng = (m.weapon(me.ready_weapon).get("range_ft") or [60])[0]
                    usable.sort(key=lambda it: (abs(grid_distance_ft(m.diag, it[0][0] - target.x, it[0][1] - target.y) - rng)
                                                - 5 * self._cover_proxy(it[0]), it[0]))
                else:
                    usable.sort(key=lambda it: (grid_distance_ft(m.diag, it[0][0] - target.x, it[0][1] - target.y), it[0]))
                usable = usable[:APPROACH_PRESORT]
            for sq, entry in usable:
                alts = [0]
                if me.flyer != "none" and entry.altitudes:
                    alts = sorted({max(entry.altitudes), min(entry.altitudes)})
                for alt in alts:
                    cands.append((self._approach_heuristic(sq, alt, target, archer), sq, alt, entry))
            cands.sort(key=lambda c: (-c[0], c[1], c[2]))
            for _h, sq, alt, entry in cands[: self.limits["approach"] if not archer else self.limits["shoot"]]:
                facing = self._end_facing(sq, entry.facings, None, alt)
                path = res.path_to(sq, facing, alt if me.flyer != "none" else None) or \
                    res.path_to(sq, None, alt if me.flyer != "none" else None)
                if path is None:
                    continue
                if self._through_figures(path):
                    continue
                end = (sq[0], sq[1], path.end.facing, path.end.altitude_ft)
                action = Move(figure=me.id, to=sq, mode=mode, facing=FACINGS[end[2]],
                              altitude_ft=end[3] if me.flyer != "none" else None)
                what = "run" if mode == "run" else "jog" if mode == "jog" else "move"
                plan = Plan((action, EndTurn(figure=me.id)), f"{what} to {sq[0]},{sq[1]}" +
                            (f" at {end[3]} ft" if me.flyer != "none" else ""), kind="approach", end=end,
                            data={"planned": True})
                self.parting_cost(path.steps, mode, plan)
                if path.stall:
                    plan.add("stalls (flies too little)", -1.5)
                v, parts = self.exposure(end)
                self._add_exposure(plan, v, parts)
                self._add_potential(plan)
                if engaged and not archer:
                    plan.add("leaves a fight without striking", -0.3)
                if me.flyer != "none" and end[3] >= 15:
                    plan.add("out of reach aloft", 0.1)
                out.append(plan)
        return out

    def _approach_heuristic(self, sq, alt, target: Figure, archer: bool) -> float:
        m = self.m
        d = grid_distance_ft(m.diag, sq[0] - target.x, sq[1] - target.y)
        h = 0.0
        if archer:
            w = m.weapon(self.me.ready_weapon)
            bands = list(w.get("range_ft") or [60])
            h -= 0 if d <= bands[min(1, len(bands) - 1)] else (d - bands[min(1, len(bands) - 1)]) / 10
            h += self._cover_proxy(sq)
        else:
            h -= d / 5
        for o in self.enemies:
            od = grid_distance_ft(m.diag, o.x - sq[0], o.y - sq[1])
            reach = m.reach_ft(o)
            if od <= reach:
                h -= 3
            elif archer and od <= o.move_ft * self.attack_fraction + reach:
                h -= 1.5
        h += 0.05 * float(m.map.elevation_ft[sq[1], sq[0]])
        if self.me.flyer != "none" and alt:
            reach = max((m.reach_ft(o) for o in self.enemies if not m.is_archer(o)), default=5)
            h += 3.0 if alt > reach + 5 else 0.02 * alt
        return h

    # turn to face
    def turn_plans(self, hold: Plan) -> list[Plan]:
        me = self.me
        if not self.enemies:
            return []
        near = sorted(self.enemies, key=lambda e: self.m.dist(me.pos, me.altitude_ft, e.pos, e.altitude_ft))[:2]
        out = []
        seen = {me.facing}
        for e in near:
            f = bearing_octant(me.pos, e.pos)
            if f in seen:
                continue
            seen.add(f)
            plan = Plan((Turn(figure=me.id, facing=FACINGS[f]), EndTurn(figure=me.id)), f"turn to face {e.label}",
                        kind="turn", end=(me.x, me.y, f, me.altitude_ft))
            v, parts = self.exposure(plan.end)
            self._add_exposure(plan, v, parts)
            self._add_potential(plan)
            out.append(plan)
        return out

    # flee when morale breaks
    def flee_plans(self) -> list[Plan]:
        me, m = self.me, self.m
        mode = "run" if self.mode_ok("run") and self.mode_budget("run") >= 5 else "walk"
        budget = self.mode_budget(mode)
        res = self.search(mode, budget=budget)
        if res is None:
            return []
        out = []
        cands = []
        for sq, entry in res.entries().items():
            if sq == me.pos or not entry.can_end or entry.cost_ft > budget + 1e-9:
                continue
            nearest = min(m.dist(sq, 0, e.pos, e.altitude_ft) for e in self.enemies)
            edge = min(sq[0], sq[1], m.map.width - 1 - sq[0], m.map.height - 1 - sq[1])
            cands.append((nearest / 5 - edge * 0.5, sq, entry))
        cands.sort(key=lambda c: (-c[0], c[1]))
        for h, sq, entry in cands[:3]:
            path = res.path_to(sq)
            if path is None:
                continue
            edge = sq[0] in (0, m.map.width - 1) or sq[1] in (0, m.map.height - 1)
            move = Move(figure=me.id, to=sq, mode=mode)
            if edge and "exit" in getattr(Move, "__dataclass_fields__", {}):
                move = replace(move, exit=True)
            plan = Plan((move, EndTurn(figure=me.id)), f"flee {'off the map at' if edge else 'to'} {sq[0]},{sq[1]}",
                        kind="flee", end=(sq[0], sq[1], path.end.facing, path.end.altitude_ft))
            if edge:
                plan.add("leaves the battle", 1.0)
            plan.add("morale broken: flee", 5.0 + h * 0.1)
            self.parting_cost(path.steps, mode, plan)
            out.append(plan)
        return out

    # ----- one ply of the foes' likely replies -----
    def lookahead(self, plans: list[Plan]) -> None:
        me = self.me
        walkers = [e for e in self.enemies if e.flyer == "none" and not self.m.is_archer(e)]
        walkers.sort(key=lambda e: (self.m.dist(me.pos, me.altitude_ft, e.pos, e.altitude_ft), e.id))
        self._searched_replies = {e.id for e in walkers[:REPLY_SEARCHES]}
        for plan in plans:
            if plan.end is None:
                continue
            replies = self._replies(plan)
            if replies is None:
                continue
            quick = plan.data.get("exposure", 0.0)
            total = sum(v for _name, v in replies)
            # Replace the quick exposure estimate with the reply-based one.
            delta = quick - total
            if abs(delta) > 0.01:
                plan.add("foes' real reach (lookahead)", delta)

    def _replies(self, plan: Plan):
        """Each foe's likely reply to this plan: the quick estimate, corrected by the foe's real reach.

        For the nearest walking foes the planner says whether they can actually get to a square
        from which they strike the end square this round (walls, other figures, turning); a foe
        that cannot is no threat. Charges use their real lanes (as the quick estimate does).
        """
        x, y, facing, alt = plan.end
        me, m = self.me, self.m
        me_there = replace(me, x=x, y=y, facing=facing, altitude_ft=alt)
        others = dict(m.active)
        others[me.id] = me_there
        set_spear = plan.kind == "set"
        out = []
        for e in self.enemies:
            quick = self._foe_threat(e, me_there, others, 0)
            if quick > 0 and e.id in self._searched_replies and not m.is_archer(e):
                if not self._can_reach_to_strike(e, me_there):
                    quick = 0.0
            charge = 0.0 if set_spear else self._charge_threat(e, me_there, others, 0)
            best = max(quick, charge)
            if best > 0:
                busy = any(m.dist(a.pos, a.altitude_ft, e.pos, e.altitude_ft) <= m.reach_ft(e) for a in self.allies)
                weight = 0.6 if busy and not m.is_archer(e) else 1.0
                if plan.data.get("target") == e.id:
                    weight *= 1 - plan.data.get("p_kill", 0.0)
                out.append((e.label, best * weight * (0.35 + 0.5 * self.my_value) * CAUTION))
        credit = self._closing_reach_credit(me_there, others, None)
        if credit:
            out.append(("reach strikes a closing foe", -credit))
        return out

    def _can_reach_to_strike(self, e: Figure, me_there: Figure) -> bool:
        m = self.m
        reach = m.reach_ft(e)
        if m.dist(e.pos, e.altitude_ft, me_there.pos, me_there.altitude_ft) <= reach:
            return True
        entries = self._reply_entries(e)
        return any(en.can_end and sq != me_there.pos and m.dist(sq, e.altitude_ft, me_there.pos, me_there.altitude_ft) <= reach
                   for sq, en in entries.items())

    def _reply_entries(self, e: Figure) -> dict:
        budget = e.move_ft * self.attack_fraction + self.free_step
        key = (e.id, e.pos, e.altitude_ft, budget, self.me.id, self.me.pos)
        entries = self.ai._reach_cache.get(key)
        if entries is None:
            # Everyone but the mover and me (I am moving); the foe turns freely before it moves.
            occupants = {f.pos: f for f in self.m.active.values() if f.id not in (e.id, self.me.id)}
            try:
                entries = self.planner.search(e, "walk", occupants, budget_ft=budget,
                                              ignore_turning=True).entries()
            except RulesError:
                entries = {}
            if len(self.ai._reach_cache) > 512:
                self.ai._reach_cache.clear()
            self.ai._reach_cache[key] = entries
        return entries


def _cache_entries(result) -> None:
    """SearchResult.entries() walks every settled state: do it once per search."""
    cached = result.entries()
    result.entries = lambda: cached


WINGED_SEARCH_FT = 60     # how far the AI looks for a winged flyer's next square (its search is costly)
FLYER_CEILING_FT = 25     # the AI plans flights up to this far above the floor (or its altitude + 10)
_FLYER_PLANNERS: dict = {}


def _flyer_planner(planner, fig: Figure):
    """A planner for one flyer's candidate moves with a lower altitude ceiling than the ruleset's.

    The states it searches are a subset of the full planner's, so every path it finds is one the
    resolver accepts too; it only leaves out climbs the AI would not make this turn anyway.
    """
    from ..core.moves.planner import Planner
    from ..core.ruleset import Ruleset
    rs = planner.ruleset
    full = rs.section("altitude")["max_altitude_ft"]
    cap = min(full, max(FLYER_CEILING_FT, fig.altitude_ft + 10))
    cap -= cap % 5
    if cap >= full:
        return planner
    key = (id(planner.map), rs.id, id(rs), cap)
    got = _FLYER_PLANNERS.get(key)
    if got is None:
        data = dict(rs.data)
        data["altitude"] = dict(data["altitude"], max_altitude_ft=cap)
        got = Planner(planner.map, Ruleset(rs.id, rs.name, data))
        if len(_FLYER_PLANNERS) > 32:
            _FLYER_PLANNERS.clear()
        _FLYER_PLANNERS[key] = (got, planner.map, rs)  # keep map and ruleset alive while cached
        return got
    return got[0]
