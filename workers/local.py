"""Run the production pieces on one machine: a store, Celery workers and the beat scheduler,
each a supervised child process stopped by its PID.

Why: ``agora play``, ``agora worker`` and ``agora serve`` must use the same Redis + Celery
path as production (no mock, no eager mode), yet start with one command and keep running
unattended. With ``REDIS_URL`` unset we start the embedded Valkey server.

Three rules keep children from going astray:

- every child dies with us (``PR_SET_PDEATHSIG``) and runs in its own session, so a Ctrl-C in
  the terminal reaches only us and we stop the children in order, by PID;
- beat runs as its own child, not inside a worker (``celery worker -B``): a worker killed with
  SIGKILL used to leave its beat process behind, and every orphan kept scheduling sweeps;
- a supervisor thread notices a child that died (within a second), logs it and starts it
  again, so a crashed worker never leaves players with "your move is queued" forever.

The PIDs of everything started are kept in ``<data dir>/agora.pids`` while it runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from workers.embedded import EmbeddedServer

log = logging.getLogger(__name__)

RESTART_PAUSE = 1.0  # seconds between a child's death and its restart (a crash loop stays slow)
# Decision: render workers run 5 nice levels below the move workers. On a small machine
# (2 cores) a board (60-360 ms of CPU) then yields the CPU to moves, whose answers players wait
# for; boards have the outbox consumer's fallback when they fall behind (workers/images.py).
RENDER_NICE = 5


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    if sys.platform.startswith("linux"):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


def _niced(increment: int) -> Callable[[], None]:
    """The child's start hook: dies with its parent, and runs ``increment`` nice levels lower."""

    def start() -> None:  # pragma: no cover - runs in the child
        _die_with_parent()
        if increment:
            os.nice(increment)

    return start


@dataclass
class Child:
    """One supervised process: how to start it, and the running process."""

    name: str
    cmd: list[str]
    env: dict[str, str]
    log_path: Path
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    nice: int = 0  # nice levels below this process (the render workers: RENDER_NICE)
    _log: IO[bytes] | None = field(default=None, repr=False)

    def start(self) -> None:
        if self._log is None:
            self._log = open(self.log_path, "ab")  # noqa: SIM115 - kept open for the child's life
        self.proc = subprocess.Popen(
            self.cmd,
            env=self.env,
            preexec_fn=_niced(self.nice),
            start_new_session=True,
            stdout=subprocess.DEVNULL if not os.environ.get("AGORA_DEBUG") else None,
            stderr=self._log,
        )

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


@dataclass
class Services:
    """What :func:`local_services` started: the Redis URL, the server and the children."""

    redis_url: str
    server: EmbeddedServer | None = None
    children: list[Child] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)
    pid_file: Path | None = None
    _supervisor: threading.Thread | None = None

    @property
    def pids(self) -> list[int]:
        """PIDs of every process started (server first), for tests and operators."""
        out = [self.server.pid] if self.server is not None and self.server.pid else []
        return out + [c.pid for c in self.children if c.pid]

    def write_pids(self, path: Path | None) -> None:
        """Record every started PID by role in ``path`` (JSON), so an operator or a test can
        check that nothing outlives us; called again after each restart."""
        if path is None:
            return
        roles = {"server": self.server.pid} if self.server is not None and self.server.pid else {}
        roles.update({c.name: c.pid for c in self.children if c.pid})
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(roles, sort_keys=True))
        tmp.replace(path)

    def supervise(self, interval: float = 0.5) -> None:
        """Start the supervisor thread (idempotent)."""
        if self._supervisor is None:
            self._supervisor = threading.Thread(
                target=self._watch, args=(interval,), name="agora-supervisor", daemon=True
            )
            self._supervisor.start()

    def _watch(self, interval: float) -> None:
        while not self.stopping.wait(interval):
            if self.server is not None and self.server.proc is not None and self.server.proc.poll() is not None:
                log.warning(
                    "the embedded server (pid %s) exited with code %s; starting it again",
                    self.server.pid,
                    self.server.proc.returncode,
                )
                with contextlib.suppress(Exception):
                    self.server.start()
                self.write_pids(self.pid_file)
            for child in self.children:
                if self.stopping.is_set():
                    return
                if child.proc is not None and child.proc.poll() is not None:
                    code = child.proc.returncode
                    log.warning("%s (pid %s) exited with code %s; starting it again", child.name, child.pid, code)
                    if self.stopping.wait(RESTART_PAUSE):
                        return
                    child.start()
                    child.restarts += 1  # after start: whoever sees the count sees the new process
                    log.warning("%s restarted as pid %s", child.name, child.pid)
                    self.write_pids(self.pid_file)

    def stop(self) -> None:
        """Stop the supervisor, the children (newest first), then the server, each by PID."""
        self.stopping.set()
        if self._supervisor is not None:
            self._supervisor.join(5)
        for child in reversed(self.children):
            if child.alive():
                assert child.proc is not None
                child.proc.terminate()
        for child in reversed(self.children):
            if child.proc is None:
                continue
            try:
                child.proc.wait(15)
            except subprocess.TimeoutExpired:
                child.proc.kill()
                child.proc.wait(5)
            child.close()
        if self.server is not None:
            self.server.stop()
        if self.pid_file is not None:
            self.pid_file.unlink(missing_ok=True)


