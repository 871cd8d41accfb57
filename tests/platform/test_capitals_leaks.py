"""The Capitals: prosperity hands never reach a public output — on real Redis, through the
pipeline and the command layer, for whole 3-player games with the prosperity module.

After every committed step: public events, turn captions, the spectator view the board image
is drawn from, status, the group `log`, the group replies to moves and refusals, and the
outbox messages bound for the group. "Hidden" = a prosperity tile still in some hand.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine import find_game
from tests.support.submitters import pipeline_submitter
from workers import lobby, outbox, pipeline
from workers.commands import Commands, Context
from workers.outbox import fetch
from workers.store import Store

PLAYERS = 3


def _hidden_names(game: Any, state: Any) -> set[str]:
    names: set[str] = set()
    for seat in range(PLAYERS):
        names.update(t["name"] for t in game.view(state, seat).get("hand") or [])
    return names


def _assert_clean(text: str, hidden: set[str], where: str) -> None:
    low = text.lower()
    for name in hidden:
        found = re.search(r"(?<![a-z])" + re.escape(name.lower()) + r"(?![a-z])", low)
        assert found is None, f"{where} names hidden tile {name!r}: {text[:300]!r}"


@pytest.mark.parametrize("seed", [5])
def test_three_player_game_leaks_no_prosperity_hand(store: Store, seed: int) -> None:
    game = find_game("capitals")
    commands = Commands(store, pipeline_submitter(store))
    users = [Context("test", "group", f"u{i}", f"P{i}", idem="") for i in range(PLAYERS)]
    reply = commands.handle(users[0], "new capitals prosperity=true")
    assert reply[0].ok, reply[0].text
    gid = reply[0].text.split("`")[1]
    for u in users[1:]:
        assert commands.handle(u, "join")[0].ok
    assert lobby.begin(store, gid, users[0].user_key, seed=seed).ok
    steps = 0
    turns = 0
    while True:
        state = pipeline.load(store, gid).state
        if game.outcome(state) is not None:
            break
        hidden = _hidden_names(game, state)
        public = game.view(state, None)
        assert public.get("hand") is None
        _assert_clean(json.dumps(public), hidden, "spectator view")
        _assert_clean(commands.handle(users[0], "status")[0].text, hidden, "status")
        if steps % 10 == 0:
            log_reply = commands.handle(users[1], "log 50")
            assert not log_reply[0].private
            _assert_clean(log_reply[0].text, hidden, "group log")
        for entry in store.events(gid, last=3):
            for ev in entry["events"]:
                if ev["seats"] is None:
                    _assert_clean(ev["text"] + json.dumps(ev["data"]), hidden, "public event")
        for env in fetch(store, "test", "leak-check", block_ms=1):
            msg = env.message
            if msg["type"] == "turn":
                part = commands.turn_part(msg)
                _assert_clean(part.text, hidden, "turn caption")
                for row in part.buttons:
                    for b in row:
                        _assert_clean(b.label, hidden, "public button")
                turns += 1
            elif msg["type"] in ("private", "prompt"):
                assert msg["user"].startswith("test:u")
            outbox.ack(store, "test", env)
        seat = sorted(game.to_move(state))[0]
        if state.phase == "prosperity":
            ctx = Context("test", "group", f"u{seat}", f"P{seat}", idem=f"bad{steps}")
            refused = commands.handle(ctx, "move prosper nonexistent m12")
            assert refused and not refused[0].ok
            for part in refused:  # a public refusal names nothing hidden; the exact reason is private
                if not part.private:
                    _assert_clean(part.text, hidden, "public refusal")
        action = game.auto_action(state, seat, seed * 1000 + steps)
        text = game.notation(state, seat, action)
        ctx = Context("test", "group", f"u{seat}", f"P{seat}", idem=f"s{steps}")
        out = commands.handle(ctx, f"move {text}")
        assert out[0].ok, out[0].text
        revealed = {game.view(state, seat)["hand"][i]["name"] for i, t in enumerate(state.players[seat].hand)
                    if t == action.tile} if action.kind in ("prosper", "lake") else set()
        for part in out:
            if not part.private:
                _assert_clean(part.text, hidden - revealed, "group reply to a move")
        steps += 1
        assert steps < 1000
    assert turns >= 50
