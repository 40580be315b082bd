"""Long text without spaces draws at once, and `play` quits on SIGTERM or a closed window at any moment.

No assertion here depends on the machine's speed: wrapping is bounded by the font measurements it
makes, drawing huge text by its CPU time (far under the budget), quitting by what the loop did;
wall-clock limits are hang guards only (tests/budget.py)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from budget import HANG_S, cpu_budget
from window import SHOTS, make_app  # sets the dummy video driver first

import pygame  # noqa: E402

from game.ui.launch import quit_on_sigterm  # noqa: E402
from game.ui.theme import MAX_WRAP_LINES, Fonts  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fonts():
    pygame.font.init()
    return Fonts()


class CountingFont:
    """A font that counts the text it is asked to measure (the work wrapping does)."""

    def __init__(self, font):
        self.font, self.calls, self.chars = font, 0, 0

    def size(self, text):
        self.calls += 1
        self.chars += len(text)
        return self.font.size(text)


@pytest.mark.parametrize("length", [6_000, 3 * 1024 * 1024])
def test_a_long_word_wraps_in_linear_time_into_lines_that_fit(fonts, length, monkeypatch):
    text = "".join(chr(0x41 + i % 26) for i in range(length))
    counting = CountingFont(fonts.font(13))
    monkeypatch.setattr(fonts, "font", lambda size, bold=False: counting)
    lines = fonts.wrap(text, 300, 13)
    monkeypatch.undo()
    # Linear in what is shown: a binary search per line, over pieces of at most `most` characters
    # (cutting a character at a time, as before, measured the whole rest of the text per character).
    most = 4 * 300 + 16
    per_line = most.bit_length() + 3
    assert counting.calls <= per_line * (len(lines) + 1)
    assert counting.chars <= per_line * (len(lines) + 1) * (most + 1)
    assert all(fonts.size(line, 13)[0] <= 300 for line in lines)
    assert all(fonts.size(line + text[len("".join(lines[:i + 1]))], 13)[0] > 300  # each line is as full as it can be
               for i, line in enumerate(lines[:-1]))
    if length == 6_000:
        assert "".join(lines) == text
    else:
        assert len(lines) == MAX_WRAP_LINES and text.startswith("".join(lines))


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzWM", min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(words, min_size=1, max_size=40), st.integers(80, 400))
def test_words_wrap_greedily_and_nothing_is_lost(fonts, chosen, width):
    assume(all(fonts.size(word, 13)[0] <= width for word in chosen))  # no word needs cutting
    lines = fonts.wrap(" ".join(chosen), width, 13)
    assert " ".join(lines).split(" ") == chosen
    assert all(fonts.size(line, 13)[0] <= width for line in lines)
    for line, following in zip(lines, lines[1:]):  # greedy: the next word would not have fitted
        assert fonts.size(f"{line} {following.split(' ')[0]}", 13)[0] > width


def test_the_window_draws_a_huge_title_and_description_at_once():
    from game.io.paths import MAPS_DIR
    from game.io.scenarios import load_scenario
    from game.ui.app import App
    scenario = load_scenario(MAPS_DIR / "corridor.toml")
    scenario.title = "T" * 3_000_000
    scenario.description = "d" * (3 * 1024 * 1024)
    with cpu_budget(15.0, "opening the window on 6 MB of title and description"):  # about 0.15 s of CPU
        app = App(scenario, sides={f.side: "human" for f in scenario.figures}, background=False, start_screen=True)
        app.frame([])  # the start screen shows title and description
        app.start_screen = False
        app.frame([])  # the side panel shows them too
    app.screenshot(str(SHOTS / "huge-title-and-description.png"))
    assert len(app.title) <= 200


def test_sigterm_inside_play_raises_system_exit_and_the_handler_is_restored():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(SystemExit) as stopped:
        with quit_on_sigterm():
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs at the next Python instruction
                time.sleep(0.01)
    assert stopped.value.code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) == before


def test_play_quits_on_sigterm_while_busy(tmp_path):
    from tiled_maps import grid, obj, object_layer, tile_layer, tmx, write_map
    spawns = object_layer("s", obj("spawn", 16, 16, props={"side": "blue"}), obj("spawn", 112, 16, props={"side": "red"}))
    path = write_map(tmp_path, tmx(tile_layer("g", grid(4, 3)), spawns, props={"description": "x" * 500_000}))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    process = subprocess.Popen([sys.executable, "-m", "game", "play", str(path), "--headless", "--frames", "10000000"],
                               cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(3.0)
        assert process.poll() is None, process.stderr.read().decode()
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=HANG_S)  # a hang guard: it stops at once, or it hangs
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert code in (128 + signal.SIGTERM, -signal.SIGTERM), code  # the second: stopped before play began
    assert b"Traceback" not in process.stderr.read()


@pytest.mark.parametrize("start_screen", [True, False])
def test_closing_the_window_ends_the_loop_at_once(start_screen):
    app = make_app()
    app.start_screen = start_screen
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(max_frames=60 * int(HANG_S))  # a hang guard: a minute of frames at 60 fps if the quit were missed
    assert not app.running and app.frame_no <= 3
