"""Discord adapter latency: interaction in -> acknowledgement, and interaction in -> the board
image at the fake API, for Antike Duellum and 7 Wonders; the same moves' round trip on
Telegram measured in the same run gives the ratio.

Run: ``.venv/bin/python bench/bench_discord.py [--duellum 120] [--wonders 2]``

What runs: an embedded Valkey, ONE Celery worker subprocess (solo pool), the fake Discord
(tests/bots/discord/fake_discord.py) and the fake Telegram Bot API on 127.0.0.1, and both bots
(discord.py's real gateway client, python-telegram-bot's real polling loop, both outbox
deliveries) in this process. Moves are sent one at a time as ``/agora move`` interactions
(Discord) or typed ``/move`` updates (Telegram) — the same deal (seed) and the same moves on
both platforms. Times are taken at the fakes: from the moment the interaction is pushed on the
gateway to the interaction callback (acknowledgement), and to the turn's board message with
its image; on Telegram from the update being queued to the board photo. Targets:
acknowledgement p99 < 500 ms, board p99 < 1 s. Every process started here is stopped by its PID.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
    if not values:
        return f"{name:<44} n=0"
    ms = [v * 1000 for v in values]
    return (
        f"{name:<44} n={len(ms):<4} p50={statistics.median(ms):7.1f} ms  p95={pct(ms, 95):7.1f} ms  "
        f"p99={pct(ms, 99):7.1f} ms  max={max(ms):7.1f} ms"
    )


def state_of(client: Any, gid: str) -> tuple[Any, Any, int]:
    from engine import find_game

    game = find_game(client.store.meta(gid)["game"])
    version, snap = client.store.snapshot(gid)
    return game, game.load(json.loads(snap)), version


def next_moves(client: Any, gid: str) -> list[tuple[int, str]]:
    """The automatic player's move for every awaited seat now (deterministic per version)."""
    from tests.bots.telegram.playbook import auto_notation

    game, state, version = state_of(client, gid)
    return [(s, auto_notation(game, state, s, f"{version}:{s}")) for s in sorted(game.to_move(state))]


async def wait(cond: Any, timeout: float = 30.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.002)


class DiscordSide:
    def __init__(self, redis_url: str) -> None:
        from tests.bots.discord.fake_discord import FakeDiscord, FakeUser

        self.redis_url = redis_url
        self.fake = FakeDiscord()
        self.users = [FakeUser(f"12000000000000000{i:02d}", n) for i, n in enumerate(("Ann", "Ben", "Cid", "Dee"))]
        self.bot: Any = None
        self.client: Any = None

    async def start(self) -> None:
        from bots.discord.app import build_bot, configure_endpoints, start
        from tests.bots.discord.fake_discord import TOKEN
        from workers.client import Client

        await self.fake.start()
        configure_endpoints(self.fake.api_base, self.fake.gateway_url)
        self.client = Client(self.redis_url, move_timeout=30)
        self.bot = build_bot(self.client, fast_ready=True)
        await start(self.bot, TOKEN)

    async def stop(self) -> None:
        from bots.discord.app import stop

        await stop(self.bot)
        await self.fake.stop()
        self.client.close()

    async def table(self, game: str, players: int, seed: int) -> str:
        from tests.bots.discord.fake_discord import CHANNEL

        await self.fake.done(await self.fake.slash(self.users[0], "new", game=game))
        for u in self.users[1:players]:
            await self.fake.done(await self.fake.slash(u, "join"))
        await self.fake.done(await self.fake.slash(self.users[0], "begin", options=f"seed={seed}"))
        gid = str(self.client.chat_game("discord", CHANNEL))
        await wait(lambda: len(self.fake.boards()) >= 1, 30, "first board")
        return gid

    async def move(self, gid: str, seat: int, text: str) -> tuple[float, float | None]:
        """(acknowledgement s, board s or None when the move posts no board)."""
        boards = len(self.fake.boards())
        v = int(self.client.store.meta(gid)["version"])
        inter = await self.fake.slash(self.users[seat], "move", text=text)
        await wait(lambda: int(self.client.store.meta(gid)["version"]) > v, 30, "the move")
        await self.fake.done(inter)
        meta = self.client.store.meta(gid)
        if int(meta.get("posted_v", 0)) != int(meta["version"]):
            return inter.ack_seconds or 0.0, None
        board = (await wait(lambda: self.fake.boards()[boards:], 30, "board"))[0]
        return inter.ack_seconds or 0.0, board.at - inter.pushed

    async def resign(self, players: int) -> None:
        """Everyone resigns (with more than two seats one resignation hands the seat to an
        automatic player; the last human's ends the game), so the channel is free again."""
        from tests.bots.discord.fake_discord import CHANNEL

        gid = str(self.client.chat_game("discord", CHANNEL))
        for _ in range(10):  # a resignation can race an automatic player's move: try again
            for u in self.users[:players]:
                await self.fake.done(await self.fake.slash(u, "resign"))
            if self.client.game_status(gid) == "over":
                return


