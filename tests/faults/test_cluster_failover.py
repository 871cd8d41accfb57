"""The store on a real Valkey Cluster: whole games through the real pipeline, with one master
failing over (``CLUSTER FAILOVER`` on its replica) while moves are in flight, and nothing lost.

Three masters with one replica each run from the embedded server binary on 127.0.0.1
(tests/support/cluster.py); Celery's broker stays the plain test server (``AGORA_BROKER_URL``),
as deploy/README.md describes. A real ``celery worker -B`` process (moves, automatic players,
the deadline sweeper on every partition) works on the cluster; the test submits moves as the
adapters do and reads the outbox of every partition as a bot would.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cluster import Cluster
from tests.workers.util import A, B, assert_replays, make_game, wait_for
from workers import clock, deadlines, leader, lobby, outbox, pipeline
from workers.ratelimit import CommandLimiter
from workers.store import Store, k_deadlines, k_meta, partition

GAMES = 6  # five human pairs and one game against the automatic player


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("cluster")).start()
    try:
        yield c
    finally:
        c.stop()  # every node by its PID


@pytest.fixture
def cstore(cluster: Cluster, app: Any, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """A store on the cluster; this process's tasks and results point there and at the broker."""
    from workers import tasks

    monkeypatch.setenv("AGORA_BROKER_URL", redis_url)
    st = Store.from_url(cluster.url)
    st.r.flushall()
    app.conf.agora_store_url = cluster.url
    tasks._store = None
    try:
        yield st
    finally:
        app.conf.agora_store_url = redis_url
        tasks._store = None
        st.r.close()


def _to_move(st: Store, gid: str) -> tuple[int, str | None]:
    """(version, user to move) - None when the game is over or an automatic player moves."""
    loaded = pipeline.load(st, gid)
    if loaded.meta.get("status") != "active":
        return loaded.version, None
    seat = min(loaded.game.to_move(loaded.state))
    return loaded.version, None if loaded.automatic(seat) else loaded.seats[seat]