def worker_command(
    *, beat: bool, data_dir: Path, concurrency: int = 1, name: str = "agora", queues: str = ""
) -> list[str]:
    """The ``celery worker`` command line Agora uses (fast start, JSON only, solo or prefork).

    ``beat`` embeds the scheduler in the worker (``-B``); kept for benchmarks that run one
    throw-away worker. :func:`local_services` runs beat as its own supervised child instead.
    ``queues`` (``-Q``): ``MOVE_QUEUE`` for a move worker, ``RENDER_QUEUE`` for a render
    worker (:func:`render_command`); empty leaves Celery's default (the move queue)."""
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
    if queues:
        args += ["-Q", queues]
    if beat:
        args += ["-B", "-s", str(data_dir / "celerybeat-schedule")]
    return args


def move_command(data_dir: Path, name: str = "agora") -> list[str]:
    """A move worker: solo pool, the move queue only (never the boards' ``render`` queue)."""
    from workers.celery_app import MOVE_QUEUE

    return worker_command(beat=False, data_dir=data_dir, name=name, queues=MOVE_QUEUE)


def render_command(data_dir: Path, name: str = "render") -> list[str]:
    """A render worker: solo pool, the ``render`` queue only (run it ``RENDER_NICE`` lower)."""
    from workers.celery_app import RENDER_QUEUE

    return worker_command(beat=False, data_dir=data_dir, name=name, queues=RENDER_QUEUE)


def beat_command(data_dir: Path) -> list[str]:
    """The ``celery beat`` command line: the deadline sweeper's clock, one per deployment."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "workers.celery_app",
        "beat",
        "-s",
        str(data_dir / "celerybeat-schedule"),
        "--pidfile=",
        "-l",
        os.environ.get("AGORA_LOG_LEVEL", "WARNING"),
    ]


@contextlib.contextmanager
def local_services(
    data_dir: Path, *, workers: int = 1, beat: bool = True, persist: bool = True, render_workers: int | None = None
) -> Iterator[Services]:
    """Start (if needed) the embedded server, ``workers`` move workers, beat and
    ``render_workers`` render workers (default: ``AGORA_RENDER_WORKERS``; 0 lets the move
    workers draw boards themselves); stop them all on exit."""
    data_dir.mkdir(parents=True, exist_ok=True)
    from workers import settings

    cfg = settings.load()
    url = cfg.store_url()
    renders = cfg.agora_render_workers if render_workers is None else max(0, render_workers)
    services = Services(url, pid_file=data_dir / "agora.pids")
    try:
        if not url:
            services.server = EmbeddedServer(data_dir / "valkey", persist=persist).start()
            services.redis_url = services.server.url
        # The move workers learn from AGORA_RENDER_WORKERS whether to queue boards or draw them.
        env = dict(os.environ, REDIS_URL=services.redis_url, AGORA_RENDER_WORKERS=str(renders))
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        # Each child serves its metrics on AGORA_METRICS_PORT + its offset; this process has 0.
        offset = 1
        for i in range(max(1, workers)):
            child_env = dict(env, AGORA_METRICS_OFFSET=str(offset))
            offset += 1
            services.children.append(
                Child(f"worker {i}", move_command(data_dir, f"agora{i}"), child_env, data_dir / f"worker{i}.log")
            )
        if beat:
            beat_env = dict(env, AGORA_METRICS_OFFSET=str(offset))
            offset += 1
            services.children.append(Child("beat", beat_command(data_dir), beat_env, data_dir / "beat.log"))
        for i in range(renders):
            child_env = dict(env, AGORA_METRICS_OFFSET=str(offset))
            offset += 1
            cmd = render_command(data_dir, f"render{i}")
            log_path = data_dir / f"render{i}.log"
            services.children.append(Child(f"render {i}", cmd, child_env, log_path, nice=RENDER_NICE))
        for child in services.children:
            child.start()
        services.write_pids(services.pid_file)
        wait_for_worker(services.redis_url, services.children)
        services.supervise()
        yield services
    finally:
        services.stop()


def wait_for_worker(url: str, children: list[Child], timeout: float = 30.0) -> None:
    """Block until a worker answers a no-op task (so the first move is not a cold start)."""
    from workers import redisconn
    from workers.celery_app import app
    from workers.tasks import noop

    redisconn.configure_celery(app, url)
    redisconn.connect(url).ping()
    deadline = time.monotonic() + timeout
    res = noop.delay(1)
    while time.monotonic() < deadline:
        dead = [c for c in children if c.proc is not None and c.proc.poll() is not None]
        if dead:
            raise RuntimeError(f"the {dead[0].name} exited at start; see {dead[0].log_path.name} in the data folder")
        with contextlib.suppress(Exception):
            if res.get(timeout=0.5) == 1:
                return
    raise RuntimeError("the Celery worker did not start in time")
