"""Issue: 7 Wonders private information never reaches a public output — on real Redis,
through the pipeline and the command layer, for whole 5-player games.

Every public output is checked after every committed step: public events (text and data),
the posted turn captions, the spectator view the board image is drawn from, status, the group
`log`, the group replies to moves (successes and refusals), and the outbox messages bound for
the group. "Hidden" = a card name held in some hand (or picked and not yet revealed) that is
not also visible in public (the same card can be built openly by another city).
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

PLAYERS = 5


def _hidden_names(game: Any, state: Any) -> set[str]:
    hidden: set[str] = set()
    for seat in range(PLAYERS):
        view = game.view(state, seat)
        for card in view.get("hand") or []:
            hidden.add(card["name"])
        for pick in view.get("my_picks") or []:
            hidden.add(pick["move"].split(" ", 1)[1].split(" pay ")[0].title())
        for cid in view.get("tucked") or []:
            hidden.add(view["cards"][cid]["name"])
    public = game.view(state, None)
    shown = set()
    for city in public["cities"]:
        for ids in city["structures"].values():
            shown.update(public["cards"][i]["name"] for i in ids)
    for item in public.get("last_turn") or []:
        if "card" in item:
            shown.add(public["cards"][item["card"]]["name"])
    return {h for h in hidden if h not in shown}


# Card names that are also ordinary words of every public view (the resource "loom" is
# produced by the card "Loom"): searching for them would find the resource, not a leak.
RESOURCE_WORDS = {"wood", "stone", "clay", "ore", "glass", "papyrus", "loom"}


def _hidden_ids(game: Any, state: Any) -> set[str]:
    ids: set[str] = set()
    for seat in range(PLAYERS):
        view = game.view(state, seat)
        ids.update(card["id"] for card in view.get("hand") or [])
        ids.update(view.get("tucked") or [])
    public = game.view(state, None)
    for city in public["cities"]:
        for built in city["structures"].values():
            ids.difference_update(built)
    return ids


def _assert_clean(text: str, hidden: set[str], where: str) -> None:
    low = text.lower()
    for name in hidden:
        if name.lower() in RESOURCE_WORDS:
            continue
        found = re.search(r"(?<![a-z])" + re.escape(name.lower()) + r"(?![a-z])", low)
        assert found is None, f"{where} names hidden card {name!r}: {text[:300]!r}"


@pytest.mark.parametrize("seed", [11, 12])
def test_five_player_game_leaks_nothing_public(store: Store, seed: int) -> None:
    game = find_game("seven-wonders")
    commands = Commands(store, pipeline_submitter(store))
    users = [Context("test", "group", f"u{i}", f"P{i}", idem="") for i in range(PLAYERS)]
    reply = commands.handle(users[0], "new 7w")
    assert reply[0].ok, reply[0].text
    gid = reply[0].text.split("`")[1]
    for u in users[1:]:
        assert commands.handle(u, "join")[0].ok
    begun = lobby.begin(store, gid, users[0].user_key, seed=seed)
    assert begun.ok
    steps = 0
    checked_turns = 0
    while True:
        loaded = pipeline.load(store, gid)
        state = loaded.state
        if game.outcome(state) is not None:
            break
        hidden = _hidden_names(game, state)
        # The spectator view (what the board image is drawn from) describes no hidden card.
        public = game.view(state, None)
        hidden_ids = _hidden_ids(game, state)
        assert not hidden_ids & set(public["cards"]), hidden_ids & set(public["cards"])
        assert public.get("hand") is None and not public.get("my_picks") and not public.get("tucked")
        # Names that are also public words (a wonder called "The Statue of Zeus" is not the
        # card "Statue") cannot be told apart in free text; leave them out of the text checks.
        static = json.dumps({k: v for k, v in public.items() if k != "cards"}).lower()
        hidden = {h for h in hidden if h.lower() not in static}
        _assert_clean(commands.handle(users[0], "status")[0].text, hidden, "status")
        log_reply = commands.handle(users[1], "log 50")
        assert not log_reply[0].private
        _assert_clean(log_reply[0].text, hidden, "group log")
        for entry in store.events(gid, last=5):
            for ev in entry["events"]:
                if ev["seats"] is None:
                    _assert_clean(ev["text"] + json.dumps(ev["data"]), hidden, "public event")
        for env in fetch(store, "test", "leak-check", block_ms=1):
            msg = env.message
            if msg["type"] == "turn":
                part = commands.turn_part(msg)
                _assert_clean(part.text, hidden, "turn caption")
                checked_turns += 1
                assert all(not row for row in part.buttons) or not any(
                    b.label.split(" ", 1)[-1].title() in hidden for row in part.buttons for b in row
                )
            elif msg["type"] in ("private", "prompt"):
                assert msg["user"].startswith("test:u")  # addressed to one user, never the group
            outbox.ack(store, "test", env)
        # a refused move typed in the group: it is refused in public with a reason that names
        # nothing hidden (the player may never have opened the private chat); the exact reason,
        # which may name the mover's hand, is private
        mover = sorted(game.to_move(state))[0]
        ctx = Context("test", "group", f"u{mover}", f"P{mover}", idem=f"bad{steps}")
        for typed in ("move play Nonexistent Card", "move play zq", "move sell zq"):
            refused = commands.handle(ctx, typed)
            assert refused and not refused[0].ok and not refused[0].private, typed
            for part in refused:
                if not part.private:
                    _assert_clean(part.text, hidden, "public refusal")
        # everyone awaited chooses, typing in the group
        for seat in sorted(game.to_move(state)):
            fresh = pipeline.load(store, gid).state
            if seat not in game.to_move(fresh):
                continue
            action = game.auto_action(fresh, seat, seed * 1000 + steps)
            text = game.notation(fresh, seat, action)
            ctx = Context("test", "group", f"u{seat}", f"P{seat}", idem=f"s{steps}-{seat}")
            hidden_now = _hidden_names(game, fresh)
            out = commands.handle(ctx, f"move {text}")
            assert out[0].ok, out[0].text
            for part in out:
                if not part.private:
                    _assert_clean(part.text, hidden_now - _revealed(game, gid, store), "group reply to a move")
            steps += 1
        assert steps < 2000
    assert checked_turns >= 18  # 3 ages x 6 turns at least


def _revealed(game: Any, gid: str, store: Store) -> set[str]:
    """Names made public by the step just committed (a completed turn reveals all picks)."""
    state = pipeline.load(store, gid).state
    public = game.view(state, None)
    names = set()
    for city in public["cities"]:
        for ids in city["structures"].values():
            names.update(public["cards"][i]["name"] for i in ids)
    return names
