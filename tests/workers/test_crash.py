"""A worker SIGKILLed in the middle of a move: the task is redelivered, the move applied once.

The worker runs with ``AGORA_FAULT=<point>:30`` and writes a marker line when it reaches the
point; the test then kills it by PID. ``task_acks_late`` leaves the message unacknowledged, so
after the visibility timeout (4 s in tests) a fresh worker's restore sweep (every second, see
``celery_app._transport_options``) puts it back on the queue. The original ``AsyncResult``
then gets the redelivered run's result (same task id).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.workers.util import A, assert_replays, make_game, outbox_messages, record, wait_for
from workers.store import Store, k_idem


def _unacked(store: Store, task_id: str) -> bool:
    """Whether the broker still holds an unacknowledged delivery of ``task_id``."""
    return any(task_id.encode() in raw for raw in store.r.hvals("unacked"))


def _crash_at(point: str, spawn: Any, app: Any, store: Store, tmp_path: Path) -> tuple[str, dict[str, Any], float]:
    from workers import tasks

    marker = tmp_path / "marker"
    marker.write_text("")
    doomed = spawn.worker("doomed", env={"AGORA_FAULT": f"{point}:30", "AGORA_FAULT_MARKER": str(marker)})
    gid = make_game(store)
    handle = tasks.move.apply_async(args=[gid, A, "add 3", "tg:crash-1"])
    wait_for(lambda: marker.read_text().startswith(point), timeout=15)
    assert marker.read_text().split()[1] == str(doomed.pid)
    committed_before_kill = record(store, gid)[0]
    doomed.kill()  # SIGKILL by PID: no warm shutdown, no ack, no requeue by the worker itself
    assert doomed.proc is not None and doomed.proc.returncode == -9
    assert record(store, gid)[0] == committed_before_kill  # the kill changed nothing
    assert _unacked(store, handle.id)  # the message is held, waiting for its visibility timeout
    t0 = time.monotonic()
    spawn.worker("fresh")
    result = handle.get(timeout=40)
    waited = time.monotonic() - t0
    wait_for(lambda: not _unacked(store, handle.id), timeout=10)  # the redelivery was acknowledged
    return gid, result, waited


def _assert_once(store: Store, gid: str) -> None:
    version, log = assert_replays(store, gid)
    assert version == 2 and len(log) == 1 and log[0]["k"] == "tg:crash-1" and log[0]["t"] == "add 3"
    assert [e["v"] for e in store.events(gid)] == [1, 2]
    turns = [m["key"] for m in outbox_messages(store) if m["type"] == "turn"]
    assert turns == [f"{gid}:1:turn", f"{gid}:2:turn"]  # each version's messages exactly once
    assert store.r.hlen(k_idem(gid)) == 2  # begin + the move


def test_kill_before_commit_redelivers_and_applies_once(spawn: Any, app: Any, store: Store, tmp_path: Path) -> None:
    gid, result, waited = _crash_at("before_commit", spawn, app, store, tmp_path)
    assert result["ok"] and not result["duplicate"] and result["version"] == 2, result
    _assert_once(store, gid)
    assert waited < 30


def test_kill_after_commit_before_ack_applies_nothing_twice(spawn: Any, app: Any, store: Store, tmp_path: Path) -> None:
    gid, result, waited = _crash_at("after_commit", spawn, app, store, tmp_path)
    # the redelivered run found the key committed: it reports the first run's result
    assert result["ok"] and result["duplicate"] and result["version"] == 2, result
    _assert_once(store, gid)
    assert waited < 30
