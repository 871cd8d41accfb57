"""No information-bearing text on a board is cut: random games of both games, many points.

Why through ``clip_watch``: every text helper of the renderer (``wrap`` with a line limit,
``fit_text``, ``fit_font``, the rondel labels) reports a text it had to cut or could not fit;
boards must grow instead (issue: a cut "Last turn" box once hid the conquest of a player's own
city, and a cut hand verdict hid a wonder stage's price).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import renderer
from engine import find_game
from renderer import base

# (game, players, options, seed) — both Duellum map sides, 7 Wonders from 2 to 7 players.
GAMES: list[tuple[str, int, dict[str, Any], int]] = [
    ("duellum", 2, {"map": "A"}, 11),
    ("duellum", 2, {"map": "B"}, 12),
    ("duellum", 2, {"map": "A", "special_units": True}, 13),
    ("seven-wonders", 2, {}, 21),
    ("seven-wonders", 3, {"cities": True}, 22),
    ("seven-wonders", 4, {"side": "B"}, 23),
    ("seven-wonders", 7, {"cities": True, "side": "B"}, 24),
    ("clash", 2, {}, 31),
    ("clash", 4, {}, 32),
    ("mare-nostrum", 5, {}, 41),
    ("mare-nostrum", 3, {"setup": "advanced"}, 42),
    ("capitals", 5, {"prosperity": True}, 51),
    ("capitals", 2, {}, 52),
]
SAMPLES = 9  # boards per game, spread over the whole game


def _states(game_id: str, players: int, options: dict[str, Any], seed: int) -> Iterator[Any]:
    """Every state of a seeded game played by the automatic players, from setup to the end."""
    game = find_game(game_id)
    state = game.new_game(seed, players, options)
    yield state
    step = 0
    while game.outcome(state) is None and step < 4000:
        for seat in sorted(game.to_move(state)):
            if seat in game.to_move(state):
                state = game.apply(state, seat, game.auto_action(state, seat, seed * 1000 + step)).state
                step += 1
                yield state


def sampled(game_id: str, players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """``SAMPLES`` states spread over a game, always with the first and the last."""
    states = list(_states(game_id, players, options, seed))
    picks = {0, len(states) - 1} | {len(states) * k // (SAMPLES - 1) for k in range(1, SAMPLES - 1)}
    return [states[i] for i in sorted(picks)]


@pytest.mark.parametrize(("game_id", "players", "options", "seed"), GAMES)
def test_no_text_is_cut_on_any_board_or_hand(game_id: str, players: int, options: dict[str, Any], seed: int) -> None:
    game = find_game(game_id)
    for state in sampled(game_id, players, options, seed):
        for seat in [None, *range(players)]:
            view = game.view(state, seat)
            with base.clip_watch() as clipped:
                png = renderer.render(game_id, view) if seat is None else renderer.render_private(game_id, view)
                pages = renderer.render_pages(game_id, view) if seat is None else []
            assert clipped == [], f"{game_id} turn {view.get('turn')} seat {seat}: cut {clipped}"
            for image in ([png] if png is not None and seat is None else []) + pages:
                assert len(image) <= 150 * 1024, f"{game_id} image of {len(image) // 1024} KiB"
                Image.open(io.BytesIO(image)).verify()


def test_clip_watch_catches_a_cut_text() -> None:
    with base.clip_watch() as clipped:
        base.fit_text("A sentence far too long for forty pixels", base.font(20), 40)
    assert clipped
    with base.clip_watch() as clipped:
        base.wrap("one two three four five six", base.font(20), 60, max_lines=1)
    assert clipped
    with base.clip_watch() as clipped:
        base.fit_font("Incomprehensibilities", 20, 30, min_size=12)
    assert clipped == ["Incomprehensibilities"]
    with base.clip_watch() as clipped:
        base.wrap("fits", base.font(20), 400, max_lines=1)
        base.fit_font("fits", 20, 400)
    assert clipped == []
