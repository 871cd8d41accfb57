"""Unit checks of the Telegram formatting and keyboards (no server needed)."""

from __future__ import annotations

import pytest

from bots.telegram import format as fmt
from bots.telegram import keyboards
from bots.telegram.app import api_urls, bot_commands
from workers.client import COMMANDS, Button


def test_html_escapes_everything_but_the_two_markers() -> None:
    text = "**Rome** <wins> & `move a<b>` costs 2*3 * 4 and `unclosed"
    html = fmt.to_html(text)
    assert html == "<b>Rome</b> &lt;wins&gt; &amp; <code>move a&lt;b&gt;</code> costs 2*3 * 4 and `unclosed"
    assert fmt.to_html("**bold `code` inside**") == "<b>bold <code>code</code> inside</b>"
    assert fmt.plain("**A** `b` c") == "A b c"


def test_long_texts_are_cut_at_lines_within_the_limits() -> None:
    lines = [f"line {i} " + "x" * 90 for i in range(100)]
    pieces = fmt.split_text("\n".join(lines), limit=1000)
    assert all(len(p) <= 1000 for p in pieces)
    assert "\n".join(pieces) == "\n".join(lines)
    assert fmt.split_text("y" * 2500, limit=1000) == ["y" * 1000, "y" * 1000, "y" * 500]
    assert fmt.split_text("  ") == []
    caption, rest = fmt.caption_split("a\n" * 600)
    assert len(caption) <= 1000 and caption.count("a") + rest.count("a") == 600


def test_keyboards_carry_short_tokens_and_pack_short_labels() -> None:
    rows = [[Button(f"add {i}", f"tok{i}")] for i in range(5)]
    kb = keyboards.markup(rows)
    assert kb is not None
    assert [[b.text for b in row] for row in kb.inline_keyboard] == [["add 0", "add 1", "add 2"], ["add 3", "add 4"]]
    assert keyboards.markup([]) is None
    with pytest.raises(ValueError):
        keyboards.markup([[Button("x", "t" * 65)]])
    many = keyboards.markup([[Button(str(i), f"t{i}")] for i in range(150)])
    assert many is not None and sum(len(r) for r in many.inline_keyboard) == keyboards.MAX_BUTTONS


def test_command_menu_and_api_urls() -> None:
    menu = bot_commands()
    assert [c.command for c in menu] == list(COMMANDS)
    assert all(0 < len(c.description) <= 256 for c in menu)
    assert api_urls("http://127.0.0.1:8081") == ("http://127.0.0.1:8081/bot", "http://127.0.0.1:8081/file/bot")
    assert api_urls("http://h/bot/")[0] == "http://h/bot"
