"""The Discord adapter's pure parts: component layout, custom ids, autocomplete ranking,
option completion, slash hints, message splitting and nonces."""

from __future__ import annotations

import re

from bots.discord.components import BUTTON_ID, SELECT_ID, MoveButton, MoveSelect, build_view
from bots.discord.format import MESSAGE_LIMIT, slash_hints, split_text
from bots.discord.handlers import rank
from bots.discord.sender import nonce_for
from bots.discord.tree import option_choices
from workers.client import Button


def _buttons(n: int) -> list[list[Button]]:
    return [[Button(f"move number {i}", f"b{i:012d}")] for i in range(n)]


def _infos(n: int) -> dict[str, dict[str, object]]:
    return {f"b{i:012d}": {"g": "g1zz", "v": 123456, "s": 3} for i in range(n)}


def test_up_to_ten_moves_are_buttons_five_to_a_row() -> None:
    view = build_view(_buttons(7), _infos(7))
    assert view is not None
    items = view.children
    assert all(isinstance(i, MoveButton) for i in items) and len(items) == 7
    rows = [c["components"] for c in view.to_components()]
    assert [len(r) for r in rows] == [5, 2]
    for b in (c for r in rows for c in r):
        assert re.fullmatch(BUTTON_ID, b["custom_id"]) and len(b["custom_id"]) <= 100
        assert b["custom_id"].startswith("ag:b:g1zz:123456:3:")


def test_more_moves_become_select_menus_of_25() -> None:
    view = build_view(_buttons(60), _infos(60))
    assert view is not None
    menus = [i for i in view.children if isinstance(i, MoveSelect)]
    assert [len(m.item.options) for m in menus] == [25, 25, 10]
    assert menus[1].item.placeholder == "Choose a move (26–50 of 60)"
    for m in menus:
        assert re.fullmatch(SELECT_ID, m.custom_id) and len(m.custom_id) <= 100
    assert len(view.to_components()) == 3  # one action row each, at most five


def test_no_buttons_no_view_and_expired_tokens_still_build() -> None:
    assert build_view([], {}) is None
    view = build_view(_buttons(2), {})
    assert view is not None and view.children[0].custom_id.startswith("ag:b:x:0:0:")  # type: ignore[attr-defined]


def test_autocomplete_ranks_prefix_then_word_then_substring() -> None:
    moves = ["rondel templum", "rondel arms", "move legion athens", "build temple athens", "arms race"]
    assert rank("ar", moves) == ["arms race", "rondel arms"]
    assert rank("athens", moves) == ["move legion athens", "build temple athens"]
    assert rank("temp ron", moves) == ["rondel templum"]
    assert rank("", moves) == moves
    assert len(rank("m", [f"m{i}" for i in range(100)])) == 25


def test_new_options_complete_keys_with_their_description() -> None:
    names = [n for n, _ in option_choices("duellum", "")]
    values = [v for _, v in option_choices("duellum", "")]
    assert "hours=" in values and "thread=" in values
    assert all(len(n) <= 100 for n in names)
    assert [v for _, v in option_choices("duellum", "hours=24 th")] == ["hours=24 thread="]


def test_slash_hints_and_splitting() -> None:
    assert slash_hints("Type `moves` or `move add 1`; `add 1` is a move.") == (
        "Type `/agora moves` or `/agora move add 1`; `add 1` is a move.")
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(100))
    chunks = split_text(text)
    assert all(len(c) <= MESSAGE_LIMIT for c in chunks) and "\n".join(chunks) == text


def test_nonces_are_stable_and_short() -> None:
    assert nonce_for("g1:3:turn") == nonce_for("g1:3:turn") != nonce_for("g1:4:turn")
    assert len(nonce_for("g1:3:turn" * 20, 3)) == 25