def test_games_on_a_cluster_survive_a_master_failover(
    cluster: Cluster, cstore: Store, spawn: Any, redis_url: str, tmp_path: Path
) -> None:
    from workers import tasks

    t0 = time.monotonic()
    st = cstore
    env = {"REDIS_URL": cluster.url, "AGORA_BROKER_URL": redis_url, "AGORA_SWEEP_SECONDS": "1"}
    spawn.worker("cluster", env=env, beat=True)
    gids = [make_game(st, chat=f"t{i}") for i in range(GAMES - 1)]
    gids.append(make_game(st, users=[A], bots=1, chat="vs-bot"))
    masters = {cluster.master_of(k_meta(g))[0].port for g in gids}
    assert len({partition(g) for g in gids}) == GAMES and len(masters) >= 2, "the games spread over the cluster"

    # the writes beside moves, each in its game's slot or split in order (deploy/README.md)
    C = "console:carol"
    clock.set_timer(st, gids[1], A, {"turn_hours": 24})  # WATCH + MULTI: meta, index, outbox
    clock.substitute(st, gids[2], A, 1, C, "carol")  # and the "my games" entries of both players
    assert gids[2] in st.user_games(C) and gids[2] not in st.user_games(B)
    assert st.user_games(A) == sorted(gids)
    assert lobby.add_table(st, gids[3], "console", "second-table")
    assert st.chat_game("console", "second-table") == gids[3]
    waiting = lobby.create(st, "toy", platform="console", chat="lobby", user=B, name="bob")
    assert waiting in st.user_games(B)
    lobby.leave(st, waiting, B)
    assert waiting not in st.user_games(B)

    # the rate limiter and the beat lease use the store too
    limiter = CommandLimiter(cluster.url, user="2/minute", chat="off")
    assert [limiter.check("telegram", "t0", "alice").allowed for _ in range(3)] == [True, True, False]
    wait_for(lambda: st.r.get(leader.KEY))  # the worker's beat holds its lease on the cluster

    # the sweeper's work on every partition: rebuild the index from the records, claim what is due
    scheduled = deadlines.scheduled(st)
    assert set(scheduled) == set(gids)
    st.r.delete(*[k_deadlines(g) for g in gids])
    assert deadlines.rebuild_index(st) == GAMES and deadlines.scheduled(st) == scheduled
    handled: list[str] = []
    assert deadlines.sweep_due(st, max(scheduled.values()) + 1, handled.append, limit=2) == GAMES
    assert sorted(handled) == sorted(gids)
    for g in gids:  # put back what the claims leased
        st.r.zadd(k_deadlines(g), {g: scheduled[g]})

    accepted: list[tuple[str, int, str]] = []  # (game, version, idempotency key) of every accepted move
    failover_s = None
    victim, replica = cluster.master_of(k_meta(gids[0]))
    rounds = 0
    while True:
        waiting = {g: _to_move(st, g) for g in gids}
        live = {g: (v, u) for g, (v, u) in waiting.items() if u is not None}
        if not live and all(pipeline.load(st, g).meta.get("status") == "over" for g in gids):
            break
        handles = [
            (g, v, f"cl:{g}:{v}", tasks.move.apply_async(args=[g, u, "add 3", f"cl:{g}:{v}"]))
            for g, (v, u) in live.items()
        ]
        rounds += 1
        if rounds == 3:  # mid-game, with this round's moves in flight
            failover_s = cluster.failover(replica)
            # this process's slot map is stale now: routed reads must follow the redirection
            assert outbox.fetch(st, "telegram", "probe", block_ms=0) == [] and deadlines.claim(st, 0.0) == []
        for g, _v, key, handle in handles:
            res = handle.get(timeout=30)
            if not res["ok"]:  # a lost answer is retried with the same key, as adapters do
                res = tasks.move.apply_async(args=[g, waiting[g][1], "add 3", key]).get(timeout=30)
            assert res["ok"], res
            accepted.append((g, int(res["version"]), key))
        if not live:  # only the automatic player is to move: let it
            time.sleep(0.05)
        assert time.monotonic() - t0 < 90, "the games did not finish"
    assert failover_s is not None and cluster.master_of(k_meta(gids[0]))[0].port == replica.port
    assert victim.proc is not None and victim.proc.poll() is None  # demoted to a replica, still serving

    # nothing lost: each snapshot is the replay of its log, and every accepted move is in it
    logs = {g: assert_replays(st, g)[1] for g in gids}
    for g, version, key in accepted:
        # version 1 is the start (no log entry); each later commit pushed one entry (no undo here)
        assert [i + 2 for i, e in enumerate(logs[g]) if e["k"] == key] == [version], (g, key)
    assert all(st.meta(g)["status"] == "over" for g in gids)
    assert not set(deadlines.scheduled(st)) & set(gids)  # finished games left the index

    # every committed version's messages are in its game's partition stream, once each
    seen: dict[str, dict[str, Any]] = {}
    wait_for(lambda: outbox.length(st, "console") > 0)
    while batch := outbox.fetch(st, "console", "cluster-bot", count=100, block_ms=50):
        for env_ in batch:
            assert env_.key not in seen, env_.key
            seen[env_.key] = env_.message
            outbox.ack(st, "console", env_)
    assert outbox.pending_count(st, "console") == 0
    for g in gids:
        versions = {int(m["version"]) for m in seen.values() if m.get("game") == g and "version" in m}
        assert versions >= {v for gg, v, _ in accepted if gg == g}, g
    elapsed = time.monotonic() - t0
    print(f"cluster game test: {len(accepted)} moves in {rounds} rounds, failover {failover_s:.2f} s, "
          f"total {elapsed:.1f} s")


async def test_move_answers_reach_a_waiting_client_on_a_cluster(cstore: Store, cluster: Cluster) -> None:
    """The adapters wait for move answers on their event loop (workers/answers.py): on a
    cluster that wait must read the mailbox the workers push to, through the cluster client."""
    from workers.answers import Answers

    box = Answers(cluster.url)
    try:
        fut = box.expect("r1")
        cstore.post_answer(box.box, "r1", {"ok": True, "text": "done"})
        got = await box.wait("r1", 15)
        assert fut is not None
        assert got == {"ok": True, "text": "done"}
    finally:
        await box.aclose()
