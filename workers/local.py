"""Run the production pieces on one machine: a store, a Celery worker (with beat), by PID.

Why: ``agora play`` and ``agora serve`` must use the same Redis + Celery path as production
(no mock, no eager mode), yet start with one command. With ``REDIS_URL`` unset we start the
embedded Valkey server; the worker runs as a child process that dies with us
(``PR_SET_PDEATHSIG``) and is stopped by its PID on exit.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis

from workers.embedded import EmbeddedServer

log = logging.getLogger(__name__)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    if sys.platform.startswith("linux"):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


@dataclass
class Services:
    """What :func:`local_services` started: the Redis URL and the child processes."""

    redis_url: str
    server: EmbeddedServer | None = None
    children: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def stop(self) -> None:
        """Stop the workers, then the server, each by PID (SIGTERM, then SIGKILL)."""
        for proc in reversed(self.children):
            if proc.poll() is None:
                proc.terminate()
        for proc in reversed(self.children):
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if self.server is not None:
            self.server.stop()


def worker_command(*, beat: bool, data_dir: Path, concurrency: int = 1, name: str = "agora") -> list[str]:
    """The ``celery worker`` command line Agora uses (fast start, JSON only, solo or prefork)."""
    args = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers.celery_app",
        "worker",
        "--without-mingle",
        "--without-gossip",
        "--without-heartbeat",
        "-n",
        f"{name}-{os.getpid()}@%h",
        "-l",
        os.environ.get("AGORA_LOG_LEVEL", "WARNING"),
    ]
    args += ["--pool=solo"] if concurrency <= 1 else ["--pool=prefork", f"--concurrency={concurrency}"]
    if beat:
        args += ["-B", "-s", str(data_dir / "celerybeat-schedule")]
    return args


@contextlib.contextmanager
def local_services(data_dir: Path, *, workers: int = 1, beat: bool = True, persist: bool = True) -> Iterator[Services]:
    """Start (if needed) the embedded server and a worker; stop them all on exit."""
    data_dir.mkdir(parents=True, exist_ok=True)
    url = os.environ.get("REDIS_URL", "").strip()
    services = Services(url)
    try:
        if not url:
            services.server = EmbeddedServer(data_dir / "valkey", persist=persist).start()
            services.redis_url = services.server.url
        env = dict(os.environ, REDIS_URL=services.redis_url)
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        for i in range(max(1, workers)):
            cmd = worker_command(beat=beat and i == 0, data_dir=data_dir, name=f"agora{i}")
            services.children.append(
                subprocess.Popen(
                    cmd,
                    env=env,
                    preexec_fn=_die_with_parent,
                    stdout=subprocess.DEVNULL if not os.environ.get("AGORA_DEBUG") else None,
                    stderr=open(data_dir / f"worker{i}.log", "ab"),  # noqa: SIM115 - the child owns it
                )
            )
        wait_for_worker(services.redis_url, services.children)
        yield services
    finally:
        services.stop()


def wait_for_worker(url: str, children: list[subprocess.Popen[bytes]], timeout: float = 30.0) -> None:
    """Block until a worker answers a no-op task (so the first move is not a cold start)."""
    from workers.celery_app import app
    from workers.tasks import noop

    app.conf.broker_url = url
    app.conf.result_backend = url
    redis.Redis.from_url(url).ping()
    deadline = time.monotonic() + timeout
    res = noop.delay(1)
    while time.monotonic() < deadline:
        if any(c.poll() is not None for c in children):
            raise RuntimeError("the Celery worker exited at start; see worker0.log in the data folder")
        with contextlib.suppress(Exception):
            if res.get(timeout=0.5) == 1:
                return
    raise RuntimeError("the Celery worker did not start in time")
