"""A finished game is archived: its log compressed into one string (the record stays complete
and replayable), the idempotency results set to expire; a running game is never archived."""

from __future__ import annotations

import json

from engine import find_game
from engine.core.testing import replay
from workers import lobby, pipeline
from workers.store import ARCHIVE_TTL, Store, k_idem, k_log, k_logz


def test_finished_game_is_archived_and_still_replays(store: Store) -> None:
    gid = lobby.create(store, "toy", platform="test", chat="c", user="test:a", name="A")
    lobby.join(store, gid, "test:b", "B")
    assert lobby.begin(store, gid, "test:a", seed=5).ok
    assert not store.archive(gid)  # running: nothing happens
    users = ["test:a", "test:b"]
    n = 0
    while store.meta(gid)["status"] == "active":
        seat = sorted(pipeline.load(store, gid).game.to_move(pipeline.load(store, gid).state))[0]
        assert pipeline.submit(store, gid, text="add 2", idem=f"k{n}", user=users[seat]).ok
        n += 1
    before = store.log(gid)
    assert store.archive(gid)
    assert not store.r.exists(k_log(gid)) and store.r.exists(k_logz(gid))
    assert 0 < store.r.ttl(k_idem(gid)) <= ARCHIVE_TTL
    assert store.log(gid) == before
    assert not store.archive(gid)  # idempotent
    meta = store.meta(gid)
    game = find_game("toy")
    final = replay(game, int(meta["seed"]), 2, json.loads(meta["options"]), [(e["s"], e["t"]) for e in before])
    assert game.dumps(final) == store.snapshot(gid)[1]
