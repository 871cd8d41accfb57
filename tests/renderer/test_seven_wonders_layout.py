"""7 Wonders table layout: running VP, no empty quarter, a header that says the turn once,
a short symbol key, and the hand's verdicts written out in full."""

from __future__ import annotations

import re
from typing import Any

from engine import find_game
from renderer import base, seven_wonders
from renderer.seven_wonders_hand import render_hand
from renderer.seven_wonders_header import legend_image

GAME = find_game("seven-wonders")


def play(players: int, options: dict[str, Any], seed: int, picks: int) -> Any:
    """A seeded game after ``picks`` actions of the automatic players."""
    state = GAME.new_game(seed, players, options)
    step = 0
    while GAME.outcome(state) is None and step < picks:
        for seat in sorted(GAME.to_move(state)):
            if seat in GAME.to_move(state):
                state = GAME.apply(state, seat, GAME.auto_action(state, seat, seed * 1000 + step)).state
                step += 1
    return state


def drawn(view: dict[str, Any]) -> list[str]:
    with base.text_watch() as texts:
        seven_wonders.table_image(view)
    return texts


def test_every_city_shows_its_running_public_vp() -> None:
    view = GAME.view(play(4, {}, 5, 30), None)
    assert len(view["public_vp"]) == 4 and view["scores"] is None
    texts = drawn(view)
    for vp in view["public_vp"]:
        assert f"{vp} VP" in texts


def test_three_player_table_leaves_no_empty_quarter() -> None:
    view = GAME.view(play(3, {}, 6, 12), None)
    image = seven_wonders.table_image(view)
    # The last row's right half (where a fourth panel would be) carries the third city.
    y = image.height - legend_image(seven_wonders.WIDTH - 2 * seven_wonders.MARGIN).height - 60
    right_half = image.crop((seven_wonders.WIDTH // 2 + 40, y - 200, seven_wonders.WIDTH - 40, y))
    colours = right_half.getcolors(1 << 16) or []
    paper = sum(n for n, c in colours if c == base.PAPER)
    assert paper < 0.5 * right_half.width * right_half.height


def test_header_says_the_age_and_turn_once() -> None:
    view = GAME.view(play(3, {}, 7, 3), None)
    assert view["awaiting"].startswith("Age ")  # the engine's sentence repeats them
    texts = drawn(view)
    assert sum(bool(re.search(r"turn \d", t)) for t in texts) == 1


def test_symbol_key_is_a_short_strip() -> None:
    view = GAME.view(play(3, {}, 8, 3), None)
    image = seven_wonders.table_image(view)
    legend = legend_image(seven_wonders.WIDTH - 2 * seven_wonders.MARGIN)
    assert legend.height <= 0.1 * image.height


def test_hand_verdicts_are_written_in_full() -> None:
    for players, seed in ((3, 9), (5, 10), (7, 11)):
        state = play(players, {"cities": True}, seed, players * 8)
        for seat in range(players):
            view = GAME.view(state, seat)
            with base.clip_watch() as clipped, base.text_watch() as texts:
                render_hand(view)
            assert clipped == []
            for line in texts:
                if line.startswith("Wonder stage") and "trade" in line:
                    assert line.rstrip().endswith("c"), line  # the price is there, not "…"


def test_final_table_names_the_winning_player() -> None:
    state = play(3, {}, 12, 10_000)
    assert GAME.outcome(state) is not None
    view = GAME.view(state, None)
    view["player_names"] = ["alice", "bob", "carol"]
    best = max(range(3), key=lambda i: view["scores"][i]["total"])
    city = view["cities"][best]["name"]
    texts = " ".join(drawn(view))
    assert f"top score: {city} ({['alice', 'bob', 'carol'][best]})" in texts
    assert "alice · left:" in texts
