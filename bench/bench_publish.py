"""Benchmark: the CPU of sending one move to the workers, Celery's own way vs ``workers.publisher``.

Run from the repository root:

    .venv/bin/python bench/bench_publish.py [--sends 3000] [--rounds 3]

Starts the embedded Valkey server (no persistence, 127.0.0.1; stopped by its PID) and sends
``agora.move`` messages from this one thread, as the adapter sends a move (``ignore_result``,
the reply box and the shown arguments), without a worker: only the send is measured. Each round
times, in turn:

- the baseline: ``tasks.move.apply_async`` (a producer from Celery's pool, the queue declared);
- Celery's send without the declaration (``declare=[]``);
- ``Publisher.send``: a producer kept between sends, nothing declared.

Prints the CPU microseconds per send (``time.process_time``) and the ratio of each to the
baseline of the same round. The queue is emptied between variants.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(send: Callable[[], Any], n: int) -> float:
    """CPU microseconds per call of ``send`` over ``n`` calls (after 100 untimed ones)."""
    for _ in range(100):
        send()
    t0 = time.process_time()
    for _ in range(n):
        send()
    return (time.process_time() - t0) / n * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=3000, help="timed sends per variant and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    from workers.embedded import EmbeddedServer

    server = EmbeddedServer(Path(tempfile.mkdtemp(prefix="agora-bench-publish-")), persist=False).start()
    try:
        from workers import redisconn, tasks
        from workers.celery_app import MOVE_QUEUE, app
        from workers.publisher import Publisher
        from workers.store import Store

        redisconn.configure_celery(app, server.url)
        store = Store.from_url(server.url)
        publisher = Publisher(app, app.conf.broker_url)
        move = ["g1", "console:alice", "rondel templum", "c0123456789abcdef"]
        reply = {"reply_to": "agora:answers:bench", "rid": "0123456789abcdef"}
        shown = tasks.reprs(move, reply)

        def celery_default() -> Any:
            return tasks.move.apply_async(args=move, kwargs=reply, ignore_result=True, **shown)

        def celery_undeclared() -> Any:
            return tasks.move.apply_async(args=move, kwargs=reply, ignore_result=True, declare=[], **shown)

        def kept() -> Any:
            return publisher.send(tasks.move, args=move, kwargs=reply, ignore_result=True, **shown)

        print(f"{args.sends} sends per variant, {args.rounds} rounds; CPU per send (one thread, Valkey on 127.0.0.1)")
        for rnd in range(1, args.rounds + 1):
            figures = []
            for label, send in (("Celery apply_async", celery_default), ("  without declaring", celery_undeclared),
                                ("Publisher.send", kept)):
                figures.append((label, timed(send, args.sends)))
                store.r.delete(MOVE_QUEUE)
            base = figures[0][1]
            shown_figures = ";  ".join(f"{label.strip()} {us:.0f} us ({us / base:.2f})" for label, us in figures)
            print(f"round {rnd}: {shown_figures}")
        publisher.close()
        store.r.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
