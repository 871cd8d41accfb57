"""`agora serve` and `agora worker` supervise what they start: a killed worker or beat is
restarted with a log line, the new worker takes tasks, and stopping stops every process."""

from __future__ import annotations

import json
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


def test_a_killed_worker_beat_and_render_worker_are_restarted_and_stopped_at_the_end(
    redis_url: str, store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from workers.tasks import noop

    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("AGORA_PLUGINS", "tests.support.toy")
    monkeypatch.delenv("AGORA_RENDER_WORKERS", raising=False)  # the default: one render worker
    caplog.set_level(logging.WARNING, logger="workers.local")
    started: list[int] = []
    with local.local_services(tmp_path, workers=1, beat=True, persist=False) as services:
        worker, beat, render = services.children
        # The move worker takes moves only; the render worker boards only, at a lower priority.
        assert worker.cmd[worker.cmd.index("-Q") + 1] == "celery"
        assert render.cmd[render.cmd.index("-Q") + 1] == "render" and render.name == "render 0"
        assert worker.env["AGORA_RENDER_WORKERS"] == "1"
        assert [c.env["AGORA_METRICS_OFFSET"] for c in services.children] == ["1", "2", "3"]
        assert render.pid and worker.pid
        nice = os.getpriority(os.PRIO_PROCESS, render.pid) - os.getpriority(os.PRIO_PROCESS, worker.pid)
        assert nice == local.RENDER_NICE
        olds = [worker.pid, beat.pid, render.pid]
        started += [p for p in olds if p]
        assert json.loads((tmp_path / "agora.pids").read_text())["render 0"] == render.pid
        for pid in olds:
            assert pid
            os.kill(pid, signal.SIGKILL)
        wait_for(lambda: (worker.restarts, beat.restarts, render.restarts) == (1, 1, 1), timeout=60, interval=0.2)
        news = [worker.pid, beat.pid, render.pid]
        assert all(new and new != old for new, old in zip(news, olds, strict=True))
        started += [p for p in news if p]
        assert noop.delay(7).get(timeout=60) == 7  # the new worker takes tasks
        assert render.pid and worker.pid
        nice = os.getpriority(os.PRIO_PROCESS, render.pid) - os.getpriority(os.PRIO_PROCESS, worker.pid)
        assert nice == local.RENDER_NICE  # restarted at the same priority
        wait_for(lambda: json.loads((tmp_path / "agora.pids").read_text()).get("render 0") == render.pid, timeout=10)
        messages = [r.getMessage() for r in caplog.records]
        assert any(m.startswith(f"worker 0 (pid {olds[0]}) exited") for m in messages), messages
        assert any(m.startswith("beat restarted as pid") for m in messages), messages
        assert any(m.startswith(f"render 0 (pid {olds[2]}) exited") for m in messages), messages
        assert any(m.startswith(f"render 0 restarted as pid {render.pid}") for m in messages), messages
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(_gone(p) for p in started):
        time.sleep(0.2)
    assert all(_gone(p) for p in started), "every process the services started is stopped"
    assert not (tmp_path / "agora.pids").exists()


def test_without_render_workers_the_move_workers_draw_and_none_is_started(
    redis_url: str, store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("AGORA_PLUGINS", "tests.support.toy")
    with local.local_services(tmp_path, workers=1, beat=False, persist=False, render_workers=0) as services:
        (worker,) = services.children
        assert worker.env["AGORA_RENDER_WORKERS"] == "0" and worker.name == "worker 0"
        pid = worker.pid
    assert pid and _gone(pid)


def test_the_embedded_server_exits_on_sigterm_even_when_it_cannot_save(tmp_path: Path) -> None:
    """A terminal closed while its game's data folder is deleted: the server, told to stop by
    its dying parent (SIGTERM), cannot save and used to refuse to exit, left behind for good.
    It exits; with its folder in place it keeps what it stored."""
    import shutil

    import redis

    from workers.embedded import EmbeddedServer

    kept = EmbeddedServer(tmp_path / "kept", persist=True).start()
    try:
        redis.Redis.from_url(kept.url).set("k", "v")
        assert kept.proc is not None
        kept.proc.send_signal(signal.SIGTERM)
        kept.proc.wait(10)
    finally:
        kept.stop()
    again = EmbeddedServer(tmp_path / "kept", persist=True).start()
    try:
        assert redis.Redis.from_url(again.url).get("k") == b"v"
    finally:
        again.stop()

    lost = EmbeddedServer(tmp_path / "lost", persist=True).start()
    try:
        redis.Redis.from_url(lost.url).set("k", "v")
        shutil.rmtree(tmp_path / "lost")
        assert lost.proc is not None
        lost.proc.send_signal(signal.SIGTERM)
        lost.proc.wait(10)  # raised TimeoutExpired before: the server refused to exit
    finally:
        lost.stop()
