"""A store written in the layout before partitions moves to it on the sweeper's start (or
``agora deadlines rebuild``): games, "my games", undelivered outbox messages and the
deadline index come through; delivered messages are not sent again."""

from __future__ import annotations

import json

from tests.workers.util import A, B, assert_replays, make_game, record
from workers import deadlines, layout, outbox, pipeline
from workers.store import P, Store, k_sent


def _downgrade(store: Store) -> None:
    """Rewrite the store in the old layout (what a store written before partitions holds)."""
    old_streams: dict[str, list[tuple[str, bytes]]] = {}
    for raw in sorted(store.r.scan_iter(match=P + "{p*}:*")):
        key = raw.decode()
        rest = key.split("}:", 1)[1]
        kind = store.r.type(key)
        if rest.startswith("g:"):
            gid, _, suffix = rest[2:].partition(":")
            store.r.rename(key, f"{P}g:{{{gid}}}:{suffix}")
        elif rest.startswith("remind:"):
            store.r.rename(key, P + rest)
        elif rest.startswith("u:") and kind == b"set":
            store.r.sunionstore(P + rest, [P + rest, key])
            store.r.delete(key)
        elif rest == "deadlines":
            store.r.zunionstore(P + "deadlines", [P + "deadlines", key])
            store.r.delete(key)
        elif rest.startswith("outbox:"):
            old_streams.setdefault(P + rest, []).extend((m.decode(), f[b"m"]) for m, f in store.r.xrange(key))
            store.r.delete(key)
    for key, rows in old_streams.items():
        last = (0, 0)
        for mid, m in sorted(rows, key=lambda r: tuple(map(int, r[0].split("-")))):
            # Two partition streams may hold the same id (written in the same millisecond);
            # one old stream needs increasing ids.
            ms, seq = map(int, mid.split("-"))
            last = (ms, seq) if (ms, seq) > last else (last[0], last[1] + 1)
            store.r.xadd(key, {"m": m}, id=f"{last[0]}-{last[1]}")
    store.r.delete(layout.K_LAYOUT)


def test_an_old_layout_store_is_moved_to_partitions(store: Store) -> None:
    games = [make_game(store, chat=f"c{i}") for i in range(3)]
    for i, gid in enumerate(games):
        assert pipeline.submit(store, gid, text="add 2", idem=f"m{i}", user=A).ok
    before = {g: record(store, g) for g in games}
    index = deadlines.scheduled(store)
    mine = store.user_games(B)
    messages = [m for _, m in outbox.entries(store, "console")]
    _downgrade(store)
    assert not list(store.r.scan_iter(match=P + "{p*}:*"))  # nothing left in the new layout
    assert store.user_games(B) == [] and deadlines.scheduled(store) == {}
    delivered = messages[0]["key"]
    store.r.set(k_sent(delivered), "1")  # this one had been delivered before the upgrade

    assert deadlines.rebuild_index(store) == 3
    assert {g: record(store, g) for g in games} == before
    for g in games:
        assert_replays(store, g)
    assert deadlines.scheduled(store) == index and store.user_games(B) == mine == sorted(games)
    moved = [m for _, m in outbox.entries(store, "console")]
    kept = [m for m in messages if m["key"] != delivered]
    for g in games:  # each game's messages in their order (partitions are merged by entry id)
        assert [m for m in moved if m["game"] == g] == [m for m in kept if m["game"] == g]
    assert len(moved) == len(kept)
    assert not list(store.r.scan_iter(match=P + "g:{*")) and not store.r.exists(P + "outbox:console")
    assert store.r.get(layout.K_LAYOUT) == layout.LAYOUT.encode()
    assert layout.migrate(store) == 0  # once only
    # and the game goes on where it was
    assert pipeline.submit(store, games[0], text="add 1", idem="after", user=B).ok
    assert json.loads(json.dumps(store.meta(games[0])))["version"] == str(before[games[0]][0] + 1)
