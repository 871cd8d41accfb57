"""Benchmark: Redis bytes for one finished game (snapshot + action log).

Run from the repository root:

    .venv/bin/python bench/bench_storage.py [--games 3] [--check]

Starts the embedded Valkey server (no persistence), plays complete games of Antike Duellum
through ``pipeline.submit`` with the automatic player choosing every move (the toy game when
Duellum is not available — the output says so), then reports per game:

- ``MEMORY USAGE <key> SAMPLES 0`` of the snapshot and the log (target: their sum < 32 KB),
  with ``STRLEN`` of the compressed snapshot, the canonical JSON size, and the log's bytes;
- for context, every other key the game leaves behind (idempotency keys, per-version events,
  the snapshots of posted turns kept for the board images, meta, seats, names);
- what-if sizes of the log: entries reduced to what replay and undo need (``s``, ``t``, ``u``,
  ``src``), and the whole log as one zlib-compressed string (an archive written at game end).

``--check`` exits 1 when a game's snapshot + log exceed the target.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_BYTES = 32 * 1024
A, B = "console:alice", "console:bob"


def play(store: Any, game: str, seed: int) -> tuple[str, int]:
    """One complete game, every move by the automatic player, through ``pipeline.submit``."""
    from workers import lobby, pipeline

    gid = lobby.create(store, game, platform="console", chat=f"{game}-{seed}", user=A, name="alice", turn_hours=48)
    lobby.join(store, gid, B, "bob")
    lobby.begin(store, gid, A, seed=seed)
    moves = 0
    while True:
        loaded = pipeline.load(store, gid)
        movers = sorted(loaded.game.to_move(loaded.state))
        if loaded.meta.get("status") != "active" or not movers:
            return gid, moves
        seat = movers[0]
        action = loaded.game.auto_action(loaded.state, seat, zlib.crc32(f"{gid}:{loaded.version}".encode()))
        text = loaded.game.notation(loaded.state, seat, action)
        res = pipeline.submit(store, gid, text=text, idem=f"m{loaded.version}", user=loaded.seats[seat])
        if not res.ok:
            raise SystemExit(f"{game} {gid}: the automatic player's {text!r} was refused: {res.message}")
        moves += 1
        if moves > 20_000:
            raise SystemExit(f"{game} {gid}: no end after 20000 moves")


def usage(store: Any, key: str) -> int:
    return int(store.r.memory_usage(key, samples=0) or 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="complete games to play (default 3)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a game misses the target")
    args = parser.parse_args()

    from engine import find_game
    from workers.embedded import EmbeddedServer
    from workers.store import (
        Store,
        k_events,
        k_idem,
        k_log,
        k_logz,
        k_meta,
        k_names,
        k_seats,
        k_snap,
        unpack_snapshot,
    )

    game = "duellum"
    try:
        find_game(game)
    except Exception as exc:
        import tests.support.toy  # noqa: F401

        print(f"NOTE: Antike Duellum is not available ({exc}); measuring the toy game instead.")
        game = "toy"

    server = EmbeddedServer(Path(tempfile.mkdtemp(prefix="agora-bench-")) / "valkey", persist=False).start()
    ok = True
    whatif: list[tuple[str, int, int]] = []
    try:
        store = Store.from_url(server.url)
        print(f"{find_game(game).info.name}: {args.games} complete games, every move by the automatic player")
        print(
            f"{'game':>5} {'moves':>5} | {'snap MEM':>8} {'log MEM':>8} {'sum':>8} | {'snap STRLEN':>11} "
            f"{'snap JSON':>9} {'log bytes':>9} | {'idem':>7} {'events':>7} {'posted snaps':>15} {'meta+seats':>10}"
        )
        for i in range(args.games):
            gid, moves = play(store, game, seed=4242 + i)
            live_log_mem = usage(store, k_log(gid))
            entries = store.r.lrange(k_log(gid), 0, -1)
            # What the kick task does after the final commit: archive the finished game.
            assert store.archive(gid), "a finished game must archive"
            snap_mem, log_mem = usage(store, k_snap(gid)), usage(store, k_logz(gid))
            strlen = int(store.r.strlen(k_snap(gid)))
            raw_json = len(unpack_snapshot(store.r.get(k_snap(gid))).encode())
            log_bytes = int(store.r.strlen(k_logz(gid)))
            assert len(store.log(gid)) == len(entries)
            posted = list(store.r.scan_iter(match=f"agora:g:{{{gid}}}:snap:*", count=1000))
            posted_mem = sum(usage(store, k) for k in posted)
            other = sum(usage(store, k) for k in (k_meta(gid), k_seats(gid), k_names(gid)))
            total = snap_mem + log_mem
            ok = ok and total < TARGET_BYTES
            print(
                f"{gid:>5} {moves:>5} | {snap_mem:>8} {log_mem:>8} {total:>8} | {strlen:>11} {raw_json:>9} "
                f"{log_bytes:>9} | {usage(store, k_idem(gid)):>7} {usage(store, k_events(gid)):>7} "
                f"{posted_mem:>8} ({len(posted):>3}) {other:>10}"
            )
            meta = store.meta(gid)
            assert meta["status"] == "over", meta
            assert json.loads(meta["result"])["winners"] is not None
            slim = [
                json.dumps({k: json.loads(e)[k] for k in ("s", "t", "u", "src")}, separators=(",", ":"))
                for e in entries
            ]
            whatif.append((gid, sum(len(x) for x in slim), live_log_mem))
        print(
            f"bytes; MEM = MEMORY USAGE ... SAMPLES 0. Target: snapshot + log < {TARGET_BYTES} bytes: "
            + ("met" if ok else "MISSED")
        )
        for gid, slim_bytes, z in whatif:
            print(
                f"{gid}: while the game ran, the log list took {z} bytes (MEMORY USAGE); with s,t,u,src only it "
                f"would be {slim_bytes} bytes"
            )
        store.r.close()
    finally:
        server.stop()
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
