"""Mare Nostrum's cheaper drawing: masked province sprites and panel frames give the pixels of
drawing in place, lines measured word by word wrap where ``wrap`` does, and lines drawn in
pieces land within a pixel of the whole line.

Why byte for byte for the sprites: a sprite is a shortcut, never a different picture; a mask
that missed a pixel (a rounded corner, the glow, the WAR badge over the map's links) would
show here first.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.core.rng import Rng
from engine.mare_nostrum.positions import GAME
from renderer import base, mare_nostrum
from renderer.base import draw_pieces
from renderer.mare_nostrum_panels import header_lines, panel_plan, wrap_words


def _views(seed: int, players: int, options: dict[str, Any], every: int = 41) -> list[dict[str, Any]]:
    state = GAME.new_game(seed, players, options)
    rng = Rng.from_seed(seed)
    out: list[dict[str, Any]] = [GAME.view(state, None)]
    step = 0
    while GAME.outcome(state) is None and step < 1500:
        seat = rng.choice(sorted(GAME.to_move(state)))
        state = GAME.apply(state, seat, GAME.auto_action(state, seat, rng.next64() & 0xFFFF)).state
        step += 1
        if step % every == 0:
            out.append(GAME.view(state, None))
    out.append(GAME.view(state, None))
    return out[::3]


def _crowded(view: dict[str, Any]) -> dict[str, Any]:
    """Every province feature at once: a war-torn, glowing province with buildings, four
    caravans and units of five sides (two rows of chips), beside a glowing sea."""
    view = copy.deepcopy(view)
    provinces = view["provinces"]
    civs = ["rome", "greece", "carthage", "egypt", "babylon"]
    for pid in ("athenae", "cyrenaica"):
        p = provinces[pid]
        p.update({"owner": "greece", "war_torn": True, "temple": True, "market": True,
                  "cities": ["a", "b", "c"], "caravans": ["wine", "oil", "grain", "metal"]})
        p["units"] = [{"civ": c, "kind": k, "place": "x" if c == "rome" else ""}
                      for c in civs for k in ("legion", "legion", "fortress", "trireme")]
    view["neutrals"] = ["babylon"]
    view["last"] = ["athenae", "cyrenaica", "aegaeum", "roma", "adriaticum"]
    return view


def _all_views() -> list[dict[str, Any]]:
    views = _views(5, 5, {}) + _views(6, 3, {"setup": "advanced"})
    return [*views, _crowded(views[-1]), _crowded(views[1])]


def test_mare_nostrum_boards_with_sprites_equal_boards_drawn_fresh() -> None:
    views = _all_views()
    base.SPRITES.clear()
    with base.fresh_art():
        fresh = [mare_nostrum.board_image(v).tobytes() for v in views]
    first = [mare_nostrum.board_image(v).tobytes() for v in views]  # builds the sprites
    again = [mare_nostrum.board_image(v).tobytes() for v in reversed(views)][::-1]  # pastes them
    info = base.SPRITES.info()
    assert info.builds > 0 and info.hits > info.builds
    assert first == fresh
    assert again == fresh


def test_province_sprites_replay_their_texts() -> None:
    view = _crowded(_views(5, 5, {})[2])
    mare_nostrum.board_image(view)  # the static map layer (sea names) is drawn once per process
    base.SPRITES.clear()
    with base.fresh_art(), base.text_watch() as fresh:
        mare_nostrum.board_image(view)
    for _ in range(2):
        with base.text_watch() as drawn:
            mare_nostrum.board_image(view)
        assert sorted(drawn) == sorted(fresh)
    assert "WAR" in fresh and "T" in fresh and "M" in fresh


def _striped(size: tuple[int, int]) -> Image.Image:
    """A background that is nowhere plain: the mask must leave every pixel the art misses."""
    image = Image.new("RGB", size, (200, 180, 140))
    draw = ImageDraw.Draw(image)
    for x in range(-size[1], size[0], 6):
        draw.line((x, 0, x + size[1], size[1]), fill=(90, 120, 200), width=2)
    return image


@pytest.mark.parametrize("origin", [(0, 0), (1, 0), (0, 1), (7, 13), (10.5, 3.25)])
def test_masked_art_lands_on_the_same_pixels_over_any_background(origin: tuple[float, float]) -> None:
    base.SPRITES.clear()
    x, y = origin

    def art(draw: ImageDraw.ImageDraw, box: base.Box4) -> None:
        x0, y0, x1, y1 = box
        draw.rounded_rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), 12, fill=base.HIGHLIGHT, outline=base.INK)
        draw.rounded_rectangle(box, radius=9, fill=base.WHITE, outline=base.INK, width=2)
        draw.rounded_rectangle((x1 - 50, y0 - 14, x1 + 6, y0 + 12), 5, fill=(200, 30, 30))
        base.draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "Roma 3L*", base.font(22, "bold"), base.INK,
                       anchor="mm")

    box = (x + 20, y + 24, x + 140, y + 162)
    fresh = _striped((200, 200))
    with base.fresh_art():
        base.masked_art(fresh, box, "masked-test", art, margin=14)
    assert fresh.tobytes() != _striped((200, 200)).tobytes()
    for _ in range(2):
        pasted = _striped((200, 200))
        base.masked_art(pasted, box, "masked-test", art, margin=14)
        assert pasted.tobytes() == fresh.tobytes()
    sprite = next(iter(base.SPRITES._items.values()))  # the one sprite of this test
    assert any(mask is None for _, _, mask in sprite.bands)  # the solid middle is copied, not masked


def _lines() -> list[tuple[str, base.Font, float]]:
    out: list[tuple[str, base.Font, float]] = []
    for view in _all_views():
        heads = header_lines(view, 968)
        out += [(text, fnt, 968.0) for fnt, text, _ in heads]
        plan = panel_plan(view, 1000, 16)
        out += [(" ".join(t), base.font(26), plan.width - 16) for t in plan.texts]
    out.append(("Supercalifragilisticexpialidocious" * 3 + " and more", base.font(26), 300.0))
    out.append(("Two\nparagraphs, the second one long enough to wrap somewhere", base.font(22), 200.0))
    out.append(("", base.font(26), 100.0))
    return out


def test_wrap_words_breaks_lines_where_wrap_does() -> None:
    for text, fnt, width in _lines():
        for w in (width, width / 2, width / 3):
            assert wrap_words(text, fnt, w) == base.wrap(text, fnt, w), (text, w)


def test_pieces_land_within_a_pixel_of_the_whole_line() -> None:
    checked = 0
    for text, fnt, _ in _lines():
        if "\n" in text or not text:
            continue
        canvas = Image.new("RGB", (1300, 60), base.BLACK)
        base.draw_text(ImageDraw.Draw(canvas), (10, 10), text, fnt, base.WHITE)
        whole = canvas.convert("L")
        canvas = Image.new("RGB", (1300, 60), base.BLACK)
        draw_pieces(ImageDraw.Draw(canvas), (10, 10), text, fnt, base.WHITE)
        pieces = canvas.convert("L")
        a, b = whole.getbbox(), pieces.getbbox()
        assert a is not None and b is not None
        assert all(abs(p - q) <= 1 for p, q in zip(a, b, strict=True)), text
        # Every inked pixel of the pieces is inked in the whole line one pixel left, right or there.
        near = ImageChops.lighter(ImageChops.lighter(whole, whole.transform(
            whole.size, Image.Transform.AFFINE, (1, 0, 1, 0, 1, 0))), whole.transform(
            whole.size, Image.Transform.AFFINE, (1, 0, -1, 0, 1, 0)))
        stray = ImageChops.subtract(pieces, near).getbbox()
        assert stray is None or _area(stray) <= 4, text
        checked += 1
    assert checked > 20


def _area(box: tuple[int, int, int, int]) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])
