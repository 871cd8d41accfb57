"""Sentences players read, found wrong by a play-test as a new user (27 Nov): each test holds
one of them to what a player needs to read there."""

from __future__ import annotations

import pytest

from engine import find_game, list_games
from tests.workers.test_undo_resign import ctx, sync_commands
from tests.workers.util import A, B, make_game
from workers import pipeline
from workers.commands import Commands
from workers.commands.helpers import options_help, players_text
from workers.pipeline import MoveResult
from workers.store import Store


@pytest.fixture
def cmds(store: Store) -> Commands:
    return sync_commands(store)


def test_move_alone_lists_the_players_own_moves_not_another_games_example(store: Store, cmds: Commands) -> None:
    gid = make_game(store, "capitals")
    loaded = pipeline.load(store, gid)
    seat = min(loaded.game.to_move(loaded.state))
    reply = cmds.handle(ctx(loaded.seats[seat]), "move")
    assert not reply[0].ok and reply[0].code == "command/usage"
    text = reply[0].text
    assert text.startswith("Say which move after `move`")
    assert "rondel" not in text  # the Duellum example it used to give in every game
    first = loaded.game.notation(loaded.state, seat, loaded.game.legal_actions(loaded.state, seat)[0])
    assert f"`{first}`" in text, text  # the seat's real moves, typeable as shown


def test_move_alone_when_it_is_not_your_turn_says_how_to_use_it(store: Store, cmds: Commands) -> None:
    gid = make_game(store, "capitals")
    loaded = pipeline.load(store, gid)
    waiting = min(loaded.game.to_move(loaded.state))
    other = next(u for s, u in loaded.seats.items() if s != waiting)
    reply = cmds.handle(ctx(other), "move")
    assert not reply[0].ok and reply[0].code == "command/usage"
    assert "Say which move after `move`" in reply[0].text and "rondel" not in reply[0].text


@pytest.mark.parametrize("arg", ["abc", "0", "51", "-1", "²"])
def test_log_with_a_bad_count_says_what_it_takes(store: Store, cmds: Commands, arg: str) -> None:
    make_game(store)
    reply = cmds.handle(ctx(A), f"log {arg}")
    assert not reply[0].ok and reply[0].code == "command/usage"
    assert "from 1 to 50" in reply[0].text and "`log 20`" in reply[0].text


def test_log_with_a_count_shows_that_many_lines(store: Store, cmds: Commands) -> None:
    make_game(store)
    for text in ("move add 1", "move add 2"):
        assert cmds.handle(ctx(A if text.endswith("1") else B), text)[0].ok
    reply = cmds.handle(ctx(A), "log 2")
    assert reply[0].ok and len(reply[0].text.splitlines()) == 2


SHIPPED = [g.id for g in list_games() if type(g).__module__.startswith("engine.")]


@pytest.mark.parametrize("game", SHIPPED, ids=str)
def test_game_help_options_are_one_clean_sentence(game: str) -> None:
    text = options_help(find_game(game))
    assert text.startswith("\nOptions for `new`: ") and text.endswith(".")
    assert ".;" not in text and ".." not in text
    help_text = find_game(game).help_text()
    # Options are listed once, from the game's own table, never as the engine's constants.
    assert "ASK |" not in help_text and "Options (true/false)" not in help_text
    assert "stand-in" not in help_text


def test_player_counts_never_read_2_to_2() -> None:
    duellum = find_game("duellum")
    assert players_text(duellum.info) == "2 players"
    assert players_text(find_game("capitals").info) == "2–5 players"


def test_undo_refused_names_who_moved_last(store: Store, cmds: Commands) -> None:
    make_game(store)
    assert cmds.handle(ctx(A), "move add 2")[0].ok
    assert cmds.handle(ctx(B), "move add 1")[0].ok
    reply = cmds.handle(ctx(A), "undo")
    assert reply[0].code == "undo/not_yours"
    assert reply[0].text.startswith("The last move was made by Player 2 (bob).")


def test_status_has_no_second_move_counter(store: Store, cmds: Commands) -> None:
    gid = make_game(store)
    text = cmds.handle(ctx(A), "status")[0].text
    assert text.splitlines()[0] == f"`{gid}` Toy race."


def test_a_hidden_games_reply_names_a_public_move_only() -> None:
    cmds = Commands.__new__(Commands)
    named = MoveResult(True, "ok", "Done: buy legion roma.", public_move=True)
    secret = MoveResult(True, "ok", "Done: play Altar.")
    assert cmds._result_reply(named, hidden=True)[0].text == "Done: buy legion roma."
    assert cmds._result_reply(secret, hidden=True)[0].text == "Done."
    assert cmds._result_reply(secret, hidden=False)[0].text == "Done: play Altar."
    # Stored answers round-trip the mark; one stored before it existed never names its move.
    assert MoveResult.from_json(named.to_json()).public_move
    old = {k: v for k, v in named.to_json().items() if k != "public_move"}
    assert not MoveResult.from_json(old).public_move
    assert "public_move" not in secret.to_json()


def test_the_pipeline_marks_public_and_secret_moves(store: Store) -> None:
    clash = make_game(store, "clash")
    loaded = pipeline.load(store, clash)
    seat = loaded.seats_of(A)[0]
    game = loaded.game
    public = next(
        game.notation(loaded.state, seat, a)
        for a in game.legal_actions(loaded.state, seat)
        if not game.private_action(loaded.state, seat, a)
    )
    assert pipeline.submit(store, clash, text=public, idem="c1", user=A).public_move
    wonders = make_game(store, "seven-wonders", users=(A, B, "console:carol"), chat="other")
    loaded = pipeline.load(store, wonders)
    seat = loaded.seats_of(A)[0]
    pick = loaded.game.notation(loaded.state, seat, loaded.game.legal_actions(loaded.state, seat)[0])
    res = pipeline.submit(store, wonders, text=pick, idem="w1", user=A)
    assert res.ok and not res.public_move
