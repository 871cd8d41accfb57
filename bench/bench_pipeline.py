"""Benchmark: a move's round trip through Celery vs an empty task's, in the same run.

Run from the repository root:

    .venv/bin/python bench/bench_pipeline.py [--moves 200] [--check]

Starts the embedded Valkey server (``workers.embedded.EmbeddedServer``, no persistence) and one
Celery worker subprocess (solo pool, ``--without-mingle --without-gossip --without-heartbeat``),
then times, from this process:

- ``tasks.noop.apply_async().get()`` — the Celery round trip doing nothing (the baseline);
- ``tasks.move.apply_async(...).get()`` for the toy game (``tests/support/toy.py``) and, when
  ``find_game("duellum")`` works, for Antike Duellum with moves chosen by its automatic player
  (chosen outside the timed section);
- ``pipeline.submit`` called directly (no Celery), to show where a move's time goes.

Noop and move rounds are interleaved in blocks so both see the same machine load. The worker
runs with ``AGORA_SKIP_KICK=1``: the follow-up ``kick`` (board render, automatic players) is an
asynchronous task that would otherwise occupy the single worker between timed moves; the
render's cost is measured by bench/bench_render.py. Prints p50/p99 and the ratio move/noop
(target: p50 ratio <= 3). ``--check`` exits 1 when the target is missed. Every process it
starts is stopped by its PID.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_RATIO = 3.0
A, B = "console:alice", "console:bob"


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def ms(values: list[float]) -> str:
    return f"p50 {pct(values, 0.5) * 1000:6.2f} ms   p99 {pct(values, 0.99) * 1000:6.2f} ms   (n={len(values)})"


class Games:
    """Supplies (gid, user, text, key) for the next move of a game, starting new games as needed.
    The choice of the move (automatic player for Duellum) happens here, outside the timing."""

    def __init__(self, store: Any, game: str) -> None:
        self.store = store
        self.game = game
        self.gid = ""
        self.n = 0

    def _new(self) -> None:
        from workers import lobby

        self.n += 1
        chat = f"{self.game}-{self.n}"
        gid = lobby.create(self.store, self.game, platform="console", chat=chat, user=A, name="alice", turn_hours=48)
        lobby.join(self.store, gid, B, "bob")
        lobby.begin(self.store, gid, A, seed=1000 + self.n)
        self.gid = gid

    def next(self) -> tuple[str, str, str, str]:
        from workers import pipeline

        while True:
            if not self.gid:
                self._new()
            loaded = pipeline.load(self.store, self.gid)
            movers = sorted(loaded.game.to_move(loaded.state))
            if loaded.meta.get("status") != "active" or not movers:
                self.gid = ""
                continue
            seat = movers[0]
            if self.game == "toy":
                text = "add 1"
            else:
                seed = zlib.crc32(f"{self.gid}:{loaded.version}".encode())
                text = loaded.game.notation(loaded.state, seat, loaded.game.auto_action(loaded.state, seat, seed))
            return self.gid, loaded.seats[seat], text, f"bench:{self.gid}:{loaded.version}"


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="timed moves per game (default 200)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the ratio target is missed")
    args = parser.parse_args()

    from workers.embedded import EmbeddedServer, _die_with_parent
    from workers.local import worker_command

    tmp = Path(tempfile.mkdtemp(prefix="agora-bench-"))
    server = EmbeddedServer(tmp / "valkey", persist=False).start()
    env = dict(os.environ, REDIS_URL=server.url, AGORA_PLUGINS="tests.support.toy", AGORA_SKIP_KICK="1")
    env["PYTHONPATH"] = str(ROOT)
    cmd = worker_command(beat=False, data_dir=tmp, name="bench")
    log = open(tmp / "worker.log", "wb")  # noqa: SIM115 - closed in finally
    worker = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
    try:
        os.environ["REDIS_URL"] = server.url
        import tests.support.toy  # noqa: F401 - registers the toy game here too
        from engine import find_game
        from workers import pipeline, tasks
        from workers.celery_app import app
        from workers.store import Store

        app.conf.broker_url = server.url
        app.conf.result_backend = server.url
        store = Store.from_url(server.url)

        deadline = time.monotonic() + 30
        while True:  # wait for the worker (first round trip)
            if worker.poll() is not None:
                raise SystemExit(f"the worker exited at start; see {tmp / 'worker.log'}")
            with contextlib.suppress(Exception):
                if tasks.noop.apply_async(args=[1]).get(timeout=1) == 1:
                    break
            if time.monotonic() > deadline:
                raise SystemExit("the worker did not answer within 30 s")

        games = ["toy"]
        try:
            find_game("duellum")
            games.append("duellum")
        except Exception as exc:  # the engine may be missing or incomplete
            print(f"(Antike Duellum not measured: {exc})")

        def noop_rt() -> float:
            return timed(lambda: tasks.noop.apply_async(args=[7]).get(timeout=30))

        results: dict[str, list[float]] = {"noop": []}
        direct: dict[str, list[float]] = {}
        for name in games:
            src = Games(store, name)
            for _ in range(20):  # warm-up: imports, connections, first games
                noop_rt()
                gid, user, text, key = src.next()
                tasks.move.apply_async(args=[gid, user, text, key]).get(timeout=30)
            moves: list[float] = []
            block = 10
            while len(moves) < args.moves:
                for _ in range(block):
                    results["noop"].append(noop_rt())
                for _ in range(block):
                    gid, user, text, key = src.next()
                    t0 = time.perf_counter()
                    tasks.move.apply_async(args=[gid, user, text, key]).get(timeout=30)
                    t = time.perf_counter() - t0
                    res = store.idem_result(gid, key)
                    if res is None or not res.get("ok"):
                        raise SystemExit(f"move {text!r} in {gid} was not applied: {res}")
                    moves.append(t)
            results[name] = moves
            # the same moves without Celery (this process runs the pipeline itself)
            sync: list[float] = []
            for _ in range(min(args.moves, 100)):
                gid, user, text, key = src.next()
                t0 = time.perf_counter()
                pipeline.submit(store, gid, text=text, idem=key, user=user)
                sync.append(time.perf_counter() - t0)
            direct[name] = sync

        print(f"Celery round trips (solo worker, embedded Valkey {server.url}):")
        print(f"  noop                 {ms(results['noop'])}")
        for name in games:
            print(f"  move {name:<15} {ms(results[name])}")
            print(f"  pipeline.submit {name:<4} {ms(direct[name])}   (direct, no Celery)")
        ok = True
        base50, base99 = pct(results["noop"], 0.5), pct(results["noop"], 0.99)
        for name in games:
            r50 = pct(results[name], 0.5) / base50
            r99 = pct(results[name], 0.99) / base99
            verdict = "ok" if r50 <= TARGET_RATIO else "MISSED"
            ok = ok and r50 <= TARGET_RATIO
            print(
                f"  ratio move/noop {name:<8} p50 {r50:4.2f}   p99 {r99:4.2f}"
                f"   (target p50 <= {TARGET_RATIO:g}: {verdict})"
            )
        store.r.close()
        return 0 if ok or not args.check else 1
    finally:
        if worker.poll() is None:
            worker.terminate()
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait(5)
        log.close()
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
