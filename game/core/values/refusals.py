"""Why an action cannot be taken: a key and its numbers, and the one place they become words.

The resolver refuses with a `Refusal` value (`"move.too-far"`, moved_ft=10, ...); the log, the
window's tooltips and the CLI all read `refusal.words`, made here from the key and the numbers,
so the same refusal reads the same everywhere. A test checks that every key the code uses has
words here and every key here is used.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NoReturn

from .numbers import feet


@dataclass(frozen=True)
class Refusal:
    """Why an action is refused: a message key with its values, and the rule."""

    key: str
    params: tuple[tuple[str, object], ...] = ()
    rule: str = ""

    @classmethod
    def of(cls, key: str, rule: str = "", **params) -> "Refusal":
        if key not in WORDS:
            raise KeyError(f"no words for refusal {key!r}")
        return cls(key, tuple(params.items()), rule)

    def get(self, name: str, default=None):
        return dict(self.params).get(name, default)

    @property
    def words(self) -> str:
        return WORDS[self.key](dict(self.params))

    def __str__(self) -> str:
        return self.words

    def to_json(self) -> dict:
        out = {"key": self.key, "params": {k: v for k, v in self.params}, "words": self.words}
        if self.rule:
            out["rule"] = self.rule
        return out


class ActionRefused(Exception):
    """The resolver refused an action. Nothing changed. `refusal` is the key and its numbers;
    `reason` is the same in a player's words."""

    def __init__(self, refusal: Refusal):
        super().__init__(refusal.words)
        self.refusal = refusal

    @property
    def reason(self) -> str:
        return self.refusal.words

    @property
    def rule(self) -> str:
        return self.refusal.rule


def refuse(key: str, rule: str = "", **params) -> NoReturn:
    """Refuse the action being checked: raise ActionRefused with this key and its numbers."""
    raise ActionRefused(Refusal.of(key, rule, **params))



PRONE_WORDS = {
    "turn": "it must stand up first (an action of its own), which takes its whole turn",
    "half-move": "it must stand up first (an action of its own), which costs half its move",
    "round-end": "it stays down until the end of the round",
}


def _rule(p: dict) -> str:
    return f" ({p['rule']})" if p.get("rule") else ""


