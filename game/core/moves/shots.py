"""Among equally cheap paths to the same end, the one that gives foes the fewest parting shots.

The search keeps every equally cheap way into each state (SearchResult.tight_parents), so the
cheapest paths to an end form a small graph without cycles. Which foes a path gives a shot to
is decided step by step (leaving a foe's reach or zone) or square by square (passing within a
foe's pass-by distance, unless the move ends engaged with it), so the fewest shots is a search
over that graph carrying the set of foes struck so far. The answer is checked with
Engagement.parting_shots, the resolver's own count, before it replaces the first path found.
"""
from __future__ import annotations

from ..values.figure import Figure
from ..values.numbers import feet
from .engagement import Engagement, PartingShot
from .path import Path
from .rules import EPS

MAX_FOES = 12   # beyond this many foes in play the first cheapest path is kept as it is


def fewest_shots(result, engagement: Engagement, mover: Figure, figures: list[Figure], target, facing,
                 altitude_ft) -> tuple[Path, tuple[PartingShot, ...], str] | None:
    """(path, its parting shots, a note on the choice or "") for the cheapest end as asked, or None."""
    result.run_to(target, facing, altitude_ft)
    ends = result.end_states(target, facing, altitude_ft)
    if not ends:
        return None
    first = result.build_path(result.chain(ends[0]), facing)
    shots = tuple(engagement.parting_shots(mover, first.steps, first.mode, figures))
    if not shots:
        return first, shots, ""
    ps = engagement.ruleset.section("parting_shots")
    if ps["trigger"] == "withdraw-from-melee":
        return first, shots, ""  # decided by where the move starts and ends, not by the way
    cheapest = result.cost(ends[0])
    candidates = [e for e in ends if result.cost(e) <= cheapest + EPS]
    better = _search_fewer(result, engagement, mover, figures, candidates, len(shots))
    if better is None:
        return first, shots, ""
    path = result.build_path(better, facing)
    fewer = tuple(engagement.parting_shots(mover, path.steps, path.mode, figures))
    if len(fewer) >= len(shots):
        return first, shots, ""
    note = (f"chose a path drawing {len(fewer)} parting shot{'s' if len(fewer) != 1 else ''} over an equally cheap one "
            f"({feet(cheapest)} ft) drawing {len(shots)}")
    return path, fewer, note


def _search_fewer(result, engagement: Engagement, mover: Figure, figures, candidates, to_beat: int):
    """The chain of states to one of the candidate ends drawing the fewest shots, if fewer than to_beat."""
    nodes, order = _tight_graph(result, candidates)
    triggers = _Triggers(result, engagement, mover, figures, nodes)
    if triggers.count == 0 or triggers.count > MAX_FOES:
        return None
    start = result.start_state
    masks: dict = {start: {0: None}}
    for node in order:
        if node == start:
            continue
        here: dict = {}
        node_bits = triggers.node_mask(node)
        for prev, _kind in result.tight_parents(node):
            before = masks.get(prev)
            if not before:
                continue
            step_bits = triggers.edge_mask(prev, node) | node_bits
            for mask in before:
                _keep_minimal(here, mask | step_bits, (prev, mask))
        masks[node] = here
    best = None
    for rank, end in enumerate(candidates):
        exempt = triggers.exempt_at_end(end)
        for mask in masks.get(end, {}):
            count = bin(mask & ~exempt).count("1")
            key = (count, rank)
            if best is None or key < best[0]:
                best = (key, end, mask)
    if best is None or best[0][0] >= to_beat:
        return None
    _key, node, mask = best
    chain = [node]
    while node != start:
        node, mask = masks[node][mask]
        chain.append(node)
    chain.reverse()
    return chain


def _keep_minimal(masks: dict, mask: int, back) -> None:
    """Add a set of struck foes unless a subset is already known; drop known supersets."""
    for other in masks:
        if other & mask == other:
            return
    for other in [o for o in masks if o & mask == mask]:
        del masks[other]
    masks[mask] = back


def _tight_graph(result, candidates) -> tuple[set, list]:
    """States on some cheapest way to the candidate ends, parents before children."""
    nodes: set = set()
    order: list = []
    for end in candidates:
        if end in nodes:
            continue
        stack = [(end, False)]
        while stack:
            state, expanded = stack.pop()
            if expanded:
                order.append(state)
                continue
            if state in nodes:
                continue
            nodes.add(state)
            stack.append((state, True))
            for prev, _kind in result.tight_parents(state):
                if prev not in nodes:
                    stack.append((prev, False))
    return nodes, order


class _Triggers:
    """Which foes a step or a square gives a parting shot to, as bit masks (one bit per foe in play)."""

    def __init__(self, result, engagement: Engagement, mover: Figure, figures, nodes):
        self.result = result
        self.eng = engagement
        self.mover = mover
        ps = engagement.ruleset.section("parting_shots")
        self.trigger = ps["trigger"]
        self.pass_by = ps["pass_by_ft"]
        foes = [f for f in figures if f.side != mover.side and f.id != mover.id]
        allies = [f for f in figures if f.side == mover.side and f.id != mover.id]

        def busy(foe):
            return engagement.busy(foe, mover, allies)
        engaged = [f for f in foes if engagement.in_zone(mover, f)]
        withdraw_free = result.params.mode == "withdraw" and ps["withdrawal_avoids"]
        self.leave = [] if withdraw_free else [f for f in engaged if not busy(f)]
        self.passing = [] if withdraw_free or not self.pass_by else [
            f for f in foes if f not in engaged and not busy(f)]
        self.count = len(self.leave) + len(self.passing)
        self._inside: dict = {}
        self._near: dict = {}

    def _pos(self, state):
        grid = self.result.planner.grid
        x, y = grid.square(state[0])
        return (x, y), state[4] - grid.elevation[state[0]]

    def _inside_mask(self, state) -> int:
        got = self._inside.get(state)
        if got is None:
            pos, alt = self._pos(state)
            facing = state[1] if state[1] >= 0 else None     # a long body's facing lays its cells
            body = self.eng.body(self.mover, pos, facing) if self.mover.big else None
            got = 0
            for bit, foe in enumerate(self.leave):
                inside = self.eng.in_zone(self.mover, foe, pos, alt, facing)
                if self.trigger == "leave-reach":
                    inside = inside or self.eng.threatens(foe, pos, alt, body)
                if inside:
                    got |= 1 << bit
            self._inside[state] = got
        return got

    def edge_mask(self, prev, node) -> int:
        if not self.leave or self._pos(prev) == self._pos(node):
            return 0
        return self._inside_mask(prev) & ~self._inside_mask(node)

    def node_mask(self, node) -> int:
        if not self.passing:
            return 0
        got = self._near.get(node)
        if got is None:
            pos, alt = self._pos(node)
            facing = node[1] if node[1] >= 0 else None
            got = 0
            eng = self.eng
            base = len(self.leave)
            for bit, foe in enumerate(self.passing):
                if eng.passes_within(self.mover, pos, alt, facing, foe, self.pass_by):
                    got |= 1 << (base + bit)
            self._near[node] = got
        return got

    def exempt_at_end(self, end) -> int:
        """Foes passed by that the move ends engaged with: engaging them is not passing them."""
        pos, alt = self._pos(end)
        base = len(self.leave)
        got = 0
        for bit, foe in enumerate(self.passing):
            if self.eng.in_zone(self.mover, foe, pos, alt, end[1] if end[1] >= 0 else None):
                got |= 1 << (base + bit)
        return got
