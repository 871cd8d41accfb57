"""``agora play``: a local game in the terminal through the real Redis + Celery pipeline.

Why the same path as production: a newcomer's first game exercises exactly what a Telegram
table does (commit, outbox, automatic players, board images), so what works here works there.
The terminal is one more platform (``console``): replies are printed, board images are
written as PNG files into a folder named at start.
"""

from __future__ import annotations

import itertools
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from workers.client import COMMANDS, Client, Context, Part, game_players, local_services

PLATFORM = "console"
_BOLD = re.compile(r"\*\*(.+?)\*\*")


@dataclass
class ConsoleTable:
    """One local game: who sits where, and the outbox reader that prints the table's news."""

    client: Client
    chat: str
    humans: list[str]
    images: Path
    out: TextIO
    gid: str = ""
    over: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _ids: Iterable[int] = field(default_factory=lambda: itertools.count(1))
    shown: list[str] = field(default_factory=list)

    def ctx(self, user: str) -> Context:
        return Context(
            PLATFORM, self.chat, user, user, private=False, idem=f"console:{self.chat}:{next(iter(self._ids))}"
        )

    def print(self, text: str) -> None:
        with self.lock:
            self.out.write(_BOLD.sub(r"\1", text) + "\n")
            self.out.flush()

    def show(self, parts: list[Part], who: str = "", *, dedupe: bool = False) -> None:
        """Print reply parts; with ``dedupe``, skip lines this terminal already printed (a
        posted turn repeats the events the player saw as the reply to their own move)."""
        for part in parts:
            prefix = f"[private to {who}] " if part.private and who else ""
            lines = part.text.splitlines()
            if dedupe:
                lines = [ln for ln in lines if ln not in self.shown]
            self.shown = (self.shown + part.text.splitlines())[-200:]
            text = "\n".join(lines)
            if part.image:
                path = self.images / f"{self.gid or 'agora'}-{int(time.time() * 1000)}-{part.image_name}"
                path.write_bytes(part.image)
                text += f"\n  (image: {path})"
            if text:
                self.print(prefix + text)

    def deliver_forever(self) -> None:
        """Print outbox messages of this table until stopped (the console's delivery loop)."""
        consumer = f"console-{self.chat}"
        while not self.stop.is_set():
            for env in self.client.fetch(PLATFORM, consumer, block_ms=200):
                if env.message.get("game") != self.gid:
                    continue
                if not self.client.already_sent(env):
                    part = self.client.render(env)
                    if part is not None:
                        who = str(env.message.get("user", "")).split(":", 1)[-1]
                        if env.message.get("type") == "turn":
                            self.print("—" * 60)
                        self.show([part], who if part.private else "", dedupe=True)
                        if part.text.startswith("🏁") or "🏁 Game over" in part.text:
                            self.over.set()
                    self.client.mark_sent(env)
                self.client.ack(PLATFORM, env)


def play(
    game: str,
    *,
    seed: int | None,
    options: dict[str, str],
    human: str,
    players: int | None,
    images: Path,
    data_dir: Path,
    stdin: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    hours: float = 0,
) -> int:
    """Run a local game; returns the process exit code."""
    lo, hi = game_players(game)
    n = players or lo
    if not lo <= n <= hi:
        out.write(f"{game} is for {lo}–{hi} players; --players {n} is not possible.\n")
        return 2
    humans = {"none": [], "1": ["you"], "2": ["you"], "both": ["you", "friend"]}.get(human)
    if humans is None:
        out.write("--human takes 1, 2, both or none.\n")
        return 2
    humans = humans[:n]
    images.mkdir(parents=True, exist_ok=True)
    out.write(f"Starting the store and a worker (data in {data_dir}) …\n")
    out.flush()
    with local_services(data_dir) as services:
        client = Client(services.redis_url)
        chat = f"local-{int(time.time())}"
        table = ConsoleTable(client, chat, humans, images, out)
        creator = humans[0] if humans else "host"
        opts = " ".join(f"{k}={v}" for k, v in options.items())
        hours_opt = f" hours={hours:g}"
        reply = client.command(table.ctx(creator), f"new {game} {opts}{hours_opt}".strip())
        table.show(reply)
        if not reply[0].ok:
            return 2
        table.gid = reply[0].text.split("`")[1]
        for friend in humans[1:]:
            table.show(client.command(table.ctx(friend), "join"))
        if not humans:
            client.command(table.ctx(creator), "leave")
        order = " order=bots-first" if human == "2" else ""
        seed_opt = f" seed={seed}" if seed is not None else ""
        reader = threading.Thread(target=table.deliver_forever, name="console-outbox", daemon=True)
        reader.start()
        table.show(client.command(table.ctx(creator), f"begin bots={n - len(humans)}{order}{seed_opt}"))
        table.print(f"Board images are written to {images.resolve()}.")
        if humans:
            table.print(
                "Type moves (e.g. the examples under `moves`), or commands: "
                + ", ".join(c for c in COMMANDS if c not in ("new", "join", "leave", "begin", "games"))
                + ". `quit` leaves (the game stays saved)."
            )
            _input_loop(table, stdin)
        else:
            table.print("Two automatic players are playing; press Ctrl-C to stop watching.")
            while not table.over.wait(0.5):
                pass
        time.sleep(0.3)
        table.stop.set()
        reader.join(5)
        client.close()
    return 0


def _input_loop(table: ConsoleTable, stdin: TextIO) -> None:
    client = table.client
    known = set(COMMANDS) | {"start", "m", "h", "?"}
    while not table.over.is_set():
        try:
            line = stdin.readline()
        except KeyboardInterrupt:
            break
        if not line:
            # End of input (piped moves): let the automatic players finish their turn.
            table.over.wait(2.0)
            break
        line = line.strip()
        if not line:
            continue
        if line.lower() in ("quit", "exit"):
            break
        word = line.split()[0].lstrip("/").lower()
        text = line if word in known else f"move {line}"
        if text.startswith("move "):
            _wait_for_turn(table)
        reply = _as_whoever_can(table, text, client.command)
        table.show(reply, who="you", dedupe=text.startswith("move "))


def _wait_for_turn(table: ConsoleTable, timeout: float = 60.0) -> None:
    """Piped or fast typing: hold a move until the automatic players have finished theirs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not table.over.is_set():
        if table.client.game_status(table.gid) != "active":
            return
        if any(table.client.awaits(table.gid, PLATFORM, u) for u in table.humans):
            return
        time.sleep(0.05)


def _as_whoever_can(table: ConsoleTable, text: str, run: Callable[[Context, str], list[Part]]) -> list[Part]:
    """Hot seat: act as the first human for whom the command is not "not your turn"."""
    reply: list[Part] = []
    for user in table.humans:
        reply = run(table.ctx(user), text)
        if reply and reply[0].code != "action/not_your_turn":
            return reply
    return reply
