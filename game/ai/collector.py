"""The cyclic garbage collector held off while the AI thinks.

A decision allocates a great many short-lived answers (plans, odds, search entries, copies of the
battle for hard's look-ahead) and frees nearly all of them itself, by reference counting, when it
returns. With the collector running, the ones still alive at a young collection are promoted and
soon force a full collection, which walks every object of the battle and the AI's memo: on a big
field that was a third of hard's thinking (100 a side: about 100 ms a pass, every few turns).
Held off, the short-lived answers die young; what a decision leaves behind (or any cycle it made)
is collected once, young, as it hands its answer back if it allocated enough for a young pass to be
due (as one would be at the next allocation), so that pass counts in the decision's time.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_held():
    """Hold off the cyclic collector for the block (nested: the outermost block releases it); on
    leaving, let it run again, collecting the young generation first where a pass is due."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        if gc.get_count()[0] > gc.get_threshold()[0]:
            gc.collect(0)
