"""Undo and resign through the shared command layer (what every adapter calls)."""

from __future__ import annotations

import json

import pytest

from tests.workers.util import A, B, assert_replays, make_game, outbox_messages, record
from workers import pipeline
from workers.commands import Commands, Context
from workers.pipeline import MoveResult
from workers.store import Store, k_deadlines


def sync_commands(store: Store) -> Commands:
    """Moves submitted synchronously through the pipeline (the client sends them via Celery)."""

    def submit(gid: str, user: str, text: str, idem: str, typed: str = "") -> MoveResult:
        return pipeline.submit(
            store, gid, text=text, idem=idem or f"t:{user}:{text}:{record(store, gid)[0]}", user=user, typed=typed
        )

    return Commands(store, submit)


def ctx(user: str, idem: str = "") -> Context:
    platform, _, uid = user.partition(":")
    return Context(platform, "table", uid, uid, idem=idem)


@pytest.fixture
def cmds(store: Store) -> Commands:
    return sync_commands(store)


def total(store: Store, gid: str) -> int:
    return int(json.loads(store.snapshot(gid)[1] or "{}")["state"]["total"])


def test_undo_allowed_when_nobody_acted_since(store: Store, cmds: Commands) -> None:
    gid = make_game(store)
    start = store.snapshot(gid)[1]
    assert cmds.handle(ctx(A), "move add 3")[0].ok
    reply = cmds.handle(ctx(A), "undo")
    assert reply[0].ok and "took back `add 3`" in reply[0].text
    version, log = assert_replays(store, gid)
    assert version == 3 and log == []
    assert json.loads(store.snapshot(gid)[1] or "")["state"] == json.loads(start or "")["state"]
    assert cmds.handle(ctx(A), "move add 1")[0].ok  # alice's turn again
    assert total(store, gid) == 1


def test_undo_refused_after_another_player_acted(store: Store, cmds: Commands) -> None:
    gid = make_game(store)
    assert cmds.handle(ctx(A), "move add 2")[0].ok
    assert cmds.handle(ctx(B), "move add 1")[0].ok
    before = record(store, gid)
    for who in (A, "console:eve"):
        reply = cmds.handle(ctx(who), "undo")
        assert not reply[0].ok and reply[0].code == "undo/not_yours" and reply[0].text
    assert record(store, gid) == before


def test_undo_refused_after_a_random_roll(store: Store, cmds: Commands) -> None:
    gid = make_game(store)
    assert cmds.handle(ctx(A), "move roll")[0].ok
    before = record(store, gid)
    reply = cmds.handle(ctx(A), "undo")
    assert not reply[0].ok and reply[0].code == "undo/revealed" and "roll" in reply[0].text
    assert record(store, gid) == before


def test_undo_with_nothing_to_take_back(store: Store, cmds: Commands) -> None:
    gid = make_game(store)
    reply = cmds.handle(ctx(A), "undo")
    assert not reply[0].ok and reply[0].code == "undo/nothing"
    assert record(store, gid)[0] == 1


def test_resign_in_a_two_player_game_makes_the_other_the_winner(store: Store, cmds: Commands) -> None:
    gid = make_game(store)
    assert cmds.handle(ctx(A), "move add 2")[0].ok
    reply = cmds.handle(ctx(B, idem="tg:r1"), "resign")
    assert reply[0].ok and "resigned" in reply[0].text
    meta = store.meta(gid)
    assert meta["status"] == "over"
    result = json.loads(meta["result"])
    assert result["winners"] == [0] and result["ranking"] == [[0], [1]]
    assert store.r.zscore(k_deadlines(gid), gid) is None and "deadline_at" not in meta
    assert [m["version"] for m in outbox_messages(store) if m["type"] == "turn"][-1] == 3  # the final board
    # the same resign delivered again is a duplicate; nobody can move or undo any more
    again = cmds.handle(ctx(B, idem="tg:r1"), "resign")
    assert record(store, gid)[0] == 3
    assert again[0].code == "action/game_over"  # refused, not applied twice
    assert cmds.handle(ctx(A), "move add 1")[0].code == "action/game_over"
    assert cmds.handle(ctx(A), "undo")[0].code == "undo/over"
    assert cmds.handle(ctx(A), "resign")[0].code == "action/game_over"
    status = cmds.handle(ctx(A), "status")[0]
    assert status.ok and "Game over" in status.text and "alice" in status.text.split("Winner:")[1]
