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


def test_turn_post_is_the_board_then_one_legible_page_per_city() -> None:
    """Issue 17: five cities in one photo were 230-450 px wide in Telegram; each city is now a
    page of its own, small enough that Telegram keeps it near full size."""
    for players in (2, 5):
        s = GAME.new_game(players, players, {"prosperity": True})
        while GAME.outcome(s) is None:
            seat = next(iter(GAME.to_move(s)))
            s = GAME.apply(s, seat, GAME.auto_action(s, seat, 3)).state
        seen = GAME.view(s, None)
        board = Image.open(io.BytesIO(renderer.render("capitals", seen)))
        assert board.size == board_image(seen).size and board.size[1] < 1400  # no city in it
        pages = renderer.render_pages("capitals", seen)
        assert len(pages) == players
        for seat, data in enumerate(pages):
            page = Image.open(io.BytesIO(data))
            assert page.format == "PNG" and page.size == city_image(seen, seat).size
            # Near full size in Telegram (it keeps at most 1280-2560 px on the long side), and
            # at most about 1040 px wide: a tile label of 22 px stays 8.5 px or more on a
            # 400-px phone view (12 px for an early city of five columns, about 760 px wide).
            assert 560 <= page.size[0] <= 1040 and max(page.size) <= 2560
        assert [renderer.render_pages("capitals", GAME.view(s, v)) for v in range(players)] == [pages] * players


def test_other_games_have_no_pages() -> None:
    from engine import find_game

    for game_id in ("duellum", "seven-wonders", "mare-nostrum"):
        game = find_game(game_id)
        state = game.new_game(1, game.info.min_players, {})
        assert renderer.render_pages(game_id, game.view(state, None)) == []


def test_a_small_city_page_is_as_narrow_as_its_grid() -> None:
    s = GAME.new_game(3, 5, {"prosperity": True})
    for step in range(60):
        seat = next(iter(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, step)).state
    seen = GAME.view(s, None)
    widths = [Image.open(io.BytesIO(p)).size[0] for p in renderer.render_pages("capitals", seen)]
    assert min(widths) < 800 < max(table_image(seen).size)  # the whole table keeps 1000 px
