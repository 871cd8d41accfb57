"""Render real engine views: a few turns of seeded Antike Duellum games on both map sides.

Why in addition to the hand-built fixtures: the fixtures follow the written contract; these
tests catch drift between the contract and what engine/duellum actually returns. They need
the engine (``find_game("duellum")``) and are skipped while it is not available.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import renderer
from engine import UnknownGame, find_game
from renderer import duellum


def _game() -> Any:
    try:
        return find_game("duellum")
    except UnknownGame:
        pytest.skip("engine/duellum is not available yet")


def _play(side: str, seed: int, turns: int, options: dict[str, Any] | None = None) -> list[Any]:
    """States after each of the first ``turns`` turns, advanced by the automatic player."""
    game = _game()
    state = game.new_game(seed, 2, {"map": side, **(options or {})})
    states: list[Any] = []
    last_turn = game.view(state, None)["turn"]
    for step in range(3000):
        if game.outcome(state) is not None or len(states) >= turns:
            break
        seat = min(game.to_move(state))
        state = game.apply(state, seat, game.auto_action(state, seat, seed=seed * 1000 + step)).state
        turn = game.view(state, None)["turn"]
        if turn != last_turn:
            states.append(state)
            last_turn = turn
    assert states, "the automatic players never finished a turn"
    return states


@pytest.mark.parametrize(("side", "seed"), [("A", 1), ("B", 2)])
def test_real_views_render_the_same_public_board_for_every_viewer(side: str, seed: int) -> None:
    game = _game()
    for state in _play(side, seed, turns=6)[::2]:
        views = {seat: game.view(state, seat) for seat in (None, 0, 1)}
        images = {seat: renderer.render("duellum", v) for seat, v in views.items()}
        assert images[0] == images[None] == images[1], "the public board must not depend on the viewer"
        image = Image.open(io.BytesIO(images[None]))
        assert image.size == (duellum.WIDTH, duellum.layout(views[None]).height)
        assert views[None]["map_side"] == side
        ids = {r["id"] for r in views[None]["regions"]}
        assert set(views[None]["last_turn"]["regions"]) <= ids


@pytest.mark.parametrize(("side", "seed"), [("A", 3), ("B", 4)])
def test_real_views_private_images(side: str, seed: int) -> None:
    game = _game()
    seen_hand = False
    for state in _play(side, seed, turns=12):
        assert renderer.render_private("duellum", game.view(state, None)) is None
        for seat in (0, 1):
            view = game.view(state, seat)
            private = renderer.render_private("duellum", view)
            hand = view["players"][seat]["hand"]
            assert (private is not None) == bool(hand)
            if private is not None:
                seen_hand = True
                assert Image.open(io.BytesIO(private)).size[0] == duellum.HAND_W
    if not seen_hand:  # give one seat a card through the public row to exercise the image anyway
        view = game.view(state, 0)
        view["players"][0]["hand"] = list(view["event_row"][:1])
        assert renderer.render_private("duellum", view) is not None


def test_real_view_with_special_units_renders() -> None:
    game = _game()
    if "special_units" not in game.info.options_help:
        pytest.skip("this engine version has no special-units variant")
    state = _play("B", 5, turns=4, options={"special_units": True})[-1]
    assert renderer.render("duellum", game.view(state, None))


def test_real_views_are_deterministic_and_change_between_turns() -> None:
    game = _game()
    states = _play("A", 6, turns=3)
    images = [renderer.render("duellum", game.view(s, None)) for s in states]
    assert len(set(images)) == len(images)
    assert renderer.render("duellum", game.view(states[-1], None)) == images[-1]
