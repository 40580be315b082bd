"""`fivefoot picture` headless: PNG and GIF sizes and frame counts, the legend's colours in the picture,
a lesson's caption, a save's replay, and the one-line refusals of bad arguments."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from game.cli import main  # noqa: E402
from game.core.battle import Battle  # noqa: E402
from game.core.values.actions import EndTurn, Move  # noqa: E402
from game.io.paths import MAPS_DIR  # noqa: E402
from game.io.saves import save_battle  # noqa: E402
from game.io.scenarios import load_scenario  # noqa: E402
from game.ui import theme  # noqa: E402
from game.ui.legend import colours_drawn, draw_legend, entries, legend_height  # noqa: E402

LESSON = str(MAPS_DIR / "lessons" / "04-parting-shots.toml")


def _colours(image, box=None) -> set:
    pixels = np.asarray(image.convert("RGB"))
    if box is not None:
        x0, y0, x1, y1 = box
        pixels = pixels[y0:y1, x0:x1]
    return _distinct(pixels)


def _distinct(pixels) -> set:
    return set(map(tuple, np.unique(pixels.reshape(-1, 3), axis=0).tolist()))


def test_draw_legend_shows_every_colour_with_its_words():
    pygame.display.init()
    pygame.font.init()
    fonts = theme.Fonts()
    for width in (1024, 1920):
        height = legend_height(fonts, width, 12)
        surface = pygame.Surface((width, height))
        assert draw_legend(surface, fonts, surface.get_rect()) == 12
        seen = _distinct(pygame.surfarray.array3d(surface))
        assert colours_drawn() <= seen, colours_drawn() - seen
    # every overlay colour the theme names for the map has an entry
    named = {theme.REACH_WALK_EDGE, theme.REACH_RUN_EDGE, theme.REACH_CHARGE_EDGE, theme.PATH, theme.PARTING,
             theme.LANE_OK, theme.LANE_REFUSED, theme.HIGHLIGHT, theme.SELECT, theme.BLOCKER, theme.MISSILE,
             theme.SCATTER, theme.SHOVE, theme.ENGAGED_LINK, theme.INVOLVED, theme.ALTITUDE_TAG, theme.COST_5,
             theme.COST_10, theme.CLIMB, *theme.SIGHT_COLOURS.values()}
    assert named <= colours_drawn()
    assert len({e.words for e in entries()}) == len(entries())


def test_scenario_picture_with_the_legend(tmp_path, capsys):
    out = tmp_path / "corridor.png"
    assert main(["picture", "maps/corridor.toml", "--out", str(out), "--size", "1024x700", "--legend",
                 "--overlays", "all", "--hover", "3,6"]) == 0
    image = Image.open(out)
    assert image.size == (1024, 700)
    fonts = theme.Fonts()
    band = legend_height(fonts, 1024, 12)
    legend = _colours(image, (0, 700 - band, 1024, 700))
    assert {theme.PARTING, theme.LANE_OK, theme.COST_10, theme.REACH_WALK_EDGE} <= legend
    above = _colours(image, (0, 0, 700, 700 - band))
    assert theme.PATH in above and theme.REACH_WALK_EDGE in above      # the hovered path, the walk outline
    assert "picture: " in capsys.readouterr().out


def test_lesson_gif_and_numbered_frames(tmp_path):
    gif, folder = tmp_path / "parting.gif", tmp_path / "frames"
    assert main(["picture", LESSON, "--gif", str(gif), "--frames", str(folder), "--size", "640x480",
                 "--out", str(tmp_path / "step2.png"), "--step", "2"]) == 0
    with Image.open(gif) as image:
        assert image.n_frames == 3 and image.size == (640, 480) and image.info["duration"] == 4000
    assert sorted(p.name for p in folder.iterdir()) == ["frame-001.png", "frame-002.png", "frame-003.png"]
    first, second = Image.open(folder / "frame-001.png"), Image.open(tmp_path / "step2.png")
    assert first.size == second.size == (640, 480)
    assert np.asarray(second).tobytes() == np.asarray(Image.open(folder / "frame-002.png")).tobytes()
    assert np.asarray(first).tobytes() != np.asarray(second).tobytes()


def test_a_save_replays_as_a_gif_one_frame_per_action(tmp_path):
    battle = Battle.from_scenario(load_scenario(MAPS_DIR / "corridor.toml"))
    battle.apply(Move(battle.current, to=(3, 6)) if battle.current == "hero" else EndTurn(battle.current))
    battle.apply(EndTurn(battle.current))
    save = save_battle(battle, tmp_path / "battle.json")
    gif = tmp_path / "replay.gif"
    assert main(["picture", str(save), "--gif", str(gif), "--size", "640x480", "--delay", "300"]) == 0
    with Image.open(gif) as image:
        assert image.n_frames == len(battle.actions) + 1 and image.info["duration"] == 300


@pytest.mark.parametrize("args, words", [
    (["maps/corridor.toml"], "say where to draw"),
    (["maps/corridor.toml", "--out", "x.jpg"], "name a .png file"),
    (["maps/corridor.toml", "--out", "x.png", "--overlays", "reach,smell"], "smell is no overlay"),
    (["maps/corridor.toml", "--gif", "x.gif"], "a scenario has one position"),
    (["maps/corridor.toml", "--out", "x.png", "--select", "nobody"], "--select 'nobody': no such figure"),
    (["maps/corridor.toml", "--out", "x.png", "--hover", "99,99"], "--hover 99,99: off the map"),
    (["maps/corridor.toml", "--out", "x.png", "--size", "100x100"], "a picture is 480x360 to 8000x8000"),
    ([LESSON, "--out", "x.png", "--step", "7"], "steps 1 to 3"),
    (["maps/corridor.toml", "--out", "x.png", "--size", "480x360", "--legend"], "too small for the map"),
])
def test_bad_picture_arguments_are_one_line(tmp_path, capsys, args, words):
    args = [str(tmp_path / a) if a.startswith("x.") else a for a in args]
    assert main(["picture", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
