"""Write the shipped battle maps, maps/*.tmx, from the layouts below.

Run from anywhere: `python assets/make_maps.py` (after make_tileset.py). Add
`--preview DIR` to also render a PNG of each map through the loader's own
`tile_image_sources` (how the game will draw it).

Each map is drawn as ASCII (or generated from a fixed seed), one character per 5-ft
square; a legend turns characters into tiles on named layers. Rules meaning comes from
the tileset's tile properties and from layer properties (elevation), so the .tmx files
are ordinary Tiled maps a map maker can open, study and change.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

HERE = Path(__file__).resolve().parent
MAPS = HERE.parent / "maps"
sys.path.insert(0, str(HERE))
from make_tileset import SIZE, TILE_ID  # noqa: E402

TILESET_SOURCE = "../assets/fivefoot.tsx"
FLIP_DIAGONAL = 1 << 29  # Tiled's flag: x and y axes swapped, which turns a horizontal tile vertical


# --- building blocks --------------------------------------------------------------------

@dataclass
class Layer:
    name: str
    properties: dict = field(default_factory=dict)
    tiles: dict = field(default_factory=dict)  # (x, y) -> tile name


@dataclass
class Group:
    name: str
    children: list
    properties: dict = field(default_factory=dict)


@dataclass
class SpawnSpec:
    x: int
    y: int
    side: str
    template: str
    name: str
    facing: str
    altitude: int = 0


@dataclass
class MapSpec:
    filename: str
    title: str
    description: str
    ruleset: str
    width: int
    height: int
    layers: list
    spawns: list


class Canvas:
    """Layers by name, filled from ASCII art through a legend."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.layers: dict[str, Layer] = {}

    def layer(self, name: str, **properties) -> Layer:
        if name not in self.layers:
            self.layers[name] = Layer(name, properties)
        return self.layers[name]

    def put(self, layer: str, x: int, y: int, tile: str | None) -> None:
        """Place `tile` ("name", or "name/t" for the transposed tile) or clear the square."""
        if tile is None:
            self.layers[layer].tiles.pop((x, y), None)
        else:
            self.layers[layer].tiles[(x, y)] = tile

    def ascii(self, art: str, legend: dict) -> None:
        rows = [row for row in art.strip("\n").split("\n")]
        assert len(rows) == self.height, f"{len(rows)} rows, expected {self.height}"
        for y, row in enumerate(rows):
            assert len(row) == self.width, f"row {y} is {len(row)} wide, expected {self.width}: {row!r}"
            for x, char in enumerate(row):
                for layer, tile in legend[char]:
                    self.put(layer, x, y, tile)


def property_xml(properties: dict, indent: str) -> list[str]:
    if not properties:
        return []
    lines = [f"{indent}<properties>"]
    for key, value in properties.items():
        kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "string"
        text = str(value).lower() if isinstance(value, bool) else str(value)
        lines.append(f"{indent} <property name={quoteattr(key)} type=\"{kind}\" value={quoteattr(text)}/>")
    lines.append(f"{indent}</properties>")
    return lines


def gid(tile: str | None) -> int:
    if tile is None:
        return 0
    name, _, flags = tile.partition("/")
    return (TILE_ID[name] + 1) | (FLIP_DIAGONAL if flags == "t" else 0)


