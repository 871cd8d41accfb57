"""The fault scenarios, shared by ``tests/faults/test_faults.py`` (small, for CI) and
``bench/bench_faults.py`` (50 and 200 games): load from simulated players, one kind of fault
injected every few seconds, then a drain and the full check of ``tests/faults/check.py``.

Faults (``kind``):
- ``worker``: a worker SIGKILLed (by PID; the supervisor of ``agora worker`` starts it again);
- ``redis``: the server SIGKILLed and started again on its data (AOF, ``appendfsync`` as given);
- ``consumer``: the Telegram delivery loop SIGKILLed mid-delivery and started again;
- ``none``: the same load without faults (the baseline).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from tests.faults.check import Report, check_games, check_outbox, drain
from tests.faults.players import Players, new_games
from tests.faults.stack import running_stack
from workers.client import Client

KINDS = ("none", "worker", "redis", "consumer")


def run(
    kind: str,
    data_dir: Path,
    *,
    games: int = 6,
    game: str = "duellum",
    duration: float = 20.0,
    every: float = 3.0,
    appendfsync: str = "always",
    threads: int = 8,
    seed: int = 1,
    down: float = 0.5,
) -> Report:
    """Run one scenario and return its checked report (``report.ok()`` is the verdict)."""
    assert kind in KINDS, kind
    rnd = random.Random(seed)
    report = Report()
    with running_stack(data_dir, appendfsync=appendfsync) as stack:
        client = Client(stack.url, move_timeout=10)
        try:
            gids = new_games(client.store, games, game, seed)
            players = Players(client, gids, threads=threads).start()
            t0 = time.monotonic()
            faults = 0
            while time.monotonic() - t0 < duration:
                time.sleep(every * rnd.uniform(0.5, 1.5))
                if kind == "worker":
                    stack.kill_worker(faults)
                elif kind == "redis":
                    stack.server.kill()
                    time.sleep(down)
                    stack.server.start()
                elif kind == "consumer":
                    stack.consumer.kill()
                    stack.consumer.start()
                faults += kind != "none"
            players.join()
            load_s = time.monotonic() - t0
            drained = drain(client, stack.consumer.record, timeout=120)
            check_games(client.store, gids, players.tally, report)
            check_outbox(client, stack.consumer.record, stack.consumer.killed, report)
            lat = sorted(players.tally.latencies) or [0.0]
            report.notes.update(
                kind=kind, appendfsync=appendfsync, faults=faults, load_s=round(load_s, 1), drained=drained,
                moves_per_s=round(len(players.tally.accepted) / load_s, 1),
                answer_p50_ms=round(lat[len(lat) // 2] * 1000), answer_p99_ms=round(lat[int(len(lat) * 0.99)] * 1000),
                player_errors=players.tally.errors,
                worker_restarts=sum(w.restarts for w in stack.workers()),  # type: ignore[attr-defined]
            )  # fmt: skip
        finally:
            client.close()
    return report
