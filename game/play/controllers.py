"""Who decides for each side: a person at the window, or a controller such as the AI.

A controller is any object with

    name: str
    is_human: bool
    choose(battle, figure_id) -> Action

called when it is that figure's turn; it never changes the battle (the caller applies the action
through `battle.apply`, exactly like a click). `make("ai-hard")` builds one by kind;
`fivefoot play --side red=ai-hard` and the start screen offer every kind `kinds()` lists.
"""
from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from ..ai.controller import AIController
from ..ai.brain import DIFFICULTIES
from ..core.values.actions import Action, EndTurn
from ..core.values.errors import RulesError


@runtime_checkable
class Controller(Protocol):
    name: str
    is_human: bool

    def choose(self, battle, figure_id: str) -> Action: ...


class Human:
    """A person clicking in the window: the window never asks it to choose."""

    name = "person"
    is_human = True

    def choose(self, battle, figure_id: str) -> Action:  # pragma: no cover - never called
        raise RuntimeError("a person chooses with the mouse and keyboard")


class Passer:
    """Ends each of its figures' turns at once (a side that only stands there: tests, demonstrations)."""

    name = "passes"
    is_human = False

    def choose(self, battle, figure_id: str) -> Action:
        return EndTurn(figure=figure_id)


def _ai(level: str) -> Callable[[], AIController]:
    return lambda: AIController(level)


_FACTORIES: dict[str, Callable[[], object]] = {"human": Human, "person": Human, "pass": Passer, "ai": _ai("normal")}
_FACTORIES.update({f"ai-{level}": _ai(level) for level in DIFFICULTIES})


def kinds() -> list[str]:
    return sorted(_FACTORIES)


def make(kind: str):
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        raise RulesError(f"unknown player kind {kind!r}: use one of {', '.join(kinds())}") from None
    return factory()


def is_human(controller) -> bool:
    """No controller is a person's side; an object that does not say (a bare `game.ai.brain.AI`, as
    `simulate` plays) is not a person."""
    return controller is None or getattr(controller, "is_human", False)
