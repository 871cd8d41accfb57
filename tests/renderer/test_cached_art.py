"""Cached art (renderer.base.cached_art): pasted sprites give the pixels of drawing in place.

Why byte for byte: a sprite is a shortcut, never a different picture; any drift (a rounding at
another origin, a text drawn over a panel in another order) would show here first.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageDraw

from renderer import base, duellum
from tests.renderer.fixtures import make_view, random_view


def _views() -> list[dict[str, Any]]:
    views = [random_view("AB"[i % 2], seed=i, viewer=None) for i in range(12)]
    over = make_view("B", None, turn=40)
    over.update({"over": True, "winner": 1, "to_move": []})
    named = make_view("A", None, turn=12)
    named["player_names"] = ["alice", "a player with a very long name indeed"]
    both = make_view("A", None, turn=13)
    both["to_move"] = [0, 1]
    return [*views, over, named, both]


def test_duellum_boards_with_sprites_equal_boards_drawn_fresh() -> None:
    base.SPRITES.clear()
    views = _views()
    with base.fresh_art():
        fresh = [duellum.board_image(v).tobytes() for v in views]
    first = [duellum.board_image(v).tobytes() for v in views]  # builds the sprites
    again = [duellum.board_image(v).tobytes() for v in reversed(views)][::-1]  # pastes them
    info = base.SPRITES.info()
    assert info.builds > 0 and info.hits > 0
    assert first == fresh
    assert again == fresh


def test_cached_art_replays_texts_and_clips_on_every_use() -> None:
    base.SPRITES.clear()
    view = make_view("A", None)
    duellum.base_for(view)  # the static map layer is drawn once per process: not part of this count
    with base.fresh_art(), base.text_watch() as fresh:
        duellum.board_image(view)
    for _ in range(2):
        with base.text_watch() as drawn:
            duellum.board_image(view)
        assert sorted(drawn) == sorted(fresh)

    def cut(draw: ImageDraw.ImageDraw, box: base.Box4) -> None:
        base.report_clip("too long")

    image = Image.new("RGB", (40, 40))
    for _ in range(2):
        with base.clip_watch() as clipped:
            base.cached_art(image, (3, 3, 20, 20), "clip-test", cut, background=base.PAPER)
        assert clipped == ["too long"]


@pytest.mark.parametrize("origin", [(0, 0), (1, 0), (0, 1), (7, 13), (10.5, 3.25)])
def test_cached_art_lands_on_the_same_pixels_at_any_origin(origin: tuple[float, float]) -> None:
    base.SPRITES.clear()
    x, y = origin

    def art(draw: ImageDraw.ImageDraw, box: base.Box4) -> None:
        x0, y0, x1, y1 = box
        draw.rounded_rectangle(box, radius=7, fill=base.WHITE, outline=base.INK, width=2)
        base.draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "Fair Winds 3", base.font(17), base.INK, anchor="mm")
        base.draw_text(draw, (x0 + 5.5, y0 + 4.5), "x", base.font(24, "bold"), base.INK)

    box = (x + 4, y + 6, x + 123, y + 41)
    fresh = Image.new("RGB", (160, 70), base.PANEL)
    with base.fresh_art():
        base.cached_art(fresh, box, "origin-test", art, background=base.PANEL)
    for _ in range(2):
        pasted = Image.new("RGB", (160, 70), base.PANEL)
        base.cached_art(pasted, box, "origin-test", art, background=base.PANEL)
        assert pasted.tobytes() == fresh.tobytes()


def test_sprite_cache_stays_within_its_pixel_budget() -> None:
    cache = base.SpriteCache(max_pixels=1000)
    for k in range(10):
        cache.get(k, lambda: base.Sprite(Image.new("RGB", (10, 30)), (), ()))
    assert cache.pixels <= 1000 and cache.info().size == 3
    cache.get("huge", lambda: base.Sprite(Image.new("RGB", (100, 100)), (), ()))  # used, not kept
    assert cache.pixels <= 1000 and cache.info().builds == 11


def test_seven_wonders_tables_with_sprites_equal_tables_drawn_fresh() -> None:
    from renderer import seven_wonders
    from tests.renderer.test_seven_wonders import GAME, SCENARIOS, scenario_state

    views = [GAME.view(scenario_state(i), None) for i in range(len(SCENARIOS))]
    base.SPRITES.clear()
    with base.fresh_art():
        fresh = [seven_wonders.table_image(v).tobytes() for v in views]
    first = [seven_wonders.table_image(v).tobytes() for v in views]
    again = [seven_wonders.table_image(v).tobytes() for v in reversed(views)][::-1]
    assert base.SPRITES.info().hits > 0
    assert first == fresh
    assert again == fresh


def _reset_caches() -> None:
    base.SPRITES.clear()
    base.PIECES.clear()
    base.PALETTES.clear()
    base.STATIC_LAYERS.clear()


def test_duellum_pngs_drawn_with_warm_caches_decode_to_the_pixels_of_pngs_drawn_from_scratch() -> None:
    """End to end: sprites, pasted pieces, the remembered geometry and the kind's palette change
    nothing a player sees. The same first board sets the palette both ways."""
    first = make_view("A", None, turn=1)
    views = _views()
    _reset_caches()
    with base.fresh_art():
        duellum.render(first)
        scratch = [duellum.render(v) for v in views]
    _reset_caches()
    duellum.render(first)
    for v in views:  # every sprite and piece built once, then pasted
        duellum.render(v)
    warm = [duellum.render(v) for v in views]
    assert base.PIECES.info().hits > 0 and base.PALETTES.info().builds == 1
    for data_scratch, data_warm in zip(scratch, warm, strict=True):
        a, b = Image.open(io.BytesIO(data_scratch)), Image.open(io.BytesIO(data_warm))
        assert a.convert("RGB").tobytes() == b.convert("RGB").tobytes()
