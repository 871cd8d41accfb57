"""Clash of Cultures image: renders every player count and phase, the same for every seat,
survives odd views, highlights the last turn's changes and caches the map base."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

import renderer
from engine.clash import ClashGame
from engine.clash.builder import Position
from renderer import clash_panels
from renderer.base import HIGHLIGHT, STATIC_LAYERS, font, text_watch
from renderer.clash import board_image, header_text
from renderer.clash_panels import CATEGORIES, page_image

GAME = ClashGame()


def _played(players: int, seed: int, rounds: int) -> Any:
    s = GAME.new_game(seed, players)
    steps = 0
    while GAME.outcome(s) is None and s.round <= rounds:
        seat = next(iter(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, steps)).state
        steps += 1
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_renders_every_player_count(players: int) -> None:
    s = _played(players, players, 2)
    data = renderer.render("clash", GAME.view(s, 0))
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size[0] == 1600
    assert data == renderer.render("clash", GAME.view(s, None)) == renderer.render("clash", GAME.view(s, 1))
    assert renderer.render_private("clash", GAME.view(s, None)) is None  # a spectator holds no card
    hand = renderer.render_private("clash", GAME.view(s, 0))
    assert hand is not None and Image.open(io.BytesIO(hand)).format == "PNG"
    # One page per player after the board, the same whoever views them (public facts only).
    pages = renderer.render_pages("clash", GAME.view(s, None))
    assert len(pages) == players
    assert all(pages == renderer.render_pages("clash", GAME.view(s, seat)) for seat in range(players))
    for page in pages:
        image = Image.open(io.BytesIO(page))
        assert image.format == "PNG" and image.size[0] == 800 and len(page) <= 150 * 1024


def test_pages_show_every_board_fact_in_readable_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page carries its player's resources, tokens, card counts, levels and all 48 advances,
    in text of 20 px or more (10 px and more on a phone, where the page is shown 400 px wide);
    the board image keeps a one-line summary per player. A card held is never named."""
    from engine.clash.cards_data import DECKS

    pos = Position(4, seed=5).hand(0, "leadership").turn(0)
    s = pos.state
    view = GAME.view(s, 0)
    sizes: list[int] = []
    real = clash_panels.draw_text

    def sized(draw: Any, xy: Any, text: str, fnt: Any, *args: Any, **kwargs: Any) -> None:
        sizes.append(fnt.size)
        real(draw, xy, text, fnt, *args, **kwargs)

    monkeypatch.setattr(clash_panels, "draw_text", sized)
    with text_watch() as drawn:
        page = page_image(view, 0)
    monkeypatch.undo()
    p = view["players"][0]
    res = p["resources"]
    assert (
        f"{res['food']} food" in " ".join(drawn) and "Cards in hand: 1 action, 0 objective · 0 objectives done" in drawn
    )
    assert f"Culture {p['culture_level']}" in drawn and f"Happiness {p['happiness_level']}" in drawn
    names = {name for _, advances in CATEGORIES for _, name in advances}
    assert len(names) == 48
    said = " ".join(drawn)  # a long name is drawn on two lines, one after the other
    assert all(name in said for name in names)
    assert min(sizes) >= 20 and page.size[0] == 800
    card = DECKS.actions[s.decks["hands"][0][0]].name
    assert not [t for t in drawn if card in t]
    with text_watch() as drawn:
        board_image(view)
    # The summary line is drawn in pieces ("Red: 3 points, ", "1 city · ", ...): joined, it reads whole.
    assert re.search(r"Red: \d+(\.5)? points, \d+ cit(y|ies) · .* · \d+ advances?", "".join(drawn))


def test_finished_game_and_odd_views() -> None:
    s = _played(2, 9, 99)
    assert GAME.outcome(s) is not None
    outcome = GAME.outcome(s)
    assert outcome is not None
    assert header_text(GAME.view(s, None))[1] == f"The game is over: {outcome.reason}"  # who won, and why
    assert header_text({"phase": "over"})[1] == "The game is over."
    good = GAME.view(s, None)
    odd = {**good, "cities": [1, "x", {"space": "z99"}], "units": [{"space": None}, {"space": "q1", "kind": "ship"}]}
    for view in ({}, {"slots": None, "cities": [1, "x"], "units": [{"space": None}]}, {"players": [None]}, odd):
        assert Image.open(io.BytesIO(renderer.render("clash", view))).format == "PNG"


