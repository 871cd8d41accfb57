"""The processes a load run of bench/bench_load.py starts, and what they cost.

Why a module of its own: the benchmark's tables and report are one topic, the services it runs
(two move workers, a render worker and a beat as ``agora worker --concurrency 2 --beat`` starts
them, and an outbox consumer doing what the Telegram delivery does) and the reading of their
CPU, round trips and Redis counters another. Every process is stopped by its PID.

Run as ``python -m bench.load_services <out>`` it is the outbox consumer child (see
:func:`deliver`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
POOL = 32  # the adapters' thread pool, and the outbox consumer's
NOOPS = 2000
NO_IMAGES = "bench.load_noimages"
COUNT = "bench.load_count"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop_pid(proc: subprocess.Popen[bytes], grace: float = 15.0) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds; always reaped."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


# ----------------------------------------------------------------------------- outbox consumer
def deliver(out_path: str) -> int:
    """The outbox consumer (a child process): the Telegram delivery's steps with a recording
    sender; writes ``game version time image_bytes`` for every turn post it built."""
    from workers.celery_app import load_plugins
    from workers.client import Client

    load_plugins()
    client = Client(os.environ["REDIS_URL"])
    stop = False

    def on_term(*_: Any) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    pool = ThreadPoolExecutor(POOL, thread_name_prefix="deliver")
    lines: list[str] = []

    def one(env: Any, sent: set[str]) -> None:
        if env.key in sent:
            client.ack("telegram", env)
            return
        part = client.render(env)  # raises: left pending, fetched again
        if part is not None and not client.claim(env, "delivery"):
            part = None
        m = env.message
        if m.get("type") == "turn" and part is not None:
            size = len(part.image) if part.image else 0
            lines.append(f"{m.get('game')} {m.get('version')} {time.time():.4f} {size}")
        elif m.get("type") == "turn" and client.merged(env):  # its lines go out with a newer post
            lines.append(f"{m.get('game')} {m.get('version')} {time.time():.4f} -1")
        client.mark_sent(env, ack="telegram")

    while not stop:
        try:
            envelopes = client.fetch("telegram", "bench", block_ms=200, count=50)
        except Exception:
            time.sleep(0.1)
            continue
        # Messages of one chat in order, chats side by side (the delivery's lanes); what was
        # sent already and where each goes, once per batch (as the Telegram delivery does).
        try:
            sent = client.sent_keys(envelopes)
            routes = client.destinations(envelopes)
        except Exception:
            time.sleep(0.1)
            continue
        lanes: dict[str, list[Any]] = {}
        for env, route in zip(envelopes, routes, strict=True):
            lanes.setdefault(route[0] if route else f"home:{env.message.get('game')}", []).append(env)

        def lane(items: list[Any], sent: set[str] = sent) -> None:
            for env in items:
                try:
                    one(env, sent)
                except Exception:
                    return

        list(pool.map(lane, lanes.values()))
    Path(out_path).write_text("\n".join(lines))
    pool.shutdown()
    return 0


# ----------------------------------------------------------------------------- the services
class Services:
    """Two move workers, a render worker and a beat as ``agora worker --concurrency 2 --beat``
    starts them, and the outbox consumer; all stopped by PID."""

    def __init__(self, url: str, tmp: Path, *, images: bool, boards: str = "render", nice: int | None = None) -> None:
        from workers.embedded import _die_with_parent
        from workers.local import RENDER_NICE, _niced, beat_command, move_command, render_command

        self.counts = tmp / f"counts-{time.time():.0f}-{images}"
        self.counts.mkdir()
        self.env = dict(os.environ, REDIS_URL=url, PYTHONPATH=str(ROOT), AGORA_REBUILD_ON_START="0")
        self.env["AGORA_PLUGINS"] = COUNT if images else f"{COUNT},{NO_IMAGES}"
        if boards == "delivery":
            self.env["AGORA_PLUGINS"] += ",bench.load_nodraw"
        self.env["AGORA_RENDER_WORKERS"] = "1" if boards == "render" else "0"
        self.env["AGORA_BENCH_COUNT_DIR"] = str(self.counts)
        self.out = tmp / f"boards-{'img' if images else 'noimg'}-{time.time():.0f}.txt"
        self.log = open(tmp / "services.log", "ab")  # noqa: SIM115 - closed in stop()
        kw: dict[str, Any] = {"env": self.env, "cwd": ROOT, "stdout": self.log, "stderr": subprocess.STDOUT}
        kw["preexec_fn"] = _die_with_parent
        self.workers = [subprocess.Popen(move_command(tmp, f"agora{i}"), **kw) for i in range(2)]
        niced = _niced(RENDER_NICE if nice is None else nice)
        self.render = (subprocess.Popen(render_command(tmp), **{**kw, "preexec_fn": niced})
                       if boards == "render" else None)
        self.beat = subprocess.Popen(beat_command(tmp), **kw)
        self.consumer = subprocess.Popen([sys.executable, "-m", "bench.load_services", str(self.out)], **kw)

    def wait_ready(self) -> None:
        from workers import tasks

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if tasks.noop.apply_async(args=[1]).get(timeout=2) == 1:
                    return
            except Exception:
                pass
        raise SystemExit("the workers did not answer within 60 s")

    def trips(self) -> dict[str, Any]:
        """Round trips so far (``move``: this process, the move workers and beat; ``render``: the
        render worker; ``delivery``: the outbox consumer) and the board renders with their
        seconds (``by`` role), from the child processes' count files."""
        from bench.load_count import TRIPS

        out: dict[str, Any] = {"move": TRIPS[0], "delivery": 0, "render": 0, "renders": 0, "seconds": 0.0, "by": {}}
        render_pid = self.render.pid if self.render is not None else -1
        for f in self.counts.iterdir():
            if f.name.startswith("."):
                continue
            with contextlib.suppress(OSError, ValueError):
                n, r, sec = f.read_text().split()
                role = {str(self.consumer.pid): "delivery", str(render_pid): "render"}.get(f.name, "move")
                out[role] += int(n)
                by = {"delivery": "consumer"}.get(role, role)
                out["by"][by] = out["by"].get(by, 0) + int(r)
                out["renders"] += int(r)
                out["seconds"] += float(sec)
        return out

    def other_cpu(self) -> tuple[float, float, float]:
        """CPU seconds so far of (this process: the simulated adapter, the outbox consumer, the
        render worker)."""
        own = os.times()
        drawn = cpu_seconds(self.render.pid) if self.render is not None else 0.0
        return own.user + own.system, cpu_seconds(self.consumer.pid), drawn

    def worker_cpu(self) -> float:
        """CPU seconds so far of the move workers."""
        return sum(cpu_seconds(w.pid) for w in self.workers)

    def boards(self) -> dict[tuple[str, int], tuple[float, int]]:
        """(game, version) -> (time built, image bytes), once the consumer has stopped."""
        out: dict[tuple[str, int], tuple[float, int]] = {}
        if self.out.exists():
            for line in self.out.read_text().splitlines():
                gid, v, t, size = line.split()
                out[(gid, int(v))] = (float(t), int(size))
        return out

    def stop(self) -> None:
        stop_pid(self.consumer)
        for w in self.workers:
            stop_pid(w)
        if self.render is not None:
            stop_pid(self.render)
        stop_pid(self.beat)
        self.log.close()


