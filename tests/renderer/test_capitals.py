"""The Capitals images: public board with every city, one city alone, the private hand;
every phase of a seeded game renders, the public image never depends on the viewer's hand."""

from __future__ import annotations

import io

from PIL import Image

import renderer
from engine.capitals.builder import GAME
from engine.core.rng import Rng
from renderer.capitals import board_image, city_image, table_image


def views(players: int, stop_round: int) -> list[tuple[object, object]]:
    s = GAME.new_game(7, players, {"prosperity": True})
    rng = Rng.from_seed(players)
    phases: set[str] = set()
    out = []
    while GAME.outcome(s) is None and s.round <= stop_round:
        seat = next(iter(GAME.to_move(s)))
        if s.phase not in phases:
            phases.add(s.phase)
            out.append((s, seat))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
    out.append((s, None))
    return out


def test_every_phase_renders_and_public_image_ignores_the_viewer() -> None:
    for players in (2, 5):
        for s, seat in views(players, 4):
            seen = GAME.view(s, None)
            data = renderer.render("capitals", seen)
            image = Image.open(io.BytesIO(data))
            assert image.format == "PNG" and image.size[0] >= 1000
            assert sum(image.size) <= 10000 and image.size[1] <= 20 * image.size[0]  # Telegram photo limits
            for viewer in range(players):
                assert renderer.render("capitals", GAME.view(s, viewer)) == data
            _ = seat


def test_private_hand_only_for_a_seat_with_tiles() -> None:
    s = GAME.new_game(3, 3, {"prosperity": True})
    assert renderer.render_private("capitals", GAME.view(s, 0)) is not None
    assert renderer.render_private("capitals", GAME.view(s, None)) is None
    assert renderer.render_private("capitals", GAME.view(GAME.new_game(3, 3), 0)) is None


def test_board_and_city_images_and_a_finished_game() -> None:
    s = GAME.new_game(2, 4)
    while GAME.outcome(s) is None:
        seat = next(iter(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, 1)).state
    v = GAME.view(s, None)
    assert board_image(v).size[0] == 1000
    assert city_image(v, 0).size[1] > 200
    assert table_image(v).size[1] > board_image(v).size[1]


def test_survives_a_sparse_view() -> None:
    assert renderer.render("capitals", {})
    assert renderer.render("capitals", {"players": [{"name": "Ann", "city": [{"x": 0, "y": 0, "tile": None}]}]})


def test_city_grid_layer_is_cached() -> None:
    from renderer.capitals_city import GRIDS

    GRIDS.clear()
    v = GAME.view(GAME.new_game(1, 3), None)
    table_image(v)
    table_image(v)
    info = GRIDS.info()
    assert info.builds == 1 and info.hits == 5  # three cities of one size, drawn twice
