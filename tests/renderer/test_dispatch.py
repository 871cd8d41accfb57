"""renderer.render / render_private dispatch: known games, FALLBACK cards, unknown ids."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import renderer
from renderer import fallback


def test_the_fallback_status_card() -> None:
    """Every built-in game now has its own renderer; the status card remains for plug-in games
    (and is drawn by the same function the dispatch uses for them)."""
    view = {
        "players": [{"name": "Ann", "colour": "RED"}, {"nation": "Rome"}, "Bob"],
        "to_move": [1],
        "turn": 4,
        "awaiting": "Rome to choose a card",
    }
    data = fallback.render_fallback("plug-in", "A Plug-in Game", view)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (fallback.WIDTH, fallback.HEIGHT)
    other = fallback.render_fallback("plug-in", "A Plug-in Game", {**view, "awaiting": "Ann to trade"})
    assert other != data  # the status text is drawn


def test_fallback_survives_an_empty_view() -> None:
    data = fallback.render_fallback("plug-in", "A Plug-in Game", {})
    assert Image.open(io.BytesIO(data)).size == (fallback.WIDTH, fallback.HEIGHT)


def test_game_ids_are_matched_leniently() -> None:
    assert renderer.render("Mare_Nostrum", {}) == renderer.render("mare-nostrum", {})


@pytest.mark.parametrize("game_id", ["chess", "", "duellum2"])
def test_unknown_game_is_a_clear_value_error(game_id: str) -> None:
    with pytest.raises(ValueError, match="No renderer for game"):
        renderer.render(game_id, {})
    with pytest.raises(ValueError, match="known games: duellum"):
        renderer.render_private(game_id, {})


def test_every_registered_engine_game_has_a_renderer_entry() -> None:
    from engine.core.registry import _ENTRIES

    assert {e.id for e in _ENTRIES if e.module} <= set(renderer.GAMES)


def test_a_game_registered_at_run_time_gets_the_fallback_card(store) -> None:  # type: ignore[no-untyped-def]
    """Plug-in games (``engine.register``; the tests' toy game) are drawn as a status card."""
    data = renderer.render("toy", {"players": [{"seat": 0}, {"seat": 1}]})
    assert Image.open(io.BytesIO(data)).format == "PNG"
    assert renderer.render_private("toy", {}) is None
