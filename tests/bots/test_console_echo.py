"""What the console leaves out of outbox messages because the reply to a move typed at this
terminal printed it a moment before (bots/console/table.py)."""

from __future__ import annotations

from bots.console.table import _echoed_already, _without_echo
from workers.replies import Part


def test_a_turn_post_drops_the_replied_lines_at_its_start() -> None:
    post = Part(text="A moves.\nA ends the turn.\nNext: B")
    assert _without_echo(post, ["A moves.", "A ends the turn."]).text == "Next: B"


def test_a_turn_post_drops_the_replied_block_after_earlier_moves() -> None:
    """7 Wonders: the automatic players chose before the player; the reveal is in the reply."""
    post = Part(text="B has chosen.\nC has chosen.\nA has chosen.\nA builds X.\nB builds Y.\nNext: all")
    replied = ["A has chosen.", "A builds X.", "B builds Y."]
    assert _without_echo(post, replied).text == "B has chosen.\nC has chosen.\nNext: all"


def test_a_turn_post_keeps_everything_unless_the_whole_block_is_there_in_order() -> None:
    post = Part(text="A builds X.\nB has chosen.\nA has chosen.\nNext: all")
    assert _without_echo(post, ["A has chosen.", "A builds X."]).text == post.text
    assert _without_echo(post, []).text == post.text
    twice = Part(text="`rondel nowhere` is not a move.\n`rondel nowhere` is not a move.\nNext: A")
    assert _without_echo(twice, ["`rondel nowhere` is not a move."]).text.count("rondel nowhere") == 1


def test_a_private_message_the_reply_showed_is_left_out_once() -> None:
    echoed = ["You chose: play Stockade.", "Your hand: Baths, Loom."]
    assert _echoed_already("You chose: play Stockade.\nYour hand: Baths, Loom.", echoed)
    assert echoed == []
    # Shown once only: the same text again (another move's message) is printed.
    assert not _echoed_already("You chose: play Stockade.\nYour hand: Baths, Loom.", echoed)


def test_a_private_message_with_anything_new_is_printed_whole() -> None:
    echoed = ["You chose: play Stockade.", "Your hand: Baths, Loom."]
    assert not _echoed_already("You chose: play Stockade.\nYour hand: Baths.", echoed)
    assert not _echoed_already("", echoed)
    assert echoed == ["You chose: play Stockade.", "Your hand: Baths, Loom."]  # untouched


class _Term:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def print(self, text: str) -> None:
        self.lines.append(text)


def test_a_hidden_refusal_prints_its_reason_without_sending_the_player_to_a_private_chat() -> None:
    from pathlib import Path

    from bots.console.table import ConsoleTable
    from workers.client import HIDDEN_REFUSAL

    term = _Term()
    table = ConsoleTable(None, "c", ["you"], Path("."), term)  # type: ignore[arg-type]
    reason = "You do not hold a card with that name."
    table.show([Part(text=HIDDEN_REFUSAL, ok=False), Part(text=reason, private=True, ok=False)])
    assert term.lines == [reason]
    # Without the private detail (another adapter's reply shape) the public line stays.
    table.show([Part(text=HIDDEN_REFUSAL, ok=False)])
    assert term.lines == [reason, HIDDEN_REFUSAL]
