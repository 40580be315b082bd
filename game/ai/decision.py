"""What the AI weighed for one choice: its plans, each with a score made of named reasons.

A Plan is the rest of a figure's turn (move then attack, charge, set, withdraw, ...); its score is
in "hit points gained for my side", the sum of its reasons, e.g. ("flank +1", 0.4) or
("parting shot from Goblin +2", -1.7). `Decision.explain()` prints them, best first; the window
shows it via `controller.last_decision.explain()`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.values.actions import Action
from .words import plan_words


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

    def words(self, figures) -> str:
        """What it goes for and what it risks, in a player's words (figures: id -> Figure, for names)."""
        return plan_words(self, figures)

    def to_json(self) -> dict:
        return {"label": self.label, "score": round(self.score, 3), "actions": [a.to_json() for a in self.actions],
                "reasons": [[n, v] for n, v in self.reasons]}


def rank_key(plan: Plan) -> tuple:
    """Best first; among plans worth the same, the one with fewer actions (no step taken for nothing),
    then by label (determinism)."""
    return (-round(plan.score, 9), len(plan.actions), plan.label)


@dataclass
class Decision:
    """What the AI weighed for one choice, best first."""

    figure: str
    round: int
    difficulty: str
    plans: list[Plan]
    elapsed_ms: float = 0.0
    chosen: int = 0
    searched: int = 0              # hard: how many of the first plans were searched through the resolver
    moves: int = 0                 # ... and how many moves of friends and foes that search weighed

    @property
    def options(self) -> list[tuple[Action, float, list]]:
        """(first action, score, [(reason, value), ...]) for every plan, best first."""
        return [(p.actions[0], round(p.score, 3), list(p.reasons)) for p in self.plans]

    @property
    def best(self) -> Plan:
        return self.plans[self.chosen]

    @property
    def action(self) -> Action:
        return self.best.actions[0]

    def explain(self, limit: int = 5) -> str:
        head = f"{self.figure} (round {self.round}, {self.difficulty}, {self.elapsed_ms:.0f} ms"
        head += f", searched {self.searched} plan(s) ahead, {self.moves} moves of friends and foes):" \
            if self.searched else "):"
        lines = [head]
        shown = list(range(min(limit, len(self.plans))))
        if self.chosen not in shown:
            shown.append(self.chosen)
        for i in shown:
            p = self.plans[i]
            mark = "*" if i == self.chosen else " "
            why = ", ".join(f"{n} {v:+.2f}" for n, v in p.reasons)
            refused = f" (refused: {p.data['refused']})" if p.data.get("refused") else ""
            lines.append(f" {mark} {p.score:+7.2f}  {p.label}{refused}  [{why}]")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"figure": self.figure, "round": self.round, "difficulty": self.difficulty,
                "elapsed_ms": round(self.elapsed_ms, 1), "chosen": self.chosen, "searched": self.searched,
                "moves": self.moves,
                "plans": [p.to_json() for p in self.plans]}
