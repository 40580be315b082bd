"""Text from files in the window (issue 29): a map named in bytes that are not UTF-8, whose title and
names hold terminal escapes, bidi overrides and a lone surrogate, opens; the caption and every drawn
text show them escaped."""
from __future__ import annotations

import json

import pygame

from game.cli import main
from game.ui.theme import Fonts
from tiled_maps import write_world


def _prop(name: str, value: str) -> dict:
    return {"name": name, "type": "string", "value": value}


def test_a_hostile_map_opens_and_its_text_is_shown_escaped(tmp_path, monkeypatch):
    captions = []
    real = pygame.display.set_caption
    monkeypatch.setattr(pygame.display, "set_caption", lambda text, *rest: (captions.append(text), real(text, *rest)))
    write_world(tmp_path)
    document = {
        "type": "map", "orientation": "orthogonal", "width": 8, "height": 6, "tilewidth": 32, "tileheight": 32,
        "infinite": False, "tilesets": [{"firstgid": 1, "source": "t.tsx"}],
        "properties": [_prop("title", "T \x1b]0;pwned\x07 \u202eevil A\ud800B")],
        "layers": [{"type": "tilelayer", "name": "g", "width": 8, "height": 6, "data": [1] * 48},
                   {"type": "objectgroup", "name": "s", "objects": [
                       {"id": 1, "type": "spawn", "x": 40, "y": 40,
                        "properties": [_prop("side", "red"), _prop("name", "Eve\u202e \x1b[2J")]},
                       {"id": 2, "type": "spawn", "x": 200, "y": 150, "properties": [_prop("side", "blue")]}]}]}
    path = tmp_path / "caf\udce9.tmj"
    path.write_text(json.dumps(document), encoding="utf-8")
    shot = tmp_path / "shot.png"
    assert main(["play", str(path), "--headless", "--frames", "2", "--screenshot", str(shot)]) == 0
    assert "fivefoot: T \\x1b]0;pwned\\x07 \\u202eevil A\\ud800B" in captions
    assert shot.stat().st_size > 0


def test_fonts_measure_and_draw_any_text():
    fonts = Fonts()
    assert fonts.size("A\ud800B")[0] == fonts.size("A\\ud800B")[0]
    assert fonts.render("\x1b[2J\u202e").get_width() == fonts.render("\\x1b[2J\\u202e").get_width()
