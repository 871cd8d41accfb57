"""One idempotency key, one effect: a redelivered update or a re-run task applies nothing twice."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.workers.util import A, B, assert_replays, make_game, outbox_messages, record, wait_for
from workers import pipeline
from workers.store import Store


def test_same_key_twice_sequentially(store: Store) -> None:
    gid = make_game(store)
    first = pipeline.submit(store, gid, text="add 2", idem="tg:1001", user=A)
    before = len(outbox_messages(store))
    # the second delivery of the same update, even with other text, returns the first result
    second = pipeline.submit(store, gid, text="add 3", idem="tg:1001", user=A)
    assert first.ok and not first.duplicate and first.version == 2
    assert second.duplicate and second.ok
    assert (second.version, second.notation, second.seat, second.events) == (2, "add 2", 0, first.events)
    version, log = assert_replays(store, gid)
    assert version == 2 and len(log) == 1
    assert len(outbox_messages(store)) == before  # no second round of messages


def test_same_key_twice_concurrently(store: Store) -> None:
    """Both submissions pass the early key check and race into the commit: the script's key
    check (before its version check) makes the loser a duplicate, not a second move."""
    gid = make_game(store, "sim")
    barrier = threading.Barrier(2)
    seen = threading.local()

    def hook() -> None:
        if not getattr(seen, "done", False):
            seen.done = True
            barrier.wait(timeout=10)

    with ThreadPoolExecutor(2) as pool:
        futures = [
            pool.submit(pipeline.submit, store, gid, text="pick 2", idem="dc:77", user=A, before_commit=hook)
            for _ in range(2)
        ]
        results = [f.result(timeout=30) for f in futures]
    assert sorted(r.duplicate for r in results) == [False, True], results
    assert all(r.ok and r.version == 2 for r in results)
    version, log = assert_replays(store, gid)
    assert version == 2 and len(log) == 1


def test_copy_that_loads_after_the_first_commit_gets_the_first_answer(store: Store, monkeypatch: Any) -> None:
    """The second copy reads the game and its key (one atomic read, nothing stored yet), then
    the first copy commits; later the second copy re-loads (a lost race) the state the first
    made: there its move is out of turn. It must still answer with the first copy's result,
    not a refusal of a move that was applied."""
    gid = make_game(store)
    real_record = Store.move_record
    first: list[pipeline.MoveResult] = []

    def read_then_the_other_copy_commits(st: Store, g: str, idem: str) -> Any:
        record = real_record(st, g, idem)
        if not first:
            first.append(pipeline.MoveResult(False, "placeholder", ""))
            first[0] = pipeline.submit(st, g, text="add 2", idem="tg:2002", user=A)
        # What this copy read is from before the first copy's commit: its commit then finds
        # the key taken (a duplicate), never a second move.
        return record

    monkeypatch.setattr(Store, "move_record", read_then_the_other_copy_commits)
    second = pipeline.submit(store, gid, text="add 2", idem="tg:2002", user=A)
    assert first[0].ok and not first[0].duplicate
    assert second.ok and second.duplicate, second
    assert (second.version, second.notation) == (first[0].version, first[0].notation)
    version, log = assert_replays(store, gid)
    assert version == 2 and len(log) == 1


def test_celery_task_run_twice_applies_once(spawn: Any, app: Any, store: Store) -> None:
    """The same message executed twice (a re-published task, a redelivery with the same task id)
    and a direct in-process second run: one log entry, the others report duplicate."""
    from workers import tasks

    spawn.worker("i1")
    gid = make_game(store)
    args = [gid, A, "add 1", "tg:555"]
    r1 = tasks.move.apply_async(args=args).get(timeout=20)
    r2 = tasks.move.apply_async(args=args).get(timeout=20)
    assert r1["ok"] and not r1["duplicate"] and r1["version"] == 2
    assert r2["ok"] and r2["duplicate"] and r2["version"] == 2
    # the same task id delivered twice (what a broker redelivery looks like)
    args_b = [gid, B, "add 2", "tg:556"]
    h1 = tasks.move.apply_async(args=args_b, task_id="fixed-task-id")
    h1.get(timeout=20)
    h2 = tasks.move.apply_async(args=args_b, task_id="fixed-task-id")
    assert h2.get(timeout=20)["version"] == 3
    direct = tasks.move(*args_b)  # a third run, in this process
    assert direct["duplicate"] and direct["version"] == 3
    version, log = assert_replays(store, gid)
    assert version == 3 and [e["k"] for e in log] == ["tg:555", "tg:556"]


def test_duplicate_move_task_still_wakes_the_automatic_player(spawn: Any, app: Any, store: Store) -> None:
    """A crash between the commit and sending the follow-ups loses the kick; the redelivered
    task finds its key committed and must kick again (the bot moves well before the 15 s
    safety deadline)."""
    from workers import tasks

    spawn.worker("i2")
    gid = make_game(store, users=(A,), bots=1)  # alice, then the bot
    # the first run committed but died before its follow-up: a commit without after_commit
    assert pipeline.submit(store, gid, text="add 1", idem="tg:9", user=A).version == 2
    res = tasks.move.apply_async(args=[gid, A, "add 1", "tg:9"]).get(timeout=20)
    assert res["duplicate"]
    wait_for(lambda: record(store, gid)[0] >= 3, timeout=8)
    version, log = assert_replays(store, gid)
    assert version == 3 and [e["src"] for e in log] == ["player", "auto"]


def test_only_a_window_of_answers_is_kept(store: Store, monkeypatch: Any) -> None:
    """The idempotency record of a running game stays bounded: the newest answers only."""
    from workers import commit
    from workers.store import k_idem, k_idemq

    monkeypatch.setattr(commit, "IDEM_KEPT", 4)
    gid = make_game(store)
    for i in range(8):
        user = A if i % 2 == 0 else B
        assert pipeline.submit(store, gid, text="add 1", idem=f"w:{i}", user=user).ok
    assert store.r.hlen(k_idem(gid)) == 4 and store.r.llen(k_idemq(gid)) == 4
    assert sorted(k.decode() for k in store.r.hkeys(k_idem(gid))) == ["w:4", "w:5", "w:6", "w:7"]
    again = pipeline.submit(store, gid, text="add 1", idem="w:7", user=B)
    assert again.duplicate and again.version == 9