def noop_rate(store: Any, services: Services) -> tuple[float, float]:
    """No-op tasks (with results) per second drained by the running workers, and the worker
    CPU seconds of one."""
    from workers import tasks

    cpu0 = services.worker_cpu()
    t0 = time.perf_counter()
    results = [tasks.noop.apply_async(args=[i]) for i in range(NOOPS)]
    while store.r.llen("celery") or store.r.hlen("unacked"):
        time.sleep(0.005)
    for r in results[-20:]:
        r.get(timeout=30)
    rate = NOOPS / (time.perf_counter() - t0)
    cpu = (services.worker_cpu() - cpu0) / NOOPS
    for r in results:
        r.forget()
    # Collected now, while the store runs: an AsyncResult collected after the server stopped
    # tries to unsubscribe from it and prints a traceback at exit.
    del results
    gc.collect()
    return rate, cpu


def command_stats(store: Any) -> dict[str, tuple[int, int]]:
    """Per command name (``cmdstat_set`` -> ``set``): (calls, server microseconds) so far, from
    INFO commandstats; the commands run inside scripts are counted under their own names."""
    stats = store.r.info("commandstats")
    return {name.removeprefix("cmdstat_"): (int(v["calls"]), int(v["usec"])) for name, v in stats.items()}


def server_cpu(store: Any) -> float:
    """CPU seconds so far of the Valkey server (its own INFO: user + system)."""
    info = store.r.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def sampler(store: Any, services: Services) -> Any:
    """(Redis commands so far by name, worker CPU seconds so far, round trips, other processes'
    CPU), for the measured window."""
    return lambda: (command_stats(store), services.worker_cpu(), services.trips(),
                    (*services.other_cpu(), server_cpu(store)))


if __name__ == "__main__":
    sys.exit(deliver(sys.argv[1]))
