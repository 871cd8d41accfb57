"""A command sent again long after, as a new request with its old idempotency key (issue 12).

The window of stored answers keeps only the newest ``IDEM_KEPT`` (24) keys of a game; a client
retry hours later or a re-sent platform update comes as a new request, not as a redelivered
task. Every committed key's hash is kept in the game's record (``idemh``), checked inside the
commit script and on the refusal path, so such a copy is answered "applied already" and never
applied a second time, even when its move is legal again.

The toy race ends at 21 points, so the 30+ commits between the first copy and the second
are moves and their undos: the state comes back to where the first copy's move is legal again.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.workers.test_undo_resign import ctx, sync_commands
from tests.workers.util import A, B, assert_replays, make_game, outbox_messages
from workers import commit, lobby, pipeline
from workers.store import APPLIED_ALREADY, ARCHIVE_TTL, IDEM_HASH, IDEM_KEPT, Store, k_idem, k_idemh, key_hash

ROUNDS = 16  # each a move and its undo: 32 commits, more than the window's 24


def _moves_and_undos(store: Store, gid: str, rounds: int = ROUNDS, tag: str = "") -> None:
    """``rounds`` times: alice adds 1 (key ``a<i>``), then takes it back (key ``u<i>``)."""
    for i in range(rounds):
        assert pipeline.submit(store, gid, text="add 1", idem=f"{tag}a{i}", user=A).ok
        assert lobby.undo(store, gid, A, idem=f"{tag}u{i}").ok


def test_window_is_smaller_than_the_gap() -> None:
    assert 2 * ROUNDS > IDEM_KEPT + 6


def test_an_old_key_whose_move_is_legal_again_is_not_applied_again(store: Store) -> None:
    gid = make_game(store)
    _moves_and_undos(store, gid)
    assert store.idem_result(gid, "a0") is None  # its answer left the window
    before, sent = assert_replays(store, gid), len(outbox_messages(store))
    again = pipeline.submit(store, gid, text="add 1", idem="a0", user=A)  # legal: alice's turn, total 0
    assert again.ok and again.duplicate and again.message == APPLIED_ALREADY, again
    assert again.version == before[0] == 1 + 2 * ROUNDS
    assert assert_replays(store, gid) == before and len(outbox_messages(store)) == sent
    # A key never committed is still applied.
    fresh = pipeline.submit(store, gid, text="add 1", idem="new", user=A)
    assert fresh.ok and not fresh.duplicate and fresh.version == before[0] + 1


def test_an_old_key_whose_move_is_illegal_now_is_answered_applied(store: Store) -> None:
    """Out of turn now: the refusal path re-checks the key and finds it among the hashes."""
    gid = make_game(store)
    _moves_and_undos(store, gid)
    assert pipeline.submit(store, gid, text="add 2", idem="b", user=A).ok  # bob's turn now
    before = assert_replays(store, gid)
    again = pipeline.submit(store, gid, text="add 1", idem="a3", user=A)
    assert again.ok and again.duplicate and again.message == APPLIED_ALREADY, again
    assert assert_replays(store, gid) == before
    refused = pipeline.submit(store, gid, text="add 1", idem="never", user=A)
    assert not refused.ok and refused.code == "action/not_your_turn"


def test_an_old_key_through_the_command_layer(store: Store) -> None:
    """What an adapter does with a re-sent update: the same command and key as a new request;
    the player is told it was done, nothing changes. An old undo's key is not undone twice."""
    gid = make_game(store)
    cmds = sync_commands(store)
    assert cmds.handle(ctx(A, idem="tg:100"), "move add 1")[0].ok
    assert cmds.handle(ctx(A, idem="tg:101"), "undo")[0].ok
    _moves_and_undos(store, gid)
    assert cmds.handle(ctx(A, idem="tg:102"), "move add 3")[0].ok
    before = assert_replays(store, gid)
    for key, text in [("tg:101", "undo"), ("tg:102", "move add 3"), ("tg:100", "move add 1")]:
        reply = cmds.handle(ctx(A, idem=key), text)
        assert reply[0].ok, (key, reply)
        assert assert_replays(store, gid) == before, key


