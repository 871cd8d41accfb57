"""Simulated players: threads that type moves through the command layer
(``workers.client.Client.command``), as a chat adapter would, and write down every answer.

A player picks its seat's move with the game's automatic player, sends ``move <notation>`` with
an idempotency key of its own (a chat's update id), and while the answer is "queued" or an
apology (a worker or the store is down) sends the same command again with the same key, as a
retrying client does. Only an answer that says the move was applied counts as "told accepted".
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from workers import lobby, pipeline
from workers.client import Client, Context, Part
from workers.store import Store

PLATFORM = "telegram"
Sender = Callable[[Context, str], list[Part]]


@dataclass(frozen=True)
class Accepted:
    gid: str
    key: str
    seat: int
    text: str
    version: int  # the version the player was told about (-1 when the reply did not say)


@dataclass
class Tally:
    """What the players saw, shared by all their threads (guarded by ``lock``)."""

    accepted: list[Accepted] = field(default_factory=list)
    refused: list[tuple[str, str, str, str]] = field(default_factory=list)  # gid, key, code, text
    apologies: int = 0  # "something went wrong" / "queued" answers, each followed by a retry
    applied_anyway: dict[str, int] = field(default_factory=dict)  # ... by answer code, of which the
    # move had been applied (its key committed) all the same: "queued" says so, an apology does not
    errors: int = 0  # exceptions raised to the player thread (the client itself failed)
    latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def new_games(store: Store, n: int, game: str = "duellum", seed: int = 1) -> list[str]:
    """``n`` started two-player tables on Telegram, each in its own group, players with an
    open private chat (so prompts go there)."""
    gids = []
    for i in range(n):
        users = [f"{PLATFORM}:{1000 + 2 * i}", f"{PLATFORM}:{1001 + 2 * i}"]
        for u in users:
            store.touch_user(u, f"P{u[-4:]}", f"dm{u.split(':')[1]}")
        chat = f"-100{i}"
        gid = lobby.create(store, game, platform=PLATFORM, chat=chat, user=users[0], name="Ann", turn_hours=48)
        lobby.join(store, gid, users[1], "Bo")
        res = lobby.begin(store, gid, users[0], seed=seed + i)
        assert res.ok, res
        gids.append(gid)
    return gids


class Players:
    """``threads`` threads share the games; each game is played by one thread at a time."""

    def __init__(self, client: Client, gids: list[str], *, threads: int = 8, max_moves: int = 10**9) -> None:
        self.client = client
        self.gids = gids
        self.tally = Tally()
        self.stop = threading.Event()
        self.max_moves = max_moves
        self.moves: dict[str, int] = dict.fromkeys(gids, 0)
        self.threads = [
            threading.Thread(target=self._run, args=(gids[i::threads],), daemon=True, name=f"player-{i}")
            for i in range(min(threads, len(gids)))
        ]

    def start(self) -> Players:
        for t in self.threads:
            t.start()
        return self

    def join(self, timeout: float = 60) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout)

    def _run(self, gids: list[str]) -> None:
        done: set[str] = set()
        while not self.stop.is_set() and len(done) < len(gids):
            for gid in gids:
                if gid in done or self.stop.is_set():
                    continue
                try:
                    if not self.play_one(gid):
                        done.add(gid)
                except Exception:  # the store is down: the player waits and tries again
                    with self.tally.lock:
                        self.tally.errors += 1
                    time.sleep(0.2)

    def play_one(self, gid: str) -> bool:
        """One move of ``gid`` (retried with its key until answered); False when it is over."""
        move = self.prepare(gid)
        if move is None:
            return False
        ctx, seat, text = move
        self.submit(gid, ctx, seat, text)
        return True

    def prepare(self, gid: str) -> tuple[Context, int, str] | None:
        """The next move of ``gid``: (context with its idempotency key, seat, notation), or
        None when the game is over (or has had its moves)."""
        if self.moves[gid] >= self.max_moves:
            return None
        loaded = pipeline.load(self.client.store, gid)
        movers = sorted(loaded.game.to_move(loaded.state))
        if loaded.meta.get("status") != "active" or not movers:
            return None
        seat = movers[0]
        action = loaded.game.auto_action(loaded.state, seat, zlib.crc32(f"{gid}:{loaded.version}".encode()))
        text = loaded.game.notation(loaded.state, seat, action)
        key = f"u{gid}:{loaded.version}:{seat}"  # one chat update per intended move
        user = loaded.seats[seat]
        self.moves[gid] += 1
        uid = user.split(":", 1)[1]
        if loaded.game.info.hidden_information:  # a secret choice is typed in the private chat
            return Context(PLATFORM, f"dm{uid}", uid, "P", private=True, idem=key), seat, text
        return Context(PLATFORM, f"-100{gid}", uid, "P", idem=key), seat, text

    def submit(
        self, gid: str, ctx: Context, seat: int, text: str, *, retries: int = 200, send: Sender | None = None
    ) -> str:
        """Send ``move text`` (through ``send``, the client's ``command`` by default) until an
        answer that is not "queued" or an apology; returns "accepted", "refused" or "gave-up"."""
        send = send or self.client.command
        for _ in range(retries):
            t0 = time.monotonic()
            try:
                reply = send(ctx, f"move {gid} {text}")
            except Exception:
                with self.tally.lock:
                    self.tally.errors += 1
                time.sleep(0.2)
                continue
            first = reply[0] if reply else None
            if first is not None and first.ok:
                with self.tally.lock:
                    self.tally.accepted.append(Accepted(gid, ctx.idem, seat, text, -1))
                    self.tally.latencies.append(time.monotonic() - t0)
                return "accepted"
            code = first.code if first is not None else "empty"
            if code in ("internal", "pipeline/queued", "store/busy", "empty"):
                time.sleep(0.2)
                try:
                    applied = self.client.store.idem_result(gid, ctx.idem) is not None
                except Exception:
                    applied = False
                with self.tally.lock:
                    self.tally.apologies += 1
                    if applied:
                        self.tally.applied_anyway[code] = self.tally.applied_anyway.get(code, 0) + 1
                continue
            with self.tally.lock:
                self.tally.refused.append((gid, ctx.idem, code, first.text if first else ""))
            return "refused"
        return "gave-up"
