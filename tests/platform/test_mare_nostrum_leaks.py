"""Issue 16: Mare Nostrum hands, secret trade offers and private choices never reach a public
output — on real Redis, through the pipeline and the command layer.

A 3-player game is played from setup through several rounds (setup, income, secret offers,
the chain of takes, build turns with payments, military turns). Moves that name cards of a
hand (offers, payments, compensation, swaps, the Gardens and Artemis picks) are typed in a
private chat, as the adapters' private prompts do; the others in the group. After every
committed step the public outputs are checked: public events (text and data), the posted turn
captions and their buttons, status, the group log and the group replies to moves. None may
contain a private move's text or the phrases of private replies ("your hand", "You offer",
"You pay"), and the spectator view must hold no hand, offer or payment.
"""

from __future__ import annotations

import json

import pytest

from engine import find_game
from tests.support.submitters import pipeline_submitter
from workers import lobby, outbox, pipeline
from workers.commands import Commands, Context
from workers.outbox import fetch
from workers.store import Store

PLAYERS = 3
PRIVATE_KINDS = ("offer", "pay", "give", "keep", "swap", "artemis")
PHRASES = ("your hand", "you offer", "you pay", "you swap", "offer so far")


def _assert_clean(text: str, secrets: set[str], where: str) -> None:
    low = text.lower()
    for phrase in PHRASES:
        assert phrase not in low, f"{where} contains {phrase!r}: {text[:300]!r}"
    for secret in secrets:
        assert secret not in low, f"{where} names the private move {secret!r}: {text[:300]!r}"


@pytest.mark.redis
@pytest.mark.parametrize("seed", [21])
def test_three_player_game_leaks_nothing_public(store: Store, seed: int) -> None:
    game = find_game("mare-nostrum")
    commands = Commands(store, pipeline_submitter(store))
    users = [Context("test", "group", f"u{i}", f"P{i}", idem="") for i in range(PLAYERS)]
    reply = commands.handle(users[0], "new mare-nostrum")
    assert reply[0].ok, reply[0].text
    gid = reply[0].text.split("`")[1]
    for u in users[1:]:
        assert commands.handle(u, "join")[0].ok
    assert lobby.begin(store, gid, users[0].user_key, seed=seed).ok
    steps = 0
    private_moves = 0
    secrets: set[str] = set()
    rounds_seen: set[int] = set()
    while steps < 260:
        state = pipeline.load(store, gid).state
        if game.outcome(state) is not None:
            break
        rounds_seen.add(state.round)
        public = game.view(state, None)
        assert "hand" not in public and "my_offer" not in public and "buying" not in public
        if "trade" in public and not public["trade"]["revealed"]:
            assert "offers" not in public["trade"]
        _assert_clean(commands.handle(users[0], "status")[0].text, secrets, "status")
        log_reply = commands.handle(users[1], "log 30")
        assert not log_reply[0].private
        _assert_clean(log_reply[0].text, secrets, "group log")
        for entry in store.events(gid, last=5):
            for ev in entry["events"]:
                if ev["seats"] is None:
                    _assert_clean(ev["text"] + json.dumps(ev["data"]), secrets, "public event")
        for env in fetch(store, "test", "leak-check", block_ms=1):
            msg = env.message
            if msg["type"] == "turn":
                part = commands.turn_part(msg)
                _assert_clean(part.text, secrets, "turn caption")
                for row in part.buttons:
                    for b in row:
                        assert not b.label.lower().startswith(PRIVATE_KINDS), b.label
            elif msg["type"] in ("private", "prompt"):
                assert msg["user"].startswith("test:u")
            outbox.ack(store, "test", env)
        for seat in sorted(game.to_move(state)):
            fresh = pipeline.load(store, gid).state
            if seat not in game.to_move(fresh):
                continue
            action = game.auto_action(fresh, seat, seed * 1000 + steps)
            text = game.notation(fresh, seat, action)
            private = game.private_action(fresh, seat, action)
            chat = f"dm{seat}" if private else "group"
            ctx = Context("test", chat, f"u{seat}", f"P{seat}", private=private, idem=f"s{steps}-{seat}")
            out = commands.handle(ctx, f"move {text}")
            assert out[0].ok, out[0].text
            if private:
                private_moves += 1
                secrets.add(text.lower())
            for part in out:
                if not part.private and not private:
                    _assert_clean(part.text, secrets, "group reply to a move")
            steps += 1
    assert private_moves >= 10 and len(rounds_seen) >= 2