WORDS: dict[str, Callable[[dict], str]] = {
    # ----- the battle, the figure, the turn -----
    "battle.over": lambda p: f"the battle is over ({p['outcome']})",
    "battle.unknown-action": lambda p: f"{p['kind']} is not an action this battle knows",
    "battle.unknown-figure": lambda p: f"there is no figure {p['figure']!r} in this battle",
    "battle.bad-value": lambda p: p["why"],
    "turn.not-yours": lambda p: f"it is not {p['who']}'s turn; it is {p['current']}'s",
    "prone": lambda p: f"{p['who']} is prone: " + PRONE_WORDS[p["stand"]] + _rule(p),
    "declare.not-declared": lambda p: (f"{p['what']} are not part of this ruleset's declarations (it declares: "
                                       f"{p['declared']}); they come on the figure's initiative number"),
    "declare.only-declarations": lambda p: f"{p['what']} come on their initiative numbers, after the declarations",
    # ----- the game master -----
    "place.off-map": lambda p: f"{p['x']},{p['y']} is off the map ({p['width']} x {p['height']} squares)",
    "place.below-floor": lambda p: "an altitude cannot be below the floor",
    "place.not-a-flyer": lambda p: f"{p['who']} cannot fly: only flyers have an altitude",
    "place.wall": lambda p: f"{p['x']},{p['y']} is a wall or obstacle: nothing can stand there",
    "place.occupied": lambda p: f"{p['x']},{p['y']} is occupied by {p['other']}",
    # ----- facing -----
    "turn.declared-with-move": lambda p: "facing changes are declared with the round's move",
    "turn.too-sharp": lambda p: (f"{p['who']} may turn at most {p['limit_deg']} degrees at a time"
                                 + (" while running" if p["running"] else "")
                                 + f"; {p['from']} to {p['to']} is {p['turn_deg']}"),
    "turn.no-room": lambda p: (f"{p['who']} cannot turn to {p['to']} here: its body ({p['footprint']}) pivots about "
                               f"its front square and would cover {p['x']},{p['y']} ({p['what']})"),
    "turn.too-soon": lambda p: (f"{p['who']} must move {p['turning_ft']} ft straight ahead before turning again; "
                                f"it has moved {feet(p['straight_ft'])} ft"
                                + (" (running adds to its turning distance)" if p["running"] else "")),
    # ----- moving -----
    "move.wrong-phase": lambda p: (f"movement happens in the movement phase of this initiative number; this is the "
                                   f"{p['phase']} phase"),
    "move.after-attack": lambda p: (f"{p['who']} has attacked this round: once a figure moves and attacks it cannot "
                                    f"move again until its next turn"),
    "move.stance-holds": lambda p: f"{p['who']} is in {p['stance']} and may not move this round{_rule(p)}",
    "move.stance-limit": lambda p: f"{p['who']} is in {p['stance']} and may move at most {feet(p['max_ft'])} ft",
    "move.weapon-set": lambda p: f"{p['who']} has set its weapon against a charge and holds its ground",
    "move.declared-in-segments": lambda p: (f"moves are declared at the start of the round and unfold across "
                                            f"segments; {p['who']} can only attack, aim or pass now"),
    "move.already-declared": lambda p: f"{p['who']} has already declared its move this round",
    "move.stance-no-move": lambda p: f"{p['who']} declared {p['stance']} and may not move this round",
    "move.too-far": lambda p: (f"{p['who']} has {feet(p['left_ft'])} ft of movement left this round; "
                               f"this move needs {feet(p['needed_ft'])} ft"),
    "move.none-left": lambda p: f"{p['who']} has no movement left this round (it has moved {feet(p['moved_ft'])} ft)",
    "move.exit-not-on-edge": lambda p: f"to leave the battle {p['who']} must end its move on the edge of the map",
    "move.no-path": lambda p: p["why"],
    "move.path": lambda p: p["why"],
    # ----- attacking -----
    "attack.own-side": lambda p: f"{p['target']} is on {p['who']}'s side",
    "attack.target-down": lambda p: f"{p['target']} is already out of the fight",
    "attack.no-such-weapon": lambda p: f"{p['who']} carries no {p['weapon']} (it has: {p['has']})",
    "attack.disarmed": lambda p: f"{p['who']} has been disarmed of its {p['weapon']}",
    "attack.fumbled": lambda p: f"{p['who']} lost this round's attacks to its fumble",
    "attack.stance": lambda p: f"{p['who']} is in {p['stance']} and cannot attack this round",
    "attack.disengaging": lambda p: f"{p['who']} is disengaging and can take no other action",
    "attack.none-left": lambda p: f"{p['who']} has no attacks left this round ({p['made']} of {p['limit']} made)",
    "attack.movement-phase": lambda p: "attacks come after everyone on this number has moved (movement phase now)",
    "attack.missile-phase": lambda p: ("this is the missile phase of the initiative number: melee attacks come in "
                                       "the melee phase"),
    "attack.melee-phase": lambda p: "missiles are loosed in the missile phase, before melee",
    "attack.ran": lambda p: f"{p['who']} ran this round: a running figure may not attack unless it charges",
    "attack.moved-too-far": lambda p: (f"{p['who']} moved {feet(p['moved_ft'])} ft this round; it may move at most "
                                       f"{feet(p['allowed_ft'])} ft and still attack{_rule(p)}"),
    "attack.reloading": lambda p: f"{p['who']}'s {p['weapon']} is not loaded again until round {p['ready_round']}",
    "attack.beyond-reach": lambda p: (f"{p['target']} is {p['distance_ft']} ft away, beyond the {p['reach_ft']} ft "
                                      f"melee reach of {p['who']}'s {p['weapon']}"),
    "attack.beyond-range": lambda p: (f"{p['target']} is {p['distance_ft']} ft away, beyond the long range "
                                      f"({p['long_ft']} ft) of the {p['weapon']}"),
    "attack.foe-too-close": lambda p: (f"{p['who']} cannot shoot with {p['foe']} within {p['gap_ft']} ft of it"
                                       f"{_rule(p)}"),
    "attack.surrounded": lambda p: (f"{p['who']} cannot get at {p['target']}: as many as can surround a {p['size']} "
                                    f"figure already attack it this round ({p['taken']:g} of {p['most']}, counted "
                                    f"as of human size){_rule(p)}"),
    "attack.blindsided": lambda p: (f"{p['who']} was caught from behind by {p['target']} this round and cannot "
                                    f"strike back until the next{_rule(p)}"),
    "move.no-attack-then-move": lambda p: f"{p['ruleset']} has no attack-then-move: declare a move that comes first",
    "move.after-attack-too-far": lambda p: (f"attacking then moving, {p['who']} may move at most half its move "
                                            f"({feet(p['most_ft'])} ft); this move needs {feet(p['needed_ft'])} ft"
                                            f"{_rule(p)}"),
    "move.fatigued": lambda p: f"{p['who']} is fatigued from running and may only walk{_rule(p)}",
    "attack.no-sight": lambda p: f"{p['who']} cannot see {p['target']}: no line of sight",
    "attack.several": lambda p: p["why"],
    "attack.no-foe": lambda p: f"{p['who']} has no foe left standing to attack",
    # ----- charging and setting -----
    "charge.declare-run": lambda p: f"{p['ruleset']} has no charge; declare a run and attack instead",
    "charge.none": lambda p: f"{p['ruleset']} has no charge; run and attack instead",
    "charge.not-a-foe": lambda p: f"{p['target']} is not a foe that can be charged",
    "charge.already-moved": lambda p: (f"{p['who']} has already moved this round: a charge starts from a "
                                       f"standstill of the turn"),
    "charge.no-attack": lambda p: f"{p['who']} has no attack left to end a charge with",
    "charge.limit": lambda p: (f"{p['who']} has already charged; the rules allow {p['limit']} charge per battle"
                               f"{_rule(p)}"),
    "charge.wrong-phase": lambda p: "a charge is made in the movement phase",
    "charge.not-announced": lambda p: (f"{p['who']} did not announce a charge: a charge is announced in the "
                                       f"declarations, before initiative{_rule(p)}"),
    "charge.other-target": lambda p: (f"{p['who']} announced a charge at {p['announced']}, not at {p['target']}"
                                      f"{_rule(p)}"),
    "charge.already-announced": lambda p: f"{p['who']} has already announced a charge at {p['target']}",
    "charge.lane": lambda p: p["why"],
    "set.no-rule": lambda p: f"{p['ruleset']} has no rule for setting a weapon against a charge",
    "set.wrong-weapon": lambda p: (f"{p['who']}'s {p['weapon']} cannot be set against a charge "
                                   f"(needs one of: {p['fit']})"),
    "set.already-acted": lambda p: (f"{p['who']} has already moved or attacked this round: setting a weapon holds "
                                    f"the action"),
    # ----- aiming, defending, holding -----
    "aim.none": lambda p: f"{p['ruleset']} has no aimed shots",
    "aim.no-missile": lambda p: f"{p['who']} needs a ready missile weapon to aim (it holds {p['weapon']})",
    "aim.no-target": lambda p: "aim at a target: name the figure",
    "aim.on-initiative": lambda p: "careful aim takes one of the figure's attacks: aim on its initiative number",
    "aim.moved": lambda p: f"{p['who']} has moved: aiming needs it to stand still",
    "aim.attacked": lambda p: f"{p['who']} has attacked this round: aiming takes the whole round",
    "defend.unknown": lambda p: f"{p['ruleset']} has no {p['style']!r} defense; it has: {p['styles']}",
    "defend.declare-first": lambda p: f"{p['style']} is declared at the start of the round",
    "defend.after-attack": lambda p: f"{p['who']} has attacked this round and cannot take up {p['style']}",
    "defend.trade-range": lambda p: f"{p['who']} may trade 1 to {p['most']} SC for DEF (weapon rank x 5)",
    "defend.none": lambda p: f"{p['ruleset']} has no defensive stances",
    "hold.declare-instead": lambda p: "in these rules actions come on their initiative numbers; declare instead",
    "hold.already-acted": lambda p: f"{p['who']} has already acted this turn and cannot hold it",
    "hold.not-later": lambda p: (f"{p['other']} does not act later this round; {p['who']} can only wait for a "
                                 f"later figure"),
    # ----- standing up -----
    "stand.not-prone": lambda p: f"{p['who']} is not prone",
    "stand.round-end": lambda p: f"{p['who']} is down until the end of the round: it cannot get up sooner{_rule(p)}",
    "stand.declare": lambda p: f"getting up is declared at the start of the round, in {p['who']}'s declaration{_rule(p)}",
    "stand.wrong-phase": lambda p: "getting up is done in the movement phase of this initiative number",
    "stand.whole-turn": lambda p: (f"getting up takes {p['who']}'s whole turn, and it has already moved or attacked"
                                   f"{_rule(p)}"),
    "stand.no-movement": lambda p: (f"getting up costs half {p['who']}'s move ({feet(p['need_ft'])} ft); it has "
                                    f"{feet(p['left_ft'])} ft left{_rule(p)}"),
    "stand.getting-up": lambda p: f"{p['who']} is getting up this round and can do nothing else",
    # ----- mounts and riders -----
    "mount.ridden": lambda p: (f"{p['who']} is ridden by {p['rider']}: it goes where its rider guides it, so "
                               f"{p['rider']}'s action moves it ({p['what']} {p['rider']}){_rule(p)}"),
    "mount.cannot": lambda p: f"{p['who']} cannot ride {p['mount']}: {p['why']}{_rule(p)}",
    "mount.not-beside": lambda p: (f"{p['who']} must stand beside {p['mount']} to get on it ({feet(p['gap_ft'])} ft "
                                   f"away){_rule(p)}"),
    "mount.whole-turn": lambda p: (f"getting {p['way']} takes {p['who']}'s whole turn, and it has already moved or "
                                   f"attacked this round{_rule(p)}"),
    "mount.no-movement": lambda p: (f"getting {p['way']} costs half the round's movement ({feet(p['need_ft'])} ft of "
                                    f"{p['whose']} move); {feet(p['left_ft'])} ft is left{_rule(p)}"),
    "mount.declare": lambda p: (f"in these rules getting {p['way']} is declared at the start of the round, in "
                                f"{p['who']}'s declaration, and takes its round{_rule(p)}"),
    "mount.pair": lambda p: (f"{p['what']} a rider or a ridden mount is not in the rules here: pull the rider off "
                             f"with an attack where the document allows it, or attack the rider or the mount"),
    "dismount.not-riding": lambda p: f"{p['who']} is not riding anything",
    "dismount.square": lambda p: f"{p['who']} cannot get down on {p['x']},{p['y']}: {p['why']}",
    "unhorse.none": lambda p: f"{p['ruleset']} has no rule for pulling a rider off its mount{_rule(p)}",
    "unhorse.weapon": lambda p: (f"only {p['fit']} may pull a rider off here; {p['who']}'s {p['weapon']} cannot"
                                 f"{_rule(p)}"),
    "unhorse.not-riding": lambda p: f"{p['target']} is not riding: there is nobody to pull off a mount",
    # ----- manoeuvres: grapple, trip, push, overbear -----
    "manoeuvre.none": lambda p: f"{p['ruleset']} has no {p['what']}: its document has no rule for it",
    "manoeuvre.not-beside": lambda p: (f"{p['who']} must stand beside {p['target']} to {p['what']} it "
                                       f"({feet(p['gap_ft'])} ft away)"),
    "grapple.already-holding": lambda p: f"{p['who']} already holds {p['held']}",
    "grapple.too-many": lambda p: (f"{p['target']} is already held by as many as may hold it ({p['weight']:g} of "
                                   f"{p['most']}: a smaller holder counts half, a larger one double){_rule(p)}"),
    "grapple.held": lambda p: (f"{p['who']} is held by {p['holder']} and can only try to escape{_rule(p)}"),
    "grapple.held-no-move": lambda p: f"{p['who']} is held by {p['holder']} and cannot move until it escapes{_rule(p)}",
    "grapple.unarmed-only": lambda p: (f"{p['who']} {p['why']}: it may strike only unarmed (fist), not with its "
                                       f"{p['weapon']}{_rule(p)}"),
    "grapple.holding-other": lambda p: f"{p['who']} holds {p['held']}: it may strike only the figure it holds{_rule(p)}",
    "grapple.not-held": lambda p: f"{p['who']} is not held by anyone",
    "grapple.not-holding": lambda p: f"{p['who']} is not holding anyone",
    "grapple.escape-after-attack": lambda p: f"{p['who']} has already acted this round: escaping takes its action",
    "grapple.escape-square": lambda p: (f"{p['x']},{p['y']} is not a free square beside {p['holder']}: an escaping "
                                        f"figure steps next to its holder"),
    "grapple.no-drag": lambda p: (f"{p['who']} holds {p['held']} and {p['ruleset']} has no rule for dragging a held "
                                  f"figure: let go first"),
    "grapple.drag-too-far": lambda p: (f"{p['who']} drags {p['held']} at {p['fraction']} its move: {feet(p['left_ft'])} "
                                       f"ft left, this move needs {feet(p['needed_ft'])} ft{_rule(p)}"),
    "trip.square": lambda p: p["why"],
    "push.square": lambda p: p["why"],
    "push.not-desperate": lambda p: (f"{p['target']} is not in desperate defense: only a desperate defender may be "
                                     f"forced to move{_rule(p)}"),
    "overbear.too-large": lambda p: (f"{p['target']} is {p['steps']} size categories larger than {p['who']}: too big to "
                                     f"knock over{_rule(p)}"),
    # ----- leaving melee -----
    "disengage.unknown-style": lambda p: (f"{p['ruleset']} has no {p['style']!r} disengagement"
                                          + (f" (it has: {p['styles']})" if p["styles"] else "")
                                          + ("; for a fighting withdrawal use a move with mode withdraw"
                                             if p["withdraw_hint"] else "")),
    "disengage.none": lambda p: f"{p['ruleset']} has no disengage action; move away instead",
    "disengage.on-turn": lambda p: "disengage on the figure's turn",
    "disengage.announce": lambda p: (f"{p['who']} must announce a disengagement at the start of the round (in its "
                                     f"declaration); walking away now is a hasty disengagement{_rule(p)}"),
    "disengage.rider": lambda p: (f"{p['who']} rides {p['mount']}: it leaves melee by moving its mount (the "
                                  f"disengagement styles are for figures on foot: engine choice)"),
    "disengage.not-in-melee": lambda p: f"{p['who']} is not in melee; just move",
    "disengage.already-acted": lambda p: (f"{p['who']} has already acted this round: disengaging takes the whole "
                                          f"action"),
    "disengage.hasty-too-far": lambda p: (f"a hasty disengagement moves at most {feet(p['budget_ft'])} ft; this "
                                          f"needs {feet(p['needed_ft'])} ft"),
}
