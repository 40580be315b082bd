"""Opening the game window for `fivefoot play`: the command (game/commands/play.py) checks the
arguments and the files and says what to open (a WindowRequest); the command line hands it here.
Commands never import the window: this is the one door from the command line into pygame.
"""
from __future__ import annotations

import json
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def quit_on_sigterm():
    """SIGTERM ends `play` at once, whatever the window is doing.

    SDL turns SIGTERM into a QUIT event, which waits until the next frame reads its events,
    and a script, a screenshot or a frame count never reads them: so raise SystemExit here,
    at the next Python instruction. Saves are written atomically, so nothing is torn.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def open_window(request) -> int:
    """Open the window on the request (a script played through it, a screenshot, or a person's
    session until the window closes). Exit status 1 when a scripted action was refused. A picture's
    request (`fivefoot picture`) is drawn off-screen into files instead (game/ui/pictures.py)."""
    with quit_on_sigterm():
        if getattr(request, "draws", "") == "picture":
            from .pictures import draw_pictures
            return draw_pictures(request)
        return _open(request)


def _open(request) -> int:
    from .app import App
    settings = None
    if not (request.headless or request.script is not None or request.screenshot):
        from ..client.settings import load_settings     # a person's window: their settings, kept between runs
        from ..core.values.safetext import printable
        from ..io.rulesets import bundled_ruleset_ids
        settings = load_settings(rulesets=bundled_ruleset_ids())
        for note in settings.notes:
            print(printable(f"fivefoot: {note}", one_line=True), file=sys.stderr)
    animation = request.animation or (settings.animation if settings is not None else None)
    app = App(request.scenario, sides=request.sides, size=request.size, start_screen=request.ask,
              save_dir=request.save_dir, battle=request.battle,
              animate=None if animation is None else animation != "off", settings=settings)
    if animation and animation != "off":
        app.animator.speed = animation
    if getattr(request, "lesson", None) is not None:
        from .lessonbar import open_lesson, show_step
        open_lesson(app, request.lesson, request.lesson_step)
        if request.lesson_ruleset and request.lesson_ruleset != request.lesson.ruleset.id:
            show_step(app, request.lesson_step - 1, request.lesson_ruleset)
    if request.script is not None or request.headless:
        app.on_events = lambda events: [print(e.text) for e in events]
    refused = []  # only a script's refused actions make the exit status 1; a person's refused clicks do not
    import pygame
    try:
        if request.script is not None:
            app.on_refused = lambda action, reason: (refused.append(reason), print(
                f"refused: {json.dumps(action.to_json())}: {reason}", file=sys.stderr))
            for action in request.script:
                app.submit(action)
                app.frame([])
            app.on_refused = None
        if request.screenshot:
            Path(request.screenshot).parent.mkdir(parents=True, exist_ok=True)
            app.settle()
            app.screenshot(request.screenshot)
            print(f"screenshot: {request.screenshot}")
        elif not request.headless:
            app.run(max_frames=request.frames)
        elif request.frames:
            for _ in range(request.frames):
                app.frame()
                if not app.running:  # the window was closed
                    break
    finally:
        pygame.quit()
    return 1 if refused else 0
