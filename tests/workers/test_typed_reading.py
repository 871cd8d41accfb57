"""A move typed after a command word is read by the worker (workers.typed_moves): the command
word is put back when it is the game's own first word, the literal text wins when it reads as
a move, a text naming more than one move is refused whole, and the adapter sends the move
without reading the game (issue 12: that read was about a quarter of its CPU per move)."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.workers.util import make_game
from workers import pipeline
from workers.commands import Commands, Context
from workers.pipeline import MoveResult
from workers.store import Store

USERS = ["console:ann", "console:bob", "console:cid"]


def _listed(store: Store, gid: str, seat: int, verb: str) -> str:
    loaded = pipeline.load(store, gid)
    game, state = loaded.game, loaded.state
    return next(
        n for n in (game.notation(state, seat, a) for a in game.legal_actions(state, seat)) if n.startswith(verb + " ")
    )


def test_the_command_word_is_put_back_when_it_is_the_games_verb(store: Store) -> None:
    """7 Wonders' `play …` typed through the `play` command: the rest alone is no notation."""
    gid = make_game(store, "seven-wonders", users=USERS)
    text = _listed(store, gid, 0, "play")
    res = pipeline.submit(store, gid, text=text.split(" ", 1)[1], idem="k1", user=USERS[0], typed="play")
    assert res.ok and res.notation == text, res


def test_the_literal_text_wins_when_it_reads_as_a_move(store: Store) -> None:
    gid = make_game(store, "duellum", users=USERS[:2])
    seat = min(pipeline.load(store, gid).game.to_move(pipeline.load(store, gid).state))
    text = _listed(store, gid, seat, "rondel")
    res = pipeline.submit(store, gid, text=text, idem="k1", user=USERS[seat], typed="move")
    assert res.ok and res.notation == text, res


def test_a_text_naming_more_than_one_move_is_refused_whole(store: Store) -> None:
    gid = make_game(store, "seven-wonders", users=USERS)
    text = _listed(store, gid, 0, "play")
    rest = text.split(" ", 1)[1]
    res = pipeline.submit(store, gid, text=f"{rest} {rest}", idem="k1", user=USERS[0], typed="play")
    assert not res.ok and res.code.startswith("action/extra_words"), res
    assert "nothing was changed" in res.message
    assert pipeline.load(store, gid).version == 1


def _refusal(store: Store, gid: str, seat: int, text: str) -> tuple[str, str]:
    loaded = pipeline.load(store, gid)
    try:
        loaded.game.parse(loaded.state, seat, text)
    except EngineError as exc:
        return exc.code, exc.user_message
    raise AssertionError(f"{text!r} reads as a move")


def test_no_notation_gets_the_refusal_of_what_was_typed(store: Store) -> None:
    """`move` is no 7 Wonders verb: the text's own refusal."""
    gid = make_game(store, "seven-wonders", users=USERS)
    res = pipeline.submit(store, gid, text="xyzzy plugh", idem="k1", user=USERS[0], typed="move")
    assert not res.ok and (res.code, res.message) == _refusal(store, gid, 0, "xyzzy plugh"), res


def test_a_verb_put_back_that_reads_as_an_illegal_move_gets_its_refusal(store: Store) -> None:
    """`move` is a Duellum verb: `move xyzzy` is refused as the move it almost is (with the
    closest legal move), not as unreadable text."""
    gid = make_game(store, "duellum", users=USERS[:2])
    loaded = pipeline.load(store, gid)
    seat = min(loaded.game.to_move(loaded.state))
    res = pipeline.submit(store, gid, text="xyzzy plugh", idem="k1", user=USERS[seat], typed="move")
    assert not res.ok and (res.code, res.message) == _refusal(store, gid, seat, "move xyzzy plugh"), res


def test_the_adapter_sends_a_typed_move_without_reading_the_game(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = make_game(store, "duellum", users=USERS[:2], chat="room", platform="test")
    loaded = pipeline.load(store, gid)
    seat = min(loaded.game.to_move(loaded.state))
    text = _listed(store, gid, seat, "rondel")
    sent: list[tuple[str, str, str, str]] = []

    def submit(gid: str, user: str, text: str, idem: str, typed: str = "") -> MoveResult:
        sent.append((gid, user, text, typed))
        return MoveResult(False, "pipeline/queued", "Your move is queued.")

    def no_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the command layer read the game to send a typed move")

    commands = Commands(store, submit)
    monkeypatch.setattr(pipeline, "load", no_read)
    monkeypatch.setattr(pipeline, "loaded_from", no_read)
    user = USERS[seat].split(":")[1]
    commands.handle(Context("test", "room", user, user.upper()), f"move {text}")
    assert sent == [(gid, USERS[seat].replace("console:", "test:"), text, "move")]
