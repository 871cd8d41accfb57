"""Regression (found by the duplicates scenario): a move task redelivered after its key left
the idempotency window was applied a second time when its move was legal again.

The window keeps the newest ``IDEM_KEPT`` answers; a worker killed between the commit and the
acknowledgement gets its message back only after the visibility timeout (300 s in production),
and a busy table can make more moves than that in the meantime. The redelivered task now finds
its key in the game's log and answers as a duplicate. Here the window is shrunk to two answers
and the redelivery is the task run with Celery's ``redelivered`` flag, as kombu sets it on a
restored message.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.workers.util import A, B, assert_replays, make_game
from workers import commit, pipeline, tasks
from workers.store import Store


def _redeliver(gid: str, user: str, text: str, key: str, **request: Any) -> dict[str, Any]:
    tasks.move.push_request(**request)
    try:
        return tasks.move.run(gid, user, text, key)  # type: ignore[no-any-return]
    finally:
        tasks.move.pop_request()


@pytest.fixture
def small_window(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    monkeypatch.setattr(commit, "IDEM_KEPT", 2)  # where the commit reads it
    monkeypatch.setenv("AGORA_SKIP_KICK", "1")  # no follow-up tasks: no worker here
    monkeypatch.setattr(tasks, "_store", store)
    return store


@pytest.mark.parametrize("request_", [{"delivery_info": {"redelivered": True}}, {"retries": 1}])
def test_a_move_redelivered_after_its_window_is_not_applied_again(small_window: Store, request_: Any) -> None:
    store = small_window
    gid = make_game(store)
    for user, key in [(A, "k1"), (B, "k2"), (A, "k3"), (B, "k4")]:
        assert pipeline.submit(store, gid, text="add 1", idem=key, user=user).ok
    assert store.idem_result(gid, "k1") is None  # out of the window; "add 1" is legal for A again
    again = _redeliver(gid, A, "add 1", "k1", **request_)
    assert again["ok"] and again["duplicate"] and again["notation"] == "add 1", again
    version, log = assert_replays(store, gid)
    assert [e["k"] for e in log] == ["k1", "k2", "k3", "k4"] and version == 5


def test_a_first_delivery_is_applied_normally(small_window: Store) -> None:
    """Without the flag (a first delivery) nothing is looked up: the move is applied."""
    gid = make_game(store := small_window)
    out = _redeliver(gid, A, "add 2", "fresh", delivery_info={"redelivered": False})
    assert out["ok"] and not out["duplicate"] and out["version"] == 2
    out = _redeliver(gid, B, "add 2", "never-applied", delivery_info={"redelivered": True})
    assert out["ok"] and not out["duplicate"] and out["version"] == 3  # a redelivery of a move never applied
    assert [e["k"] for e in assert_replays(store, gid)[1]] == ["fresh", "never-applied"]
