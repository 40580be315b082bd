"""A Tiled map's own pictures drawn into map chunks: tile layers, tile objects, image layers.

`TileArtLayer.draw_chunk` draws everything of `game.io.tiled.art.TileArt` that reaches a
chunk, in Tiled's document order, scaled to the camera's square size. Images are loaded
lazily (the display must exist) and an image that fails to decode is skipped, never fatal.

Work stays bounded whatever the map: sprites are found through a coarse spatial index,
scaled pictures are kept in a cache bounded by pixels, and a picture larger than a chunk
is cut to the part the chunk shows before it is scaled (an image layer may be 8192 px).
"""
from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np

BUCKET_SQUARES = 8               # sprite index: buckets of 8 x 8 squares
MAX_TILE_OVERHANG = 8            # squares an oversized tile may reach into a neighbouring chunk
WHOLE_SPRITE_PIXELS = 1 << 20    # a scaled sprite up to this size is cached whole; larger ones are cut
CACHE_PIXELS = 32 << 20          # scaled pictures kept, in pixels (128 MiB)
MAX_TURNED_SIDE = 4096           # a rotated sprite larger than this on screen is drawn unrotated
REPEAT_BLOCK_PX = 256            # a repeated picture is tiled into blocks about this big


class TileArtLayer:
    """Tile images of a Tiled map, loaded and scaled lazily (needs the display to exist)."""

    def __init__(self, art, width: int, height: int):
        self.art = art
        self.width, self.height = width, height
        self._sheets: dict = {}
        self._scaled: OrderedDict = OrderedDict()
        self._scaled_pixels = 0
        self.has_tiles = np.zeros((height, width), dtype=bool)  # squares a tile layer draws
        biggest = 0
        for (x, y, _), image in art.images.items():
            if 0 <= x < width and 0 <= y < height:
                self.has_tiles[y, x] = True
        for image in {id(image): image for image in art.images.values()}.values():  # shared: by identity
            biggest = max(biggest, image.rect[2] - art.tile_width, image.rect[3] - art.tile_height,
                          abs(image.offset[0]), abs(image.offset[1]))
        self.overhang = min(MAX_TILE_OVERHANG, math.ceil(max(0, biggest) / min(art.tile_width, art.tile_height)))
        self._index = [self._sprite_index(layer.sprites) for layer in art.layers]

    # ----- images -----
    def _sheet(self, source):
        """The decoded image file, or None if it cannot be decoded (damaged, or memory ran out)."""
        import pygame
        if source not in self._sheets:
            try:
                sheet = pygame.image.load(str(source))
                sheet = sheet.convert_alpha() if pygame.display.get_surface() is not None else sheet
                key = self.art.transparent.get(source)
                if key is not None:       # Tiled's transparent colour: see-through, as Tiled draws it
                    see_through(sheet, key)
            except (pygame.error, MemoryError, OSError):
                sheet = None
            self._sheets[source] = sheet
        return self._sheets[source]

    def _picture(self, image, crop=None):
        """The tile's rectangle of its sheet (or `crop` of it, in picture pixels), flipped as Tiled says."""
        import pygame
        sheet = self._sheet(image.source)
        if sheet is None:
            return None
        x, y, w, h = image.rect
        if crop is not None:
            x, y, w, h = _source_crop(image, crop)
        try:
            surf = sheet.subsurface(pygame.Rect(x, y, w, h))
        except ValueError:  # a rectangle outside the real image: the file changed since loading
            return None
        if image.flip_diagonal:
            surf = pygame.transform.flip(pygame.transform.rotate(surf, -90), True, False)
        if image.flip_x or image.flip_y:
            surf = pygame.transform.flip(surf, image.flip_x, image.flip_y)
        return surf

    def _cached(self, key, make):
        surf = self._scaled.get(key)
        if surf is not None:
            self._scaled.move_to_end(key)
            return surf
        surf = make()
        if surf is None:
            return None
        self._scaled[key] = surf
        self._scaled_pixels += surf.get_width() * surf.get_height()
        while self._scaled_pixels > CACHE_PIXELS and len(self._scaled) > 1:
            _, old = self._scaled.popitem(last=False)
            self._scaled_pixels -= old.get_width() * old.get_height()
        return surf

    def _scaled_picture(self, image, size, turn: float = 0.0, crop=None):
        import pygame

        def make():
            picture = self._picture(image, crop)
            if picture is None:
                return None
            surf = pygame.transform.smoothscale(picture, (max(1, size[0]), max(1, size[1])))
            if turn:
                surf = pygame.transform.rotate(surf, -turn)  # Tiled turns clockwise, pygame counter-clockwise
            if image.opacity < 1:
                surf.set_alpha(int(255 * image.opacity))
            return surf
        if crop is not None:
            return make()  # a piece of a big picture, drawn once into its chunk
        return self._cached((image, size, turn), make)

    def tile(self, image, cell: int):
        sx, sy = cell / self.art.tile_width, cell / self.art.tile_height
        w, h = image.rect[2:] if not image.flip_diagonal else image.rect[:1:-1]
        return self._scaled_picture(image, (max(1, round(w * sx)), max(1, round(h * sy))))

    # ----- drawing a chunk -----
    def draw_chunk(self, surf, x0: int, y0: int, w: int, h: int, cell: int) -> None:
        """Draw squares [x0, x0 + w) x [y0, y0 + h) into `surf`, layer by layer, bottom first."""
        for number, layer in enumerate(self.art.layers):
            if layer.tile_layer is not None:
                self._draw_tiles(surf, layer.tile_layer, x0, y0, w, h, cell)
            else:
                self._draw_sprites(surf, number, x0, y0, w, h, cell)

    def _draw_tiles(self, surf, index: int, x0: int, y0: int, w: int, h: int, cell: int) -> None:
        images = self.art.images
        m = self.overhang
        for y in range(max(0, y0 - m), min(self.height, y0 + h + m)):
            for x in range(max(0, x0 - m), min(self.width, x0 + w + m)):
                image = images.get((x, y, index))
                if image is None:
                    continue
                tile = self.tile(image, cell)
                if tile is None:
                    continue
                ox = round(image.offset[0] * cell / self.art.tile_width)
                oy = round(image.offset[1] * cell / self.art.tile_height)
                surf.blit(tile, ((x - x0) * cell + ox, (y - y0) * cell + cell - tile.get_height() + oy))

    def _sprite_index(self, sprites) -> tuple[dict, list]:
        """Buckets of BUCKET_SQUARES squares -> sprite numbers; repeated sprites reach every bucket."""
        buckets: dict[tuple[int, int], list[int]] = {}
        everywhere = []
        bw, bh = BUCKET_SQUARES * self.art.tile_width, BUCKET_SQUARES * self.art.tile_height
        last_x, last_y = (self.width - 1) // BUCKET_SQUARES, (self.height - 1) // BUCKET_SQUARES
        for number, sprite in enumerate(sprites):
            if sprite.repeat_x or sprite.repeat_y:
                everywhere.append(number)
                continue
            left, top, right, bottom = _bounds(sprite)
            for by in range(max(0, math.floor(top / bh)), min(last_y, math.floor(bottom / bh)) + 1):
                for bx in range(max(0, math.floor(left / bw)), min(last_x, math.floor(right / bw)) + 1):
                    buckets.setdefault((bx, by), []).append(number)
        return buckets, everywhere

    def _draw_sprites(self, surf, number: int, x0: int, y0: int, w: int, h: int, cell: int) -> None:
        buckets, everywhere = self._index[number]
        found = set(everywhere)
        for by in range(y0 // BUCKET_SQUARES, (y0 + h - 1) // BUCKET_SQUARES + 1):
            for bx in range(x0 // BUCKET_SQUARES, (x0 + w - 1) // BUCKET_SQUARES + 1):
                found.update(buckets.get((bx, by), ()))
        sprites = self.art.layers[number].sprites
        sx, sy = cell / self.art.tile_width, cell / self.art.tile_height
        view = (x0 * self.art.tile_width, y0 * self.art.tile_height,
                (x0 + w) * self.art.tile_width, (y0 + h) * self.art.tile_height)  # map pixels
        for i in sorted(found):  # the layer's own drawing order
            sprite = sprites[i]
            if sprite.repeat_x or sprite.repeat_y:
                self._draw_repeated(surf, sprite, view, sx, sy)
            else:
                self._draw_sprite(surf, sprite, view, sx, sy)

    def _draw_sprite(self, surf, sprite, view, sx: float, sy: float) -> None:
        left, top, right, bottom = _bounds(sprite)
        if right <= view[0] or bottom <= view[1] or left >= view[2] or top >= view[3]:
            return
        size = (max(1, round(sprite.width * sx)), max(1, round(sprite.height * sy)))
        if sprite.rotation and max(size) <= MAX_TURNED_SIDE:
            picture = self._scaled_picture(sprite.image, size, sprite.rotation)
            if picture is not None:  # the turned picture's box, placed by its corners about the pivot
                surf.blit(picture, (round((left - view[0]) * sx), round((top - view[1]) * sy)))
            return
        dx, dy = (sprite.x - view[0]) * sx, (sprite.y - view[1]) * sy
        if size[0] * size[1] <= WHOLE_SPRITE_PIXELS:
            picture = self._scaled_picture(sprite.image, size)
            if picture is not None:
                surf.blit(picture, (round(dx), round(dy)))
            return
        self._draw_piece(surf, sprite.image, (dx, dy), size, surf.get_size())

    def _draw_piece(self, surf, image, at, size, shown) -> None:
        """Scale only the part of a big picture that falls inside `shown` (the chunk's pixels)."""
        pw, ph = image.rect[2:] if not image.flip_diagonal else image.rect[:1:-1]  # picture pixels
        fx, fy = size[0] / pw, size[1] / ph
        u0 = max(0, math.floor(-at[0] / fx))
        v0 = max(0, math.floor(-at[1] / fy))
        u1 = min(pw, math.ceil((shown[0] - at[0]) / fx))
        v1 = min(ph, math.ceil((shown[1] - at[1]) / fy))
        if u1 <= u0 or v1 <= v0:
            return
        piece_size = (max(1, round((u1 - u0) * fx)), max(1, round((v1 - v0) * fy)))
        piece = self._scaled_picture(image, piece_size, crop=(u0, v0, u1 - u0, v1 - v0))
        if piece is not None:
            surf.blit(piece, (round(at[0] + u0 * fx), round(at[1] + v0 * fy)))

    def _draw_repeated(self, surf, sprite, view, sx: float, sy: float) -> None:
        """An image layer repeated along x and/or y: the copies that reach the chunk.

        A small picture is first tiled into a block of about REPEAT_BLOCK_PX screen pixels,
        so a chunk needs a few blits whatever the picture's size.
        """
        size = (max(1, round(sprite.width * sx)), max(1, round(sprite.height * sy)))
        kx = max(1, math.ceil(REPEAT_BLOCK_PX / size[0])) if sprite.repeat_x else 1
        ky = max(1, math.ceil(REPEAT_BLOCK_PX / size[1])) if sprite.repeat_y else 1
        block = self._cached(("block", sprite.image, size, kx, ky), lambda: self._block(sprite.image, size, kx, ky))
        if block is None:
            return
        step_x, step_y = sprite.width * kx, sprite.height * ky  # map pixels
        xs = _copies(sprite.x, step_x, view[0], view[2]) if sprite.repeat_x else [sprite.x]
        ys = _copies(sprite.y, step_y, view[1], view[3]) if sprite.repeat_y else [sprite.y]
        for y in ys:
            for x in xs:
                surf.blit(block, (round((x - view[0]) * sx), round((y - view[1]) * sy)))

    def _block(self, image, size, kx: int, ky: int):
        import pygame
        picture = self._scaled_picture(image._replace(opacity=1.0), size)
        if picture is None:
            return None
        block = pygame.Surface((size[0] * kx, size[1] * ky), pygame.SRCALPHA)
        for j in range(ky):
            for i in range(kx):  # onto transparent pixels, adding copies each picture exactly
                block.blit(picture, (i * size[0], j * size[1]), special_flags=pygame.BLEND_RGBA_ADD)
        if image.opacity < 1:
            block.set_alpha(int(255 * image.opacity))
        return block


def _bounds(sprite) -> tuple[float, float, float, float]:
    """The sprite's box in map pixels (left, top, right, bottom), rotation included."""
    if not sprite.rotation:
        return sprite.x, sprite.y, sprite.x + sprite.width, sprite.y + sprite.height
    angle = math.radians(sprite.rotation)
    cos, sin = math.cos(angle), math.sin(angle)
    xs, ys = [], []
    for cx, cy in ((0, 0), (sprite.width, 0), (sprite.width, sprite.height), (0, sprite.height)):
        lx, ly = sprite.x - sprite.pivot_x + cx, sprite.y - sprite.pivot_y + cy
        xs.append(sprite.pivot_x + lx * cos - ly * sin)
        ys.append(sprite.pivot_y + lx * sin + ly * cos)
    return min(xs), min(ys), max(xs), max(ys)


def _copies(start: float, length: float, low: float, high: float) -> list[float]:
    """Positions start + k * length (any whole k) of copies that reach [low, high)."""
    if length <= 0:
        return []
    first = start + math.floor((low - start) / length) * length
    count = max(0, math.ceil((high - first) / length))
    return [first + k * length for k in range(count)]


def _source_crop(image, crop) -> tuple[int, int, int, int]:
    """`crop` (u, v, w, h) of the flipped picture, as a rectangle of the source image.

    Tiled flips diagonally (a transpose) first, then horizontally, then vertically: undo them
    in the opposite order.
    """
    x, y, w, h = image.rect
    u, v, cw, ch = crop
    pw, ph = (h, w) if image.flip_diagonal else (w, h)
    if image.flip_y:
        v = ph - v - ch
    if image.flip_x:
        u = pw - u - cw
    if image.flip_diagonal:
        u, v, cw, ch = v, u, ch, cw
    return x + u, y + v, cw, ch


def see_through(sheet, colour) -> None:
    """Make every pixel of exactly `colour` fully transparent (the sheet has per-pixel alpha)."""
    import pygame
    if sheet.get_alpha() is None and not sheet.get_flags() & pygame.SRCALPHA:
        sheet.set_colorkey(colour)
        return
    rgb = pygame.surfarray.pixels3d(sheet)
    alpha = pygame.surfarray.pixels_alpha(sheet)
    alpha[(rgb[:, :, 0] == colour[0]) & (rgb[:, :, 1] == colour[1]) & (rgb[:, :, 2] == colour[2])] = 0
    del rgb, alpha