def test_copies_of_an_old_key_at_once_apply_nothing(store: Store) -> None:
    """Four copies of an old command at the same moment (a burst of client retries), each past
    the early key check into the commit: every one answers "applied already"."""
    gid = make_game(store)
    _moves_and_undos(store, gid)
    before = assert_replays(store, gid)
    barrier = threading.Barrier(4)
    waited = threading.local()

    def hook() -> None:
        if not getattr(waited, "done", False):
            waited.done = True
            barrier.wait(timeout=10)

    with ThreadPoolExecutor(4) as pool:
        futures = [
            pool.submit(pipeline.submit, store, gid, text="add 1", idem="a1", user=A, before_commit=hook)
            for _ in range(4)
        ]
        results = [f.result(timeout=30) for f in futures]
    assert all(r.ok and r.duplicate and r.message == APPLIED_ALREADY for r in results), results
    assert assert_replays(store, gid) == before


def test_an_old_key_as_a_new_move_task(spawn: Any, app: Any, store: Store) -> None:
    """The same through a worker: a new task (not a redelivery) with an old key."""
    from workers import tasks

    spawn.worker("late1")
    gid = make_game(store)
    _moves_and_undos(store, gid)
    before = assert_replays(store, gid)
    res = tasks.move.apply_async(args=[gid, A, "add 1", "a2"]).get(timeout=20)
    assert res["ok"] and res["duplicate"] and res["message"] == APPLIED_ALREADY, res
    assert assert_replays(store, gid) == before


def test_the_record_of_keys_is_bounded(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record keeps the newest ``IDEM_SEEN_KEPT`` hashes, fixed width, oldest dropped."""
    monkeypatch.setattr(commit, "IDEM_SEEN_KEPT", 6)
    monkeypatch.setattr(commit, "IDEM_KEPT", 2)
    gid = make_game(store)
    _moves_and_undos(store, gid, rounds=4)
    record = store.r.get(k_idemh(gid))
    assert record is not None and len(record) == 6 * IDEM_HASH
    newest = ["a1", "u1", "a2", "u2", "a3", "u3"]
    assert record == b"".join(key_hash(k) for k in newest)
    assert store.r.hlen(k_idem(gid)) == 2
    assert store.earlier_answer(gid, "a1") == commit.applied_already(9)
    assert store.earlier_answer(gid, "a0") is None  # past the bound: forgotten


def test_a_hash_found_off_a_record_boundary_is_no_match(store: Store) -> None:
    """The record is a run of fixed-width hashes: bytes that span two of them are no key."""
    gid = make_game(store)
    assert pipeline.submit(store, gid, text="add 1", idem="x", user=A).ok
    assert pipeline.submit(store, gid, text="add 1", idem="y", user=B).ok
    record = store.r.get(k_idemh(gid)) or b""  # begin's key, then these two
    assert record[-2 * IDEM_HASH :] == key_hash("x") + key_hash("y")
    spanning = record[-2 * IDEM_HASH + 3 : -IDEM_HASH + 3]
    assert commit.hash_seen(record, key_hash("y")) and not commit.hash_seen(record, spanning)
    # The commit script does the same: forge a key whose hash spans two records.
    store.r.set(k_idemh(gid), b"\x00" * 3 + key_hash("z") + b"\x00" * (IDEM_HASH - 3))
    assert not commit.hash_seen(store.r.get(k_idemh(gid)), key_hash("z"))
    res = pipeline.submit(store, gid, text="add 1", idem="z", user=A)
    assert res.ok and not res.duplicate


def test_a_finished_game_lets_the_record_expire(store: Store) -> None:
    gid = make_game(store)
    user = A
    while store.meta(gid).get("status") != "over":
        assert pipeline.submit(store, gid, text="add 3", idem=f"f{store.snapshot(gid)[0]}", user=user).ok
        user = B if user == A else A
    assert store.archive(gid)
    assert 0 < store.r.ttl(k_idemh(gid)) <= ARCHIVE_TTL
