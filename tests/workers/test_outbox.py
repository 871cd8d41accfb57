"""Outbox streams: group delivery, ack, pending re-read after a restart, sent markers."""

from __future__ import annotations

import json
import time

import pytest

from tests.workers.util import A, make_game
from workers import outbox, pipeline
from workers.outbox import Envelope
from workers.store import Store, k_outbox


def _add(store: Store, n: int, platform: str = "telegram", prefix: str = "m") -> None:
    for i in range(n):
        store.r.xadd(
            k_outbox(platform), {"m": json.dumps({"type": "text", "text": f"{prefix}{i}", "key": f"{prefix}{i}"})}
        )


def _texts(envs: list[Envelope]) -> list[str]:
    return [e.message["text"] for e in envs]


def test_committed_messages_reach_the_group_once(store: Store) -> None:
    """Two consumers of one platform share the stream: each message goes to exactly one."""
    gid = make_game(store)
    for i, text in enumerate(["add 1", "add 2", "add 1", "add 3"]):
        user = A if i % 2 == 0 else "console:bob"
        assert pipeline.submit(store, gid, text=text, idem=f"k{i}", user=user).ok
    total = outbox.length(store, "console")
    got: list[Envelope] = []
    for consumer in ["c1", "c2", "c1", "c2"] * 5:
        batch = outbox.fetch(store, "console", consumer, count=2, block_ms=10)
        for env in batch:
            outbox.ack(store, "console", env)
        got += batch
    assert len(got) == total and len({e.id for e in got}) == total
    assert {e.message["version"] for e in got if e.message["type"] == "turn"} == {1, 2, 3, 4, 5}
    assert outbox.pending_count(store, "console") == 0
    assert outbox.fetch(store, "console", "c3", block_ms=10) == []


def test_restarted_consumer_reads_its_unacked_entries_first(store: Store) -> None:
    _add(store, 5)
    first = outbox.fetch(store, "telegram", "bot-1", count=3, block_ms=10)
    assert _texts(first) == ["m0", "m1", "m2"]
    outbox.ack(store, "telegram", first[0])  # delivered m0, then "crashed" before acking m1, m2
    restarted = Store.from_url(_url(store))  # a new process: new connection, same consumer name
    try:
        again = outbox.fetch(restarted, "telegram", "bot-1", count=10, block_ms=10)
        assert _texts(again) == ["m1", "m2"]  # pending first, in order
        assert outbox.pending_count(restarted, "telegram") == 2
        # another consumer of the group never sees bot-1's pending entries
        other = outbox.fetch(restarted, "telegram", "bot-2", count=10, block_ms=10)
        assert _texts(other) == ["m3", "m4"]
        for env in again:
            outbox.ack(restarted, "telegram", env)
        assert _texts(outbox.fetch(restarted, "telegram", "bot-1", block_ms=10)) == []
    finally:
        restarted.r.close()


def _url(store: Store) -> str:
    kw = store.r.connection_pool.connection_kwargs
    return f"redis://{kw['host']}:{kw['port']}/{kw.get('db', 0)}"


def test_sent_markers_prevent_resending_after_a_crash(store: Store) -> None:
    """The adapters' loop: skip what is marked sent, else send, mark, ack. A crash between the
    mark and the ack re-reads the entry after the restart, and it is not sent again."""
    _add(store, 4)
    sent: list[str] = []

    def deliver(consumer: str, crash_before_ack: str | None = None) -> None:
        for env in outbox.fetch(store, "telegram", consumer, count=10, block_ms=10):
            if not outbox.already_sent(store, env.key):
                sent.append(env.key)
                outbox.mark_sent(store, env.key)
            if env.key == crash_before_ack:
                return  # the process dies here: this entry and the rest stay pending
            outbox.ack(store, "telegram", env)

    deliver("bot", crash_before_ack="m1")
    assert sent == ["m0", "m1"] and outbox.pending_count(store, "telegram") == 3
    deliver("bot")  # after the restart: m1 (pending, already sent) is acked without resending
    assert sent == ["m0", "m1", "m2", "m3"]
    assert outbox.pending_count(store, "telegram") == 0


