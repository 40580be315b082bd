"""The mistakes a rules-aware player never makes, counted per side while a battle is played
(`simulate` and `ladder` report them per AI level; docs/ai.md):

- `parting shots drawn`: parting shots (and free attacks a move drew) struck at the side's figures;
- `blows lost to a long move`: a turn that ends with no attack made, a foe within the figure's
  reach, and fewer attacks left than it would have had by not walking so far (the resolver's
  `attacks_per_round` for the feet it moved against none);
- `left alone by two or more foes`: a turn that ends with the figure within the melee reach of two
  or more foes and no friend within two squares of it;
- `friends hit by own missiles`: the side's missiles striking its own figures (friendly fire);
- `blows forgone`: a turn ended while the resolver would still have accepted an attack on a foe
  that puts no friend at risk and has some chance to hit (a shot into a melee that may strike a
  friend, by the resolver's `into_melee_risk`, is the careful player's to hold, and a blow the roll
  cannot hit is no blow: neither is a blow forgone).

Every count is a question to the resolver (`Battle.check`, `preview`, `into_melee_risk`,
`melee_reach_ft`, `attacks_per_round`)
or an event it emitted; the counter only watches (nothing here changes the battle).
"""
from __future__ import annotations

from ..core.values.actions import Attack
from ..core.values.events import EventKind as K
from ..core.values.geometry import grid_distance_ft

KINDS = ("parting shots drawn", "blows lost to a long move", "left alone by two or more foes",
         "friends hit by own missiles", "blows forgone")
SHORT = {"parting shots drawn": "parting", "blows lost to a long move": "long move",
         "left alone by two or more foes": "alone", "friends hit by own missiles": "own missiles",
         "blows forgone": "forgone"}
# Not a mistake: the turns a side's figures ended, so the counts can be read per turn played (a
# side whose figures live longer plays more turns and has more chances to err).
TURNS = "turns ended"
FIELDS = KINDS + (TURNS,)
FRIEND_NEAR_SQUARES = 2


def _within(squares_apart: int, reach_ft: float) -> bool:
    """Within a melee reach: beside it, or as many squares off as the reach's feet (5 ft a square)."""
    return squares_apart <= 1 or 5 * squares_apart <= reach_ft


class MistakeCounter:
    """Watches a headless battle: `ending(battle, figure_id)` before each EndTurn a controller gives,
    `tally(battle)` when it is over: {side: {kind: count}}."""

    def __init__(self):
        self.counts: dict[str, dict[str, int]] = {}

    def _add(self, side: str, kind: str, n: int = 1) -> None:
        side_counts = self.counts.setdefault(side, dict.fromkeys(FIELDS, 0))
        side_counts[kind] += n

    def ending(self, battle, figure_id: str) -> None:
        """The figure's controller ends its turn: count what it leaves behind."""
        if not battle.able(figure_id):
            return
        me = battle.figures[figure_id]
        self._add(me.side, TURNS)
        diag = battle.ruleset.diagonal
        foes = [f for f in battle.figures.values() if f.side != me.side and battle.able(f.id)]
        if not foes:
            return
        gap = {f.id: grid_distance_ft(diag, f.x - me.x, f.y - me.y) for f in foes}
        squares = {f.id: max(abs(f.x - me.x), abs(f.y - me.y)) for f in foes}
        status = battle.status(figure_id)
        if status.attacks_left > 0 and _attack_left(battle, me, foes, gap) is not None:
            self._add(me.side, "blows forgone")
        elif not _attacked_this_turn(battle, figure_id) and status.moved_ft > 0:
            reach = battle.melee_reach_ft(me)
            if any(_within(squares[f.id], reach) for f in foes) and \
                    battle.attacks_per_round(me, status.moved_ft) < battle.attacks_per_round(me, 0.0):
                self._add(me.side, "blows lost to a long move")
        near_foes = sum(1 for f in foes if _within(squares[f.id], battle.melee_reach_ft(f)))
        if near_foes >= 2 and not any(
                f.side == me.side and f.id != me.id and battle.able(f.id)
                and max(abs(f.x - me.x), abs(f.y - me.y)) <= FRIEND_NEAR_SQUARES
                for f in battle.figures.values()):
            self._add(me.side, "left alone by two or more foes")

    def tally(self, battle) -> dict:
        """The counts, with those read off the events (parting shots, friendly fire), per side."""
        figures = battle.figures
        for f in figures.values():
            self.counts.setdefault(f.side, dict.fromkeys(FIELDS, 0))
        for e in battle.events:
            if e.kind in (K.PARTING_SHOT, K.FREE_ATTACK) and e.target in figures:
                self._add(figures[e.target].side, "parting shots drawn")
            elif e.kind == K.FRIENDLY_FIRE and e.outcome != "miss" and e.actor in figures:
                self._add(figures[e.actor].side, "friends hit by own missiles")
        return {side: dict(c) for side, c in sorted(self.counts.items())}


def _attacked_this_turn(battle, figure_id: str) -> bool:
    for a in reversed(battle.actions):
        if getattr(a, "figure", None) != figure_id or a.kind == "end-turn":
            break
        if a.kind in ("attack", "charge"):
            return True
    return False


def _attack_left(battle, me, foes, gap) -> Attack | None:
    """An attack the resolver accepts now that may strike no friend (any weapon, foes nearest
    first), or None."""
    far = max(battle.farthest_strike_ft(me, w) for w in dict.fromkeys(me.weapons or ("fist",)))
    for foe in sorted(foes, key=lambda f: (gap[f.id], f.id)):
        if gap[foe.id] > far + 10:
            break
        for w in dict.fromkeys(me.weapons or ("fist",)):
            attack = Attack(figure=me.id, target=foe.id, weapon=None if w == me.ready_weapon else w)
            if battle.check(attack) is None and _worth_striking(battle, attack):
                return attack
    return None


def _worth_striking(battle, attack: Attack) -> bool:
    """An attack with some chance to hit (the roll's own odds) that puts no friend at risk: not a
    shot into a melee where the ruleset's into-melee rule may send it at a friend."""
    breakdown = battle.preview(attack).breakdown
    if breakdown is None:
        return True
    if breakdown.chance() <= 0:
        return False                # e.g. cnc: an archer's arrow against a knight's armour
    return breakdown.kind != "ranged" or battle.into_melee_risk(breakdown).p_friend_struck <= 0


def add_up(per_side: list[dict]) -> dict:
    """Counts from several battles (or sides) added kind by kind."""
    out = dict.fromkeys(FIELDS, 0)
    for counts in per_side:
        for k, v in counts.items():
            out[k] = out.get(k, 0) + v
    return out