def write_tmx(spec: MapSpec, out_dir: Path = MAPS) -> Path:
    ids = {"layer": 1, "object": 1}
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" '
        f'width="{spec.width}" height="{spec.height}" tilewidth="{SIZE}" tileheight="{SIZE}" infinite="0" '
        f'nextlayerid="NEXTLAYER" nextobjectid="NEXTOBJECT">',
        *property_xml({"title": spec.title, "description": spec.description, "ruleset": spec.ruleset}, " "),
        f' <tileset firstgid="1" source="{TILESET_SOURCE}"/>',
    ]

    def emit(item, indent: str) -> None:
        layer_id = ids["layer"]
        ids["layer"] += 1
        if isinstance(item, Group):
            lines.append(f"{indent}<group id=\"{layer_id}\" name={quoteattr(item.name)}>")
            lines.extend(property_xml(item.properties, indent + " "))
            for child in item.children:
                emit(child, indent + " ")
            lines.append(f"{indent}</group>")
            return
        lines.append(f"{indent}<layer id=\"{layer_id}\" name={quoteattr(item.name)} "
                     f"width=\"{spec.width}\" height=\"{spec.height}\">")
        lines.extend(property_xml(item.properties, indent + " "))
        lines.append(f'{indent} <data encoding="csv">')
        rows = []
        for y in range(spec.height):
            rows.append(",".join(str(gid(item.tiles.get((x, y)))) for x in range(spec.width)))
        lines.append(",\n".join(rows))
        lines.append(f"{indent} </data>")
        lines.append(f"{indent}</layer>")

    for item in spec.layers:
        emit(item, " ")
    lines.append(f' <objectgroup id="{ids["layer"]}" name="Spawns">')
    ids["layer"] += 1
    for spawn in spec.spawns:
        object_id = ids["object"]
        ids["object"] += 1
        props = {"side": spawn.side, "template": spawn.template, "facing": spawn.facing}
        if spawn.altitude:
            props["altitude"] = spawn.altitude
        lines.append(f'  <object id="{object_id}" name={quoteattr(spawn.name)} type="spawn" '
                     f'x="{spawn.x * SIZE + SIZE // 2}" y="{spawn.y * SIZE + SIZE // 2}">')
        lines.extend(property_xml(props, "   "))
        lines.append("   <point/>")
        lines.append("  </object>")
    lines.append(" </objectgroup>")
    lines.append("</map>")
    text = "\n".join(lines) + "\n"
    text = text.replace("NEXTLAYER", str(ids["layer"])).replace("NEXTOBJECT", str(ids["object"]))
    path = out_dir / spec.filename
    path.write_text(text, encoding="utf-8")
    return path


def check_layout(spec: MapSpec) -> None:
    """Every spawn on the map, on its own square; catches layout typos early."""
    seen = set()
    for spawn in spec.spawns:
        assert 0 <= spawn.x < spec.width and 0 <= spawn.y < spec.height, spawn
        assert (spawn.x, spawn.y) not in seen, spawn
        seen.add((spawn.x, spawn.y))


# --- 1. dungeon -------------------------------------------------------------------------

DUNGEON = """
########################
#......#######.........#
#......#.....#.........#
#......+.....+....o....#
#......#.o.o.#.........#
#......#.....#.........#
###+####.....#####+#####
###.####.o.o.#####.#####
###.####.....#####.#####
#...:..+.....+.........#
#.######.....##.######.#
#.######.....##D###....#
#.#....#.....#...#.....#
#.#....###.###...#.:::.#
#.#..............#.....#
#.#....#######...+..~~.#
#...:..#######...#..~~.#
########################
"""


def dungeon() -> MapSpec:
    canvas = Canvas(24, 18)
    for name in ("Floor", "Debris", "Walls", "Doors"):
        canvas.layer(name)
    floor = ("Floor", "floor")
    canvas.ascii(DUNGEON, {
        "#": [("Walls", "wall")],
        ".": [floor],
        "+": [floor, ("Doors", "door")],
        "D": [floor, ("Doors", "closed_door")],
        "o": [floor, ("Walls", "pillar")],
        ":": [floor, ("Debris", "rubble")],
        "~": [("Floor", "water")],
    })
    walls, doors = canvas.layers["Walls"].tiles, canvas.layers["Doors"].tiles
    for (x, y), tile in list(doors.items()):
        if (x, y - 1) in walls and (x, y + 1) in walls:  # a door in a north-south wall
            doors[(x, y)] = tile + "/t"
    spawns = [
        SpawnSpec(2, 2, "blue", "foot", "Sergeant Hale", "E"),
        SpawnSpec(4, 2, "blue", "foot", "Brother Anselm", "E"),
        SpawnSpec(2, 4, "blue", "spearman", "Mira the Pike", "E"),
        SpawnSpec(4, 4, "blue", "archer", "Old Tobin", "E"),
        SpawnSpec(17, 2, "red", "foot", "Gnash", "W"),
        SpawnSpec(20, 2, "red", "monster", "Grave Ogre", "W"),
        SpawnSpec(17, 4, "red", "archer", "Skrit", "W"),
        SpawnSpec(20, 4, "red", "monster", "Bone Hound", "W"),
    ]
    return MapSpec(
        "dungeon.tmx", "The Sunken Crypt",
        "Two war bands meet in a crypt of narrow corridors and doorways. Hold a doorway and let them come "
        "one at a time; disengage carefully, because turning your back in a corridor invites a parting blow. "
        "A barred door guards the ossuary, and the south-east vault is flooded and strewn with rubble.",
        "bfrpg", 24, 18, list(canvas.layers.values()), spawns,
    )


