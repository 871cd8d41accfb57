"""The fault scenarios, shared by ``tests/faults/test_faults.py`` (small, for CI) and
``bench/bench_faults.py`` (50 and 200 games): load from simulated players, one kind of fault
injected every few seconds, then a drain and the full check of ``tests/faults/check.py``.

Faults (``kind``):
- ``worker``: a worker SIGKILLed (by PID; the supervisor of ``agora worker`` starts it again);
- ``redis``: the server SIGKILLed and started again on its data (AOF, ``appendfsync`` as given);
- ``consumer``: the Telegram delivery loop SIGKILLed mid-delivery and started again;
- ``render``: the render worker SIGKILLed (by PID; restarted by the supervisor): the boards it
  had claimed or queued are drawn by the consumer, none goes out without its image;
- ``none``: the same load without faults (the baseline).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from tests.faults.check import Report, check_games, check_outbox, drain
from tests.faults.players import Players, new_games
from tests.faults.stack import running_stack
from workers.client import Client, Context, Part

KINDS = ("none", "worker", "redis", "consumer", "render")


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
                elif kind == "render":
                    stack.kill_render()
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
                render_restarts=sum(w.restarts for w in stack.renderers()),  # type: ignore[attr-defined]
            )  # fmt: skip
        finally:
            client.close()
    return report


MODES = ("concurrent", "sequential", "broker", "reordered")


def run_duplicates(
    data_dir: Path,
    *,
    games: int = 4,
    game: str = "duellum",
    moves: int = 40,
    copies: int = 3,
    seed: int = 1,
    late: bool = False,
) -> Report:
    """Every move is delivered more than once with the same idempotency key, in turn:

    - ``concurrent``: ``copies`` copies of the command at the same moment (a double tap, a retry);
    - ``sequential``: the command again after its answer;
    - ``broker``: the move task itself published twice at once (a duplicated broker delivery);
    - ``reordered``: an earlier command of the game (within the last few moves) arrives again
      after later moves were applied;
    - ``late`` (only with ``late=True``): a command from 30 moves ago, more than the
      idempotency window (``IDEM_KEPT`` answers per game), typed again as a new request. The
      adapters drop a repeated update id before it gets here (Telegram's and Discord's
      seen-update records); past them, the game's record of committed key hashes answers it
      "applied already" (tests/workers/test_late_retries.py). ``notes["late_answers"]``
      counts the answers by code and ``notes["late_applied_again"]`` the keys applied twice
      that way (also in ``report.twice``).

    Every copy must be answered as the original was (applied); no copy may be applied a second
    time (the log check).
    """
    from concurrent.futures import ThreadPoolExecutor

    from workers import tasks

    report = Report()
    inconsistent: list[str] = []
    late_answers: dict[str, int] = {}
    queued: list[str] = []
    late_keys: set[str] = set()
    with running_stack(data_dir) as stack:
        client = Client(stack.url, move_timeout=20)
        try:
            gids = new_games(client.store, games, game, seed)
            players = Players(client, gids, threads=games)
            history: dict[str, list[tuple[Context, str]]] = {g: [] for g in gids}
            pool = ThreadPoolExecutor(copies * games + 4)

            def answer_ok(reply: list[Part]) -> bool:
                """Applied, or still "queued" (the machine too busy to answer within the
                client's wait: not a contradiction); a refusal or an apology is one."""
                if reply and reply[0].code == "pipeline/queued":
                    queued.append(reply[0].code)
                    return True
                return bool(reply) and reply[0].ok

            def play(gid: str, i: int) -> bool:
                modes = (*MODES, "late") if late else MODES
                mode = modes[i % len(modes)]
                move = players.prepare(gid)
                if move is None:
                    return False
                ctx, seat, text = move
                line = f"move {gid} {text}"
                send = client.command

                def concurrent(c: Context, ln: str) -> list[Part]:
                    replies = list(pool.map(lambda _: client.command(c, ln), range(copies)))
                    if len({answer_ok(r) for r in replies}) > 1:
                        inconsistent.append(f"{gid} {ln}: {[(r[0].code, r[0].text) for r in replies]}")
                    return replies[0]

                def broker(c: Context, ln: str) -> list[Part]:
                    # the same task published several times, as a broker redelivering a message
                    user = client.user_key(c.platform, c.user)
                    handles = [tasks.move.apply_async(args=[gid, user, text, c.idem]) for _ in range(copies)]
                    results = [h.get(timeout=30) for h in handles]
                    if not all(r["ok"] for r in results) or len({r["version"] for r in results}) > 1:
                        inconsistent.append(f"{gid} broker {text}: {results}")
                    return client.command(c, ln)  # and once more through the command layer

                if mode == "concurrent":
                    send = concurrent
                elif mode == "broker":
                    send = broker
                players.submit(gid, ctx, seat, text, send=send)
                if mode == "sequential":
                    again = client.command(ctx, line)
                    if not answer_ok(again):
                        inconsistent.append(f"{gid} sequential {line}: {again[0].code} {again[0].text}")
                past = history[gid]
                if mode == "reordered" and len(past) >= 3:
                    old_ctx, old_line = past[-3]
                    again = client.command(old_ctx, old_line)
                    if not answer_ok(again):
                        inconsistent.append(f"{gid} reordered {old_line}: {again[0].code} {again[0].text}")
                if mode == "late" and len(past) > 30:
                    old_ctx, old_line = past[-30]
                    again = client.command(old_ctx, old_line)
                    code = again[0].code if again else "empty"
                    late_answers[code] = late_answers.get(code, 0) + 1
                    late_keys.add(old_ctx.idem)
                    if not answer_ok(again):
                        inconsistent.append(f"{gid} late {old_line}: {code} {again[0].text if again else ''}")
                past.append((ctx, line))
                return True

            def game_thread(gid: str) -> None:
                for i in range(moves):
                    if not play(gid, i):
                        return

            with ThreadPoolExecutor(games) as runners:
                list(runners.map(game_thread, gids))
            pool.shutdown()
            drained = drain(client, stack.consumer.record, timeout=120)
            check_games(client.store, gids, players.tally, report)
            check_outbox(client, stack.consumer.record, stack.consumer.killed, report)
            report.mismatched += [f"answer: {x}" for x in inconsistent]
            again = [k for k in report.twice if k in late_keys]
            report.notes.update(kind="duplicates", copies=copies, drained=drained, copies_queued=len(queued))
            if late:
                report.notes.update(late_answers=late_answers, late_applied_again=len(again))
        finally:
            client.close()
    return report
