"""Wonders in the Clash of Cultures images: the mark on the city, the line on the owner's page,
the reserved wonder and the wonders on offer, without any clipped text."""

from __future__ import annotations

from engine.clash.builder import GAME, Position
from renderer.base import clip_watch, text_watch
from renderer.clash import board_image, render_pages


def test_wonders_are_drawn_on_the_map_and_boards() -> None:
    pos = Position(4, seed=3).clear_units().reveal_all()
    s = pos.state
    city = s.cities_of(0)[0]
    city.wonder = "pyramids"
    s.revealed_wonders = ["library", "colossus"]
    s.reserved = {"colossus": 1}
    with text_watch() as drawn, clip_watch() as clipped:
        board_image(GAME.view(s, None))
        render_pages(GAME.view(s, None))
    assert f"Wonders: Pyramids of Giza in {city.name}" in drawn
    assert "reserved: Colossus of Rhodes" in drawn
    assert "Wonders to build: Library of Alexandria, Colossus of Rhodes" in drawn
    assert "W" in drawn  # the mark on the city
    assert clipped == []


def test_no_wonder_lines_without_wonders() -> None:
    s = Position(2).state
    with text_watch() as drawn:
        board_image(GAME.view(s, None))
        render_pages(GAME.view(s, None))
    assert not [t for t in drawn if t.startswith(("Wonders", "reserved")) or t == "W"]


def test_an_open_trade_offer_is_shown_under_the_header() -> None:
    pos = Position(2).clear_units().advances(1, "storage").give(1, food=0).turn(0)
    pos.play(0, "trade blue")
    pos.play(0, "give 1 food")
    pos.play(0, "offer")
    with text_watch() as drawn:
        board_image(GAME.view(pos.state, None))
        render_pages(GAME.view(pos.state, None))
    assert "Trade offer: Red gives 1 food as a gift" in drawn
    assert "Waiting for Blue to answer a trade offer." in drawn
    # Blue's page, not Red's (whose turn it is), is marked as awaited.
    assert [t for t in drawn if t.startswith("Blue — ") and t.endswith(" — to answer")]
    assert not [t for t in drawn if t.startswith("Red — ") and t.endswith(("to play", "to answer"))]


def test_a_card_in_an_offer_is_counted_never_named_in_any_image() -> None:
    from engine.clash.cards_data import DECKS
    from engine.clash.trade_cards import card_word

    pos = Position(2).clear_units().hand(0, "leadership").hand(1).give(1, ore=2).turn(0)
    card = pos.state.decks["hands"][0][0]
    pos.play(0, "trade blue")
    pos.play(0, f"give card {card_word(card)}")
    pos.play(0, "get 1 ore")
    pos.play(0, "offer")
    for seat in (None, 0, 1):
        with text_watch() as drawn:
            board_image(GAME.view(pos.state, seat))
            render_pages(GAME.view(pos.state, seat))
        assert "Trade offer: Red gives 1 action card for 1 ore" in drawn
        assert not [t for t in drawn if DECKS.actions[card].name in t]
