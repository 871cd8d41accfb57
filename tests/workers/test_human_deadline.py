"""Issue 9 item 1: a human's deadline is always the table's timer; the automatic players'
15-second safety net is separate from it, and a timeout that played for someone says so.

Failing before the fix: with a bot at a simultaneous step, the bot's 15 s safety deadline was
also the human's deadline, kept after the bot had picked, so the sweep played the human's
``on_timeout`` 15 s into a 24-hour turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.workers.util import A, assert_replays, make_game, outbox_messages
from workers import deadlines, pipeline, tasks
from workers.store import Store, k_deadlines

DAY = 1_800_057_600
H = 3600.0


@pytest.fixture
def clock(store: Store, monkeypatch: pytest.MonkeyPatch, app: Any) -> list[float]:
    now = [DAY + 10 * H]
    monkeypatch.setattr(store, "now", lambda: now[0])
    monkeypatch.setattr(tasks, "_store", store)
    return now


def _sweep(store: Store, gid: str, now: float) -> tuple[deadlines.SweepAction, list[tuple[Any, ...]]]:
    autos: list[tuple[Any, ...]] = []
    timeouts: list[tuple[Any, ...]] = []
    act = deadlines.process(
        store, gid, now, run_auto=lambda *a: autos.append(a), submit_timeout=lambda *a: timeouts.append(a)
    )
    return act, autos + timeouts


def test_human_keeps_the_table_timer_after_the_bot_picked(store: Store, clock: list[float]) -> None:
    gid = make_game(store, "sim", users=(A,), bots=1, turn_hours=24)
    meta = store.meta(gid)
    assert float(meta["deadline_at"]) == clock[0] + 24 * H  # the human's deadline: the table's timer
    assert float(meta["safety_at"]) == clock[0] + 15  # the bots' safety net, apart
    assert store.r.zscore(k_deadlines(gid), gid) == clock[0] + 15
    clock[0] += 2
    assert pipeline.submit(store, gid, text="pick 2", idem="bot", seat=1, source="auto").ok
    meta = store.meta(gid)
    assert float(meta["deadline_at"]) == DAY + 10 * H + 24 * H
    assert "safety_at" not in meta
    clock[0] += 20  # past the old 15 s net: nothing may be played for the human
    act, calls = _sweep(store, gid, clock[0])
    assert act.kind == "none" and calls == []
    # the index points at the human's first reminder (half time), not at a timeout
    assert store.r.zscore(k_deadlines(gid), gid) == DAY + 10 * H + 12 * H
    # the human picks last: the next round starts a fresh 24 hours, and a fresh net for the bot
    clock[0] = DAY + 15 * H
    assert pipeline.submit(store, gid, text="pick 1", idem="human", user=A).ok
    meta = store.meta(gid)
    assert float(meta["deadline_at"]) == clock[0] + 24 * H and float(meta["safety_at"]) == clock[0] + 15


def test_a_timeout_tells_the_table_and_the_player(store: Store, clock: list[float]) -> None:
    gid = make_game(store, "sim", users=(A,), bots=1, turn_hours=1)
    assert pipeline.submit(store, gid, text="pick 2", idem="bot", seat=1, source="auto").ok
    clock[0] += 1 * H + 1
    act, calls = _sweep(store, gid, clock[0])
    assert act.kind == "timeout"
    for call in calls:
        tasks.timeout(*call)
    _, log = assert_replays(store, gid)
    assert [(e["s"], e["src"]) for e in log] == [(1, "auto"), (0, "timeout")]
    last = store.events(gid, last=1)[0]["events"]
    public = [e["text"] for e in last if e.get("seats") is None]
    private = [e["text"] for e in last if e.get("seats") == [0]]
    # a secret pick: the table learns that time ran out, not what was played
    assert any("time ran out" in t.lower() and "pick" not in t for t in public), public
    assert any("time ran out" in t.lower() and "`pick 1`" in t for t in private), private
    msgs = [m for m in outbox_messages(store) if m["type"] == "private" and m.get("seat") == 0]
    assert any("`pick 1`" in m["text"] for m in msgs)
