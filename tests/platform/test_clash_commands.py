"""Clash of Cultures through the command layer on real Redis: a game starts, moves are typed,
refusals explain themselves, `moves` lists the legal actions and automatic turns finish a game."""

from __future__ import annotations

from engine import find_game
from tests.support.submitters import pipeline_submitter
from workers import lobby, pipeline
from workers.commands import Commands, Context
from workers.store import Store


def test_clash_plays_through_the_command_layer(store: Store) -> None:
    commands = Commands(store, pipeline_submitter(store))
    a, b = Context("test", "room", "a", "A"), Context("test", "room", "b", "B")
    assert commands.handle(a, "new clash")[0].ok
    assert commands.handle(b, "join")[0].ok
    gid = store.chat_game("test", "room")
    assert gid and lobby.begin(store, gid, "test:a", seed=5).ok
    game = find_game("clash")
    for _ in range(40):
        loaded = pipeline.load(store, gid)
        state = loaded.state
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_move(state))[0]
        who = a if seat == 0 else b
        listing = commands.handle(who, "moves all")[0].text
        legal = [game.notation(state, seat, x) for x in game.legal_actions(state, seat)]
        assert all(f"`{t}`" in listing for t in legal)
        choice = game.notation(state, seat, game.auto_action(state, seat, 1))
        replies = commands.handle(who, "move " + choice)
        assert replies[0].ok, replies[0].text
    loaded = pipeline.load(store, gid)
    seat = sorted(game.to_move(loaded.state))[0]
    who = a if seat == 0 else b
    refused = commands.handle(who, "move advance navigation")[0]
    assert not refused.ok and "Traceback" not in refused.text
    assert "Navigation" in refused.text or "not your turn" in refused.text.lower(), refused.text
