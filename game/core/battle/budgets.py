"""What a figure has left this round and whose turn it is: the questions every action asks first.

All functions read the battle and change nothing; those named `require_*` raise ActionRefused
with the reason.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ..combat.rounds import Slot
from ..values.figure import Figure
from ..values.refusals import refuse


def require_turn(battle, figure_id: str) -> Figure:
    fig = battle.figure(figure_id)
    if battle.current != figure_id:
        who = battle.figures[battle.current].label if battle.current else "nobody"
        refuse("turn.not-yours", who=fig.label, current=who)
    return fig


def in_slot_of(battle, fid: str) -> Slot | None:
    s = battle.state
    if s.phase != "act" or s.slot_index >= len(s.slots):
        return None
    slot = s.slots[s.slot_index]
    return slot if fid in slot.members else None


def slot_phases(battle, slot: Slot) -> list[str]:
    """bfrpg: figures sharing a number move, then shoot, then fight, each in turn; alone, all at once."""
    phases = battle.ruleset.section("round")["phases"]
    if len(slot.members) <= 1 or not phases:
        return ["all"]
    return [p for p in phases if p in ("movement", "missile", "melee")]


def current_phase(battle) -> str:
    s = battle.state
    if s.phase == "declare":
        return "declare"
    if s.slot_index >= len(s.slots):
        return "all"
    phases = slot_phases(battle, s.slots[s.slot_index])
    return phases[min(s.phase_index, len(phases) - 1)]


def turn_still_to_come(battle, fid: str) -> bool:
    s = battle.state
    if s.phase != "act":
        return False
    for i in range(s.slot_index, len(s.slots)):
        if fid in s.slots[i].members:
            return i > s.slot_index or fid not in s.done
    return False


def has_acted(battle, fid: str) -> bool:
    s = battle.state
    if s.phase != "act":
        return False
    for i, slot in enumerate(s.slots):
        if fid in slot.members:
            return i < s.slot_index or (i == s.slot_index and fid in s.done)
    return True


# ----- attacks -----
def attack_limit(battle, fid: str, target_id: str | None = None) -> int:
    prof = battle.profile(fid)
    st = battle.state_of(fid)
    limit = prof["attacks"]
    if battle.ruleset.section("attack")["extra_attacks_vs_normal_men"] and target_id is not None:
        extra = prof["level"] if (prof["fighter"] or prof["level"] > 1) else 1
        if battle.profile(target_id)["normal_man"] and st.attacks_vs_normal_men == st.attacks_made:
            limit = max(limit, extra)
    return limit


def attacks_left(battle, fid: str, target_id: str | None = None) -> int:
    st = battle.state_of(fid)
    if st.no_attack_round == battle.round:
        return 0
    if battle.ruleset.d100:
        if battle.state.phase != "act":
            return 0
        return 1 if in_slot_of(battle, fid) is not None and fid not in battle.state.done else 0
    style = battle.ruleset.defense(st.defense) if st.defense else None
    if style and not style["can_attack"]:
        return 0
    if st.standing_up:
        return 0
    if st.hasty or st.move_mode == "withdraw-disengage":
        return 0
    return max(0, attack_limit(battle, fid, target_id) - st.attacks_made)


def reloading_words(battle, fid: str) -> str:
    """Why a figure is busy reloading a crossbow-like weapon this round ("" when it is not)."""
    st = battle.state_of(fid)
    fig = battle.figures[fid]
    weapon = battle.ruleset.weapon(fig.ready_weapon)
    if weapon and weapon["reload_is_busy"] and st.reload_until_round >= battle.round:
        return (f"{fig.label} spends the round reloading the {fig.ready_weapon} "
                f"(ready again in round {st.reload_until_round + 1})")
    return ""


# ----- movement -----
def move_unspent_ft(battle, fid: str) -> float:
    """What is left of the figure's move this round whatever it may do now (getting up from prone
    costs half of it): its move less what it (or its mount) moved, 0 after attacking where the
    ruleset allows no move after an attack, or while it gets up."""
    st = battle.state_of(fid)
    fig = battle.figures[fid]
    if st.standing_up or (st.attacked and not battle.ruleset.section("round")["move_after_attack"]):
        return 0.0
    if fig.mount:
        return move_unspent_ft(battle, fig.mount)
    return max(0.0, fig.move_ft - st.moved_ft)


_STRIKE_MOVES: dict = {}


def strike_move_ft(battle, fig: Figure) -> float:
    """How far a figure may walk in a round and still attack: d20 rules, its move-and-attack
    allowance; d100 rules, half its move (or the free step, if more). A function of the ruleset and
    the speed alone: kept (the AI asks for every figure it weighs)."""
    rs = battle.ruleset
    key = (id(rs), fig.move_ft)
    got = _STRIKE_MOVES.get(key)
    if got is None or got[0] is not rs:
        if rs.d100:
            value = float(max(rs.section("movement")["free_step_ft"], fig.move_ft / 2))
        else:
            value = float(attack_move_allowance_ft(battle, fig))
        if len(_STRIKE_MOVES) > 256:
            _STRIKE_MOVES.clear()
        got = _STRIKE_MOVES[key] = (rs, value)
    return got[1]


def move_allowed_after_attack(battle, fid: str) -> bool:
    st = battle.state_of(fid)
    return not (st.attacked and not battle.ruleset.section("round")["move_after_attack"])


def require_can_move(battle, fig: Figure, check_phase: bool = True) -> None:
    """Refuse when the figure may not move at all now (phase, stance, prone, set weapon)."""
    st = battle.state_of(fig.id)
    phase = current_phase(battle) if check_phase else "all"
    if phase in ("missile", "melee"):
        refuse("move.wrong-phase", phase=phase)
    if not move_allowed_after_attack(battle, fig.id):
        refuse("move.after-attack", who=fig.label)
    style = battle.ruleset.defense(st.defense) if st.defense else None
    if style and style["max_move_ft"] == 0:
        refuse("move.stance-holds", who=fig.label, stance=style["style"], rule=battle.ruleset.cite(style["rule"]))
    if st.standing_up:
        refuse("stand.getting-up", who=fig.label)
    if st.has("prone"):
        prone = battle.ruleset.section("prone")
        refuse("prone", rule=battle.ruleset.cite(prone["rule"]), who=fig.label, stand=prone["stand"])
    if st.set_vs_charge:
        refuse("move.weapon-set", who=fig.label)
    if st.held_by:
        rules = battle.ruleset.section("manoeuvres")
        refuse("grapple.held-no-move", who=fig.label, holder=battle.figures[st.held_by[0]].label,
               rule=battle.ruleset.cite(rules["grapple_rule"]))


def require_not_fatigued(battle, fig: Figure, mode: str) -> None:
    if mode in ("run", "jog", "charge") and battle.state_of(fig.id).has("fatigued"):
        refuse("move.fatigued", rule=battle.ruleset.cite("fatigue"), who=fig.label)


def attack_move_allowance_ft(battle, fig: Figure) -> Fraction:
    """How far a figure may move in a round and still attack."""
    mv = battle.ruleset.section("movement")
    return fig.move_ft * _fraction(mv["attack_move_fraction"]) + mv["free_step_ft"]


@lru_cache(maxsize=64)
def _fraction(text) -> Fraction:
    """A ruleset's fraction, parsed once (asked for every figure the AI weighs)."""
    return Fraction(text)