def test_pending_entries_trimmed_from_the_stream_do_not_block_the_rest(store: Store) -> None:
    """Entries deleted (MAXLEN trim) while pending come back without fields; they used to stay
    at the head of the pending list forever and hide the real pending entries behind them."""
    _add(store, 30)
    taken = outbox.fetch(store, "telegram", "bot", count=30, block_ms=10)
    assert len(taken) == 30
    store.r.xdel(k_outbox("telegram"), *[e.id for e in taken[:25]])  # trimmed while unacked
    seen: list[str] = []
    for _ in range(5):
        for env in outbox.fetch(store, "telegram", "bot", count=20, block_ms=10):
            seen.append(env.message["text"])
            outbox.ack(store, "telegram", env)
    assert seen == ["m25", "m26", "m27", "m28", "m29"]
    assert outbox.pending_count(store, "telegram") == 0


def test_a_dead_consumers_entries_are_claimed_by_the_living(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot process that died leaves its fetched entries pending under its name: once they
    have been idle long enough, another consumer takes them over (and only then)."""
    monkeypatch.setattr(outbox, "STALE_MS", 300)
    _add(store, 3)
    dead = outbox.fetch(store, "telegram", "telegram-old-pod", count=3, block_ms=10)
    assert _texts(dead) == ["m0", "m1", "m2"]
    # too fresh: the other consumer gets nothing yet (the first owner may still be at work)
    assert outbox.fetch(store, "telegram", "telegram-new-pod", block_ms=10) == []
    time.sleep(0.4)
    claimed = outbox.fetch(store, "telegram", "telegram-new-pod", block_ms=10)
    assert _texts(claimed) == ["m0", "m1", "m2"]
    for env in claimed:
        outbox.ack(store, "telegram", env)
    assert outbox.pending_count(store, "telegram") == 0

    # a living consumer re-reads its own pending entries, which keeps them its own
    _add(store, 2, prefix="n")
    mine = outbox.fetch(store, "telegram", "alive", count=2, block_ms=10)
    for _ in range(4):
        time.sleep(0.1)
        assert _texts(outbox.fetch(store, "telegram", "alive", block_ms=10)) == _texts(mine)
    assert outbox.fetch(store, "telegram", "other", block_ms=10) == []


def test_a_posted_turns_snapshot_is_kept_until_its_post_is_delivered(store: Store) -> None:
    """The board of a turn post is drawn at delivery from the snapshot of its version, however
    far the game has moved on; once the post is delivered the snapshot goes."""
    from workers.store import k_snapv

    gid = make_game(store)
    turns = [m for m in _pending_turns(store)]
    assert turns, "the first turn was posted"
    for i, text in enumerate(["add 1", "add 2", "add 1", "add 3", "add 2"]):
        assert pipeline.submit(store, gid, text=text, idem=f"p{i}", user=A if i % 2 == 0 else "console:bob").ok
    posted = {int(f) for f in store.r.hkeys(k_snapv(gid)) if not f.startswith(b"n:")}
    envs = outbox.fetch(store, "console", "slow-bot", count=100, block_ms=10)
    turn_envs = [e for e in envs if e.message["type"] == "turn"]
    assert {e.message["version"] for e in turn_envs} <= posted | {store.snapshot(gid)[0]}
    oldest = min(turn_envs, key=lambda e: e.message["version"])
    assert store.snapshot_at(gid, oldest.message["version"]) is not None  # drawable although late
    for env in envs:
        outbox.delivered(store, env)
        outbox.ack(store, "console", env)
    assert store.r.hlen(k_snapv(gid)) == 0


def _pending_turns(store: Store) -> list[dict[str, object]]:
    return [m for _, m in outbox.entries(store, "console") if m["type"] == "turn"]


def test_undelivered_counts_what_is_not_fetched_yet(store: Store) -> None:
    """Right after a commit adds a post nothing is pending, yet the post is not out: a wait
    for "delivered" must count the entries no consumer fetched yet as well."""
    _add(store, 5)
    assert outbox.pending_count(store, "telegram") == 0 and outbox.undelivered(store, "telegram") == 5
    batch = outbox.fetch(store, "telegram", "bot-1", count=3, block_ms=10)
    outbox.ack(store, "telegram", batch[0])
    assert outbox.undelivered(store, "telegram") == 4  # two fetched and pending, two never fetched
    for env in batch[1:]:
        outbox.ack(store, "telegram", env)
    for env in outbox.fetch(store, "telegram", "bot-1", count=10, block_ms=10):
        outbox.ack(store, "telegram", env)
    assert outbox.undelivered(store, "telegram") == 0


def test_undelivered_without_the_servers_lag_still_sees_a_newer_entry(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that cannot tell a group's lag (older Redis, or a stream with deleted
    entries): an entry newer than the last one fetched still counts."""
    real = store.r.pipeline

    def without_lag(*args: object, **kwargs: object) -> object:
        pipe = real(*args, **kwargs)
        execute = pipe.execute

        def stripped(*a: object, **k: object) -> object:
            out = execute(*a, **k)
            for res in out:
                if isinstance(res, list):
                    for group in res:
                        if isinstance(group, dict) and "lag" in group:
                            group["lag"] = None
            return out

        pipe.execute = stripped
        return pipe

    monkeypatch.setattr(store.r, "pipeline", without_lag)
    _add(store, 2)
    assert outbox.undelivered(store, "telegram") == 1  # at least one: the newest was never fetched
    for env in outbox.fetch(store, "telegram", "bot-1", count=10, block_ms=10):
        outbox.ack(store, "telegram", env)
    assert outbox.undelivered(store, "telegram") == 0


def test_a_fetch_decodes_only_the_entries_it_returns(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries of many games in many partitions: a fetch of 3 returns the 3 oldest, in order,
    and decodes only those (the rest stay pending and come first next time)."""
    for i in range(12):
        store.r.xadd(
            k_outbox("telegram", f"g{i}"), {"m": json.dumps({"type": "text", "text": f"m{i}", "key": f"m{i}"})}
        )
        time.sleep(0.002)  # ids of different streams order by time only across milliseconds
    decoded: list[str] = []
    real = json.loads

    def counting(raw: str | bytes, *args: object, **kwargs: object) -> object:
        decoded.append(str(raw))
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(outbox.json, "loads", counting)
    first = outbox.fetch(store, "telegram", "bot-1", count=3, block_ms=10)
    assert _texts(first) == ["m0", "m1", "m2"] and len(decoded) == 3
    for env in first:
        outbox.ack(store, "telegram", env)
    assert _texts(outbox.fetch(store, "telegram", "bot-1", count=3, block_ms=10)) == ["m3", "m4", "m5"]


def test_a_backlog_is_re_read_a_few_entries_per_partition(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fetch reads up to ``count`` new entries of every partition and hands back the oldest
    ``count``; the rest stay pending. The next fetches re-read only the first few pending
    entries of each partition (a backlog used to be re-read whole on every fetch), and still
    hand every entry back once, each game's in order."""
    from workers.keys import PARTITIONS, k_outbox_in

    parts = [0, 5, 17, 40]
    for n in range(12):
        for part in parts:
            store.r.xadd(k_outbox_in("telegram", part), {"m": json.dumps({"type": "text", "text": f"p{part}-{n}"})})
    read: list[int] = []
    real = outbox._entries

    def counted(*args: object) -> list[tuple[str, object, object]]:
        entries = real(*args)  # type: ignore[arg-type]
        read.append(len(entries))
        return entries

    monkeypatch.setattr(outbox, "_entries", counted)
    first = outbox.fetch(store, "telegram", "bot", count=10, block_ms=10)
    assert len(first) == 10 and read[-1] == 40  # the new read: 10 (count) of each of the 4 partitions
    seen = _texts(first)
    for env in first:
        outbox.ack(store, "telegram", env)
    while True:
        read.clear()
        batch = outbox.fetch(store, "telegram", "bot", count=10, block_ms=10)
        if not batch:
            break
        assert read[0] <= outbox.PENDING_PER_STREAM * len(parts) < 30  # not the whole backlog
        seen += _texts(batch)
        for env in batch:
            outbox.ack(store, "telegram", env)
    assert sorted(seen) == sorted(f"p{part}-{n}" for part in parts for n in range(12))
    for part in parts:  # each partition's (game's) messages in the order they were added
        assert [t for t in seen if t.startswith(f"p{part}-")] == [f"p{part}-{n}" for n in range(12)]
    assert outbox.pending_count(store, "telegram") == 0 and max(parts) < PARTITIONS