# --- 2. forest --------------------------------------------------------------------------

def forest() -> MapSpec:
    width, height = 30, 24
    rng = random.Random("fivefoot-forest")
    canvas = Canvas(width, height)
    for name in ("Ground", "Undergrowth", "Trees", "Fog"):
        canvas.layer(name)
    road = {(x, 12 + round(2 * math.sin(x / 4.5))) for x in range(width)}
    road |= {(x, y + 1) for x, y in road}

    def clearing(x, y, scale=1.0):
        return ((x - 15) / (8.5 * scale)) ** 2 + ((y - 12) / (6.5 * scale)) ** 2

    def pond(x, y):
        return math.hypot(x - 24, (y - 19) * 1.2)

    for y in range(height):
        for x in range(width):
            canvas.put("Ground", x, y, "road" if (x, y) in road else "grass")
            p = pond(x, y)
            if p < 2.2:
                canvas.put("Ground", x, y, "water")
                continue
            if p < 3.1:
                canvas.put("Undergrowth", x, y, "reeds")
                continue
            if (x, y) in road:
                continue
            inside = clearing(x, y)
            if inside < 1.0:
                continue
            if inside < 1.45 and rng.random() < 0.55:
                canvas.put("Undergrowth", x, y, "brush")
            elif rng.random() < 0.34:
                canvas.put("Trees", x, y, "tree")
            elif rng.random() < 0.2:
                canvas.put("Undergrowth", x, y, "brush")
    for x, y in ((13, 9), (18, 15), (12, 14)):  # lone trees in the clearing: cover to fight around
        canvas.put("Trees", x, y, "tree")
    for x, y in ((16, 9), (17, 9), (19, 10), (11, 11)):
        canvas.put("Undergrowth", x, y, "brush")
    for y in range(height):  # a fog bank rolling in from the south-west, over the edge of the clearing
        for x in range(width):
            if ((x - 7) / 6.5) ** 2 + ((y - 17) / 4.5) ** 2 < 1.0:
                canvas.put("Fog", x, y, "fog")
    spawns = [
        SpawnSpec(9, 10, "blue", "foot", "Wat", "E"),
        SpawnSpec(9, 12, "blue", "spearman", "Hobb", "E"),
        SpawnSpec(9, 14, "blue", "foot", "Cedric", "E"),
        SpawnSpec(7, 12, "blue", "archer", "Lark", "E"),
        SpawnSpec(6, 16, "blue", "archer", "Wren", "E"),
        SpawnSpec(21, 10, "red", "monster", "Thornback", "W"),
        SpawnSpec(21, 12, "red", "foot", "Brigand Cole", "W"),
        SpawnSpec(21, 14, "red", "foot", "Brigand Rusk", "W"),
        SpawnSpec(23, 12, "red", "archer", "Poacher Nell", "W"),
        SpawnSpec(23, 8, "red", "archer", "Poacher Finch", "W"),
    ]
    for spawn in spawns:  # keep spawn squares walkable
        canvas.put("Trees", spawn.x, spawn.y, None)
    return MapSpec(
        "forest.tmx", "The Brigands' Clearing",
        "A woodland clearing ringed by brush, with old oaks whose trunks give half cover. The brush hides "
        "a figure a little and slows anyone pushing through it; the fog bank to the south-west hides much "
        "more. Archers on both sides must choose between a clear shot and shooting into the melee.",
        "cnc", width, height, list(canvas.layers.values()), spawns,
    )


# --- 3. field ---------------------------------------------------------------------------

