"""Two fivefoot processes saving into one slot folder at once keep every slot's label (issue 29:
the index was read, changed and written without a lock, and lost labels in 5 races of 30)."""
from __future__ import annotations

import multiprocessing

from game.client import saveslots


def _save_many(folder: str, slots: list[int], go) -> None:
    from pathlib import Path

    from battles import fig, make_battle
    battle = make_battle("bfrpg", "....\n....", [fig("a", "red", 0, 0), fig("b", "blue", 3, 1)])
    go.wait()
    for number in slots:
        saveslots.save(Path(folder), number, battle, f"label {number}")


def test_concurrent_saves_keep_every_label(tmp_path):
    context = multiprocessing.get_context("fork")
    go = context.Event()
    workers = [context.Process(target=_save_many, args=(str(tmp_path), slots, go))
               for slots in ([1, 3, 5, 7] * 5, [2, 4, 6, 8] * 5)]
    for worker in workers:
        worker.start()
    go.set()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    labels = {slot.number: slot.name for slot in saveslots.slots(tmp_path) if slot.used}
    assert labels == {n: f"label {n}" for n in range(1, 9)}
