"""City names on the Clash of Cultures map and pages (new-user play-test: commands and events
name cities, ``collect athens food``, but the map showed only a city's size, so nobody could tell
which disc was Athens).

Every city's name is drawn once on the board, near its own hex, inside the image (hexes at the
map's edge too), large enough to read when the board is shown 400 px wide, clear of the other
names and of the other cities' discs; each player's page lists its cities by name and hex."""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageFont

from engine.clash import ClashGame
from renderer import text as text_module
from renderer.base import text_watch
from renderer.clash import MARGIN, WIDTH, board_image, render_pages
from renderer.clash_map import map_geometry, map_image

GAME = ClashGame()
Box = tuple[float, float, float, float]


def _played(players: int, seed: int, steps: int) -> Any:
    """A seeded game played ``steps`` moves by the automatic players (many cities by then)."""
    s = GAME.new_game(seed, players)
    for step in range(steps):
        if GAME.outcome(s) is not None:
            break
        seat = next(iter(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, step)).state
    return s


def _label(city: dict[str, Any]) -> str:
    """The name expected on the map: a Barbarian camp's name repeats its hex's label, which the
    hex already shows above the disc, so only ``Barbarian camp`` is written."""
    name, space = str(city["name"]), str(city["space"]).upper()
    return name[: -len(space) - 1] if name.endswith(" " + space) else name


@pytest.fixture
def drawn_boxes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Box, int, tuple[int, int]]]]:
    """Every text the renderer draws, with its pixel box, font size and the size of the image it is
    drawn on (whichever renderer module calls ``draw_text``)."""
    found: list[tuple[str, Box, int, tuple[int, int]]] = []
    real = text_module.draw_text

    def recording(draw: Any, xy: tuple[float, float], text: str, fnt: Any, *args: Any, **kwargs: Any) -> None:
        anchor = kwargs.get("anchor", args[1] if len(args) > 1 else "la")
        if isinstance(fnt, ImageFont.FreeTypeFont):
            left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
            x, y = round(xy[0]), round(xy[1])
            found.append((text, (x + left, y + top, x + right, y + bottom), int(fnt.size), draw.im.size))
        real(draw, xy, text, fnt, *args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("renderer") and getattr(module, "draw_text", None) is real:
            monkeypatch.setattr(module, "draw_text", recording)
    yield found


def _within(box: Box, size: tuple[int, int]) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= size[0] and box[3] <= size[1]


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize(("players", "seed", "steps"), [(4, 3, 400), (4, 11, 700), (2, 7, 500)])
def test_every_city_name_is_drawn_near_its_city_inside_the_image(
    drawn_boxes: list[tuple[str, Box, int, tuple[int, int]]], players: int, seed: int, steps: int
) -> None:
    view = GAME.view(_played(players, seed, steps), None)
    hexes = tuple(h for s in view["slots"] for h in s["hexes"])
    cities = [c for c in view["cities"] if c["space"] in hexes]
    assert len(cities) >= 10
    width = WIDTH - 2 * MARGIN
    geo = map_geometry(hexes, width)
    edge = [c for c in cities if min(geo.centre(c["space"])[0], width - geo.centre(c["space"])[0]) < 2 * geo.size]
    assert edge, "some cities stand at the map's edge"

    labels = Counter(_label(c) for c in cities)  # three "Barbarian camp" are three names

    # On the board: each name once, inside the image, large enough at 400 px wide.
    board = board_image(view)
    for label, n in labels.items():
        hits = [(box, size) for text, box, size, on in drawn_boxes if text == label and on == board.size]
        assert len(hits) == n, f"{label} drawn {len(hits)} times on the board, not {n}"
        for box, size in hits:
            assert _within(box, board.size), (label, box)
            assert size * 400 / board.width >= 5, f"{label}: {size} px is under 5 px at 400 px wide"

    # On the map alone (its corner at 0, 0): near its own hex, clear of other names and discs.
    drawn_boxes.clear()
    image = map_image(view, width)
    names: dict[str, Box] = {}
    for city in cities:
        hits = [box for text, box, _, on in drawn_boxes if text == _label(city) and on == image.size]
        assert len(hits) == labels[_label(city)]
        x, y = geo.centre(city["space"])
        box = names[city["space"]] = min(hits, key=lambda b: math.dist(_centre(b), (x, y)))
        assert _within(box, image.size), (city, box)
        assert math.dist(_centre(box), (x, y)) < 1.2 * geo.size, city
    r = geo.size * 0.34
    for space, box in names.items():
        for other, other_box in names.items():
            assert other == space or not _overlap(box, other_box), (space, other)
        for city in cities:
            x, y = geo.centre(city["space"])
            assert city["space"] == space or not _overlap(box, (x - r, y - r, x + r, y + r)), (space, city["space"])


def test_pages_list_each_players_cities_by_name_and_hex() -> None:
    view = GAME.view(_played(4, 3, 400), None)
    with text_watch() as drawn:
        render_pages(view)
    said = " ".join(drawn)
    for city in view["cities"]:
        if city["owner"] >= 0:
            assert f"{city['name']} ({city['space'].upper()})" in said
    assert sum(1 for t in drawn if t.startswith("Cities: ")) == 4
