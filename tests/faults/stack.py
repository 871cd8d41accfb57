"""The real stack for the fault scenarios: a Valkey server with AOF, two workers and beat as
``agora worker --concurrency 2 --beat`` starts them, and a Telegram delivery loop with a
recording sender, each a process stopped by its PID.

Why our own server rather than the session's: a scenario kills and restarts it (on the same
port and data directory, so the AOF is replayed), and the zero-loss claim depends on the
``appendfsync`` setting, which each scenario states.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from workers.embedded import _die_with_parent, free_port, server_binary

ROOT = Path(__file__).resolve().parent.parent.parent

# The workers' environment: what the tests of tests/workers use (a short visibility timeout so
# a killed worker's task comes back within seconds, not the production 300 s), no rate limits.
ENV = {
    "AGORA_VISIBILITY_TIMEOUT": "4",
    "AGORA_RATE_USER": "off",
    "AGORA_RATE_CHAT": "off",
    "TELEGRAM_GROUP_RATE": "100000/60",
    "TELEGRAM_OVERALL_RATE": "100000/1",
}


@dataclass
class Valkey:
    """A Valkey server with the append-only file on; ``kill`` is a SIGKILL, ``start`` again
    reloads the data from the AOF on the same port."""

    data_dir: Path
    appendfsync: str = "always"
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None
    kills: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 30.0) -> Valkey:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.port = self.port or free_port()
        args = [str(server_binary()), "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.data_dir),
                "--daemonize", "no", "--protected-mode", "yes", "--logfile", "valkey.log", "--save", "",
                "--appendonly", "yes", "--appendfsync", self.appendfsync]  # fmt: skip
        self.proc = subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # even when this process is SIGKILLed, nothing is left
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:  # PING answers only once the AOF is loaded
            if self.proc.poll() is not None:
                raise RuntimeError(f"valkey exited at start (see {self.data_dir / 'valkey.log'})")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            time.sleep(0.02)
        raise RuntimeError("valkey did not answer in time")

    def kill(self) -> None:
        """SIGKILL by PID (no shutdown save), then reap."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
            self.kills += 1

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Consumer:
    """The Telegram delivery loop in its own process (``tests/faults/consumer.py``) with a
    recording sender; the stable consumer name lets a restarted one re-read what the killed
    one had fetched."""

    redis_url: str
    record: Path
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None
    killed: list[int] = field(default_factory=list)

    def start(self) -> Consumer:
        env = dict(os.environ, **ENV, REDIS_URL=self.redis_url, PYTHONPATH=str(ROOT))
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.faults.consumer", self.redis_url, str(self.record)],
                env=env, cwd=ROOT, stdout=log, stderr=log, start_new_session=True, preexec_fn=_die_with_parent,
            )  # fmt: skip
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            pid = self.proc.pid
            os.kill(pid, signal.SIGKILL)
            self.proc.wait(10)
            self.killed.append(pid)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@dataclass
class Stack:
    server: Valkey
    services: object  # workers.local.Services
    consumer: Consumer
    data_dir: Path

    @property
    def url(self) -> str:
        return self.server.url

    def workers(self) -> list[object]:
        return [c for c in self.services.children if c.name.startswith("worker")]  # type: ignore[attr-defined]

    def renderers(self) -> list[object]:
        return [c for c in self.services.children if c.name.startswith("render")]  # type: ignore[attr-defined]

    def kill_render(self) -> int:
        """SIGKILL the render worker by its PID (the supervisor starts it again); its PID."""
        pid = int(self.renderers()[0].pid)  # type: ignore[attr-defined]
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        return pid

    def kill_worker(self, i: int) -> int:
        """SIGKILL worker ``i`` by its PID (the supervisor starts it again); returns the PID."""
        child = self.workers()[i % len(self.workers())]
        pid = child.pid  # type: ignore[attr-defined]
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        return int(pid)


_PORT: list[int] = []


def shared_port() -> int:
    """One port for every scenario run by this process.

    Why: the Celery app of this process (the players' client) keeps its broker and result
    connections pooled by URL; a second scenario on a new port found them pointing at the
    previous, stopped server. On the same port they reconnect, as after a restart."""
    if not _PORT:
        _PORT.append(free_port())
    return _PORT[0]


@contextlib.contextmanager
def running_stack(data_dir: Path, *, appendfsync: str = "always", workers: int = 2) -> Iterator[Stack]:
    """Server, supervised workers + beat (``local_services``), and the delivery consumer."""
    from workers.local import local_services

    server = Valkey(data_dir / "valkey", appendfsync, port=shared_port()).start()
    saved = {k: os.environ.get(k) for k in [*ENV, "REDIS_URL", "AGORA_PLUGINS"]}
    os.environ.update(ENV, REDIS_URL=server.url)
    os.environ.pop("AGORA_PLUGINS", None)  # the five real games only
    consumer = Consumer(server.url, data_dir / "sent.jsonl", data_dir / "consumer.log")
    try:
        with local_services(data_dir / "agora", workers=workers, beat=True) as services:
            consumer.start()
            yield Stack(server, services, consumer, data_dir)
    finally:
        consumer.stop()
        server.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
