"""Test-wide settings safe for every module: pygame windows are off-screen, sound is silent."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# No test asserts a wall-clock time (tests/budget.py): Hypothesis's per-example deadline (200 ms by
# default) and its too-slow health check would fail on a slow or busy machine, so both are off for
# every property test; a test's own @settings still sets the rest.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("fivefoot", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fivefoot")