def field_map() -> MapSpec:
    width, height = 40, 30
    rng = random.Random("fivefoot-field")
    canvas = Canvas(width, height)
    for name in ("Ground", "Rough", "Obstacles"):
        canvas.layer(name)
    for y in range(height):
        for x in range(width):
            canvas.put("Ground", x, y, "grass")
    for x in range(width):  # the old road, bending south-east
        y = 14 + (0 if x < 18 else min(4, (x - 18) // 4))
        canvas.put("Ground", x, y, "road")
        canvas.put("Ground", x, y + 1, "road")
    for y in range(3, 12):  # a hedge along a field boundary, with a gap for a gate
        if y != 7:
            canvas.put("Obstacles", 24, y, "hedge/t")
    for x in range(25, 33):
        canvas.put("Obstacles", x, 3, "hedge")
    for x in range(5, 13):  # a low stone wall a shooter can crouch behind
        canvas.put("Obstacles", x, 6, "low_wall")
    for x, y in ((12, 22), (20, 8), (29, 25), (33, 12), (8, 26)):
        canvas.put("Obstacles", x, y, "boulder")
    for x, y in ((34, 4), (35, 4), (36, 5), (35, 6), (37, 3), (34, 6), (36, 3)):  # a copse
        canvas.put("Obstacles", x, y, "tree")
    for y in range(19, 25):  # a muddy hollow: difficult going for horses
        for x in range(12, 21):
            if ((x - 16) / 4.2) ** 2 + ((y - 21.5) / 2.8) ** 2 < 1.0 - 0.25 * rng.random():
                canvas.put("Ground", x, y, "mud")
    for x, y in ((31, 21), (32, 21), (33, 21), (34, 21)):  # a ruined byre
        canvas.put("Obstacles", x, y, "low_wall")
    for x, y in ((31, 22), (31, 23), (34, 23)):
        canvas.put("Obstacles", x, y, "low_wall/t")
    for x, y in ((32, 23), (33, 22), (35, 22)):
        canvas.put("Rough", x, y, "rubble")
    for y in range(24, 28):  # a pond with reeds
        for x in range(2, 7):
            d = math.hypot(x - 4, (y - 25.5) * 1.3)
            if d < 1.6:
                canvas.put("Ground", x, y, "water")
            elif d < 2.6:
                canvas.put("Rough", x, y, "reeds")
    spawns = [
        SpawnSpec(3, 11, "blue", "knight", "Sir Aldric", "E"),
        SpawnSpec(3, 14, "blue", "knight", "Sir Brannoc", "E"),
        SpawnSpec(3, 17, "blue", "knight", "Dame Ysolde", "E"),
        SpawnSpec(6, 9, "blue", "foot", "Squire Pell", "E"),
        SpawnSpec(6, 19, "blue", "foot", "Squire Ord", "E"),
        SpawnSpec(9, 5, "blue", "archer", "Ranulf", "E"),
        SpawnSpec(32, 13, "red", "spearman", "Pikeman Grud", "W"),
        SpawnSpec(32, 15, "red", "spearman", "Pikeman Vosk", "W"),
        SpawnSpec(32, 17, "red", "spearman", "Pikeman Hale", "W"),
        SpawnSpec(32, 19, "red", "spearman", "Pikeman Ulm", "W"),
        SpawnSpec(35, 15, "red", "archer", "Crossbow Tam", "W"),
        SpawnSpec(36, 18, "red", "knight", "Black Rider", "W"),
    ]
    return MapSpec(
        "field.tmx", "The Long Meadow",
        "Open ground for horsemen: room to charge, and a line of pikes set to meet them. A hedge with a "
        "single gap, a low stone wall, a few boulders, a copse and a muddy hollow break up the field; "
        "the ruined byre to the south-east gives foot soldiers somewhere to stand.",
        "odnd", width, height, list(canvas.layers.values()), spawns,
    )


# --- 4. castle --------------------------------------------------------------------------

CASTLE = """
.......~~####ppppppppppppppp####
.T.....~~####NNNNNNNNNNNNNNN####
.......~~####NNNNNNNNNNNNNNN####
...B...~~PWW,,,,,,ab,,,,,,,,,###
.......~~PWW,,,,,,,,,,,,,,,,,###
.......~~PWW,,,,,,,,,,,,,,,,,###
.......~~PWWc,,,,,,,,,,,,,,,,###
..T....~~PWWb,,,,,,,,,,,,,,,,###
.......~~PWWa,,,,,,,########,###
.......~~###,,,,,,,,#,,,,,,#,###
.......~~###,,,,,,,,#,,o,,,#,###
=========GGG,,,,,,,,#,,,,,,#,###
=========GGG,,,,,,,,+,,,,,,#,###
.......~~###,,,,,,,,#,,o,,,#,###
.......~~###,,,,,,,,#,,,,,,#,###
.......~~PWWa,,,,,,,########,###
..B....~~PWWb,,,,,,,,,,,,,,,,###
.......~~PWWc,,,,,,,,,,,,,,,,###
.T.....~~PWW,,,,,,,,,,,,w,,,,###
.......~~PWW,,::,,,,,,,,,,,,,###
.......~~PWW,,,,,,,,,,,,,,,,,###
.......~~#######:::#############
.......~~#######:::#############
................................
"""


def castle() -> MapSpec:
    canvas = Canvas(32, 24)
    canvas.layer("Ground")
    canvas.layer("Walls")
    walks = {
        "west": canvas.layer("West wall-walk (20 ft)", elevation=20),
        "north": canvas.layer("North wall-walk (15 ft)", elevation=15),
        5: canvas.layer("Stairs 5 ft", elevation=5),
        10: canvas.layer("Stairs 10 ft", elevation=10),
        15: canvas.layer("Stairs 15 ft", elevation=15),
    }
    canvas.layer("Features")
    grass, floor = ("Ground", "grass"), ("Ground", "floor")
    canvas.ascii(CASTLE, {
        ".": [grass],
        "T": [grass, ("Features", "tree")],
        "B": [grass, ("Features", "boulder")],
        "=": [("Ground", "road")],
        "~": [("Ground", "water")],
        "#": [("Walls", "wall")],
        ",": [floor],
        "o": [floor, ("Walls", "pillar")],
        "w": [("Ground", "water")],
        ":": [floor, ("Features", "rubble")],
        "G": [("Ground", "road"), ("Features", "gate")],
        "+": [floor, ("Features", "door")],
        "W": [(walks["west"].name, "wall_walk")],
        "P": [(walks["west"].name, "wall_walk"), ("Features", "parapet")],
        "N": [(walks["north"].name, "wall_walk")],
        "p": [(walks["north"].name, "wall_walk"), ("Features", "parapet/t")],
        "a": [(walks[5].name, "stairs")],
        "b": [(walks[10].name, "stairs")],
        "c": [(walks[15].name, "stairs")],
    })
    layers = [
        canvas.layers["Ground"],
        canvas.layers["Walls"],
        Group("Raised floors", [walks[key] for key in ("west", "north", 5, 10, 15)]),
        canvas.layers["Features"],
    ]
    spawns = [
        SpawnSpec(10, 4, "red", "archer", "Warden Osric", "W"),
        SpawnSpec(10, 7, "red", "archer", "Bowman Lew", "W"),
        SpawnSpec(10, 16, "red", "archer", "Bowman Dun", "W"),
        SpawnSpec(10, 19, "red", "foot", "Gatewarden Bryn", "W"),
        SpawnSpec(16, 1, "red", "archer", "Lookout Ness", "N"),
        SpawnSpec(13, 11, "red", "spearman", "Halberdier Rolf", "W"),
        SpawnSpec(13, 12, "red", "spearman", "Halberdier Kell", "W"),
        SpawnSpec(17, 12, "red", "knight", "Castellan Maud", "W"),
        SpawnSpec(2, 10, "blue", "knight", "Sir Gareth", "E"),
        SpawnSpec(2, 13, "blue", "knight", "Sir Percival", "E"),
        SpawnSpec(4, 9, "blue", "foot", "Sapper Jory", "E"),
        SpawnSpec(4, 14, "blue", "foot", "Sapper Lud", "E"),
        SpawnSpec(5, 11, "blue", "spearman", "Pikeman Dace", "E"),
        SpawnSpec(1, 5, "blue", "archer", "Longbow Ede", "E"),
        SpawnSpec(1, 20, "blue", "archer", "Longbow Fitch", "E"),
        SpawnSpec(4, 2, "blue", "flyer", "Griffon Rider", "E", altitude=25),
    ]
    return MapSpec(
        "castle.tmx", "Storming Harrowgate",
        "Attackers cross the moat bridge toward an open gate while archers on the wall-walks shoot down "
        "from 20 ft (west) and 15 ft (north) behind parapets. Stairs climb from the courtyard in 5-ft steps; "
        "the inner edge of each wall-walk is a sheer drop into the courtyard. A breach in the south wall "
        "offers a second way in, and the keep has one door.",
        "ch17", 32, 24, layers, spawns,
    )


# --- 5. canyon --------------------------------------------------------------------------

def canyon() -> MapSpec:
    width, height = 40, 30
    rng = random.Random("fivefoot-canyon")
    canvas = Canvas(width, height)
    canvas.layer("Floor")
    rim = canvas.layer("Rim (30 ft)", elevation=30)
    mesa = canvas.layer("Mesa (40 ft)", elevation=40)
    trail = {10: canvas.layer("Trail 10 ft", elevation=10), 20: canvas.layer("Trail 20 ft", elevation=20)}
    canvas.layer("Features")

    def centre(y):
        return 20 + 6 * math.sin(y / 5.0)

    def half_width(y):
        return 5 + (4 if 11 <= y <= 19 else 0)  # the canyon widens around the mesa

    floor = set()
    for y in range(height):
        for x in range(width):
            if abs(x - centre(y)) <= half_width(y):
                floor.add((x, y))
    butte = {(x, y) for y in range(13, 18) for x in range(int(centre(15)) - 2, int(centre(15)) + 2)}
    for y in range(height):
        for x in range(width):
            if (x, y) in butte:
                edge = any((x + dx, y + dy) not in butte for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)))
                canvas.put(mesa.name, x, y, "cliff" if edge and (x, y + 1) not in butte else "mesa")
            elif (x, y) in floor:
                canvas.put("Floor", x, y, "sand")
            else:
                below = (x, y + 1) in floor or (x - 1, y) in floor or (x + 1, y) in floor
                canvas.put(rim.name, x, y, "cliff" if below else "mesa")
                if not below and rng.random() < 0.1:
                    canvas.put("Features", x, y, "brush")
    previous = None
    for y in range(height):  # a thin stream down the canyon floor, joined row to row
        x = round(centre(y) + 1.5 * math.sin(y / 2.0))
        span = range(min(x, previous), max(x, previous) + 1) if previous is not None else (x,)
        for sx in span:
            if (sx, y) in floor and (sx, y) not in butte:
                canvas.put("Floor", sx, y, "water")
        if rng.random() < 0.35 and (x + 1, y) in floor and (x + 1, y) not in butte:
            canvas.put("Features", x + 1, y, "reeds")
        previous = x
    for x, y in ((centre(4) - 3, 4), (centre(8) + 3, 8), (centre(23) - 2, 23), (centre(26) + 4, 26)):
        canvas.put("Features", round(x), y, "boulder")
    # a switchback trail climbing the west wall in two 10-ft steps
    ty = 25
    tx = min(x for x, y in floor if y == ty) - 1
    for x, step in ((tx, 10), (tx - 1, 20)):
        canvas.put(rim.name, x, ty, None)
        canvas.put(trail[step].name, x, ty, "road")
        canvas.put("Features", x, ty, None)
    for (x, y) in list(rim.tiles):
        if (x, y) in butte:
            rim.tiles.pop((x, y))
    c15 = int(centre(15))
    spawns = [
        SpawnSpec(round(centre(26)), 26, "blue", "foot", "Drover Pim", "N"),
        SpawnSpec(round(centre(26)) - 2, 27, "blue", "spearman", "Drover Ash", "N"),
        SpawnSpec(round(centre(27)) + 2, 27, "blue", "archer", "Scout Ivo", "N"),
        SpawnSpec(round(centre(28)), 28, "blue", "foot", "Drover Kit", "N"),
        SpawnSpec(round(centre(24)) + 3, 24, "blue", "flyer", "Hippogriff Rider", "N", altitude=30),
        SpawnSpec(round(centre(25)) - 3, 25, "blue", "floater", "Cloud Mage", "N", altitude=20),
        SpawnSpec(c15 - 1, 14, "red", "archer", "Harpy Watcher", "S"),
        SpawnSpec(c15, 16, "red", "monster", "Rock Troll", "S"),
        SpawnSpec(2, 6, "red", "foot", "Raider Hesk", "SE"),
        SpawnSpec(37, 6, "red", "archer", "Raider Ulla", "SW"),
        SpawnSpec(round(centre(5)), 5, "red", "flyer", "Wyvern", "S", altitude=40),
        SpawnSpec(round(centre(9)) + 2, 9, "red", "flyer", "Harpy", "S", altitude=35),
    ]
    return MapSpec(
        "canyon.tmx", "Wyvern Canyon",
        "A winding canyon: the floor at 0 ft, sheer rims at 30 ft and a mesa rising to 40 ft where the "
        "canyon widens. Walkers must take the switchback trail or climb; flyers own the open sky and can "
        "dive on anyone below. A stream and a few boulders break up the canyon floor.",
        "odnd", width, height, list(canvas.layers.values()), spawns,
    )


