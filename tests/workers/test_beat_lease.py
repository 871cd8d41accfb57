"""Exactly one beat scheduler: a second beat stands by, and takes over when the first dies."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import redis

from tests.conftest import ROOT
from tests.workers.util import stop_process, wait_for
from workers import leader


def _beat(redis_url: str, tmp: Path, name: str) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ, REDIS_URL=redis_url, PYTHONPATH=str(ROOT), AGORA_SWEEP_SECONDS="0.2", AGORA_BEAT_LEASE_SECONDS="1.5"
    )
    args = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "beat", "-s", str(tmp / name), "-l", "ERROR"]
    return subprocess.Popen(args, env=env, cwd=ROOT)


def _senders(r: redis.Redis) -> set[int]:
    """PIDs of the processes that queued the sweep tasks now waiting (no worker runs)."""
    pids = set()
    for raw in r.lrange("celery", 0, -1):
        origin = json.loads(raw)["headers"].get("origin", "")  # gen<pid>@<host>
        pids.add(int(origin.split("@")[0].removeprefix("gen")))
    return pids


def _holder(r: redis.Redis) -> int | None:
    raw = r.get(leader.KEY)
    return int(raw.decode().rsplit(":", 1)[1]) if raw else None


def test_one_scheduler_and_a_standby_that_takes_over(redis_url: str, store: Any, tmp_path: Path) -> None:
    r = redis.Redis.from_url(redis_url)
    first = _beat(redis_url, tmp_path, "a")
    second = None
    try:
        wait_for(lambda: _holder(r) == first.pid, timeout=60, interval=0.1)
        second = _beat(redis_url, tmp_path, "b")
        time.sleep(3.0)  # both running: only the holder schedules
        assert _holder(r) == first.pid
        assert _senders(r) == {first.pid}
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        wait_for(lambda: _holder(r) == second.pid, timeout=30, interval=0.1)
        r.delete("celery")
        wait_for(lambda: r.llen("celery") >= 3, timeout=30, interval=0.1)
        assert _senders(r) == {second.pid}
    finally:
        stop_process(first)
        stop_process(second)
        r.delete("celery", leader.KEY)
        r.close()


def test_a_holder_that_lost_the_lease_stops_scheduling(redis_url: str, store: Any) -> None:
    r = redis.Redis.from_url(redis_url)
    lost = threading.Event()
    assert leader.acquire(r, "host:1", 0.3)
    worker = threading.Thread(target=leader.renew_forever, args=(r, "host:1", 0.3), kwargs={"on_lost": lost.set})
    worker.start()
    time.sleep(0.3)
    assert r.get(leader.KEY) == b"host:1"  # renewed past its first expiry
    r.set(leader.KEY, "host:2")  # someone else holds it now (we were cut off for too long)
    assert lost.wait(3)
    worker.join(3)
    stop = threading.Event()
    stop.set()
    assert not leader.acquire(r, "host:1", 0.3, stop=stop)  # a standby while host:2 holds it
    r.delete(leader.KEY)
    r.close()
