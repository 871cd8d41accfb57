"""7 Wonders table layout: running VP, no empty quarter, a header that says the turn once,
a short symbol key, and the hand's verdicts written out in full."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import find_game
from renderer import base, seven_wonders
from renderer import seven_wonders_hand as hand
from renderer import seven_wonders_icons as icons
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


Box = tuple[float, float, float, float]
CLEAR = 6  # px of air at least between a text and anything beside it on the same line


def hand_boxes(view: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Box]]:
    """What ``render_hand`` draws, as (what, box): every text's ink and every icon's square
    (a cost's tokens as one box), recorded while the real functions draw."""
    boxes: list[tuple[str, Box]] = []
    inside = [0]  # icons drawn inside a row of tokens belong to its box

    def text(draw: Any, xy: tuple[float, float], words: str, fnt: Any, *args: Any, **kwargs: Any) -> None:
        left, top, right, bottom = fnt.getbbox(base.safe_text(words), anchor=kwargs.get("anchor", "la"))
        if words.strip():
            boxes.append((words, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)))
        real_text(draw, xy, words, fnt, *args, **kwargs)

    def icon(name: str) -> Any:
        real = getattr(icons, name)

        def drawn_icon(draw: Any, cx: float, cy: float, r: float, *args: Any) -> None:
            if not inside[0]:
                boxes.append((name, (cx - r, cy - r, cx + r, cy + r)))
            real(draw, cx, cy, r, *args)

        return drawn_icon

    def tokens(draw: Any, x: float, cy: float, row: Any) -> float:
        inside[0] += 1
        try:
            end: float = real_tokens(draw, x, cy, row)
        finally:
            inside[0] -= 1
        boxes.append(("tokens", (x, cy - 15, end, cy + 15)))
        return end

    real_text, real_tokens = hand.draw_text, icons.draw_tokens
    with monkeypatch.context() as patch:
        patch.setattr(hand, "draw_text", text)
        patch.setattr(icons, "draw_tokens", tokens)
        for name in ("tick", "cross", "coin", "dash"):
            patch.setattr(icons, name, icon(name))
        render_hand(view)
    return boxes


def crowding(boxes: list[tuple[str, Box]]) -> list[str]:
    """Pairs of boxes that overlap, or sit side by side on one line closer than ``CLEAR``."""
    out = []
    for i, (a, (al, at, ar, ab)) in enumerate(boxes):
        for b, (bl, bt, br, bb) in boxes[i + 1 :]:
            if at < bb and bt < ab and max(bl - ar, al - br) < CLEAR:
                out.append(f"{a!r} {(al, at, ar, ab)} / {b!r} {(bl, bt, br, bb)}")
    return out


def test_hand_texts_keep_clear_of_icons_and_each_other(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue: on the Free City's "Baths" row, "Build now, trade from 2c" ran into the cross of
    "Wonder stage 1" (the verdict columns started at fixed x, the words measured to the image's
    edge). Every hand image of seeded games, the Free City's included, keeps its texts clear."""
    seen = 0
    for players, options, seed in (
        (2, {}, 7),
        (2, {"cities": True}, 8),
        (3, {"cities": True}, 9),
        (7, {"cities": True, "side": "B"}, 11),
    ):
        state = GAME.new_game(seed, players, options)
        step = 0
        while GAME.outcome(state) is None:
            if step % 9 == 0 or (players == 2 and step < 12):
                for seat in range(players):
                    view = GAME.view(state, seat)
                    assert crowding(hand_boxes(view, monkeypatch)) == [], f"seed {seed} step {step} seat {seat}"
                    seen += bool(view.get("free_city_hand"))
            for seat in sorted(GAME.to_move(state)):
                if seat in GAME.to_move(state):
                    state = GAME.apply(state, seat, GAME.auto_action(state, seat, seed * 1000 + step)).state
                    step += 1
    assert seen > 0  # the Free City's compact rows were drawn


def test_compact_rows_wrap_in_their_columns_when_one_line_cannot_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Words that do not fit one line even in the smallest size wrap in their column: the row
    grows, nothing is cut, nothing overlaps."""
    state = play(2, {}, 7, 1)
    view = GAME.view(state, 0)
    assert view["free_city_hand"]
    monkeypatch.setattr(hand, "COMPACT_SIZES", (34,))
    with base.clip_watch() as clipped:
        boxes = hand_boxes(view, monkeypatch)
    assert clipped == []
    assert crowding(boxes) == []
    rows = hand.compact_rows([(str(h["id"]), h) for h in view["free_city_hand"]], view["cards"])
    assert rows and all(len(row.cells[2].lines) > 1 and row.height > hand.COMPACT_H for row in rows)