# --- 6. mirrored ruins (for `fivefoot ladder`) --------------------------------------------

RUINS = """
........................
..##......,,,,......##..
..#.....o......o.....#..
..#......%%..%%......#..
.....##..%%..%%..##.....
...........::...........
..o........::........o..
...........::...........
..o........::........o..
...........::...........
.....##..%%..%%..##.....
..#......%%..%%......#..
..#.....o......o.....#..
..##......,,,,......##..
........................
"""


def mirror_ruins() -> MapSpec:
    """Ruins laid out as a mirror image (x <-> 23 - x), with mirrored spawns: a fair test of skill."""
    rows = RUINS.strip("\n").split("\n")
    assert all(row == row[::-1] for row in rows), "the ruins must be a mirror image"
    width, height = len(rows[0]), len(rows)
    canvas = Canvas(width, height)
    for name in ("Ground", "Rough", "Ruins", "Mist"):
        canvas.layer(name)
    ground = ("Ground", "grass")
    canvas.ascii(RUINS, {
        ".": [ground],
        "#": [ground, ("Ruins", "wall")],
        "o": [ground, ("Ruins", "pillar")],
        ",": [ground, ("Rough", "rubble")],
        ":": [ground, ("Rough", "brush")],
        "%": [ground, ("Mist", "fog")],
    })
    roster = [("foot", "Foot soldier", 4, 6), ("foot", "Foot soldier", 4, 8), ("spearman", "Spearman", 4, 7),
              ("archer", "Archer", 1, 5), ("archer", "Archer", 1, 9)]
    spawns = [SpawnSpec(x, y, "blue", template, name, "E") for template, name, x, y in roster]
    spawns += [SpawnSpec(width - 1 - x, y, "red", template, name, "W") for template, name, x, y in roster]
    return MapSpec(
        "mirror_ruins.tmx", "Mirror: The Ruins",
        "Two equal war bands in a ruined court: broken walls and pillars to hide behind, fog to shoot from, "
        "brush down the middle. Both sides are the same, placed as mirror images, for fivefoot ladder.",
        "bfrpg", width, height, list(canvas.layers.values()), spawns,
    )


