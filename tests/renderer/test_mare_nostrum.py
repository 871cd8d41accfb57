"""Mare Nostrum images: the public board is the same for every viewer's view, hands appear only
in private images, and every phase of a real game draws without error."""

from __future__ import annotations

import io

from PIL import Image

import renderer
from engine.core.rng import Rng
from engine.mare_nostrum.positions import GAME


def _states(seed: int, players: int, limit: int = 400, every: int = 37) -> list[object]:
    s = GAME.new_game(seed, players, {})
    rng = Rng.from_seed(seed)
    out = []
    for i in range(limit):
        if GAME.outcome(s) is not None:
            break
        seat = rng.choice(sorted(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
        if i % every == 0 or s.phase == "offer":
            out.append(s)
    return out[:14]


def test_public_board_is_the_same_for_every_viewer() -> None:
    for s in _states(3, 5):
        images = {renderer.render("mare-nostrum", GAME.view(s, seat)) for seat in [None, 0, 1, 2, 3, 4]}
        assert len(images) == 1
        image = Image.open(io.BytesIO(images.pop()))
        assert image.format == "PNG" and image.width == 1000


def test_private_hand_image_only_for_a_seat() -> None:
    s = _states(4, 3)[-1]
    assert renderer.render_private("mare-nostrum", GAME.view(s, None)) is None
    data = renderer.render_private("mare-nostrum", GAME.view(s, 0))
    assert data is not None and Image.open(io.BytesIO(data)).format == "PNG"
    assert renderer.render_private("mare-nostrum", GAME.view(s, 0)) != renderer.render_private(
        "mare-nostrum", GAME.view(s, 1))


def test_empty_view_draws() -> None:
    assert Image.open(io.BytesIO(renderer.render("mare-nostrum", {}))).format == "PNG"
