"""Benchmark: the deadline sweep with 100,000 scheduled games on one Redis.

Run from the repository root:

    .venv/bin/python bench/bench_deadlines.py [--games 100000] [--lag-games 1000] [--interval 1]

Starts the embedded Valkey server (no persistence), creates one real game of the toy race
(``tests.support.toy``: the figures are about the sweep, not about loading a big game) and
copies its record to ``--games`` games, each with a deadline between one hour and a week
ahead, so the index holds every game. Then it reports:

- the Redis memory of the deadline index (``MEMORY USAGE agora:deadlines``) per game;
- one sweep's time (``deadlines.sweep_due`` with the real ``process`` and real Celery
  enqueues of the timeouts) with 0 (twice: the first loads the claim script), 100 and
  10,000 entries due among all the games, and the time of ``agora deadlines rebuild``;
- the lag from a due time to its message in the outbox, p50/p99, with 1 and 2 sweepers (one
  beat process plus one Celery worker each, sweeping every ``--interval`` seconds; one beat
  holds the scheduler lease and the other stands by, so with 2 the sweep tasks and the
  timeouts they enqueue run on two workers): half the
  ``--lag-games`` games get a reminder due in the next 30 s, the other half a timeout, whose
  applied move posts the next turn. The lag is the outbox entry's stream time minus the due
  time. Target: p99 under the sweep interval + 1 s.

Every process started is stopped by its PID.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("AGORA_PLUGINS", "tests.support.toy")

A, B = "console:alice", "console:bob"
H = 3600.0


def template(store: Any) -> tuple[dict[bytes, bytes], bytes, dict[bytes, bytes], dict[bytes, bytes]]:
    """One real started game's meta, snapshot, seats and names."""
    import tests.support.toy  # noqa: F401 - registers the toy game
    from workers import lobby
    from workers.store import k_meta, k_names, k_seats, k_snap

    gid = lobby.create(store, "toy", platform="console", chat="tmpl", user=A, name="alice", turn_hours=24)
    lobby.join(store, gid, B, "bob")
    assert lobby.begin(store, gid, A, seed=1).ok
    out = (
        store.r.hgetall(k_meta(gid)),
        store.r.get(k_snap(gid)),
        store.r.hgetall(k_seats(gid)),
        store.r.hgetall(k_names(gid)),
    )
    store.r.flushdb()
    return out


def populate(store: Any, n: int, tmpl: Any, now: float) -> list[str]:
    """``n`` games copied from the template, each due between 1 h and 7 days from now."""
    from workers.store import k_deadlines, k_meta, k_names, k_seats, k_snap

    meta, snap, seats, names = tmpl
    rng = random.Random(5)
    gids = []
    pipe = store.r.pipeline(transaction=False)
    for i in range(n):
        gid = f"b{i:x}"
        gids.append(gid)
        due = now + rng.uniform(H, 7 * 24 * H)
        m = {**{k.decode(): v.decode() for k, v in meta.items()}, "turn_at": f"{due - 24 * H:.3f}"}
        m.update({"deadline_at": f"{due + 24 * H:.3f}", "home": f"console:c{i}", "turn_v": "1"})
        pipe.hset(k_meta(gid), mapping=m)
        pipe.set(k_snap(gid), snap)
        pipe.hset(k_seats(gid), mapping=seats)
        pipe.hset(k_names(gid), mapping=names)
        pipe.zadd(k_deadlines(gid), {gid: due})
        if i % 2000 == 1999:
            pipe.execute()
    pipe.execute()
    return gids


def make_due(store: Any, gids: list[str], when: list[float], kinds: list[str]) -> None:
    """Schedule a reminder (half time at ``when``) or a timeout (deadline at ``when``)."""
    from workers.store import k_deadlines, k_meta

    pipe = store.r.pipeline(transaction=False)
    for gid, at, kind in zip(gids, when, kinds, strict=True):
        if kind == "remind":  # 2 h turn whose half time is ``at``; the 1 h lead falls together
            fields = {"turn_at": f"{at - H:.3f}", "deadline_at": f"{at + H:.3f}"}
        else:  # deadline at ``at``; its reminders were sent long ago (no lead left)
            fields = {"turn_at": f"{at - 30:.3f}", "deadline_at": f"{at:.3f}", "mute:0": "game"}
        fields["turn_v"] = f"t{at:.0f}"
        pipe.hset(k_meta(gid), mapping=fields)
        if kind == "remind":
            pipe.hdel(k_meta(gid), "mute:0")
        pipe.zadd(k_deadlines(gid), {gid: at})
    pipe.execute()