# --- main -------------------------------------------------------------------------------

def preview(path: Path, out_dir: Path) -> Path:
    """Render the map with the loader's tile list, the way the game will draw it."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    sys.path.insert(0, str(HERE.parent))
    import pygame

    from game.io.tiled import load_tiled_map, tile_image_sources

    art = tile_image_sources(path)
    battle = load_tiled_map(path)
    surface = pygame.Surface((battle.width * art.tile_width, battle.height * art.tile_height))
    sheets = {}
    for (x, y, layer), image in sorted(art.images.items(), key=lambda item: item[0][2]):
        if image.source not in sheets:
            sheets[image.source] = pygame.image.load(str(image.source))
        tile = sheets[image.source].subsurface(image.rect)
        if image.flip_diagonal:  # transpose: rotate a quarter turn clockwise, then mirror
            tile = pygame.transform.flip(pygame.transform.rotate(tile, -90), True, False)
        tile = pygame.transform.flip(tile, image.flip_x, image.flip_y)
        surface.blit(tile, (x * art.tile_width, (y + 1) * art.tile_height - tile.get_height()))
    colours = {"red": (220, 40, 40), "blue": (40, 90, 230)}
    for spawn in battle.spawns:
        centre = (spawn.x * art.tile_width + art.tile_width // 2, spawn.y * art.tile_height + art.tile_height // 2)
        pygame.draw.circle(surface, colours.get(spawn.side, (255, 255, 255)), centre, art.tile_width // 3)
        pygame.draw.circle(surface, (255, 255, 255), centre, art.tile_width // 3, 2 if spawn.altitude_ft else 1)
    out = out_dir / (path.stem + ".png")
    pygame.image.save(surface, str(out))
    return out


BUILDERS = (dungeon, forest, field_map, castle, canyon, mirror_ruins)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", metavar="DIR", type=Path, help="also render PNG previews into DIR")
    parser.add_argument("--out", metavar="DIR", type=Path, default=MAPS, help=f"where to write (default {MAPS})")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for build in BUILDERS:
        spec = build()
        check_layout(spec)
        path = write_tmx(spec, args.out)
        print(f"wrote {path}")
        if args.preview:
            args.preview.mkdir(parents=True, exist_ok=True)
            print(f"  preview {preview(path, args.preview)}")


if __name__ == "__main__":
    main()