class TelegramSide:
    def __init__(self, redis_url: str) -> None:
        from tests.bots.telegram.fake_api import FakeBotApi, FakeUser

        self.redis_url = redis_url
        self.fake = FakeBotApi()
        self.users = [FakeUser(1001 + i, n) for i, n in enumerate(("Ann", "Ben", "Cid", "Dee"))]
        self.app: Any = None
        self.client: Any = None

    async def start(self) -> None:
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
        await wait(lambda: self.client.kv_get("tg-update", str(uid)), 30, f"update {uid}")

    def photos(self) -> list[Any]:
        return [m for m in self.fake.photos(self.fake.group_id) if m.reply_to is None]

    async def table(self, game: str, players: int, seed: int) -> str:
        for u in self.users[:players]:
            await self.handled(self.fake.push_message(u, "/start", private=True))
        await self.handled(self.fake.push_message(self.users[0], f"/new {game}"))
        for u in self.users[1:players]:
            await self.handled(self.fake.push_message(u, "/join"))
        await self.handled(self.fake.push_message(self.users[0], f"/begin seed={seed}"))
        await wait(lambda: len(self.photos()) >= 1, 30, "first photo")
        return str(self.client.chat_game("telegram", str(self.fake.group_id)))

    async def move(self, gid: str, seat: int, text: str, private: bool) -> float | None:
        photos = len(self.photos())
        v = int(self.client.store.meta(gid)["version"])
        uid = self.fake.push_message(self.users[seat], f"/move {text}", private=private)
        await wait(lambda: int(self.client.store.meta(gid)["version"]) > v, 30, "the move")
        await self.handled(uid)
        meta = self.client.store.meta(gid)
        if int(meta.get("posted_v", 0)) != int(meta["version"]):
            return None
        photo = (await wait(lambda: self.photos()[photos:], 30, "photo"))[0]
        return photo.at - self.fake.pushed_at[uid]

    async def resign(self, players: int) -> None:
        gid = str(self.client.chat_game("telegram", str(self.fake.group_id)))
        for _ in range(10):
            for u in self.users[:players]:
                await self.handled(self.fake.push_message(u, "/resign"))
            if self.client.game_status(gid) == "over":
                return


done_games: set[str] = set()


async def play(dc: DiscordSide, tg: TelegramSide, game: str, players: int, seed: int, limit: int,
               out: dict[str, list[float]], *, stop_at_age: int | None = None) -> None:
    """The same game on both platforms: Discord first, then Telegram with the same moves."""
    gid = await dc.table(game, players, seed)
    assert dc.client.game_status(gid) == "active" and gid not in done_games, "a fresh table"
    done_games.add(gid)
    played: list[tuple[int, str]] = []
    while len(played) < limit and dc.client.game_status(gid) == "active":
        if stop_at_age is not None:
            g, st, _ = state_of(dc.client, gid)
            if g.view(st, None).get("age", 1) >= stop_at_age:
                break
        for seat, text in next_moves(dc.client, gid):
            ack, board = await dc.move(gid, seat, text)
            played.append((seat, text))
            out[f"{game} discord ack"].append(ack)
            if board is not None:
                out[f"{game} discord board"].append(board)
    await dc.resign(players)
    tgid = await tg.table(game, players, seed)
    hidden = game != "duellum"
    for seat, text in played:
        board = await tg.move(tgid, seat, text, private=hidden)
        if board is not None:
            out[f"{game} telegram board"].append(board)
    await tg.resign(players)


async def run_bench(redis_url: str, duellum: int, wonders: int) -> list[str]:
    from tests.bots.telegram.playbook import plan_duellum

    dc, tg = DiscordSide(redis_url), TelegramSide(redis_url)
    await dc.start()
    await tg.start()
    out: dict[str, list[float]] = {k: [] for k in (
        "duellum discord ack", "duellum discord board", "duellum telegram board",
        "seven-wonders discord ack", "seven-wonders discord board", "seven-wonders telegram board")}
    try:
        seed, _, _ = plan_duellum()
        await play(dc, tg, "duellum", 2, seed, duellum, out)
        for i in range(wonders):
            await play(dc, tg, "seven-wonders", 4, 1000 + i, 10_000, out, stop_at_age=2)
    finally:
        await tg.stop()
        await dc.stop()
    lines = [summary(k, v) for k, v in out.items()]
    for g in ("duellum", "seven-wonders"):
        d, t = out[f"{g} discord board"], out[f"{g} telegram board"]
        if d and t:
            lines.append(f"{g}: Discord board p50 / Telegram board p50 = "
                         f"{statistics.median(d) / statistics.median(t):.2f}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duellum", type=int, default=120, help="Antike Duellum moves to time")
    parser.add_argument("--wonders", type=int, default=2, help="7 Wonders games (first age, 4 players) to time")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)

    from workers.embedded import EmbeddedServer
    from workers.local import worker_command

    with tempfile.TemporaryDirectory(prefix="agora-bench-dc-") as tmp:
        server = EmbeddedServer(Path(tmp) / "valkey", persist=False).start()
        env = dict(os.environ, REDIS_URL=server.url, AGORA_PLUGINS=PLUGINS, PYTHONPATH=str(ROOT))
        worker = subprocess.Popen(
            worker_command(beat=False, data_dir=Path(tmp), name="bench-dc"),
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            started = time.perf_counter()
            lines = asyncio.run(run_bench(server.url, args.duellum, args.wonders))
            wall = time.perf_counter() - started
        finally:
            worker.terminate()
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait(5)
            server.stop()
    print(f"Discord adapter at the fake Discord API vs Telegram at the fake Bot API; one solo worker; "
          f"{os.cpu_count()} cores")
    for line in lines:
        print(line)
    print(f"wall time {wall:.1f} s; targets: acknowledgement p99 < 500 ms, board p99 < 1000 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
