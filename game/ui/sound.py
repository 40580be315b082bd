"""Short sounds for a hit, a miss, a fall and a turn change, made by the program (no sound files).

Each sound is a few hundredths of a second of samples computed with numpy (a thump with a crack
of noise for a hit, a falling swish for a miss, a sliding low tone for a fall, two soft notes for
a new turn) and handed to pygame.sndarray. The mixer is opened on first use; where there is no
audio device it cannot open and the window is simply silent. Sounds follow the animation: an
event sounds when the log shows it (`Sounds.follow`), so a blow is heard as it lands.
"""
from __future__ import annotations

import numpy as np

from ..core.values.events import ATTACK_KINDS, EventKind as K

RATE = 22050
VOLUME = 0.35


def sound_for(event) -> str | None:
    """Which sound an event makes: hit, miss, fall, turn, or None."""
    kind = event.kind
    if kind == K.DOWN:
        return "fall"
    if kind in ATTACK_KINDS:
        if event.outcome == "hit":
            return "hit"
        if event.outcome == "miss":
            return "miss"
        return None
    if kind in (K.END_TURN, K.TURN):                 # a turn ends: the next figure's begins
        return "turn"
    return None


def _envelope(n: int, attack: float = 0.005, rate: int = RATE) -> np.ndarray:
    a = max(1, int(attack * rate))
    env = np.exp(-np.linspace(0.0, 6.0, n))
    env[:a] *= np.linspace(0.0, 1.0, a)
    return env


def samples(name: str, rate: int = RATE) -> np.ndarray:
    """The sound as mono float samples in [-1, 1] (deterministic: the noise has a fixed seed)."""
    rng = np.random.default_rng(7)
    if name == "hit":
        n = int(0.16 * rate)
        t = np.arange(n) / rate
        thump = np.sin(2 * np.pi * (140 - 260 * t) * t)
        crack = rng.uniform(-1, 1, n) * np.exp(-t * 60)
        wave = (0.8 * thump + 0.6 * crack) * _envelope(n, rate=rate)
    elif name == "miss":
        n = int(0.22 * rate)
        noise = rng.uniform(-1, 1, n)
        smooth = np.convolve(noise, np.ones(6) / 6, mode="same")     # a soft low-passed whoosh
        rise = np.sin(np.linspace(0, np.pi, n))
        wave = smooth * rise * 0.9
    elif name == "fall":
        n = int(0.45 * rate)
        t = np.arange(n) / rate
        freq = 220 * np.exp(-t * 3.0)
        wave = np.sin(2 * np.pi * np.cumsum(freq) / rate) * _envelope(n, 0.01, rate) ** 0.5
    elif name == "turn":
        n = int(0.12 * rate)
        t = np.arange(n) / rate
        first = np.sin(2 * np.pi * 660 * t) * _envelope(n, rate=rate)
        second = np.sin(2 * np.pi * 880 * t) * _envelope(n, rate=rate)
        wave = np.concatenate([first, second]) * 0.5
    else:
        raise ValueError(f"no sound called {name!r}")
    return np.clip(wave, -1.0, 1.0)


class Sounds:
    """The window's sounds: on or off (the mute key, the settings), silent without an audio device."""

    NAMES = ("hit", "miss", "fall", "turn")

    def __init__(self, on: bool = True):
        self.on = on
        self.available: bool | None = None      # None: the mixer not tried yet
        self._sounds: dict = {}
        self._heard = 0                          # events already sounded (or passed over)
        self.played: list[str] = []              # the names played, newest last (tests read it)

    def _open(self) -> bool:
        if self.available is None:
            try:
                import pygame
                if not pygame.mixer.get_init():
                    pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=512)
                freq, _size, channels = pygame.mixer.get_init()
                for name in self.NAMES:
                    wave = (samples(name, freq) * VOLUME * 32767).astype(np.int16)
                    if channels > 1:
                        wave = np.repeat(wave[:, None], channels, axis=1)
                    self._sounds[name] = pygame.sndarray.make_sound(np.ascontiguousarray(wave))
                self.available = True
            except Exception:               # no audio device, no mixer: the window is silent
                self.available = False
        return self.available

    def play(self, name: str) -> None:
        if not self.on or not self._open():
            return
        self._sounds[name].play()
        self.played = (self.played + [name])[-50:]

    def skip_to(self, count: int) -> None:
        """Events up to `count` are passed over without a sound (a battle loaded or replaced)."""
        self._heard = count

    def follow(self, events, shown: int) -> None:
        """Sound the events the log has just shown: at most one of each kind per frame."""
        if shown < self._heard:
            self._heard = shown
        if shown == self._heard:
            return
        names = []
        for event in events[self._heard:shown]:
            name = sound_for(event)
            if name and name not in names:
                names.append(name)
        self._heard = shown
        for name in names:
            self.play(name)
