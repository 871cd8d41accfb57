"""Benchmark: Redis memory of one game, while it runs and once it is finished.

Run from the repository root:

    .venv/bin/python bench/bench_storage.py [--games 3] [--check]

Starts the embedded Valkey server (no persistence), plays complete games of Antike Duellum
through ``pipeline.submit`` with the automatic player choosing every move (the toy game when
Duellum is not available — the output says so), and measures with ``MEMORY USAGE <key>
SAMPLES 0``:

- **while it runs**, after every move and the delivery of its outbox messages (as a running
  Telegram bot builds and delivers them: turn posts and prompts with their buttons): the sum
  over every key of the game (meta, seats, names, snapshot, log list and its compressed chunks,
  idempotency answers, their order and the hashes of every committed key, events, snapshots of
  posted turns, the payloads of its live buttons); the peak and its breakdown. Target (issue 12): at most 32 KB at any
  point. Images (``img:…``) are not included: they are a render cache with their own TTL, and
  the outbox streams are shared by all games;
- **finished**, after ``Store.archive`` (which the kick task runs after the final commit): the
  snapshot plus the compressed log (target: < 32 KB).

The baseline printed beside them is the same game's raw JSON (snapshot + every log entry), so
the ratio says what the storage layout saves. ``--check`` exits 1 when a target is missed.
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
A, B = "telegram:101", "telegram:102"


def game_keys(gid: str) -> dict[str, list[str]]:
    """Every key one game owns, by kind (the same hash tag: one slot)."""
    from workers import store as st

    return {
        "snap": [st.k_snap(gid)],
        "log": [st.k_log(gid), st.k_logc(gid), st.k_logz(gid)],
        "idem": [st.k_idem(gid), st.k_idemq(gid), st.k_idemh(gid)],
        "events": [st.k_events(gid)],
        "posted": [st.k_snapv(gid)],
        "meta": [st.k_meta(gid), st.k_seats(gid), st.k_names(gid), st.k_lobby(gid)],
        "buttons": [st.k_buttons(gid)],
    }


def usage(store: Any, key: str) -> int:
    return int(store.r.memory_usage(key, samples=0) or 0)


def measure(store: Any, gid: str) -> dict[str, int]:
    return {kind: sum(usage(store, k) for k in keys) for kind, keys in game_keys(gid).items()}


def deliver(store: Any, client: Any) -> None:
    """What a running bot does meanwhile: build and deliver the game's outbox messages (which
    writes their buttons and lets go of the snapshots kept for drawing posted turns)."""
    for env in client.fetch("telegram", "bench", count=100, block_ms=1):
        client.render(env)
        client.mark_sent(env, ack="telegram")


def play(store: Any, client: Any, game: str, seed: int) -> tuple[str, int, dict[str, int], int]:
    """One complete game, every move by the automatic player; returns the game id, its move
    count, the breakdown at the running peak and the move it happened at."""
    from workers import lobby, pipeline

    chat = f"-100{seed}"
    gid = lobby.create(store, game, platform="telegram", chat=chat, user=A, name="alice", turn_hours=48)
    lobby.join(store, gid, B, "bob")
    lobby.begin(store, gid, A, seed=seed)
    moves, peak, peak_at = 0, measure(store, gid), 0
    while True:
        loaded = pipeline.load(store, gid)
        movers = sorted(loaded.game.to_move(loaded.state))
        if loaded.meta.get("status") != "active" or not movers:
            return gid, moves, peak, peak_at
        seat = movers[0]
        action = loaded.game.auto_action(loaded.state, seat, zlib.crc32(f"{gid}:{loaded.version}".encode()))
        text = loaded.game.notation(loaded.state, seat, action)
        res = pipeline.submit(store, gid, text=text, idem=f"m{loaded.version}", user=loaded.seats[seat])
        if not res.ok:
            raise SystemExit(f"{game} {gid}: the automatic player's {text!r} was refused: {res.message}")
        moves += 1
        deliver(store, client)
        now = measure(store, gid)
        if sum(now.values()) > sum(peak.values()):
            peak, peak_at = now, moves
        if moves > 20_000:
            raise SystemExit(f"{game} {gid}: no end after 20000 moves")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="complete games to play (default 3)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a game misses a target")
    args = parser.parse_args()

    from engine import find_game
    from workers.client import Client
    from workers.embedded import EmbeddedServer
    from workers.store import Store, k_logz, k_snap, unpack_snapshot

    game = "duellum"
    try:
        find_game(game)
    except Exception as exc:
        import tests.support.toy  # noqa: F401

        print(f"NOTE: Antike Duellum is not available ({exc}); measuring the toy game instead.")
        game = "toy"

    server = EmbeddedServer(Path(tempfile.mkdtemp(prefix="agora-bench-")) / "valkey", persist=False).start()
    ok = True
    try:
        store = Store.from_url(server.url)
        client = Client(server.url)
        print(f"{find_game(game).info.name}: {args.games} complete games, every move by the automatic player")
        print(
            f"{'game':>5} {'moves':>5} | {'running peak':>12} {'at move':>7} | {'snap':>5} {'log':>6} {'idem':>6} "
            f"{'events':>6} {'posted':>6} {'meta':>5} {'buttons':>7} | {'finished':>8} | {'raw JSON':>8} {'ratio':>5}"
        )
        for i in range(args.games):
            gid, moves, peak, peak_at = play(store, client, game, seed=4242 + i)
            entries = store.log(gid)
            assert store.archive(gid), "a finished game must archive"
            finished = usage(store, k_snap(gid)) + usage(store, k_logz(gid))
            raw = len(unpack_snapshot(store.r.get(k_snap(gid))).encode()) + sum(
                len(json.dumps(e, separators=(",", ":"))) for e in entries
            )
            assert store.log(gid) == entries
            running = sum(peak.values())
            ok = ok and running <= TARGET_BYTES and finished < TARGET_BYTES
            print(
                f"{gid:>5} {moves:>5} | {running:>12} {peak_at:>7} | {peak['snap']:>5} {peak['log']:>6} "
                f"{peak['idem']:>6} {peak['events']:>6} {peak['posted']:>6} {peak['meta']:>5} {peak['buttons']:>7} | "
                f"{finished:>8} | "
                f"{raw:>8} {running / raw:>5.2f}"
            )
        print(
            f"bytes (MEMORY USAGE ... SAMPLES 0). Targets: running peak <= {TARGET_BYTES}, finished snapshot + "
            f"log < {TARGET_BYTES}: " + ("met" if ok else "MISSED")
        )
        client.close()
        store.r.close()
    finally:
        server.stop()
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
