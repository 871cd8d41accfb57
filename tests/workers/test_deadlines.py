"""Deadlines: reminders once, timeouts once and only for the version that missed its deadline,
quiet hours, the rebuildable index, and the automatic players' safety deadline.

Most tests drive ``deadlines.process`` with a fake clock on the store (``store.now``), the way
the beat's ``sweep`` task calls it; the last one runs a real worker with an embedded beat.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.workers.util import A, B, assert_replays, make_game, outbox_messages, record, wait_for
from workers import deadlines, pipeline
from workers.store import PARTITIONS, Store, k_deadlines, k_deadlines_in

DAY = 1_800_057_600  # a UTC midnight (2027-01-16 00:00)
H = 3600.0


class Calls:
    """Records what a sweep asked for instead of enqueueing tasks."""

    def __init__(self) -> None:
        self.autos: list[tuple[str, int, int]] = []
        self.timeouts: list[tuple[str, int, str, str]] = []
        self.lock = threading.Lock()

    def auto(self, g: str, s: int, v: int) -> None:
        with self.lock:
            self.autos.append((g, s, v))

    def timeout(self, g: str, s: int, t: str, k: str) -> None:
        with self.lock:
            self.timeouts.append((g, s, t, k))


def sweep(store: Store, gid: str, now: float, calls: Calls) -> deadlines.SweepAction:
    return deadlines.process(store, gid, now, run_auto=calls.auto, submit_timeout=calls.timeout)


@pytest.fixture
def clock(store: Store, monkeypatch: pytest.MonkeyPatch, app: Any) -> list[float]:
    """A settable clock for the store, shared with the in-process tasks (``tasks.store()``)."""
    from workers import tasks

    now = [DAY + 20 * H]
    monkeypatch.setattr(store, "now", lambda: now[0])
    monkeypatch.setattr(tasks, "_store", store)
    return now


def reminders(store: Store) -> list[tuple[str, int, int]]:
    return [(m["game"], m["version"], m["seat"]) for m in outbox_messages(store) if m["type"] == "reminder"]


def test_due_reminder_is_sent_once_by_repeated_and_concurrent_sweeps(store: Store, clock: list[float]) -> None:
    one = make_game(store, turn_hours=2, chat="c1")
    two = make_game(store, turn_hours=2, chat="c2")
    meta = store.meta(one)
    assert float(meta["turn_at"]) == clock[0] and float(meta["deadline_at"]) == clock[0] + 2 * H
    assert store.r.zscore(k_deadlines(one), one) == clock[0] + 1 * H
    calls = Calls()
    at = clock[0] + 1 * H + 1
    assert deadlines.due(store, at - 2) == []
    assert sweep(store, one, at, calls).kind == "remind"
    assert sweep(store, one, at + 5, calls).kind == "none"  # a second sweep: nothing more
    barrier = threading.Barrier(8)

    def racing_sweeper() -> None:
        barrier.wait(timeout=10)
        sweep(store, two, at, calls)

    with ThreadPoolExecutor(8) as pool:
        for f in [pool.submit(racing_sweeper) for _ in range(8)]:
            f.result(timeout=30)
    assert sorted(reminders(store)) == sorted([(one, 1, 0), (two, 1, 0)])
    assert calls.timeouts == [] and calls.autos == []
    # after the reminder (half time and one hour before fall together) the index points at the deadline
    assert store.r.zscore(k_deadlines(one), one) == clock[0] + 2 * H


def test_timeout_applies_on_timeout_once(store: Store, clock: list[float]) -> None:
    from workers import tasks

    gid = make_game(store, turn_hours=2)
    calls = Calls()
    late = clock[0] + 2 * H + 1
    clock[0] = late
    sweep(store, gid, late, calls)
    sweep(store, gid, late, calls)  # a second sweep before the first timeout task ran
    assert len(calls.timeouts) == 2 and len({c[3] for c in calls.timeouts}) == 1
    assert calls.timeouts[0][3] == "timeout:1:0"  # the key names the version
    for g, s, t, k in calls.timeouts + calls.timeouts[:1]:  # and a redelivery of one of them
        tasks.timeout(g, s, t, k)
    version, log = assert_replays(store, gid)
    assert version == 2 and [(e["s"], e["src"], e["k"]) for e in log] == [(0, "timeout", "timeout:1:0")]
    # the next player has a fresh deadline; the swept game is not timed out again
    assert float(store.meta(gid)["deadline_at"]) == late + 2 * H
    assert sweep(store, gid, late + 1, calls).kind == "none"


def test_late_timeout_does_not_play_for_a_player_who_moved_since(store: Store, clock: list[float]) -> None:
    """The sweep saw version 1 past its deadline; before its task ran, alice and bob moved and it
    is alice's turn again with a fresh deadline. The stale timeout must change nothing."""
    from workers import tasks

    gid = make_game(store, turn_hours=2)
    calls = Calls()
    clock[0] += 2 * H + 1
    sweep(store, gid, clock[0], calls)
    assert [c[3] for c in calls.timeouts] == ["timeout:1:0"]
    assert pipeline.submit(store, gid, text="add 1", idem="a", user=A).ok
    assert pipeline.submit(store, gid, text="add 1", idem="b", user=B).ok
    clock[0] += 60
    tasks.timeout(*calls.timeouts[0])
    version, log = assert_replays(store, gid)
    assert version == 3 and [e["src"] for e in log] == ["player", "player"]


