"""Playing out what happened: figures walk their paths square by square, strikes flash with
floating damage or "miss", a banner says whose turn it is, and the log follows along.

The battle has already changed when an action's events arrive; the Animator only decides
where tokens are drawn meanwhile and how many events the log shows. Events become beats:
a walk along the steps a move event carries (cut where a parting shot strikes the mover), a
strike (attacker, target, outcome, damage), a figure going down; other events take no time.
Pure timing and geometry, no pygame: the scene asks `pose`, `floaters`, `flashes`.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from ..core.values.events import ATTACK_KINDS, EventKind
from ..core.values.geometry import parse_facing

# Seconds per square walked, per speed setting; "off" shows the result at once.
SPEEDS = {"slow": 0.26, "normal": 0.13, "fast": 0.06, "off": 0.0}
SPEED_ORDER = ("normal", "fast", "off", "slow")
STRIKE_S = 0.45
DOWN_S = 0.35
FLOAT_S = 1.3
BANNER_S = 1.6


@dataclass
class Beat:
    kind: str                        # "walk", "strike", "down", "event"
    event_index: int                 # the log shows events up to this one while it plays
    duration: float = 0.0
    figure: str | None = None
    steps: tuple = ()                # walk: (x, y, facing, altitude_ft) per square, the start first
    target: str | None = None
    words: str = ""                  # strike: "-4", "miss", "crit -9"; down: "down"
    hit: bool = False
    started: float | None = None


@dataclass
class Floater:
    text: str
    figure: str
    good: bool
    born: float


@dataclass
class Banner:
    text: str
    born: float


@dataclass
class Animator:
    speed: str = "normal"
    clock: object = time.monotonic
    beats: deque = field(default_factory=deque)
    floaters: list = field(default_factory=list)
    banner: Banner | None = None
    shown_events: int | None = None   # None: the log shows every event

    # ----- feeding it -----
    def play(self, events, first_index: int) -> None:
        """Queue the beats for `events` (the battle's events from `first_index` on)."""
        if self.speed == "off":
            self.shown_events = None
            return
        if self.shown_events is None:
            self.shown_events = first_index
        self.beats.extend(beats_for(events, first_index, SPEEDS[self.speed]))

    def announce(self, text: str) -> None:
        if self.speed != "off":
            self.banner = Banner(text, self.clock())

    def remaining_s(self) -> float:
        """Seconds of beats still to play (0 when nothing is queued or animation is off)."""
        return sum(b.duration for b in self.beats)

    def skip(self) -> None:
        """Show the end of everything queued at once."""
        self.beats.clear()
        self.shown_events = None

    def busy(self) -> bool:
        return bool(self.beats)

    # ----- advancing -----
    def update(self) -> None:
        now = self.clock()
        while self.beats:
            beat = self.beats[0]
            if beat.started is None:
                beat.started = now
                self.shown_events = beat.event_index + 1
                if beat.kind in ("strike", "down") and beat.words:
                    self.floaters.append(Floater(beat.words, beat.target, not beat.hit, now))
            if now - beat.started < beat.duration:
                break
            self.beats.popleft()
        if not self.beats:
            self.shown_events = None
        self.floaters = [f for f in self.floaters if now - f.born < FLOAT_S]
        if self.banner is not None and now - self.banner.born > BANNER_S:
            self.banner = None

    # ----- what the scene draws -----
    def pose(self, figure_id: str):
        """(x, y, facing, altitude_ft) to draw the figure at while its walk plays (x, y may be
        fractional), or None when it stands where the battle says."""
        now = self.clock()
        for beat in self.beats:
            if beat.kind != "walk" or beat.figure != figure_id:
                continue
            if beat.started is None:
                return beat.steps[0]
            per = beat.duration / max(1, len(beat.steps) - 1)
            t = (now - beat.started) / per if per else len(beat.steps)
            i = min(int(t), len(beat.steps) - 2)
            if i < 0 or len(beat.steps) < 2:
                return beat.steps[-1]
            a, b = beat.steps[i], beat.steps[i + 1]
            f = min(1.0, t - i)
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, b[2] if f > 0.2 else a[2],
                    round(a[3] + (b[3] - a[3]) * f))
        return None

    def still_standing(self, figure_id: str) -> bool:
        """True while the figure's fall is still to be shown (draw it standing until then)."""
        return any(b.kind == "down" and b.figure == figure_id for b in self.beats)

    def flashes(self) -> list[tuple[str, str, bool, float]]:
        """(attacker, target, hit, progress 0..1) for the strike playing now."""
        now = self.clock()
        out = []
        if self.beats:
            beat = self.beats[0]
            if beat.kind == "strike" and beat.started is not None:
                out.append((beat.figure, beat.target, beat.hit, min(1.0, (now - beat.started) / beat.duration)))
        return out

    def floating(self):
        """(text, figure id, good, age 0..1) of the numbers rising over the figures."""
        now = self.clock()
        return [(f.text, f.figure, f.good, (now - f.born) / FLOAT_S) for f in self.floaters]


