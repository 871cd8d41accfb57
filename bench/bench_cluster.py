"""Benchmark: the store on one server and on a Redis Cluster (3 masters + 3 replicas), side by side.

Run from the repository root:

    .venv/bin/python bench/bench_cluster.py [--games 20] [--rounds 200]

Starts the embedded Valkey server and a cluster from the same binary on 127.0.0.1 (no
persistence; every node stopped by its PID), then measures on each, in this process:

- a move: ``pipeline.submit`` of toy-game moves (load, rules, one commit script) over
  ``--games`` games in turn, moves per second and p50/p99 milliseconds;
- the sweeper's claim of every partition's deadline index with nothing due;
- one outbox fetch with nothing to read (``block_ms=0``: the cost a bot pays between batches);
- "my games" (the union of the partitions' index sets).

Why: the partitions (64 deadline indexes, 64 outbox streams per platform, 64 "my games" sets)
turn some single reads into 64; on one server they go out as one command or one pipelined round
trip, on a cluster as one round trip per node. This shows what that costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

A, B = "console:alice", "console:bob"


def timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def measure(name: str, url: str, games: int, rounds: int) -> None:
    import tests.support.toy  # noqa: F401 - registers the toy game
    from workers import deadlines, lobby, outbox, pipeline
    from workers.store import Store

    st = Store.from_url(url)
    st.r.flushall()
    gids = []
    for i in range(games):
        gid = lobby.create(st, "toy", platform="console", chat=f"b{i}", user=A, name="alice")
        lobby.join(st, gid, B, "bob")
        assert lobby.begin(st, gid, A, seed=i).ok
        gids.append(gid)
    moves: list[float] = []
    n = 0
    t_all = time.perf_counter()
    while len(moves) < rounds:
        gid = gids[n % games]
        n += 1
        loaded = pipeline.load(st, gid)
        if loaded.meta.get("status") != "active":  # a finished game: start it again elsewhere
            gid = lobby.create(st, "toy", platform="console", chat=f"r{n}", user=A, name="alice")
            lobby.join(st, gid, B, "bob")
            assert lobby.begin(st, gid, A, seed=n).ok
            gids[(n - 1) % games] = gid
            continue
        user = loaded.seats[min(loaded.game.to_move(loaded.state))]
        t0 = time.perf_counter()
        assert pipeline.submit(st, gid, text="add 1", idem=f"b{n}", user=user).ok
        moves.append((time.perf_counter() - t0) * 1000)
    wall = time.perf_counter() - t_all
    claim = timed(lambda: deadlines.claim(st, 0.0), 50)
    outbox.fetch(st, "console", "bench", block_ms=0)  # create the groups
    st.r.delete(*outbox.streams("console"))
    st.__dict__.pop("_outbox_ready", None)
    outbox.ensure_group(st, "console")
    fetch = timed(lambda: outbox.fetch(st, "console", "bench", block_ms=0), 50)
    mine = timed(lambda: st.user_games(A), 50)
    print(
        f"{name:8} moves: {len(moves) / wall:6.0f}/s (incl. loads), submit p50 {pct(moves, 50):.2f} ms "
        f"p99 {pct(moves, 99):.2f} ms | claim of 64 indexes p50 {statistics.median(claim):.2f} ms | "
        f"empty fetch p50 {statistics.median(fetch):.2f} ms | my games p50 {statistics.median(mine):.2f} ms"
    )
    st.r.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    from tests.support.cluster import Cluster
    from workers.embedded import EmbeddedServer

    tmp = Path(tempfile.mkdtemp(prefix="agora-bench-cluster-"))
    server = EmbeddedServer(tmp / "single", persist=False).start()
    cluster = Cluster(tmp / "cluster").start()
    try:
        measure("single", server.url, args.games, args.rounds)
        measure("cluster", cluster.url, args.games, args.rounds)
    finally:
        cluster.stop()
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
