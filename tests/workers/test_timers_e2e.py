"""Real processes: one Celery worker and two beat processes against the real server, nobody
playing. One beat holds the scheduler lease and the other stands by (``workers.leader``).
Reminders fire once at each lead time, timeouts play ``on_timeout`` once, autopilot takes over
after two misses and finishes the game — while the worker and a beat are killed (SIGKILL) and
restarted between scheduling and firing. (Sweeps running truly at the same time are tested with
threads in test_timers.py: ``test_concurrent_sweepers_apply_a_timeout_once``.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.conftest import Worker, wait_for
from tests.workers.util import PLUGINS_ALL, A, B, assert_replays, make_game, outbox_messages, stop_process
from workers.store import Store, k_deadlines, k_user

ROOT = Path(__file__).resolve().parents[2]


def beat(redis_url: str, tmp: Path, name: str) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ,
        REDIS_URL=redis_url,
        AGORA_PLUGINS=PLUGINS_ALL,
        PYTHONPATH=str(ROOT),
        AGORA_SWEEP_SECONDS="0.4",
        AGORA_BEAT_LEASE_SECONDS="1",  # one scheduler at a time; a standby takes over within 1 s
    )
    args = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "beat", "-s", str(tmp / name), "-l", "ERROR"]
    return subprocess.Popen(args, env=env, cwd=ROOT)


def test_reminders_and_timeouts_once_across_restarts_with_two_sweepers(
    spawn: Any, store: Store, redis_url: str, tmp_path: Path
) -> None:
    for user in (A, B):  # reminders at half time and two seconds before the deadline
        store.r.hset(k_user(user), mapping={"name": user.split(":")[1], "remind": "half,2s"})
    w = spawn.worker("e2e")
    sweepers = [beat(redis_url, tmp_path, "s1"), beat(redis_url, tmp_path, "s2")]
    try:
        gid = make_game(store, turn_hours=12 / 3600)  # 12 s per turn: reminders at 6 s and 10 s
        time.sleep(0.5)
        os.kill(sweepers[0].pid, signal.SIGKILL)  # a sweeper dies between scheduling and firing
        sweepers[0].wait(10)
        w.kill()  # and the worker
        sweepers[0] = beat(redis_url, tmp_path, "s1")
        w2 = Worker(redis_url, name="e2e2", env={"AGORA_PLUGINS": PLUGINS_ALL}).start()
        spawn.started.append(w2)
        wait_for(lambda: store.meta(gid).get("status") == "over", timeout=120, interval=0.2)
    finally:
        for p in sweepers:
            stop_process(p)
    _, log = assert_replays(store, gid)
    timeouts = [e for e in log if e["src"] == "timeout"]
    # each seat missed twice, then the automatic player took over and finished the game
    assert [e["s"] for e in timeouts] == [0, 1, 0, 1], [(e["s"], e["src"]) for e in log]
    assert {e["src"] for e in log[4:]} == {"auto"}
    assert len({e["k"] for e in log}) == len(log)
    sent = Counter((m["turn_v"], m["seat"], m["lead"]) for m in outbox_messages(store) if m["type"] == "reminder")
    assert all(n == 1 for n in sent.values()), sent  # no duplicates
    missed = {(str(int(e["k"].split(":")[1])), e["s"]) for e in timeouts}
    assert {(v, s) for v, s, _ in sent} == missed  # reminders only on the human turns
    assert {lead for _, _, lead in sent} == {"half", "2s"} and len(sent) == 2 * len(missed)  # none lost
    notices = [m.get("text", "") for m in outbox_messages(store) if m["type"] in ("notice", "private")]
    assert sum("automatic player takes the seat" in t for t in notices + _captions(store, gid)) >= 2
    assert store.r.zscore(k_deadlines(gid), gid) is None


def _captions(store: Store, gid: str) -> list[str]:
    return [e["text"] for entry in store.events(gid, last=400) for e in entry["events"] if e.get("seats") is None]
