"""What a move costs in Redis round trips, counted against a real server (issue 12).

Why count, not time: a time depends on the machine; the round trips a move needs are a
property of the code. Every request this process sends to Redis is counted (a pipeline or a
script is one round trip): the adapter's command (rate limit, user, game, reads), the broker
(publish, fetch, the late acknowledgement), the worker's load and commit, the answer to the
waiting adapter and the follow-up tasks a move starts, including the drawing of a posted
turn's board that the move queues for a render worker (its fetch, claim, snapshot read, store
and acknowledgement). The Celery worker runs in this process (``celery.contrib.testing``, solo
pool, consuming the move and the render queue) so its requests are counted too; its idle
polling counts as well, so the figure is an upper bound. Target: at most 20 round trips per
move.
"""

from __future__ import annotations

import asyncio
import collections
import threading
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis.asyncio.connection
import redis.connection

from tests.workers.util import make_game
from workers.client import Client, Context
from workers.store import Store

TARGET = 20
MOVES = 30


class Counter:
    """Counts round trips (requests sent) and the commands inside them, per command name."""

    def __init__(self) -> None:
        self.on = False
        self.trips = 0
        self.commands: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()

    def seen(self, packed: Any) -> None:
        if not self.on:
            return
        data = packed if isinstance(packed, (bytes, bytearray)) else b"".join(bytes(c) for c in packed)
        with self.lock:
            self.trips += 1
            for name in _names(bytes(data)):
                self.commands[name] += 1


def _names(data: bytes) -> list[str]:
    """The command names in a RESP request (one or several: a pipeline)."""
    out, i = [], 0
    while i < len(data):
        j = data.index(b"\r\n", i)
        n, i = int(data[i + 1 : j]), j + 2
        args = []
        for _ in range(n):
            j = data.index(b"\r\n", i)
            size, i = int(data[i + 1 : j]), j + 2
            args.append(data[i : i + size])
            i += size + 2
        out.append(args[0].decode().upper())
    return out


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter]:
    c = Counter()
    sync_send = redis.connection.AbstractConnection.send_packed_command
    async_send = redis.asyncio.connection.AbstractConnection.send_packed_command

    def send(self: Any, command: Any, check_health: bool = True) -> None:
        c.seen(command)
        sync_send(self, command, check_health)

    async def asend(self: Any, command: Any, check_health: bool = True) -> None:
        c.seen(command)
        await async_send(self, command, check_health)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", send)
    monkeypatch.setattr(redis.asyncio.connection.AbstractConnection, "send_packed_command", asend)
    yield c


@pytest.mark.parametrize("game", ["duellum", "seven-wonders"])
async def test_a_move_costs_at_most_twenty_round_trips(
    game: str, redis_url: str, store: Store, app: Any, counter: Counter
) -> None:
    from celery.contrib.testing.worker import start_worker

    from workers import pipeline

    users = ["telegram:11", "telegram:12", "telegram:13"]
    gid = make_game(store, game, users=users[: 2 if game == "duellum" else 3], chat="-100cost", platform="telegram")
    client = Client(redis_url, move_timeout=30)
    pool = ThreadPoolExecutor(4)
    loop = asyncio.get_running_loop()

    async def run(fn: Any, *args: Any) -> Any:
        return await loop.run_in_executor(pool, lambda: fn(*args))

    async def one_move(i: int) -> None:
        counter.on = False  # choosing the move is the simulated player's business
        loaded = pipeline.load(store, gid)
        seat = sorted(loaded.game.to_move(loaded.state))[0]
        seed = zlib.crc32(f"{gid}:{loaded.version}".encode())
        text = loaded.game.notation(loaded.state, seat, loaded.game.auto_action(loaded.state, seat, seed))
        user = loaded.seats[seat].split(":")[1]
        ctx = Context("telegram", "-100cost", user, f"player{user}", idem=f"cost:{i}")
        counter.on = i >= 3  # the first moves warm up connections and scripts
        reply = await client.command_async(ctx, f"move {text}", run)
        assert reply and reply[0].ok, (text, reply)

    try:
        # Both queues: the boards the moves queue for a render worker are drawn here too, so
        # their round trips (fetch, claim, snapshot, store, acknowledge) are counted as well.
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=["celery", "render"]):
            for i in range(MOVES + 3):
                await one_move(i)
            counter.on = True
            await asyncio.sleep(0.5)  # the follow-up tasks of the last moves
            counter.on = False
    finally:
        await client.answers.aclose()
        pool.shutdown(wait=True)
        client.close()
    per_move = counter.trips / MOVES
    top = ", ".join(f"{k} {v / MOVES:.1f}" for k, v in counter.commands.most_common(12))
    print(f"{game}: {per_move:.1f} round trips per move ({sum(counter.commands.values()) / MOVES:.1f} commands): {top}")
    assert per_move <= TARGET, f"{per_move:.1f} round trips per move (target {TARGET}); {top}"


DELIVERY_TRIPS = 7


def test_a_turn_post_is_delivered_in_at_most_seven_round_trips(store: Store, redis_url: str, counter: Counter) -> None:
    """The outbox consumer's share, board drawn in its own process (the worst case): is it
    overtaken (1), its record (1), the cached board (1), the drawing's claim (1), the board
    stored (1), the buttons stored (1), then sent and acknowledged (1) and its snapshot let
    go (1) - eight, or seven without buttons.

    Why counted: a Duellum post took 13 round trips while the board and its (absent) pages
    each read the meta and names the post's record had just read (issue 12)."""
    from workers import outbox, pipeline

    gid = make_game(store, "duellum", users=["telegram:21", "telegram:22"], chat="-100post", platform="telegram")
    client = Client(redis_url)

    def next_turn_post() -> outbox.Envelope:
        """Moves of the automatic player until the game posts a turn; that post."""
        for i in range(50):
            loaded = pipeline.load(store, gid)
            game, state = loaded.game, loaded.state
            seat = sorted(game.to_move(state))[0]
            text = game.notation(state, seat, game.auto_action(state, seat, i))
            assert pipeline.submit(store, gid, text=text, idem=f"t{loaded.version}", user=loaded.seats[seat]).ok
            found = [e for e in outbox.fetch(store, "telegram", "cost", count=50, block_ms=10)]
            for env in found:
                if env.message.get("type") == "turn":
                    return env
                client.mark_sent(env, ack="telegram")
        raise AssertionError("no turn post in 50 moves")

    try:
        for env in outbox.fetch(store, "telegram", "cost", count=50, block_ms=10):  # the start's
            client.mark_sent(env, ack="telegram")
        first = next_turn_post()  # warms the connections and the scripts up
        client.render(first)
        client.mark_sent(first, ack="telegram")
        post = next_turn_post()
        counter.on = True
        part = client.render(post)
        client.mark_sent(post, ack="telegram")
        counter.on = False
    finally:
        client.close()
    assert part is not None and part.image is not None and part.pages == []
    allowed = DELIVERY_TRIPS + (1 if part.buttons else 0)
    top = ", ".join(f"{k} {v}" for k, v in counter.commands.most_common(12))
    assert counter.trips <= allowed, f"{counter.trips} round trips (at most {allowed}); {top}"
