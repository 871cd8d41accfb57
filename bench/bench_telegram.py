"""Telegram adapter latency: a move's update in -> its board photo out, at a fake Bot API.

Run: ``.venv/bin/python bench/bench_telegram.py [--moves 200] [--duellum 150]``

What runs: an embedded Valkey, ONE Celery worker subprocess (solo pool), the fake Bot API
(tests/bots/telegram/fake_api.py) on 127.0.0.1, and the bot (python-telegram-bot's real
long-polling loop plus the outbox delivery) in this process. Moves are sent one at a time
as typed ``/move`` updates; the time is taken from the moment the update is queued at the
fake until the fake receives the ``sendPhoto`` of the board that move produced (or, for a
Duellum move that does not end the turn, the reaction acknowledging it).

Toy moves: the tests' toy game with the renderer's generic status card as its board.
Duellum moves: a real Antike Duellum game (engine's automatic player choosing the moves),
real board renders (~300 KB PNG). Target: p99 under 1 s. Every process started here is
stopped by its PID.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The simulated players move at machine speed: the per-person command limits and Telegram's
# per-group pacing would measure the limits, not the adapter.
os.environ.setdefault("AGORA_RATE_USER", "off")
os.environ.setdefault("AGORA_RATE_CHAT", "off")
os.environ.setdefault("TELEGRAM_GROUP_RATE", "100000/60")
os.environ.setdefault("TELEGRAM_OVERALL_RATE", "100000/1")
sys.path.insert(0, str(ROOT))
PLUGINS = "tests.support.toy,tests.bots.telegram.toy_render"
os.environ["AGORA_PLUGINS"] = PLUGINS


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def summary(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"{name:<34} n={len(ms):<4} p50={statistics.median(ms):7.1f} ms  p95={pct(ms, 95):7.1f} ms  "
        f"p99={pct(ms, 99):7.1f} ms  max={max(ms):7.1f} ms"
    )


class Bench:
    def __init__(self, redis_url: str) -> None:
        from tests.bots.telegram.fake_api import FakeBotApi, FakeUser

        self.redis_url = redis_url
        self.fake = FakeBotApi()
        self.alice = FakeUser(1001, "Alice")
        self.bob = FakeUser(1002, "Bob")
        self.app: Any = None
        self.client: Any = None

    async def start(self) -> None:
        import tests.bots.telegram.toy_render  # noqa: F401 - the toy's board image
        from bots.telegram.app import build_application, start
        from tests.bots.telegram.fake_api import TOKEN
        from workers.client import Client

        await self.fake.start()
        self.client = Client(self.redis_url, move_timeout=30)
        self.app = build_application(self.client, TOKEN, self.fake.base_url)
        await start(self.app, poll_timeout=10)

    async def stop(self) -> None:
        from bots.telegram.app import stop

        await stop(self.app)
        await self.fake.stop()
        self.client.close()

    async def handled(self, uid: int) -> None:
        await self.fake.wait(lambda: self.client.kv_get("tg-update", str(uid)), 30, f"update {uid}")

    async def table(self, game: str, begin: str = "/begin") -> None:
        """A fresh table in the group: new, join, begin; waits for its first board."""
        for user, text in ((self.alice, f"/new {game}"), (self.bob, "/join"), (self.alice, begin)):
            await self.handled(self.fake.push_message(user, text))
        await self.fake.wait(lambda: self.gid() and self.version() >= 1, 30, "begin")
        await self.fake.wait(lambda: self.boards() >= self.posted(), 30, "first board")

    def gid(self) -> str:
        return str(self.client.chat_game("telegram", str(self.fake.group_id)) or "")

    def version(self) -> int:
        return int(self.client.store.meta(self.gid()).get("version", 0))

    def posted(self) -> int:
        return int(self.client.store.meta(self.gid()).get("posted_v", 0))

    def boards(self) -> int:
        return sum(1 for m in self.fake.photos(self.fake.group_id) if m.reply_to is None)

    async def move(self, user: Any, text: str) -> tuple[float, bool]:
        """(seconds from update in to the board photo or reaction out, made a board)."""
        boards, version = self.boards(), self.version()
        uid = self.fake.push_message(user, f"/move {text}")
        await self.fake.wait(lambda: self.version() > version, 30, f"move {text}")
        if self.posted() == self.version():
            await self.fake.wait(lambda: self.boards() > boards, 30, "board photo")
            photo = [m for m in self.fake.photos(self.fake.group_id) if m.reply_to is None][-1]
            return photo.at - self.fake.pushed_at[uid], True
        await self.fake.wait(lambda: self.fake.reactions_to(uid), 30, "reaction")
        react = [c for c in self.fake.method_calls("setMessageReaction")][-1]
        return react.at - self.fake.pushed_at[uid], False


async def run_bench(redis_url: str, toy_moves: int, duellum_moves: int) -> list[str]:
    bench = Bench(redis_url)
    await bench.start()
    lines = []
    try:
        # warm-up: the worker's first task imports everything
        await bench.table("toy")
        await bench.move(bench.alice, "add 1")
        await bench.handled(bench.fake.push_message(bench.bob, "/resign"))

        toy: list[float] = []
        while len(toy) < toy_moves:
            await bench.table("toy")
            players = [bench.alice, bench.bob]
            for i in range(20):  # 20 x "add 1" stays below 21: the table stays open
                seconds, _ = await bench.move(players[i % 2], "add 1")
                toy.append(seconds)
                if len(toy) >= toy_moves:
                    break
            await bench.handled(bench.fake.push_message(bench.alice, "/resign"))
        lines.append(summary("toy move -> board photo", toy))

        if duellum_moves:
            try:
                from engine import find_game

                find_game("duellum")
            except Exception as exc:  # the engine is optional for this benchmark
                lines.append(f"duellum: skipped ({exc})")
                return lines
            from tests.bots.telegram.playbook import plan_duellum

            seed, moves, _ = plan_duellum()
            await bench.table("duellum", f"/begin seed={seed}")
            with_board: list[float] = []
            without: list[float] = []
            users = {0: bench.alice, 1: bench.bob}
            for seat, text in moves[:duellum_moves]:
                seconds, board = await bench.move(users[seat], text)
                (with_board if board else without).append(seconds)
            lines.append(summary("duellum move -> board photo", with_board))
            if without:
                lines.append(summary("duellum move (same turn) -> reaction", without))
    finally:
        await bench.stop()
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="toy moves to time")
    parser.add_argument("--duellum", type=int, default=150, help="Antike Duellum moves to time (0: none)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    from workers.embedded import EmbeddedServer
    from workers.local import worker_command

    with tempfile.TemporaryDirectory(prefix="agora-bench-tg-") as tmp:
        server = EmbeddedServer(Path(tmp) / "valkey", persist=False).start()
        env = dict(os.environ, REDIS_URL=server.url, AGORA_PLUGINS=PLUGINS, PYTHONPATH=str(ROOT))
        worker = subprocess.Popen(
            worker_command(beat=False, data_dir=Path(tmp), name="bench-tg"),
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            started = time.perf_counter()
            lines = asyncio.run(run_bench(server.url, args.moves, args.duellum))
            wall = time.perf_counter() - started
        finally:
            worker.terminate()
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait(5)
            server.stop()
    print(f"Telegram adapter: update in -> reply out at the fake Bot API; one solo worker; {os.cpu_count()} cores")
    for line in lines:
        print(line)
    print(f"wall time {wall:.1f} s; target: p99 < 1000 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
