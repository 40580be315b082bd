"""Bounds for tests that guard against blow-ups, which a slow or busy machine cannot break.

No test asserts a wall-clock time (speed targets belong in bench/). What a test may bound:
- CPU time of the thread doing the work (`time.thread_time`: waiting for a busy machine's
  cores adds nothing to it, nor do other threads of the test process), with budgets at least
  ten times the typical cost, so only a blow-up (work growing with the hostile input) fails;
- a hang, by a wall-clock timeout so generous (`HANG_S`) that only a real hang trips it.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

HANG_S = 60.0  # a hang guard only: nothing that finishes at all takes this long


@contextmanager
def cpu_budget(seconds: float, what: str = "the work"):
    """Fail when the body used more than `seconds` of this thread's CPU time."""
    start = time.thread_time()
    yield
    used = time.thread_time() - start
    assert used < seconds, f"{what} used {used:.2f} s of CPU, over its {seconds} s budget: a blow-up"


@dataclass
class Run:
    value: object = None
    error: BaseException | None = None
    cpu_s: float = 0.0


def guarded(fn, hang_s: float = HANG_S) -> Run:
    """Call fn() on a worker thread: its value or error, and the CPU time it used (its own thread's).
    Fails only when it has not finished after `hang_s` seconds (a hang)."""
    run = Run()

    def work():
        start = time.thread_time()
        try:
            run.value = fn()
        except BaseException as err:  # handed back to the test
            run.error = err
        finally:
            run.cpu_s = time.thread_time() - start

    worker = threading.Thread(target=work, name="guarded", daemon=True)
    worker.start()
    worker.join(hang_s)
    assert not worker.is_alive(), f"still running after {hang_s:.0f} s: it hangs"
    return run


def guarded_traced(fn, trace: bool = True) -> tuple[Run, int]:
    """`guarded(fn)` with its peak traced memory in bytes (0 when `trace` is off: tracing makes
    Python-heavy work several times slower)."""
    import tracemalloc
    if not trace:
        return guarded(fn), 0
    tracemalloc.start()
    try:
        run = guarded(fn)
        return run, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