def strike_words(event) -> tuple[str, bool]:
    """What floats over the target: '-4', 'crit -9', 'miss'; and whether it hit."""
    data = event.data
    hit = bool(data.get("hit")) or event.outcome in ("hit", "critical")
    if not hit:
        return "miss", False
    damage = data.get("damage", 0)
    return ("crit " if data.get("critical") else "") + (f"-{damage}" if damage else "hit"), True


def beats_for(events, first_index: int, step_s: float) -> list[Beat]:
    out: list[Beat] = []
    walking: dict[str, Beat] = {}   # mover -> its walk beat still open to a cut by a parting shot
    for n, ev in enumerate(events):
        index = first_index + n
        steps = ev.data.get("steps") if isinstance(ev.data, dict) else None
        if ev.kind == EventKind.MOVE and steps:
            points = tuple((s["x"], s["y"], _facing_index(s["facing"]), s["altitude_ft"]) for s in steps)
            points = _squares_only(points)
            beat = Beat("walk", index, step_s * (len(points) - 1), figure=ev.actor, steps=points)
            out.append(beat)
            walking[ev.actor] = beat
        elif ev.kind == EventKind.MOVE:  # "falls and moves no further": the cut walk already ends there
            out.append(Beat("event", index))
        elif ev.kind in ATTACK_KINDS and ev.target:
            mover = walking.get(ev.target)
            if mover is not None and ev.kind == EventKind.PARTING_SHOT and ev.squares:
                rest = _cut(mover, ev.squares[-1], step_s)
                out.append(Beat("strike", index, STRIKE_S, figure=ev.actor, target=ev.target,
                                words=strike_words(ev)[0], hit=strike_words(ev)[1]))
                if rest is not None:
                    out.append(rest)
                    walking[ev.target] = rest
                continue
            words, hit = strike_words(ev)
            out.append(Beat("strike", index, STRIKE_S, figure=ev.actor, target=ev.target, words=words, hit=hit))
        elif ev.kind == EventKind.DOWN and ev.actor:
            if out and out[-1] is walking.get(ev.actor):  # felled on its way: it walks no further
                out.pop()
            walking.pop(ev.actor, None)
            out.append(Beat("down", index, DOWN_S, figure=ev.actor, target=ev.actor, words=ev.outcome or "down", hit=True))
        else:
            out.append(Beat("event", index))
    return out


def _cut(beat: Beat, square, step_s: float) -> Beat | None:
    """Cut a walk where the mover leaves `square` (a parting shot strikes there); the rest is returned."""
    for i, p in enumerate(beat.steps):
        if (p[0], p[1]) == tuple(square) and i < len(beat.steps) - 1:
            rest = beat.steps[i:]
            beat.steps = beat.steps[: i + 1]
            beat.duration = step_s * (len(beat.steps) - 1)
            return Beat("walk", beat.event_index, step_s * (len(rest) - 1), figure=beat.figure, steps=rest)
    return None


def _squares_only(points: tuple) -> tuple:
    """Drop turns on the spot after the first point, keeping the last facing (a walk shows squares)."""
    out = [points[0]]
    for p in points[1:]:
        if (p[0], p[1], p[3]) == (out[-1][0], out[-1][1], out[-1][3]):
            out[-1] = p
        else:
            out.append(p)
    return tuple(out)


def _facing_index(name: str) -> int:
    return parse_facing(name)


def next_speed(speed: str) -> str:
    return SPEED_ORDER[(SPEED_ORDER.index(speed) + 1) % len(SPEED_ORDER)] if speed in SPEED_ORDER else "normal"
