"""Load benchmark: N concurrent games through the whole stack, against a no-op task's rate.

Run from the repository root (a shared machine: under ``nice``):

    nice -n 10 .venv/bin/python bench/bench_load.py --games 200 [--seconds 30] [--kinds duellum,seven-wonders]

What runs (every process started here is stopped by its PID at the end):

- the embedded Valkey server with AOF (``appendonly yes``, ``appendfsync everysec``: a crash of
  the machine may lose the last second; a crash of any process loses nothing);
- two Celery move worker processes (``-Q celery``), one render worker (``-Q render``, 5 nice
  levels lower) and one beat, with the command lines ``agora worker --concurrency 2 --beat``
  uses (``workers.local.move_command`` / ``render_command`` / ``beat_command``): a posted
  turn's board is claimed by the move worker and drawn by the render worker (``--boards
  move``: by the move worker itself, as before the render queue, ``AGORA_RENDER_WORKERS=0``;
  ``--boards delivery``: by the outbox consumer; ``--render-nice N``: another priority). When
  the render worker falls behind (a claim it did not take within a second), the outbox
  consumer draws the boards for a few seconds (workers/images.py ``RENDER_BEHIND``): the
  "board renders" line says how many each process drew;
- an outbox consumer process doing what the Telegram delivery loop does (fetch, route, build
  every message with its image, claim, mark sent, acknowledge) with a recording sender;
- in this process, N simulated Telegram tables per game kind: each player moves as soon as
  the previous answer arrived, through ``workers.client.Client.command_async`` (the adapters'
  non-blocking path) on one event loop with the adapters' pool of 32 threads. Moves are
  chosen by the game's automatic player; each table mirrors its game locally (the engine is
  deterministic) so choosing a move reads nothing from Redis. By default (``--players
  scripted``) each table's moves are chosen before the measured window, so the players only
  send them while it runs (a person chooses on their own phone, not on the service's cores);
  ``--players live`` chooses each move when the previous answer arrives (same moves, in the
  same order). A finished game is replaced by a new one at the same table.

Printed per game kind, with and without images (workers and consumer restarted with
``bench/load_noimages.py``, which turns the renderer off): moves/s; p50/p99 from the command
to the accepted answer and to the turn's board built by the outbox consumer (a post merged
into a later one counts until that one's board: workers/outbox.py ``MERGE_AFTER``); how long
commands waited for a pool thread; Redis commands per move (server side, INFO commandstats:
includes the commands inside the commit script, the outbox consumer and the beat) and the eight
that took the server longest (calls and server microseconds per move; a script's time includes
its commands, which are counted under their own names too); round
trips and CPU per move of the move workers, the render worker and the outbox consumer; which
process drew the boards; and the ratio of moves/s to the no-op task rate measured in the same run
(2,000 ``agora.noop`` tasks with results, drained by the same two workers, before and after
each phase). Round trips per move are counted exactly by tests/workers/test_move_cost.py.

Paced players, e.g. the issue's 200 tables of Antike Duellum:

    nice -n 10 .venv/bin/python bench/bench_load.py --games 200 --think 8 --seconds 30 --warmup 10 \
        --kinds duellum --no-images skip [--boards render|move|delivery]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import sys
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.load_services import POOL, Services, noop_rate, sampler  # noqa: E402 - after the path

os.environ.setdefault("AGORA_RATE_USER", "off")  # machine-speed players; limits are tested apart
os.environ.setdefault("AGORA_RATE_CHAT", "off")
os.environ.setdefault("AGORA_LOG_LEVEL", "ERROR")

PLAYERS = {"duellum": 2, "seven-wonders": 3}
_GAMES = itertools.count(1)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of ``values`` (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


# ----------------------------------------------------------------------------- the tables
@dataclass
class Stats:
    answers: list[float] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)
    pool_waits: list[float] = field(default_factory=list)
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)
    moves: int = 0
    refused: int = 0
    games_done: int = 0
    commands: int = 0  # Redis commands (server side) in the measured window
    by_command: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (calls, server us)
    trips: int = 0  # round trips of the adapter, workers and beat in the measured window
    delivery_trips: int = 0  # round trips of the outbox consumer
    render_trips: int = 0  # round trips of the render worker
    renders: int = 0  # board renders (all processes)
    renders_by: dict[str, int] = field(default_factory=dict)  # ... by role: render, consumer, move
    render_cpu: float = 0.0  # CPU seconds of the render worker
    render_seconds: float = 0.0
    adapter_cpu: float = 0.0  # CPU seconds of this process (the simulated adapter and players)
    delivery_cpu: float = 0.0  # CPU seconds of the outbox consumer
    server_cpu: float = 0.0  # CPU seconds of the Valkey server
    cpu: float = 0.0  # worker CPU seconds in the measured window


class Table:
    """One chat with one game at a time, mirrored locally to choose moves without reads.

    With ``ahead`` > 0 (the default, ``--players scripted``) the table's next moves are chosen
    before they are needed, by the same automatic player on the same mirrored game, so while
    the window is measured the players only send them. Why: the simulated players run on the
    same 2 cores as the system they load; a person chooses a move on their own phone, so the
    CPU of choosing (0.2-0.4 ms a move, 3-4% of a move's whole cost) is not the service's. The
    moves and the order they are sent in are exactly those of ``--players live``, which
    chooses each move when its answer arrives, as before."""

    def __init__(self, kind: str, slot: int, ahead: int = 0) -> None:
        self.kind, self.slot, self.gen = kind, slot, 0
        self.ahead = ahead
        self.gid = ""
        self.game: Any = None
        self.state: Any = None  # the game after the last move sent (live) or scripted
        self.version = 0  # the game's version after the last accepted move
        self.seats: dict[int, str] = {}
        self.chat = ""
        self.script: list[tuple[int, str]] = []  # (seat, notation) of the next moves, in order
        self.over = False  # the scripted moves reach the end of the game

    def new_game(self, store: Any) -> None:
        """Create, fill and begin a game (blocking: runs in the pool)."""
        from workers import lobby

        self.gen = next(_GAMES)  # unique in the run: phases reuse the slots
        self.chat = f"-100{self.slot:05d}{self.gen:07d}"
        users = [f"telegram:{self.slot * 10 + i + 1}" for i in range(PLAYERS[self.kind])]
        gid = lobby.create(
            store, self.kind, platform="telegram", chat=self.chat, user=users[0], name="p1", turn_hours=48
        )
        for i, u in enumerate(users[1:], 2):
            lobby.join(store, gid, u, f"p{i}")
        lobby.begin(store, gid, users[0], seed=self.slot * 1000 + self.gen)
        self.reload(store, gid)

    def reload(self, store: Any, gid: str | None = None) -> None:
        from workers import pipeline

        loaded = pipeline.load(store, gid or self.gid)
        self.gid, self.game, self.state = loaded.gid, loaded.game, loaded.state
        self.version, self.seats = loaded.version, loaded.seats
        self.script, self.over = [], False
        if self.ahead:
            self.plan(self.ahead)

    def choose(self, state: Any, version: int) -> tuple[int, Any]:
        """The automatic player's move at ``version`` (the same whenever it is chosen)."""
        game = self.game
        seat = sorted(game.to_move(state))[0]
        return seat, game.auto_action(state, seat, zlib.crc32(f"{self.gid}:{version}".encode()))

    def plan(self, n: int) -> None:
        """Choose up to ``n`` more moves after the scripted ones (blocking)."""
        game = self.game
        for _ in range(n):
            if game.outcome(self.state) is not None:
                self.over = True
                return
            seat, action = self.choose(self.state, self.version + len(self.script))
            self.script.append((seat, game.notation(self.state, seat, action)))
            self.state = game.apply(self.state, seat, action).state

    def finished(self) -> bool:
        if self.ahead:
            return self.over and not self.script
        return self.game.outcome(self.state) is not None


async def play(table: Table, client: Any, run: Any, stats: Stats, start: float, end: float, think: float) -> None:
    """Move as fast as answers come (or ``think`` seconds after each answer, on average)
    until ``end``; counts moves sent from ``start`` on."""
    from workers.client import Context

    rng = random.Random(table.slot)
    if think:
        await asyncio.sleep(rng.uniform(0, think))  # the tables do not all start at once
    while time.time() < end:
        if think:
            pause = rng.expovariate(1 / think)
            if time.time() + pause >= end:
                break
            await asyncio.sleep(pause)
        if not table.gid or table.finished():
            if table.gid:
                stats.games_done += 1
            await run(table.new_game, client.store)
            continue
        if table.ahead:
            if not table.script:
                await run(table.plan, 32)  # ran out of scripted moves (a long run)
                continue
            seat, text = table.script[0]
        else:
            seat, action = table.choose(table.state, table.version)
            text = table.game.notation(table.state, seat, action)
        user = table.seats[seat].split(":")[1]
        ctx = Context("telegram", table.chat, user, f"p{seat + 1}", idem=f"{table.gid}:{table.version}")
        t0 = time.time()
        reply = await client.command_async(ctx, f"move {text}", run)
        t1 = time.time()
        if reply and reply[0].ok:
            if table.ahead:
                table.script.pop(0)
            else:
                table.state = table.game.apply(table.state, seat, action).state
            table.version += 1
            if start <= t0 < end:
                stats.moves += 1
                stats.answers.append(t1 - t0)
                stats.sent_at[(table.gid, table.version)] = t0
        else:
            if start <= t0 < end:
                stats.refused += 1
            await run(table.reload, client.store)


async def load_phase(
    url: str, kind: str, games: int, seconds: float, warmup: float, sample: Any, think: float = 0.0,
    scripted: bool = True,
) -> Stats:
    from workers.client import Client

    client = Client(url, move_timeout=30)
    pool = ThreadPoolExecutor(POOL, thread_name_prefix="adapter")
    loop = asyncio.get_running_loop()
    stats = Stats()
    measuring = [False]

    async def run(fn: Any, *args: Any) -> Any:
        queued = time.perf_counter()

        def job() -> Any:
            if measuring[0]:
                stats.pool_waits.append(time.perf_counter() - queued)
            return fn(*args)

        return await loop.run_in_executor(pool, job)

    # Moves a table makes in the whole phase, with a margin: as fast as answers come, the
    # tables share at most ~300 moves/s (fewer when a player pauses); more are chosen when a
    # table runs out.
    ahead = (int((warmup + seconds) * (360 / games if not think else 1.2 / think)) + 16) if scripted else 0
    tables = [Table(kind, i + (0 if kind == "duellum" else 50_000), ahead) for i in range(games)]
    await asyncio.gather(*(run(t.new_game, client.store) for t in tables))
    start = time.time() + warmup
    end = start + seconds

    async def window() -> None:
        await asyncio.sleep(max(0.0, start - time.time()))
        measuring[0] = True
        c0, cpu0, t0, o0 = await run(sample)
        await asyncio.sleep(max(0.0, end - time.time()))
        c1, cpu1, t1, o1 = await run(sample)
        measuring[0] = False
        stats.by_command = {n: (c1[n][0] - c0.get(n, (0, 0))[0], c1[n][1] - c0.get(n, (0, 0))[1]) for n in c1}
        stats.commands, stats.cpu = sum(calls for calls, _ in stats.by_command.values()), cpu1 - cpu0
        stats.trips, stats.delivery_trips, stats.render_trips = (t1[k] - t0[k] for k in ("move", "delivery", "render"))
        stats.renders, stats.render_seconds = t1["renders"] - t0["renders"], t1["seconds"] - t0["seconds"]
        stats.renders_by = {k: t1["by"].get(k, 0) - t0["by"].get(k, 0) for k in ("render", "consumer", "move")}
        stats.adapter_cpu, stats.delivery_cpu, stats.render_cpu = o1[0] - o0[0], o1[1] - o0[1], o1[2] - o0[2]
        stats.server_cpu = o1[3] - o0[3]

    await asyncio.gather(window(), *(play(t, client, run, stats, start, end, think) for t in tables))
    await client.answers.aclose()
    pool.shutdown(wait=True)
    client.close()
    return stats


def first_boards(boards: dict[tuple[str, int], tuple[float, int]]) -> dict[tuple[str, int], float]:
    """(game, version) of every turn post -> when a board showing it was built: its own, or for
    a post merged into a later one (image size -1), the first board of a newer post after it.

    Why: a merged post's move reaches the chat on the newer post's board; "board built" is
    the time until the player can see their move on a board, whichever post carries it."""
    out: dict[tuple[str, int], float] = {}
    by_game: dict[str, list[tuple[int, float, int]]] = {}
    for (gid, v), (t, size) in boards.items():
        by_game.setdefault(gid, []).append((v, t, size))
    for gid, posts in by_game.items():
        posts.sort()
        later: float | None = None  # the earliest board of a newer post
        for v, t, size in reversed(posts):
            if size >= 0:
                later = t if later is None else min(later, t)
            if later is not None:
                out[(gid, v)] = later
    return out


def top_commands(stats: Stats, n: int = 8) -> list[tuple[str, float, float]]:
    """The ``n`` commands that took the server longest in the window: (name, calls per move,
    server microseconds per move). Why: Valkey's CPU is a fifth of a move's cost; this says
    which commands to cut."""
    moves = max(1, stats.moves)
    ranked = sorted(stats.by_command.items(), key=lambda kv: -kv[1][1])[:n]
    return [(name, calls / moves, us / moves) for name, (calls, us) in ranked if calls]


def report(kind: str, images: bool, stats: Stats, seconds: float, noop: float, noop_cpu: float,
           boards: dict[tuple[str, int], tuple[float, int]]) -> dict[str, Any]:
    shown = first_boards(boards)
    lat = [shown[k] - t0 for k, t0 in stats.sent_at.items() if k in shown]
    sizes = [boards[k][1] for k in stats.sent_at if k in boards and boards[k][1] >= 0]
    merged = sum(1 for k in stats.sent_at if k in boards and boards[k][1] < 0)
    rate = stats.moves / seconds
    row = {
        "kind": kind,
        "images": images,
        "moves": stats.moves,
        "moves_s": rate,
        "answer_p50_ms": pct(stats.answers, 0.5) * 1000,
        "answer_p99_ms": pct(stats.answers, 0.99) * 1000,
        "board_p50_ms": pct(lat, 0.5) * 1000,
        "board_p99_ms": pct(lat, 0.99) * 1000,
        "boards": len(lat),
        "merged": merged,
        "render_ms": stats.render_seconds * 1000 / max(1, stats.renders),
        "board_kib_p50": pct([float(s) for s in sizes], 0.5) / 1024,
        "pool_wait_p99_ms": pct(stats.pool_waits, 0.99) * 1000,
        "refused": stats.refused,
        "games_done": stats.games_done,
        "cmds_per_move": stats.commands / max(1, stats.moves),
        "top_commands": top_commands(stats),
        "trips_per_move": stats.trips / max(1, stats.moves),
        "delivery_trips_per_move": stats.delivery_trips / max(1, stats.moves),
        "render_trips_per_move": stats.render_trips / max(1, stats.moves),
        "renders_by": stats.renders_by,
        "render_cpu_ms_per_move": stats.render_cpu * 1000 / max(1, stats.moves),
        "adapter_cpu_ms_per_move": stats.adapter_cpu * 1000 / max(1, stats.moves),
        "delivery_cpu_ms_per_move": stats.delivery_cpu * 1000 / max(1, stats.moves),
        "server_cpu_ms_per_move": stats.server_cpu * 1000 / max(1, stats.moves),
        "worker_cpu_ms_per_move": stats.cpu * 1000 / max(1, stats.moves),
        "noop_s": noop,
        "noop_cpu_ms": noop_cpu * 1000,
        "ratio": rate / noop if noop else 0.0,
    }
    print(
        f"  {kind:<13} images={'yes' if images else 'no ':<3} {rate:7.1f} moves/s ({stats.moves} moves,"
        f" {stats.refused} refused, {stats.games_done} games finished)\n"
        f"      answer p50 {row['answer_p50_ms']:6.0f} ms  p99 {row['answer_p99_ms']:6.0f} ms;"
        f"  board built p50 {row['board_p50_ms']:6.0f} ms  p99 {row['board_p99_ms']:6.0f} ms"
        f" ({len(lat)} posts, {merged} of them merged into a later one; median {row['board_kib_p50']:.0f} KiB)\n"
        f"      {stats.renders} board renders in the window, {row['render_ms']:.0f} ms (wall) each"
        f" (render worker {stats.renders_by.get('render', 0)}, outbox consumer"
        f" {stats.renders_by.get('consumer', 0)}, move workers {stats.renders_by.get('move', 0)});\n"
        f"      pool wait p99 {row['pool_wait_p99_ms']:.1f} ms;  Redis round trips/move: adapter+move workers"
        f" {row['trips_per_move']:.1f}, render worker {row['render_trips_per_move']:.1f},"
        f" outbox consumer {row['delivery_trips_per_move']:.1f}"
        f" (server commands incl. those inside scripts {row['cmds_per_move']:.0f})\n"
        f"      CPU/move: move workers {row['worker_cpu_ms_per_move']:.1f} ms, render worker"
        f" {row['render_cpu_ms_per_move']:.1f} ms, adapter+players"
        f" {row['adapter_cpu_ms_per_move']:.1f} ms, outbox consumer {row['delivery_cpu_ms_per_move']:.1f} ms,"
        f" Valkey {row['server_cpu_ms_per_move']:.1f} ms;"
        f"  no-op {noop:.0f}/s ({row['noop_cpu_ms']:.1f} ms worker CPU each);  ratio {row['ratio']:.2f}\n"
        f"      Redis commands/move (server us/move): "
        + ", ".join(f"{n} {c:.1f} ({us:.0f})" for n, c, us in row["top_commands"]),
        flush=True,
    )
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games per kind (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds per phase (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--kinds", default="duellum,seven-wonders", help="game kinds (comma-separated)")
    parser.add_argument("--no-images", choices=["also", "skip", "only"], default="also",
                        help="also measure with the renderer off (default), skip it, or only that")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player waits after an answer (default 0: as fast as answers come)")
    parser.add_argument("--players", choices=["scripted", "live"], default="scripted",
                        help="choose the players' moves before the measured window (default) or each when"
                        " its answer arrives (the simulated players' CPU then competes with the service's)")
    parser.add_argument("--boards", choices=["render", "move", "delivery"], default="render",
                        help="who draws a posted turn's board: the render worker (production), the move's"
                        " worker (AGORA_RENDER_WORKERS=0) or the outbox consumer")
    parser.add_argument("--render-nice", type=int, default=None, metavar="N",
                        help="nice levels of the render worker below the move workers (default: as agora serve)")
    parser.add_argument("--json", help="write the figures to this file as JSON")
    args = parser.parse_args()

    import bench.load_count  # noqa: F401 - counts this process's round trips too
    from workers.embedded import EmbeddedServer

    tmp = Path(tempfile.mkdtemp(prefix="agora-load-"))
    server = EmbeddedServer(tmp / "valkey", persist=True).start()  # AOF, appendfsync everysec
    os.environ["REDIS_URL"] = server.url
    rows: list[dict[str, Any]] = []
    services: Services | None = None
    try:
        from workers.celery_app import app
        from workers.store import Store

        app.conf.broker_url = server.url
        app.conf.result_backend = server.url
        store = Store.from_url(server.url)
        cfg = store.r.config_get("append*")
        version = store.r.info("server").get("valkey_version") or store.r.info("server").get("redis_version")
        print(f"Valkey {version} appendonly={cfg.get('appendonly')} appendfsync={cfg.get('appendfsync')};"
              f" {args.games} games per kind, think {args.think:g} s, {args.players} players,"
              f" {args.seconds:g} s measured after {args.warmup:g} s;"
              f" {os.cpu_count()} cpus", flush=True)
        modes = {"also": [True, False], "skip": [True], "only": [False]}[args.no_images]
        for images in modes:
            services = Services(server.url, tmp, images=images, boards=args.boards, nice=args.render_nice)
            services.wait_ready()
            done: list[tuple[str, Stats, float, float]] = []
            for kind in [k.strip() for k in args.kinds.split(",") if k.strip()]:
                before, cpu_before = noop_rate(store, services)
                sample = sampler(store, services)
                stats = asyncio.run(
                    load_phase(server.url, kind, args.games, args.seconds, args.warmup, sample, args.think,
                               scripted=args.players == "scripted")
                )
                time.sleep(2)  # the consumer catches up with the last boards
                after, cpu_after = noop_rate(store, services)
                done.append((kind, stats, (before + after) / 2, (cpu_before + cpu_after) / 2))
            renders = services.trips()["renders"]
            images_kept = sum(1 for _ in store.r.scan_iter("agora:img:*:public", count=1000))
            if images:
                print(f"  renders in this mode: {renders}; board images in Redis: {images_kept}"
                      " (rendered once each when equal)", flush=True)
            services.stop()
            boards = services.boards()
            services = None
            for kind, stats, noop, noop_cpu in done:
                rows.append(report(kind, images, stats, args.seconds, noop, noop_cpu, boards))
        figures = rows
        info = store.r.info("memory")
        print(f"  Redis memory: used {info['used_memory_human']}, peak {info['used_memory_peak_human']}")
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=1))
        store.r.close()
        return 0
    finally:
        if services is not None:
            services.stop()
        _drop_result_subscriptions()
        server.stop()


def _drop_result_subscriptions() -> None:
    """Let go of the no-op tasks' result subscriptions while the server still runs.

    Why: Celery unsubscribes from a result when its AsyncResult is collected, and defers the
    unsubscribe when its pubsub lock is busy; one left over until the interpreter exits, after
    the server stopped, printed a reconnection traceback at the end of a long run."""
    from workers.celery_app import app

    gc.collect()
    consumer = getattr(app.backend, "result_consumer", None)
    if consumer is None or getattr(consumer, "_pubsub", None) is None:
        return
    with contextlib.suppress(Exception):
        consumer._flush_pending_unsubscribe()
    consumer.subscribed_to.clear()  # nothing left to unsubscribe from at exit
    with contextlib.suppress(Exception):
        consumer.stop()


if __name__ == "__main__":
    sys.exit(main())
