"""Every change of what a seat is awaited for reaches that seat as a prompt (issue 9, item 2).

7 Wonders stalled silently when the last player to pick then had to pay coins or take debt
alone: nobody new was awaited, so no board and no prompt were sent, and the player's last
message was "You chose: …".
"""

from __future__ import annotations

import random

import tests.support.steps  # noqa: F401 - registers the multi-step test game
from tests.workers.util import outbox_messages
from workers import lobby, pipeline
from workers.store import Store


def start(store: Store, game: str, users: list[str], seed: int, options: dict[str, object] | None = None) -> str:
    gid = lobby.create(store, game, platform="test", chat="room", user=f"test:{users[0]}", name=users[0],
                       options=options or {})
    for u in users[1:]:
        lobby.join(store, gid, f"test:{u}", u)
    assert lobby.begin(store, gid, f"test:{users[0]}", seed=seed).ok
    return gid


def prompts(store: Store, version: int) -> list[int]:
    """Seats prompted by the step that produced ``version``."""
    return sorted(
        int(m["seat"]) for m in outbox_messages(store, "test") if m["type"] == "prompt" and m["version"] == version
    )


def test_last_chooser_who_must_decide_alone_is_prompted(store: Store) -> None:
    gid = start(store, "steps", ["a", "b"], 1)
    first = pipeline.submit(store, gid, text="pick 2", idem="1", user="test:a")
    assert first.ok and prompts(store, first.version) == []  # Bob's choices did not change
    last = pipeline.submit(store, gid, text="pick 3", idem="2", user="test:b")
    assert last.ok and prompts(store, last.version) == [1]  # Bob now settles alone
    settle = pipeline.submit(store, gid, text="settle keep", idem="3", user="test:b")
    assert prompts(store, settle.version) == [0]  # a new seat: posted turn and prompt
    walk = pipeline.submit(store, gid, text="walk left", idem="4", user="test:a")
    assert prompts(store, walk.version) == [0]  # the next step of the same turn


def test_seven_wonders_pay_or_debt_after_the_last_pick_is_prompted(store: Store) -> None:
    """A real deal (found by random play): the last picker must pay coins or take debt."""
    gid = start(store, "seven-wonders", ["a", "b", "c"], 12)
    rnd = random.Random(12)
    for n in range(200):
        loaded = pipeline.load(store, gid)
        game, state = loaded.game, loaded.state
        before = game.to_move(state)
        seat = rnd.choice(sorted(before))
        action = game.auto_action(state, seat, n)
        res = pipeline.submit(store, gid, text=game.notation(state, seat, action), idem=f"m{n}", seat=seat)
        assert res.ok, res.message
        new = pipeline.load(store, gid).state
        after = game.to_move(new)
        if after == before == {seat} and "pay coins or take debt" in game.status(new, seat):
            assert prompts(store, res.version) == [seat]
            return
    raise AssertionError("the deal no longer reaches a lone pay-or-debt decision; pick another seed")
