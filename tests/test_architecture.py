"""The house's layers hold: import-linter's contracts in pyproject.toml ([tool.importlinter]) are
checked on every run of the suite, and a broken one fails it (the rules core importing pygame or
doing I/O, the AI or the window reaching past the resolver's public face, a command importing the
window, an arrow pointing up a layer)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _lint(config: str | None = None) -> subprocess.CompletedProcess:
    args = [str(Path(sys.executable).with_name("lint-imports"))] + (["--config", config] if config else [])
    return subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=600)


def test_every_import_contract_is_kept():
    done = _lint()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_a_contract_broken_by_a_new_import_fails(tmp_path):
    """The contracts are not vacuous: forbidding the AI and the window what they do import (the
    leaf values) breaks the contract."""
    broken = tmp_path / "pyproject.toml"
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    text = text.replace('forbidden_modules = ["game.core.battle.*", "game.core.combat",',
                        'forbidden_modules = ["game.core.values", "game.core.battle.*", "game.core.combat",')
    broken.write_text(text, encoding="utf-8")
    done = _lint(str(broken))
    assert done.returncode != 0 and "BROKEN" in done.stdout
