"""Saves: versioned JSON, atomic writes, load + replay to the same state, clear errors."""
import json
import os
import subprocess
import sys

import pytest

from game.core.values.actions import EndTurn
from game.core.battle import Battle
from game.core.values.errors import DataFileError
from game.core.script import parse_script, run_script
from game.io import saves
from game.io.scenarios import load_scenario


def demo_battle():
    sc = load_scenario("maps/charge_demo.toml")
    b = Battle.from_scenario(sc)
    run_script(b, parse_script(sc.actions, sc.source, [f.id for f in sc.figures]), sc.source)
    return b


def test_save_load_replays_to_the_same_state(tmp_path):
    b = demo_battle()
    path = saves.save_battle(b, tmp_path / "battle.json")
    loaded = saves.load_battle(path)
    assert [e.to_json() for e in loaded.events] == [e.to_json() for e in b.events]
    assert loaded.figures == b.figures
    assert loaded.current == b.current and loaded.round == b.round
    assert {f: loaded.status(f) for f in loaded.figures} == {f: b.status(f) for f in b.figures}
    # and play goes on identically
    assert loaded.apply(EndTurn(loaded.current))[0].to_json() == b.apply(EndTurn(b.current))[0].to_json()


def test_undo_after_load(tmp_path):
    b = demo_battle()
    loaded = saves.load_battle(saves.save_battle(b, tmp_path / "s.json"))
    last = loaded.undo()
    assert last == b.actions[-1]
    assert len(loaded.actions) == len(b.actions) - 1


@pytest.mark.parametrize("content, words", [
    (b"{not json", "corrupt or truncated"),
    (b'{"format": "something-else"}', "not a fivefoot battle save"),
    (b"\xff\xfe", "corrupt"),
])
def test_bad_files_give_one_clear_message(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(DataFileError) as err:
        saves.load_battle(path)
    assert words in str(err.value) and str(path) in str(err.value)


def test_wrong_version_is_refused_and_the_current_battle_untouched(tmp_path):
    current = demo_battle()
    events_before = len(current.events)
    data = current.to_save_data()
    data["version"] = 99
    path = tmp_path / "future.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataFileError) as err:
        saves.load_battle(path)
    assert "version 99" in str(err.value)
    assert len(current.events) == events_before


def test_a_save_survives_a_crash_in_the_middle_of_writing(tmp_path, monkeypatch):
    path = tmp_path / "battle.json"
    b = demo_battle()
    saves.save_battle(b, path)
    good = path.read_bytes()
    b.apply(EndTurn(b.current))

    def crash(fd):
        raise OSError("power cut")
    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(DataFileError, match="battle.json: could not save: power cut"):
        saves.save_battle(b, path)
    assert path.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["battle.json"]    # no temp file left behind
    monkeypatch.undo()
    assert saves.load_battle(path).events[-1].to_json() == demo_battle().events[-1].to_json()


def test_a_save_survives_a_killed_writer_process(tmp_path):
    """A writer process killed while writing a huge payload leaves the previous save readable."""
    path = tmp_path / "battle.json"
    saves.save_battle(demo_battle(), path)
    good = path.read_bytes()
    script = (
        "import sys, os\n"
        "from pathlib import Path\n"
        "from game.io import saves\n"
        "real_write = os.fdopen\n"
        "def slow_fdopen(*a, **k):\n"
        "    handle = real_write(*a, **k)\n"
        "    class Slow:\n"
        "        def __enter__(self): return self\n"
        "        def __exit__(self, *e): handle.close()\n"
        "        def write(self, data):\n"
        "            handle.write(data[:10]); handle.flush(); print('writing', flush=True)\n"
        "            import time; time.sleep(30)\n"
        "        def flush(self): handle.flush()\n"
        "        def fileno(self): return handle.fileno()\n"
        "    return Slow()\n"
        "os.fdopen = slow_fdopen\n"
        f"saves.write_atomically(Path({str(path)!r}), b'x' * 1000)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=os.getcwd())
    assert proc.stdout.readline().strip() == b"writing"
    proc.kill()
    proc.wait()
    assert path.read_bytes() == good
    assert saves.load_battle(path).round >= 1
