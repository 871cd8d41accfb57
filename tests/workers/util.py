"""Helpers for the service-layer tests: games, consistency checks, workers and beat by PID."""

from __future__ import annotations

import json
import socket
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine import find_game
from engine.core.testing import replay
from tests.conftest import Worker, wait_for
from workers import lobby, outbox
from workers.store import Store, k_meta, k_snap

PLUGINS_ALL = "tests.support.toy,tests.workers.simgame"
A, B = "console:alice", "console:bob"


def make_game(
    store: Store,
    game: str = "toy",
    *,
    users: Iterable[str] = (A, B),
    bots: int = 0,
    bots_first: bool = False,
    seed: int = 7,
    turn_hours: float = 48.0,
    chat: str = "table",
    platform: str = "console",
) -> str:
    """A started game (version 1) with ``users`` seated in order, then ``bots``."""
    import tests.workers.simgame  # noqa: F401 - registers "sim" in this process

    users = list(users)
    gid = lobby.create(
        store, game, platform=platform, chat=chat, user=users[0], name=users[0].split(":")[1], turn_hours=turn_hours
    )
    for u in users[1:]:
        lobby.join(store, gid, u, u.split(":")[1])
    res = lobby.begin(store, gid, users[0], bots=bots, bots_first=bots_first, seed=seed)
    assert res.ok and res.version == 1, res
    return gid


def record(store: Store, gid: str) -> tuple[int, list[dict[str, Any]], str]:
    """(version, log, snapshot) of a game, read together."""
    from workers.store import unpack_snapshot

    while True:  # read the three together: retry if a move landed in between
        pipe = store.r.pipeline(transaction=True)
        pipe.hget(k_meta(gid), "version")
        pipe.get(k_snap(gid))
        version, blob = pipe.execute()
        log = store.log(gid)  # chunks + live list, or the archive of a finished game
        if store.r.hget(k_meta(gid), "version") == version:
            return int(version or 0), log, unpack_snapshot(blob) if blob else ""


def assert_replays(store: Store, gid: str) -> tuple[int, list[dict[str, Any]]]:
    """The snapshot is exactly what replaying seed + options + log gives; returns (version, log)."""
    version, log, snap = record(store, gid)
    meta = store.meta(gid)
    game = find_game(meta["game"])
    again = replay(
        game,
        int(meta["seed"]),
        int(meta["players"]),
        json.loads(meta.get("options", "{}")),
        [(e["s"], e["t"]) for e in log],
    )
    assert game.dumps(again) == snap, f"snapshot of {gid} v{version} differs from the replay of its log"
    return version, log


def outbox_messages(store: Store, platform: str = "console") -> list[dict[str, Any]]:
    return [m for _, m in outbox.entries(store, platform)]


def db_image(store: Store) -> dict[str, Any]:
    """Every key's type and content (for "nothing was written" checks)."""
    out: dict[str, Any] = {}
    for key in sorted(store.r.scan_iter(count=1000)):
        kind = store.r.type(key).decode()
        if kind == "string":
            val: Any = store.r.get(key)
        elif kind == "list":
            val = store.r.lrange(key, 0, -1)
        elif kind == "hash":
            val = sorted(store.r.hgetall(key).items())
        elif kind == "set":
            val = sorted(store.r.smembers(key))
        elif kind == "zset":
            val = store.r.zrange(key, 0, -1, withscores=True)
        elif kind == "stream":
            val = store.r.xrange(key)
        else:
            val = kind
        out[key.decode()] = (kind, val)
    return out


def ping(app: Any, names: list[str], timeout: float = 30.0) -> None:
    """Wait until every named worker answers a remote-control ping (bounded)."""
    host = socket.gethostname()
    want = {f"{n}@{host}" for n in names}

    def answered() -> bool:
        replies = app.control.ping(destination=sorted(want), timeout=0.3) or []
        return want <= {k for r in replies for k in r}

    wait_for(answered, timeout=timeout, interval=0.05)


def stop_process(proc: subprocess.Popen[bytes] | None, grace: float = 8.0) -> None:
    """SIGTERM by PID, SIGKILL after ``grace`` seconds; always reaped."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


class Spawner:
    """Starts Celery workers (and beat) for one test and stops every one of them by PID."""

    def __init__(self, redis_url: str, app: Any, tmp: Path) -> None:
        self.redis_url = redis_url
        self.app = app
        self.tmp = tmp
        self.started: list[Worker] = []

    def worker(
        self,
        name: str = "w1",
        *,
        env: dict[str, str] | None = None,
        wait: bool = True,
        beat: bool = False,
        queues: str = "",
    ) -> Worker:
        """A worker (``queues``: its ``-Q``, e.g. ``render`` for a render worker)."""
        w = Worker(self.redis_url, name=name, env={"AGORA_PLUGINS": PLUGINS_ALL, **(env or {})})
        if queues:
            w.args += ["-Q", queues]
        if beat:
            w.args += ["-B", "-s", str(self.tmp / f"beat-{name}")]
        w.start()
        self.started.append(w)
        if wait:
            ping(self.app, [name])
        return w

    def stop_all(self) -> None:
        for w in reversed(self.started):
            stop_process(w.proc)