def test_simultaneous_step_times_out_every_late_seat(store: Store, clock: list[float]) -> None:
    """Both seats of a simultaneous pick missed the deadline: each one's timeout applies even
    though the other's moved the version on (the step's deadline is kept and still past)."""
    from workers import tasks

    gid = make_game(store, "sim", turn_hours=2)
    calls = Calls()
    clock[0] += 2 * H + 1
    sweep(store, gid, clock[0], calls)
    assert sorted(c[3] for c in calls.timeouts) == ["timeout:1:0", "timeout:1:1"]
    for c in calls.timeouts:
        tasks.timeout(*c)
    version, log = assert_replays(store, gid)
    assert version == 3 and sorted((e["s"], e["src"]) for e in log) == [(0, "timeout"), (1, "timeout")]


def test_index_ahead_of_the_record_does_not_time_out_a_game_that_moved_on(store: Store, clock: list[float]) -> None:
    gid = make_game(store, turn_hours=2)
    old_deadline = float(store.meta(gid)["deadline_at"])
    clock[0] += 2 * H - 60  # alice moves a minute before her deadline
    assert pipeline.submit(store, gid, text="add 2", idem="a", user=A).ok
    store.r.zadd(k_deadlines(gid), {gid: old_deadline})  # an index entry written before the move
    calls = Calls()
    assert gid in deadlines.due(store, old_deadline + 1)
    action = sweep(store, gid, old_deadline + 1, calls)
    assert action.kind == "none" and calls.timeouts == [] and reminders(store) == []
    meta = store.meta(gid)
    assert store.r.zscore(k_deadlines(gid), gid) == float(meta["turn_at"]) + 1 * H  # re-mirrored from the record
    assert record(store, gid)[0] == 2


def _quiet(store: Store, user: str, spec: str) -> None:
    store.r.hset(f"agora:u:{user}", mapping={"quiet": spec, "tz": "0"})


def test_quiet_hours_postpone_the_reminder(store: Store, clock: list[float]) -> None:
    clock[0] = DAY + 20 * H
    gid = make_game(store, turn_hours=24)  # reminder at 08:00, deadline at 20:00 the next day
    _quiet(store, A, "6-10")
    calls = Calls()
    remind = DAY + 32 * H
    assert sweep(store, gid, remind + 1, calls).kind == "none"
    assert reminders(store) == []
    assert store.r.zscore(k_deadlines(gid), gid) == pytest.approx(DAY + 34 * H, abs=1)  # 10:00, quiet hours end
    assert sweep(store, gid, DAY + 34 * H + 1, calls).kind == "remind"
    assert sweep(store, gid, DAY + 34 * H + 2, calls).kind == "none"
    assert reminders(store) == [(gid, 1, 0)]