def sweep_once(store: Any, now: float) -> tuple[int, float]:
    from workers import deadlines, tasks

    def handle(gid: str) -> None:
        deadlines.process(
            store,
            gid,
            now,
            run_auto=lambda g, s, v: tasks.auto.delay(g, s, v),
            submit_timeout=lambda g, s, t, k: tasks.timeout.delay(g, s, t, k),
        )

    t0 = time.perf_counter()
    n = deadlines.sweep_due(store, now, handle)
    return n, time.perf_counter() - t0


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def lag_run(url: str, store: Any, gids: list[str], sweepers: int, interval: float, tmp: Path) -> dict[str, Any]:
    """Start ``sweepers`` x (beat + worker), schedule due times over the next 30 s, measure."""
    from workers import outbox

    # The index is already built (its rebuild is measured apart): the sweepers start at once.
    env = dict(
        os.environ, REDIS_URL=url, AGORA_SWEEP_SECONDS=str(interval), PYTHONPATH=str(ROOT), AGORA_REBUILD_ON_START="0"
    )
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[Path] = []
    try:
        for i in range(sweepers):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "--pool=solo",
                     "-n", f"bench{i}@%h", "-l", "ERROR", "--without-mingle", "--without-gossip"],
                    env=env, cwd=ROOT,
                )
            )  # fmt: skip
            log = tmp / f"beat{sweepers}-{i}.log"
            logs.append(log)
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "workers.celery_app", "beat", "-l", "WARNING",
                     "-s", str(tmp / f"beat{sweepers}-{i}")],
                    env=env, cwd=ROOT, stderr=log.open("wb"),
                )
            )  # fmt: skip
        # start-up: one beat takes the scheduler lease (workers.leader), the other stands by
        t0 = time.time()
        while not any("deadline index rebuilt" in p.read_text(errors="replace") for p in logs):
            if time.time() - t0 > 600:
                raise SystemExit("the sweepers did not start")
            time.sleep(0.5)
        time.sleep(2)
        store.r.delete(*outbox.streams("console"))
        start = time.time() + 2
        due = [start + 30 * i / len(gids) for i in range(len(gids))]
        kinds = ["remind" if i % 2 == 0 else "timeout" for i in range(len(gids))]
        make_due(store, gids, due, kinds)
        want = dict(zip(gids, due, strict=True))
        kind_of = dict(zip(gids, kinds, strict=True))
        lags: dict[str, list[float]] = {"remind": [], "timeout": []}
        deadline = start + 30 + 60
        seen: set[str] = set()
        last = "0-0"
        while time.time() < deadline and len(seen) < len(gids):
            for mid, m in outbox.entries(store, "console"):  # every partition's stream, by id
                if tuple(map(int, mid.split("-"))) <= tuple(map(int, last.split("-"))):
                    continue
                last = mid
                gid = m.get("game")
                if gid not in want or gid in seen:
                    continue
                if (kind_of[gid] == "remind" and m["type"] == "reminder") or (
                    kind_of[gid] == "timeout" and m["type"] == "turn"
                ):
                    seen.add(gid)
                    lags[kind_of[gid]].append(int(last.split("-")[0]) / 1000 - want[gid])
            time.sleep(0.2)
        return {"lags": lags, "missing": len(gids) - len(seen)}
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--lag-games", type=int, default=1000)
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--skip-sweeps", action="store_true", help="only the lag runs (no sweep times, no rebuild)")
    args = ap.parse_args()

    from workers.embedded import EmbeddedServer
    from workers.store import PARTITIONS, Store, k_deadlines_in

    tmp = Path(tempfile.mkdtemp(prefix="agora-bench-"))
    server = EmbeddedServer(tmp / "valkey", persist=False).start()
    try:
        from workers.celery_app import app

        app.conf.broker_url = server.url
        app.conf.result_backend = server.url
        store = Store.from_url(server.url)
        tmpl = template(store)
        now = time.time()
        t0 = time.perf_counter()
        gids = populate(store, args.games, tmpl, now)
        print(f"{args.games} games scheduled in {time.perf_counter() - t0:.1f} s")
        mem = sum(int(store.r.memory_usage(k_deadlines_in(p), samples=0) or 0) for p in range(PARTITIONS))
        print(f"deadline index: {mem} bytes, {mem / args.games:.1f} bytes per game")
        rng = random.Random(9)
        for k in () if args.skip_sweeps else (0, 0, 100, 10_000):
            sample = rng.sample(gids, min(k, len(gids)))
            at = time.time()
            make_due(store, sample, [at - 5] * len(sample), ["timeout"] * len(sample))
            n, secs = sweep_once(store, time.time())
            print(f"one sweep, {len(sample)} due of {args.games}: {n} handled in {secs * 1000:.1f} ms")
            # put them back in the future (record and index) for the next measurements
            later = time.time() + 7 * 24 * H
            make_due(store, sample, [later] * len(sample), ["remind"] * len(sample))
            store.r.delete("celery")  # the enqueued timeouts: nobody runs them here
        from workers import deadlines

        if not args.skip_sweeps:
            t0 = time.perf_counter()
            n = deadlines.rebuild_index(store)
            print(f"agora deadlines rebuild: {n} games in {time.perf_counter() - t0:.1f} s")
        for sweepers in (1, 2):
            lag_gids = rng.sample(gids, args.lag_games)
            res = lag_run(server.url, store, lag_gids, sweepers, args.interval, tmp)
            for kind, xs in res["lags"].items():
                if xs:
                    print(
                        f"lag, {sweepers} sweeper(s), {kind}: n={len(xs)} p50={statistics.median(xs) * 1000:.0f} ms "
                        f"p99={percentile(xs, 99) * 1000:.0f} ms max={max(xs) * 1000:.0f} ms"
                    )
            print(f"  not seen within the run: {res['missing']}")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
