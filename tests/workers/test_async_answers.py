"""Moves awaited on an event loop hold no thread while they wait (issue 12).

Why a count and not a time: with a pool of 2 threads, 24 moves are sent while no worker runs
yet; all 24 must sit in the broker's queue at once (each waiting for its answer without a
thread), and a read-only command must still get through the same 2-thread pool meanwhile.
Had a wait held a thread, at most 2 moves could ever be pending.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.conftest import Worker
from tests.workers.util import assert_replays, make_game
from workers.client import Client, Context
from workers.store import Store

MOVES = 24
POOL = 2


async def test_pending_moves_beyond_the_pool_do_not_queue_for_a_thread(redis_url: str, store: Store) -> None:
    games = [make_game(store, chat=f"async-{i}") for i in range(MOVES)]
    client = Client(redis_url, move_timeout=60)
    pool = ThreadPoolExecutor(POOL, thread_name_prefix="test-async")
    loop = asyncio.get_running_loop()

    async def run(fn: Any, *args: Any) -> Any:
        return await loop.run_in_executor(pool, lambda: fn(*args))

    def alice(i: int) -> Context:
        return Context("console", f"async-{i}", "alice", "alice", idem=f"async:{i}")

    worker: Worker | None = None
    try:
        moves = [asyncio.create_task(client.command_async(alice(i), "move add 2", run)) for i in range(MOVES)]
        queued = 0
        for _ in range(600):  # every move reaches the queue (bounded wait, no worker yet)
            queued = int(store.r.llen("celery"))
            if queued >= MOVES:
                break
            await asyncio.sleep(0.05)
        assert queued == MOVES, f"only {queued} of {MOVES} moves were sent: waits hold the pool's threads"
        assert not any(m.done() for m in moves)
        # A read-only command goes through the same pool while every move is pending.
        status = await client.command_async(alice(0), "status", run)
        assert status and status[0].ok, status

        worker = Worker(redis_url, name="async").start()
        replies = await asyncio.wait_for(asyncio.gather(*moves), 60)
        for reply in replies:
            assert reply[0].ok, reply
        for gid in games:
            version, log = assert_replays(store, gid)
            assert version == 2 and len(log) == 1
        # A move answered before its second copy arrives: the copy gets the stored answer.
        again = await client.command_async(alice(0), "move add 2", run)
        assert again[0].ok, again
        assert assert_replays(store, games[0])[0] == 2
    finally:
        await client.answers.aclose()
        if worker is not None:
            worker.stop()
        pool.shutdown(wait=True)
        client.close()