def test_postponed_reminder_does_not_postpone_the_deadline(store: Store, clock: list[float]) -> None:
    """Quiet hours 22-8; reminder due at 00:00, deadline at 04:00: the index must point at 04:00
    (it pointed at 08:00, so the timeout came four hours late). The reminder, which quiet hours
    would push past the deadline, comes as a last call a minute before they begin (21:59)."""
    clock[0] = DAY + 20 * H
    _quiet(store, A, "22-8")
    gid = make_game(store, turn_hours=8)
    calls = Calls()
    assert store.r.zscore(k_deadlines(gid), gid) == DAY + 22 * H - 60
    assert sweep(store, gid, DAY + 22 * H - 59, calls).kind == "remind"
    assert sweep(store, gid, DAY + 24 * H + 1, calls).kind == "none"
    assert store.r.zscore(k_deadlines(gid), gid) == DAY + 28 * H
    assert deadlines.due(store, DAY + 28 * H + 1) == [gid]
    assert sweep(store, gid, DAY + 28 * H + 1, calls).kind == "timeout"


def test_a_player_in_quiet_hours_does_not_hold_back_the_others(store: Store, clock: list[float]) -> None:
    clock[0] = DAY + 20 * H
    gid = make_game(store, "sim", turn_hours=8)  # both pick at once; reminder due at 00:00
    _quiet(store, A, "22-1")
    calls = Calls()
    assert sweep(store, gid, DAY + 24 * H + 1, calls).kind == "remind"
    assert reminders(store) == [(gid, 1, 1)]  # bob now
    assert store.r.zscore(k_deadlines(gid), gid) == DAY + 25 * H  # alice's quiet hours end at 01:00
    assert sweep(store, gid, DAY + 25 * H + 1, calls).kind == "remind"
    assert sweep(store, gid, DAY + 25 * H + 2, calls).kind == "none"
    assert sorted(reminders(store)) == [(gid, 1, 0), (gid, 1, 1)]  # alice once, bob once
    assert store.r.zscore(k_deadlines(gid), gid) == DAY + 27 * H  # the next lead: an hour before the deadline


def test_rebuild_index_restores_the_sorted_set(store: Store, clock: list[float]) -> None:
    active = [make_game(store, turn_hours=h, chat=f"c{h}") for h in (1, 2, 48)]
    bots = make_game(store, users=(A,), bots=1, bots_first=True, chat="cb")
    over = make_game(store, chat="co")
    assert pipeline.submit(store, active[0], text="add 2", idem="x", user=A).ok
    from workers import lobby

    assert lobby.resign(store, over, A).ok
    lobby.create(store, "toy", platform="console", chat="cl", user=A, name="alice")  # a lobby
    before = deadlines.scheduled(store)
    assert set(before) == {*active, bots}
    assert before[bots] == clock[0] + 15  # the bot's safety deadline
    store.r.delete(*[k_deadlines_in(p) for p in range(PARTITIONS)])
    assert deadlines.rebuild_index(store) == 4
    assert deadlines.scheduled(store) == before


def test_safety_deadline_wakes_automatic_players_and_the_game_finishes(spawn: Any, app: Any, store: Store) -> None:
    """A real worker with its embedded beat (sweep every 0.5 s). The bot moves first and nothing
    kicks it (``begin`` commits directly), the human never plays: the bot's safety deadline and
    the human's tiny deadlines (1.4 s) carry the game to its end, each step once."""
    spawn.worker("beat", env={"AGORA_SWEEP_SECONDS": "0.5"}, beat=True)
    gid = make_game(store, users=(A,), bots=1, bots_first=True, turn_hours=0.0004)
    due_at = store.r.zscore(k_deadlines(gid), gid)
    assert due_at is not None and 14 < due_at - time.time() <= 15
    time.sleep(1.5)
    assert record(store, gid)[0] == 1  # nothing woke the bot before its safety deadline ...
    store.r.zadd(k_deadlines(gid), {gid: time.time() - 1})  # ... so let those 15 s pass
    wait_for(lambda: store.meta(gid).get("status") == "over", timeout=45, interval=0.1)
    version, log = assert_replays(store, gid)
    assert len(log) == version - 1 and {e["src"] for e in log} == {"auto", "timeout"}
    assert [e["s"] for e in log] == [i % 2 for i in range(len(log))]  # strictly alternating, none twice
    assert len({e["k"] for e in log}) == len(log)
    assert all(s == 1 for _, v, s in reminders(store))  # alice (seat 1) was reminded, never the bot
    assert len(reminders(store)) == len(set(reminders(store)))
    assert store.r.zscore(k_deadlines(gid), gid) is None
