"""The commit is one atomic step: all of snapshot, log, events, meta, index, key and outbox, or
none of them."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from tests.workers.util import A, B, assert_replays, db_image, make_game, outbox_messages
from workers import outbox, pipeline
from workers.store import Outgoing, Store, k_deadlines, k_outbox


def _commit(store: Store, gid: str, expected: int, idem: str = "k-stale", **kw: Any) -> Any:
    return store.commit(
        gid,
        expected=expected,
        idem=idem,
        snapshot=store.snapshot(gid)[1] or "",
        log_entry={"s": 0, "t": "add 1", "u": 1, "k": idem},
        events={"v": expected + 1, "s": 0, "events": []},
        meta={"posted_v": expected + 1},
        deadline=12345.0,
        result={"ok": True},
        outgoing=[
            Outgoing("console", {"type": "turn", "game": gid, "key": "x"}),
            Outgoing("telegram", {"type": "private", "game": gid, "key": "y"}),
        ],
        **kw,
    )


def test_stale_commit_writes_nothing(store: Store) -> None:
    gid = make_game(store)
    assert pipeline.submit(store, gid, text="add 1", idem="m1", user=A).version == 2
    before = db_image(store)
    for expected in (0, 1, 3):
        res = _commit(store, gid, expected)
        assert res.status == "stale" and res.current_version == 2
    assert db_image(store) == before  # snapshot, log, events, meta, idem, index, both outboxes


def test_duplicate_commit_writes_nothing_even_at_the_right_version(store: Store) -> None:
    gid = make_game(store)
    first = pipeline.submit(store, gid, text="add 1", idem="m1", user=A)
    before = db_image(store)
    res = _commit(store, gid, 2, idem="m1")  # right version, used key
    assert res.status == "dup" and res.data["version"] == first.version == 2
    assert db_image(store) == before


def test_outbox_messages_come_only_with_their_commit(store: Store) -> None:
    gid = make_game(store)
    n0 = outbox.length(store, "console")
    res = _commit(store, gid, 1, idem="k-ok")
    assert res.status == "ok" and res.data["version"] == 2
    msgs = outbox_messages(store, "console")[n0:]
    assert msgs == [{"version": 2, "type": "turn", "game": gid, "key": "x"}]
    assert [m["version"] for m in outbox_messages(store, "telegram")] == [2]
    assert store.r.zscore(k_deadlines(gid), gid) == 12345.0
    # rejected moves (rules, authorization) add no message and change nothing at all
    before = db_image(store)
    for user, text in [(B, "add 1"), (A, "add 9"), ("console:eve", "add 1"), (A, "")]:
        assert not pipeline.submit(store, gid, text=text, idem=f"r-{user}-{text}", user=user).ok
    assert db_image(store) == before


def test_a_failing_commit_leaves_nothing_half_written(store: Store) -> None:
    """A write that fails inside the script (here: an outbox key of the wrong type) used to leave
    the snapshot, log, version and key written with no outbox message; the script now checks
    every key's type before its first write."""
    gid = make_game(store)
    store.r.set(k_outbox("telegram", gid), "not a stream")
    before = db_image(store)
    with pytest.raises(redis.ResponseError, match=r"WRONGTYPE|wrong kind"):
        _commit(store, gid, 1, idem="k-bad")
    assert db_image(store) == before
    assert store.idem_result(gid, "k-bad") is None


def test_load_reads_meta_snapshot_and_seats_together(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit landing between reading meta and reading the snapshot used to pair version 2's
    meta (its posted board, deadline) with version 3's state."""
    gid = make_game(store, "sim")
    pipeline.submit(store, gid, text="pick 1", idem="a", user=A)  # v2: bob still to pick
    real_meta = store.meta
    fired = []

    def meta_then_race(g: str) -> dict[str, str]:
        out = real_meta(g)
        if not fired:
            fired.append(1)
            pipeline.submit(store, gid, text="pick 2", idem="b", user=B)  # v3, lands in between
        return out

    monkeypatch.setattr(store, "meta", meta_then_race)
    loaded = pipeline.load(store, gid)
    monkeypatch.undo()
    assert loaded.meta["version"] == str(loaded.version)
    state = json.loads(loaded.game.dumps(loaded.state))["state"]
    assert (loaded.version, state["rounds"]) in {(2, 0), (3, 1)}
    assert_replays(store, gid)
