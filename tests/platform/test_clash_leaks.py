"""Clash of Cultures hands never reach a public output — on real Redis, through the pipeline and
the command layer.

A 3-player game is played by the automatic players for about two rounds; moves the engine marks
private (card plays, objective claims, choices naming cards) are typed in a private chat, the
others in the group. After every committed step the public outputs are checked: public events
(text and data), turn captions and their buttons, status, the group log, the group replies to
moves and refusals typed in the group. None may name an action or objective card held in a hand
(unless a card of that name is public: played and discarded, or completed).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from engine import find_game
from engine.clash.cards_data import DECKS
from tests.support.submitters import pipeline_submitter
from workers import lobby, pipeline
from workers.commands import Commands, Context
from workers.outbox import fetch
from workers.store import Store

PLAYERS = 3


def _public(state: Any) -> set[str]:
    """Card names anyone may see (played cards, completed objectives, event cards)."""
    d = state.decks
    public = {DECKS.actions[c].name for c in d["action_discard"]}
    public |= {DECKS.abilities[DECKS.actions[c].combat].name for c in d["action_discard"]}
    public |= {DECKS.events[c].name for c in DECKS.events}
    for seat in range(state.players):
        for done in d["done"][seat]:
            card, half = done.split(":")
            public.add(DECKS.objectives[card].half(half).name)
    return public


def _hidden(state: Any) -> set[str]:
    d = state.decks
    public = {DECKS.actions[c].name for c in d["action_discard"]}
    public |= {DECKS.abilities[DECKS.actions[c].combat].name for c in d["action_discard"]}
    public |= {DECKS.events[c].name for c in DECKS.events}
    names: set[str] = set()
    for seat in range(state.players):
        for done in d["done"][seat]:
            card, half = done.split(":")
            public.add(DECKS.objectives[card].half(half).name)
        for c in d["hands"][seat]:
            names |= {DECKS.actions[c].name, DECKS.abilities[DECKS.actions[c].combat].name}
        for c in d["goals"][seat]:
            names |= {DECKS.objectives[c].upper.name, DECKS.objectives[c].lower.name}
    return names - public


def _assert_clean(text: str, hidden: set[str], public_words: str, where: str, shown: set[str] = frozenset()) -> None:
    for name in sorted(shown, key=len, reverse=True):  # "Heavy Resistance" (played) is not "Resistance"
        text = text.replace(name, "")
    for name in hidden:
        if name.lower() in public_words:  # the same words stand in the public view (a resource...)
            continue
        # Card names are written capitalised ("meets no resistance" is not the card Resistance).
        found = re.search(r"(?<![A-Za-z])" + re.escape(name) + r"(?![A-Za-z])", text)
        assert found is None, f"{where} names hidden card {name!r}: {text[:300]!r}"


@pytest.mark.redis
def test_three_player_game_leaks_no_card(store: Store) -> None:
    game = find_game("clash")
    commands = Commands(store, pipeline_submitter(store))
    users = [Context("test", "group", f"u{i}", f"P{i}", idem="") for i in range(PLAYERS)]
    reply = commands.handle(users[0], "new clash")
    assert reply[0].ok, reply[0].text
    gid = reply[0].text.split("`")[1]
    for u in users[1:]:
        assert commands.handle(u, "join")[0].ok
    assert lobby.begin(store, gid, users[0].user_key, seed=5).ok
    steps = 0
    private_moves = 0
    while steps < 330:
        state = pipeline.load(store, gid).state
        if game.outcome(state) is not None:
            break
        hidden = _hidden(state)
        public = game.view(state, None)
        assert "hand" not in public and "objectives" not in public
        words = json.dumps({k: v for k, v in public.items() if k not in ("completed", "great_persons")}).lower()
        _assert_clean(commands.handle(users[0], "status")[0].text, hidden, words, "status")
        log_reply = commands.handle(users[1], "log 30")
        assert not log_reply[0].private
        _assert_clean(log_reply[0].text, hidden, words, "group log", _public(state))
        for entry in store.events(gid, last=4):
            for ev in entry["events"]:
                if ev["seats"] is None:
                    _assert_clean(ev["text"] + json.dumps(ev["data"]), hidden, words, "public event", _public(state))
        for env in fetch(store, "test", "leak-check", block_ms=1):
            msg = env.message
            if msg["type"] == "turn":
                part = commands.turn_part(msg)
                _assert_clean(part.text, hidden, words, "turn caption", _public(state))
                for row in part.buttons:
                    for b in row:
                        _assert_clean(b.label, hidden, words, "button")
            elif msg["type"] in ("private", "prompt"):
                assert msg["user"].startswith("test:u")
            store.r.xack("agora:outbox:test", "delivery", env.id)
        seat = sorted(game.to_move(state))[0]
        if steps % 25 == 0:  # a mistyped card play in the group is refused without naming the hand
            ctx = Context("test", "group", f"u{seat}", f"P{seat}", idem=f"bad{steps}")
            for typed in ("move play zq", "move play", "move claim zq"):
                refused = commands.handle(ctx, typed)
                assert refused and not refused[0].ok
                for part in refused:
                    if not part.private:
                        _assert_clean(part.text, hidden, words, "group refusal")
        action = game.auto_action(state, seat, 1000 + steps)
        text = game.notation(state, seat, action)
        private = game.private_action(state, seat, action)
        chat = f"dm{seat}" if private else "group"
        ctx = Context("test", chat, f"u{seat}", f"P{seat}", private=private, idem=f"s{steps}")
        out = commands.handle(ctx, f"move {text}")
        assert out[0].ok, (text, out[0].text)
        if private:
            private_moves += 1
        for part in out:
            if not part.private and not private:
                # What the move made public (a card played, an objective completed) may be named.
                now = pipeline.load(store, gid).state
                _assert_clean(part.text, _hidden(now), words, "group reply", _public(now))
        steps += 1
    assert private_moves >= 5, private_moves


@pytest.mark.redis
def test_a_card_given_in_a_trade_is_named_only_in_private(store: Store) -> None:
    from engine.clash.data import TABLES
    from engine.clash.trade_cards import card_word

    game = find_game("clash")
    commands = Commands(store, pipeline_submitter(store))
    users = [Context("test", "group", f"u{i}", f"P{i}", idem="") for i in range(PLAYERS)]
    gid = commands.handle(users[0], "new clash")[0].text.split("`")[1]
    for u in users[1:]:
        assert commands.handle(u, "join")[0].ok
    assert lobby.begin(store, gid, users[0].user_key, seed=5).ok
    state = pipeline.load(store, gid).state
    seat = sorted(game.to_move(state))[0]
    other = next(s for s in range(PLAYERS) if s != seat)
    card = state.decks["hands"][seat][0]
    name = DECKS.actions[card].name
    steps = [
        (seat, f"trade {TABLES.colours[other].lower()}", False),
        (seat, f"give card {card_word(card)}", True),
        (seat, "offer", False),
        (other, "accept", False),
    ]
    for i, (who, text, private) in enumerate(steps):
        chat = f"dm{who}" if private else "group"
        ctx = Context("test", chat, f"u{who}", f"P{who}", private=private, idem=f"t{i}")
        out = commands.handle(ctx, f"move {text}")
        assert out[0].ok, (text, out[0].text)
        for part in out:
            if not part.private and not private:
                assert name not in part.text, part.text
        if i == 0:  # a mistyped card step in the group is refused without naming the card
            ctx = Context("test", "group", f"u{who}", f"P{who}", idem="bad-give")
            for part in commands.handle(ctx, "move give card zq"):
                assert part.private or (name not in part.text and card_word(card) not in part.text), part.text
    state = pipeline.load(store, gid).state
    assert card in state.decks["hands"][other]
    public_texts, secret_texts = [], []
    for entry in store.events(gid, last=10):
        for ev in entry["events"]:
            (public_texts if ev["seats"] is None else secret_texts).append(ev["text"] + json.dumps(ev["data"]))
    assert any("1 action card" in t for t in public_texts)
    assert not any(name in t for t in public_texts)
    assert any(name in t for t in secret_texts)
    log = commands.handle(users[2 if PLAYERS > 2 else 1], "log 30")[0].text
    assert name not in log and card_word(card) not in log
    assert name not in json.dumps(game.view(state, None))
