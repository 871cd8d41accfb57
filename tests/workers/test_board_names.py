"""The board image carries who plays each seat: the final board names the winning player."""

from __future__ import annotations

from typing import Any
from unittest import mock

from renderer import base
from tests.workers.util import make_game
from workers import images


def test_board_view_gets_the_players_names(store: Any) -> None:
    gid = make_game(store, "duellum")
    seen: list[dict[str, Any]] = []
    real = images.renderer.render

    def spy(game_id: str, view: dict[str, Any]) -> bytes:
        seen.append(view)
        return real(game_id, view)

    with mock.patch.object(images.renderer, "render", spy), base.text_watch() as texts:
        assert images.board_png(store, gid) is not None
    assert seen and seen[0]["player_names"] == ["alice", "bob"]
    assert any("(alice)" in t or "(bob)" in t for t in texts)
