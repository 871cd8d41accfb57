"""Two submitters on one game version: exactly one wins it, the other is re-validated.

Threads call ``pipeline.submit`` with a barrier in ``before_commit`` so that both have loaded
and applied against the same version before either commits (a forced race, not a hoped-for
one). The Celery variant runs two workers that both sleep at ``before_commit``; the fault
marker file proves both tasks passed parsing on the same version.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.workers.util import A, B, assert_replays, make_game, outbox_messages, wait_for
from workers import pipeline
from workers.pipeline import MoveResult
from workers.store import Store


def _barrier_hook(barrier: threading.Barrier) -> Callable[[], None]:
    """A ``before_commit`` that waits for the other submitter once per thread (first attempt)."""
    seen = threading.local()

    def hook() -> None:
        if not getattr(seen, "done", False):
            seen.done = True
            barrier.wait(timeout=10)

    return hook


def _race(store: Store, gid: str, moves: list[tuple[str, str, str]]) -> list[MoveResult]:
    barrier = threading.Barrier(len(moves))
    hook = _barrier_hook(barrier)
    with ThreadPoolExecutor(len(moves)) as pool:
        futures = [
            pool.submit(pipeline.submit, store, gid, text=text, idem=key, user=user, before_commit=hook)
            for user, text, key in moves
        ]
        return [f.result(timeout=30) for f in futures]


def test_race_loser_is_revalidated_and_rejected_when_not_its_turn(store: Store) -> None:
    """Alice double-sends two different moves (two interaction ids) on version 1: one is applied,
    the other is re-validated against version 2, where it is Bob's turn."""
    gid = make_game(store)
    results = _race(store, gid, [(A, "add 1", "i1"), (A, "add 3", "i2")])
    ok = [r for r in results if r.ok]
    lost = [r for r in results if not r.ok]
    assert len(ok) == 1 and len(lost) == 1, results
    assert ok[0].version == 2
    assert lost[0].code == "action/not_your_turn"
    version, log = assert_replays(store, gid)
    assert version == 2 and len(log) == 1 and log[0]["t"] == ok[0].notation
    assert store.idem_result(gid, "i1" if ok[0].notation == "add 1" else "i2") is not None
    assert store.idem_result(gid, "i2" if ok[0].notation == "add 1" else "i1") is None  # nothing recorded


def test_race_loser_is_applied_after_the_winner_when_still_legal(store: Store) -> None:
    """A simultaneous pick: both seats commit against version 1; the loser is applied as version 3."""
    gid = make_game(store, "sim")
    results = _race(store, gid, [(A, "pick 2", "a1"), (B, "pick 3", "b1")])
    assert all(r.ok and not r.duplicate for r in results), results
    assert sorted(r.version for r in results) == [2, 3]
    version, log = assert_replays(store, gid)
    assert version == 3
    assert sorted((e["s"], e["t"]) for e in log) == sorted((r.seat, r.notation) for r in results)
    state = json.loads(store.snapshot(gid)[1] or "")["state"]
    assert state["scores"] == [2, 3] and state["rounds"] == 1
    # each committed version added its own events entry, and the board was posted once (round end)
    assert [e["v"] for e in store.events(gid)] == [1, 2, 3]
    turns = [m for m in outbox_messages(store) if m["type"] == "turn"]
    assert [m["version"] for m in turns] == [1, 3]


@pytest.mark.parametrize("threads", [4])
def test_many_racing_submitters_lose_nothing(store: Store, threads: int) -> None:
    """Several threads per seat hammer one simultaneous game to its end: every ``ok`` result is
    one log entry at its own version, nothing is applied twice, the log replays to the snapshot."""
    gid = make_game(store, "sim")
    results: list[MoveResult] = []
    lock = threading.Lock()

    def player(user: str, n: int) -> None:
        for i in range(60):
            res = pipeline.submit(store, gid, text=f"pick {1 + (i + n) % 3}", idem=f"{user}:{n}:{i}", user=user)
            with lock:
                results.append(res)
            if res.code == "action/game_over":
                return

    with ThreadPoolExecutor(threads) as pool:
        for f in [pool.submit(player, (A, B)[n % 2], n) for n in range(threads)]:
            f.result(timeout=60)
    ok = [r for r in results if r.ok]
    version, log = assert_replays(store, gid)
    assert store.meta(gid)["status"] == "over"
    assert len(ok) == len(log) == version - 1
    assert sorted(r.version for r in ok) == list(range(2, version + 1))  # one result per version
    assert {r.code for r in results if not r.ok} <= {"action/not_your_turn", "action/game_over"}
    assert len({e["k"] for e in log}) == len(log)


def test_two_celery_tasks_in_flight_on_one_version(spawn: Any, app: Any, store: Store, tmp_path: Path) -> None:
    """Two workers, each holding one move task at ``before_commit`` on version 1 (toy: the
    loser must come back NotYourTurn; sim: the loser is applied after)."""
    from workers import tasks

    marker = tmp_path / "marker"
    env = {"AGORA_FAULT": "before_commit:1.5", "AGORA_FAULT_MARKER": str(marker)}
    spawn.worker("r1", env=env, wait=False)
    spawn.worker("r2", env=env, wait=False)
    from tests.workers.util import ping

    ping(app, ["r1", "r2"])
    toy = make_game(store, "toy", chat="t1")
    sim = make_game(store, "sim", chat="t2")

    def pair(gid: str, moves: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
        marker.write_text("")
        handles = [tasks.move.apply_async(args=[gid, user, text, key]) for user, text, key in moves]
        # both tasks reached the commit point, i.e. both parsed and applied on version 1
        wait_for(lambda: len(marker.read_text().splitlines()) == 2, timeout=15)
        assert len({line.split()[1] for line in marker.read_text().splitlines()}) == 2  # two workers
        return [h.get(timeout=20) for h in handles]

    res_toy = pair(toy, [(A, "add 2", "t-a"), (A, "add 1", "t-b")])
    assert sorted(r["ok"] for r in res_toy) == [False, True], res_toy
    assert {r["code"] for r in res_toy if not r["ok"]} == {"action/not_your_turn"}
    version, log = assert_replays(store, toy)
    assert version == 2 and len(log) == 1

    res_sim = pair(sim, [(A, "pick 1", "s-a"), (B, "pick 3", "s-b")])
    assert all(r["ok"] and not r["duplicate"] for r in res_sim), res_sim
    assert sorted(r["version"] for r in res_sim) == [2, 3]
    version, log = assert_replays(store, sim)
    assert version == 3 and sorted(e["t"] for e in log) == ["pick 1", "pick 3"]