def test_last_turn_changes_are_highlighted() -> None:
    pos = Position(2).clear_units().turn(0)
    quiet = board_image(GAME.view(pos.state, None))
    pos.play(0, "collect athens food")
    loud = board_image(GAME.view(pos.state, None))

    def count(img: Image.Image) -> int:
        colours = img.getcolors(maxcolors=1 << 24) or []
        return sum(n for n, c in colours if c == HIGHLIGHT)

    assert count(loud) > count(quiet) + 100


def test_map_base_is_cached() -> None:
    STATIC_LAYERS.clear()
    pos = Position(2).turn(0)
    board_image(GAME.view(pos.state, None))
    board_image(GAME.view(pos.state, None))
    info = STATIC_LAYERS.info()
    assert info.builds == 1 and info.hits >= 1


def test_orientation_choice_is_shown_in_the_header() -> None:
    from renderer.clash import choice_line

    pos = Position(2).clear_units()
    pos.tile("R3", "T13").units(0, "d2", settler=1).turn(0)
    pos.play(0, "move d2 d3 settler")
    line = choice_line(GAME.view(pos.state, None))
    assert line.startswith("orient base: D3 forest") and "orient turned: D3 mountain" in line
    image = board_image(GAME.view(pos.state, None))
    assert image.size[1] > board_image(GAME.view(Position(2).state, None)).size[1]


def test_mood_rings_are_no_player_colour() -> None:
    """A red "angry" ring on a recaptured Blue city read as Red's mark (play-test)."""
    from renderer.clash_map import BARBARIAN_FILL, MOOD_RING, owner_fill

    colours = ["Red", "Blue", "Green", "Yellow"]
    fills = [owner_fill(s, colours) for s in range(4)] + [BARBARIAN_FILL]
    for ring in MOOD_RING.values():
        for fill in fills:
            assert max(abs(a - b) for a, b in zip(ring, fill, strict=True)) >= 80, (ring, fill)


def _label_box(view: dict[str, Any], space: str) -> tuple[int, int, int, int]:
    """The pixels of a hex label on the map drawn alone (``map_image``, board width)."""
    from renderer.clash import MARGIN, WIDTH
    from renderer.clash_map import LABEL_SCALE, map_geometry

    hexes = tuple(h for s in view["slots"] for h in s["hexes"])
    geo = map_geometry(hexes, WIDTH - 2 * MARGIN)
    x, y = geo.centre(space)
    left, top, right, bottom = font(int(geo.size * LABEL_SCALE), "bold").getbbox(space.upper(), anchor="mm")
    y -= geo.size * 0.57
    return int(x + left), int(y + top), int(x + right) + 1, int(y + bottom) + 1


def test_hex_labels_read_at_400_px_and_no_piece_covers_them() -> None:
    from renderer.clash import MARGIN, WIDTH
    from renderer.clash_map import map_image

    pos = Position(2).clear_units().reveal_all().turn(0)
    sea = sorted(h for h, t in pos.state.terrain.items() if t == "sea")[0]
    bare = GAME.view(pos.state, None)
    boxes = [_label_box(bare, "d2"), _label_box(bare, sea)]
    assert (boxes[0][3] - boxes[0][1]) / 4 >= 5, "letters at least 5 px high when the board is shown 400 px wide"
    pos.city(0, "d2", mood="happy", pieces=("temple", "fortress", "academy"))
    pos.units(0, "d2", army=3, settler=1).units(1, "d2", army=1)
    pos.ship(0, sea, army=1, settler=1)
    pos.ship(1, sea)
    pos.state.changed = ["d2", sea]  # the yellow outline of a changed hex too
    full = GAME.view(pos.state, None)
    width = WIDTH - 2 * MARGIN
    for box in boxes:
        before, after = map_image(bare, width).crop(box), map_image(full, width).crop(box)
        assert before.tobytes() == after.tobytes()
