"""Who decides for each side: a person at the window, or a controller such as the AI.

The AI is a later piece of work; it plugs in here. A controller is any object with

    name: str
    choose(battle, figure_id) -> Action

called when it is that figure's turn. The window applies the action through battle.apply,
exactly like a click; a refused action is shown and the controller is asked again (after
three refusals in a row the window ends that figure's turn so play never stalls).
Register a new kind with `register("ai", factory)`; `fivefoot play --side red=ai` then uses it.
"""
from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from ..core.actions import Action, EndTurn


@runtime_checkable
class Controller(Protocol):
    name: str

    def choose(self, battle, figure_id: str) -> Action: ...


class Human:
    """A person clicking in the window: the window never asks it to choose."""

    name = "person"
    is_human = True

    def choose(self, battle, figure_id: str) -> Action:  # pragma: no cover - never called
        raise RuntimeError("a person chooses with the mouse and keyboard")


class EndTurnController:
    """Placeholder AI: ends its turn at once. The real AI replaces it via register('ai', ...)."""

    name = "AI (passes)"
    is_human = False

    def choose(self, battle, figure_id: str) -> Action:
        return EndTurn(figure=figure_id)


_FACTORIES: dict[str, Callable[[], object]] = {
    "human": Human,
    "person": Human,
    "ai": EndTurnController,
    "pass": EndTurnController,
}


def register(kind: str, factory: Callable[[], object]) -> None:
    """Make `kind` available to --side and the start screen (the AI engineer calls this)."""
    _FACTORIES[kind] = factory


def kinds() -> list[str]:
    return sorted(_FACTORIES)


def make(kind: str):
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        from ..core.errors import RulesError
        raise RulesError(f"unknown player kind {kind!r}: use one of {', '.join(kinds())}") from None
    return factory()


def _load_plugins() -> None:
    """A future game/ai package may register its controller on import."""
    import importlib
    try:
        importlib.import_module("game.ai")
    except ImportError:
        pass


_load_plugins()


def is_human(controller) -> bool:
    return bool(getattr(controller, "is_human", False))
