"""Reading a Battle for the AI: status, attack breakdowns, legality checks, round and seed.

Written while the resolver was still growing, so the readers accept a dict, a dataclass, a
method or a property alike. Nothing here changes a battle.
"""
from __future__ import annotations

from dataclasses import dataclass, field

DOWN_CONDITIONS = frozenset({"dead", "unconscious", "dying", "grievously-wounded", "helpless", "fled", "routed",
                             "surrendered", "captured", "out"})
FLEEING_CONDITIONS = frozenset({"routed", "fleeing", "broken", "retreating", "morale-failed"})


def value(v):
    """A property or a zero-argument method, read the same way."""
    return v() if callable(v) else v


def _get(obj, key, default=None):
    if obj is None:
        return default
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


@dataclass
class Status:
    """What the AI needs to know about one figure, whatever the resolver reports."""

    hp: float | None = None
    hp_max: float | None = None
    conditions: frozenset = field(default_factory=frozenset)
    attacks_left: int | None = None
    movement_left_ft: float | None = None
    moved_ft: float = 0.0
    down: bool = False
    fled: bool = False
    routed: bool = False
    raw: object = None

    @property
    def active(self) -> bool:
        return not (self.down or self.fled)

    @property
    def hp_fraction(self) -> float:
        if self.hp is None or not self.hp_max:
            return 1.0
        return max(0.0, min(1.0, self.hp / self.hp_max))


def status(battle, figure_id: str) -> Status:
    fig = battle.figures.get(figure_id)
    stats = getattr(fig, "stats", None) or {}
    raw = None
    fn = getattr(battle, "status", None)
    if callable(fn):
        try:
            raw = fn(figure_id)
        except Exception:  # the resolver is growing: a status it cannot give yet is no status
            raw = None
    hp = _first(raw, ("hp", "hit_points"), stats.get("hp") or None)
    hp_max = _first(raw, ("hp_max", "max_hp", "hit_points_max"), stats.get("hp_max") or hp)
    conds = _get(raw, "conditions", None)
    if conds is None:
        conds = stats.get("conditions", ())
    if isinstance(conds, dict):
        conds = [k for k, v in conds.items() if v]
    names = set()
    for c in conds or ():
        names.add(str(_get(c, "name", c)).lower())
    for flag in ("dead", "unconscious", "fled", "routed", "set", "defending", "aiming", "prone", "stunned"):
        if _get(raw, flag) is True:
            names.add(flag)
    moved = _moved_ft(battle, figure_id)
    st = Status(
        hp=_num(hp), hp_max=_num(hp_max), conditions=frozenset(names),
        attacks_left=_int(_first(raw, ("attacks_left", "attacks_remaining"), None)),
        movement_left_ft=_num(_first(raw, ("movement_left_ft", "movement_left", "move_left_ft"), None)),
        moved_ft=_num(_first(raw, ("moved_ft",), None)) or moved, raw=raw,
    )
    st.fled = "fled" in names or bool(_get(raw, "fled", False)) or bool(_get(raw, "off_map", False))
    st.routed = bool(names & FLEEING_CONDITIONS) or bool(_get(raw, "routed", False))
    out = _get(raw, "out", None)
    if out is None:
        out = _get(raw, "out_of_fight", None)
    st.down = bool(out) or bool(names & (DOWN_CONDITIONS - {"fled", "routed"})) or (st.hp is not None and st.hp <= 0
                                                                                       and not _has_thresholds(battle))
    if (_get(raw, "alive", True) is False or _get(raw, "active", True) is False or _get(raw, "able", True) is False) \
            and not st.fled:
        st.down = True
    return st


def _moved_ft(battle, figure_id: str) -> float:
    state = (getattr(battle, "states", None) or {}).get(figure_id)
    return float(state.moved_ft) if state is not None else 0.0


def _has_thresholds(battle) -> bool:
    """Rulesets with unconscious/dying bands: hp <= 0 is down only when the resolver says so."""
    try:
        thresholds = battle.ruleset.section("damage")["thresholds"]
    except Exception:
        return False
    return any(t.get("condition") != "dead" for t in thresholds)


def _first(obj, keys, default):
    for key in keys:
        v = _get(obj, key, None)
        if v is not None:
            return v
    return default


def _num(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _int(v):
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def explain_attack(battle, attacker: str, target: str, weapon: str | None = None):
    """The resolver's breakdown of an attack (no dice), or None."""
    fn = getattr(battle, "explain_attack", None)
    if not callable(fn):
        return None
    try:
        return fn(attacker, target, weapon) if weapon is not None else fn(attacker, target)
    except TypeError:
        try:
            return fn(attacker, target)
        except Exception:
            return None
    except Exception:
        return None


def explained_chance(explanation) -> float | None:
    """Hit probability from an explain_attack answer (Breakdown.chance()), 0..1, if it gives one."""
    if explanation is None:
        return None
    if explained_refusal(explanation):
        return 0.0
    for key in ("chance", "hit_chance", "probability", "p_hit"):
        v = _get(explanation, key)
        if callable(v):
            try:
                v = v()
            except Exception:
                continue
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v) / 100.0 if v > 1 else float(v)
    return None


def explained_modifiers(explanation) -> list[tuple[str, int]]:
    """Named to-hit modifiers of a breakdown; defense modifiers count against the roll."""
    out = []
    for m in _get(explanation, "attack_mods", None) or _get(explanation, "modifiers", ()) or ():
        name, v = _get(m, "name"), _get(m, "value")
        if name is not None and isinstance(v, (int, float)) and v:
            out.append((str(name), int(v)))
    for m in _get(explanation, "defense_mods", ()) or ():
        name, v = _get(m, "name"), _get(m, "value")
        if name is not None and isinstance(v, (int, float)) and v:
            out.append((f"target {name}", -int(v)))
    return out


def explained_refusal(explanation) -> str | None:
    if explanation is None:
        return None
    if _get(explanation, "allowed", True) is False or _get(explanation, "legal", True) is False:
        return str(_get(explanation, "reason", "") or "not possible")
    return None


def check(battle, action) -> str | None:
    """The resolver's reason to refuse an action (None: legal), or None when it cannot say."""
    fn = getattr(battle, "check", None)
    if not callable(fn):
        return None
    try:
        return fn(action)
    except Exception as err:  # a resolver bug must not stop the AI: treat as refused
        return f"check failed: {err}"


def phase(battle) -> str:
    return battle.state.phase


def current(battle) -> str | None:
    return value(getattr(battle, "current", None))


def round_number(battle) -> int:
    return int(value(getattr(battle, "round", 1)) or 1)


def battle_seed(battle) -> int:
    return int(getattr(getattr(battle, "setup", None), "seed", 0) or 0)


__all__ = ["Status", "status", "explain_attack", "explained_chance", "explained_modifiers", "explained_refusal",
           "check", "phase", "current", "round_number", "battle_seed", "value"]
