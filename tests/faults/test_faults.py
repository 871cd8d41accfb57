"""The fault scenarios at CI size (a few games, a few faults each): every one ends with the
full check of ``tests/faults/check.py`` — every game's log replays to its snapshot, every move
a player was told was accepted is in the log exactly once, nothing is applied twice, every
outbox message reached the recorded chat (boards with their image), and a message went out
twice only when a killed consumer had sent it without recording it.

Each test starts its own Valkey (AOF, ``appendfsync always``: the zero-loss claim assumes it),
two supervised workers and beat as ``agora worker --concurrency 2 --beat`` does, and the
Telegram delivery loop with a recording sender; all are stopped by PID when it ends, failed or
not. ``bench/bench_faults.py`` runs the same scenarios with 50 and 200 games.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.faults.check import Report
from tests.faults.scenarios import run, run_duplicates

pytestmark = [pytest.mark.redis, pytest.mark.slow]
GAMES = 4
SECONDS = 12.0


def _verdict(report: Report) -> None:
    print("\n" + report.summary())
    assert report.notes.get("drained"), "the outbox was not delivered in time"
    assert not report.lost, f"accepted moves lost: {report.lost}"
    assert not report.twice, f"moves applied twice: {report.twice}"
    assert not report.mismatched, report.mismatched
    assert not report.replay_diff, f"snapshot differs from the replayed log: {report.replay_diff}"
    assert not report.unsent, f"outbox messages never sent: {report.unsent}"
    assert not report.unexplained_duplicates, f"sent twice without a killed consumer: {report.unexplained_duplicates}"
    assert not report.turns_without_image, f"turn posts sent without their board: {report.turns_without_image}"
    assert report.ok()
    assert report.accepted > 0 and report.outbox_entries > 0


def test_worker_sigkilled_every_few_seconds(tmp_path: Path) -> None:
    report = run("worker", tmp_path, games=GAMES, duration=SECONDS, every=2.5)
    _verdict(report)
    assert report.notes["faults"] >= 3 and report.notes["worker_restarts"] >= 3
    assert report.duplicates == 0  # the consumer was never killed


def test_redis_sigkilled_and_restarted_with_aof_always(tmp_path: Path) -> None:
    report = run("redis", tmp_path, games=GAMES, duration=SECONDS, every=3.0, appendfsync="always")
    _verdict(report)
    assert report.notes["faults"] >= 2
    assert report.duplicates == 0


def test_outbox_consumer_sigkilled_mid_delivery(tmp_path: Path) -> None:
    report = run("consumer", tmp_path, games=GAMES, duration=SECONDS, every=1.5)
    _verdict(report)
    assert report.notes["faults"] >= 4
    # Once a turn post went out without its board here: a killed consumer's drawing claim made
    # its successors wait while the game outran the kept snapshots (tests/workers/test_posted_image.py).
    assert not report.turns_without_image


def test_render_worker_sigkilled_every_few_seconds(tmp_path: Path) -> None:
    """Boards are drawn by the render worker; killed (mid-drawing or idle), the consumer draws
    what it had claimed or queued: every turn post still goes out with its board."""
    report = run("render", tmp_path, games=GAMES, duration=SECONDS, every=2.0)
    _verdict(report)
    assert report.notes["faults"] >= 3 and report.notes["render_restarts"] >= 3
    assert report.duplicates == 0


@pytest.mark.parametrize("copies", [3])
def test_duplicated_and_reordered_deliveries(tmp_path: Path, copies: int) -> None:
    report = run_duplicates(tmp_path, games=3, moves=25, copies=copies)
    _verdict(report)
    assert report.duplicates == 0


def test_a_command_sent_again_long_after_is_not_applied_again(tmp_path: Path) -> None:
    """Besides the four kinds of copies above, now and then a command from 30 moves back (past
    the window of stored answers) as a new request through the whole stack: every such copy
    is answered "applied already" and none is applied a second time (issue 12)."""
    report = run_duplicates(tmp_path, games=2, moves=60, copies=2, late=True)
    _verdict(report)
    assert report.notes["late_applied_again"] == 0
    assert report.notes["late_answers"] and set(report.notes["late_answers"]) == {"ok"}, report.notes
