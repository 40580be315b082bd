"""The Tiled test builders (tests/tiled_maps.py) write what Tiled would have saved."""
from tiled_maps import grid, load, png_bytes, tile_layer


def test_support_world_is_a_loadable_map(tmp_path):
    battle = load(tmp_path, tile_layer("ground", grid(4, 3)))
    assert (battle.width, battle.height) == (4, 3)
    assert battle.warnings == ()


def test_png_builder_writes_a_real_png(tmp_path):
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    (tmp_path / "x.png").write_bytes(png_bytes(5, 7))
    assert pygame.image.load(str(tmp_path / "x.png")).get_size() == (5, 7)
