"""The store behind Sentinel: a game goes on across a Sentinel failover with nothing lost, and
Celery reaches its broker through the same Sentinel URL.

A master, a replica and one Sentinel run from the embedded server binary on 127.0.0.1 (stopped
by PID). Moves go through the real pipeline function the workers run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.support.toy  # noqa: F401 - registers the toy game in this process
from tests.support.cluster import SentinelSet
from tests.workers.util import PLUGINS_ALL, A, B, assert_replays, make_game, stop_process
from workers import pipeline, redisconn
from workers.ratelimit import CommandLimiter
from workers.store import Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sentinel(tmp_path: Path) -> Iterator[SentinelSet]:
    s = SentinelSet(tmp_path / "sentinel").start()
    try:
        yield s
    finally:
        s.stop()


def test_a_game_goes_on_across_a_sentinel_failover(sentinel: SentinelSet) -> None:
    st = Store.from_url(sentinel.url)
    gid = make_game(st)
    accepted: list[tuple[int, str]] = []
    for i in range(7):  # 7 x "add 3" reaches 21
        if i == 3:
            assert sentinel.failover() < 20
        res = pipeline.submit(st, gid, text="add 3", idem=f"s{i}", user=A if i % 2 == 0 else B)
        assert res.ok, res
        accepted.append((res.version, f"s{i}"))
    limiter = CommandLimiter(sentinel.url, user="1/minute", chat="off")  # the limiter follows the master too
    assert [limiter.check("telegram", "room", "alice").allowed for _ in range(2)] == [True, False]
    version, log = assert_replays(st, gid)
    assert st.meta(gid)["status"] == "over" and version == 8
    assert [(i + 2, e["k"]) for i, e in enumerate(log)] == accepted  # every accepted move, in order
    st.r.close()


def test_celery_runs_over_the_sentinel_broker(sentinel: SentinelSet) -> None:
    """The worker and a producer both get ``REDIS_URL`` = the Sentinel URL and nothing else."""
    url, options = redisconn.broker(sentinel.url, {})
    assert url.startswith("sentinel://127.0.0.1:") and options == {"master_name": "agora"}
    env = dict(os.environ, REDIS_URL=sentinel.url, AGORA_PLUGINS=PLUGINS_ALL, PYTHONPATH=str(ROOT))
    env.pop("AGORA_BROKER_URL", None)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "--pool=solo", "-n", "sent@%h",
         "--without-mingle", "--without-gossip", "--without-heartbeat", "-l", "WARNING"],
        env=env, cwd=ROOT,
    )
    try:
        probe = "from workers.tasks import noop; print(noop.delay(41).get(timeout=40) + 1)"
        out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True,
                             timeout=60)
        assert out.stdout.strip() == "42", out.stderr[-2000:]
    finally:
        stop_process(worker)
