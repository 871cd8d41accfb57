"""`moves` lists legal moves grouped, with a few examples per group; `moves all` lists every
one; both agree with the engine's legal actions."""

from __future__ import annotations

from engine import find_game
from tests.support.submitters import pipeline_submitter
from workers import lobby, pipeline
from workers.commands import Commands, Context
from workers.store import Store


def test_moves_and_moves_all_on_duellum(store: Store) -> None:
    commands = Commands(store, pipeline_submitter(store))
    a, b = Context("test", "room", "a", "A"), Context("test", "room", "b", "B")
    assert commands.handle(a, "new duellum")[0].ok
    assert commands.handle(b, "join")[0].ok
    gid = store.chat_game("test", "room")
    assert gid and lobby.begin(store, gid, "test:a", seed=3).ok
    loaded = pipeline.load(store, gid)
    game = find_game("duellum")
    seat = sorted(game.to_move(loaded.state))[0]
    who = a if seat == 0 else b
    legal = [game.notation(loaded.state, seat, x) for x in game.legal_actions(loaded.state, seat)]
    firsts = [
        game.notation(loaded.state, seat, x)
        for x in game.legal_actions(loaded.state, seat)
        if not game.action_variant(loaded.state, seat, x)
    ]
    short = commands.handle(who, "moves")[0]
    full = commands.handle(who, "moves all")[0].text
    assert all(f"`{t}`" in full for t in legal)
    assert sum(f"`{t}`" in short.text for t in firsts) == min(len(firsts), 6)
    # the keyboard holds every listed move, so the text says so instead of sending to `moves all`
    assert len([b for row in short.buttons for b in row]) == len(firsts) <= 24
    assert "on the buttons below" in short.text if len(firsts) > 6 else True
    terminal = Context(who.platform, who.chat, who.user, who.name, buttons=False)
    assert "moves all" in commands.handle(terminal, "moves")[0].text if len(firsts) > 6 else True
    other = b if who is a else a
    assert "Your moves" not in commands.handle(other, "moves")[0].text
