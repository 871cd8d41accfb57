"""`agora serve` and `agora worker` supervise what they start: a killed worker or beat is
restarted with a log line, the new worker takes tasks, and stopping stops every process."""

from __future__ import annotations

import logging
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.workers.util import wait_for
from workers import local


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/status").exists() and "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_a_killed_worker_and_beat_are_restarted_and_stopped_at_the_end(
    redis_url: str, store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from workers.tasks import noop

    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("AGORA_PLUGINS", "tests.support.toy")
    caplog.set_level(logging.WARNING, logger="workers.local")
    started: list[int] = []
    with local.local_services(tmp_path, workers=1, beat=True, persist=False) as services:
        worker, beat = services.children
        started += [p for p in (worker.pid, beat.pid) if p]
        old_worker, old_beat = worker.pid, beat.pid
        assert old_worker and old_beat
        os.kill(old_worker, signal.SIGKILL)
        os.kill(old_beat, signal.SIGKILL)
        wait_for(lambda: worker.restarts == 1 and beat.restarts == 1, timeout=60, interval=0.2)
        assert worker.pid != old_worker and beat.pid != old_beat
        started += [p for p in (worker.pid, beat.pid) if p]
        assert noop.delay(7).get(timeout=60) == 7  # the new worker takes tasks
        messages = [r.getMessage() for r in caplog.records]
        assert any(m.startswith(f"worker 0 (pid {old_worker}) exited") for m in messages), messages
        assert any(m.startswith("beat restarted as pid") for m in messages), messages
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(_gone(p) for p in started):
        time.sleep(0.2)
    assert all(_gone(p) for p in started), "every process the services started is stopped"
