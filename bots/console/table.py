"""One local game on the terminal: the outbox reader that prints the table's news, and the
board images written as files.

Why the outbox: the console is one more platform (``console``). What a Telegram group gets as
a photo with a caption, the terminal gets as text plus a PNG file named after the game and
the turn, so a player can open exactly the board they are reading about.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from bots.console.terminal import Terminal
from workers.client import Client, Context, Part

PLATFORM = "console"
log = logging.getLogger(__name__)


@dataclass
class ConsoleTable:
    """One local game: who sits where, and what has been shown of it.

    Attributes:
        humans: the user ids typing at this terminal (``you``; ``you`` and ``friend`` in hot seat).
        images: the folder board images are written to.
        printed: the outbox keys already printed (a redelivered message is shown once).
        shown_v: the newest turn version printed, for the "your turn" hint.
        since_post: lines of this terminal's own move replies since the last turn post.
    """

    client: Client
    chat: str
    humans: list[str]
    images: Path
    term: Terminal
    gid: str = ""
    over: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    printed: set[str] = field(default_factory=set)
    shown_v: int = 0
    since_post: list[str] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _run: str = field(default_factory=lambda: str(time.time_ns()))

    def __post_init__(self) -> None:
        self.released.set()

    def ctx(self, user: str) -> Context:
        """The context of a line typed by ``user``; every line gets its own idempotency key."""
        return Context(
            PLATFORM,
            self.chat,
            user,
            _display(user),
            private=False,
            idem=f"console:{self._run}:{next(self._ids)}",
            buttons=False,
        )

    def image_path(self, version: int, kind: str) -> Path:
        """``g1-turn-018-board.png``: by game, turn (moves so far) and kind."""
        return self.images / f"{self.gid}-turn-{version:03d}-{kind}.png"

    def show(self, parts: list[Part], *, version: int | None = None, who: str = "") -> None:
        """Print every part of a reply; images become files named after the turn."""
        for part in parts:
            text = part.text
            if part.image:
                v = version if version is not None else self._version()
                kind = "board" if part.image_name.startswith("board") else f"hand-{who or 'you'}"
                path = self.image_path(v, kind)
                path.write_bytes(part.image)
                text += f"\n  (image: {path.name})"
            if part.pages:  # the board's further images (one per city in The Capitals)
                v = version if version is not None else self._version()
                paths = [self.image_path(v, f"page{i}") for i in range(1, len(part.pages) + 1)]
                for path, png in zip(paths, part.pages, strict=True):
                    path.write_bytes(png)
                text += "\n  (" + ("images: " if len(paths) > 1 else "image: ") + ", ".join(p.name for p in paths) + ")"
            if text:
                prefix = f"[for {_display(who)} only] " if part.private and who and len(self.humans) > 1 else ""
                self.term.print(prefix + text)

    def hold(self) -> None:
        """Hold turn posts while a typed move is answered (released by :meth:`echo`)."""
        self.released.clear()

    def echo(self, parts: list[Part]) -> None:
        """Remember the events of a successful move reply (the next turn post repeats them)."""
        for part in parts:
            if part.ok and not part.private:
                self.since_post += part.text.splitlines()
        self.released.set()

    def _version(self) -> int:
        info = self.client.game_summary(self.gid) or {}
        return int(info.get("version", 0))

    def deliver_forever(self) -> None:
        """Print this table's outbox messages until stopped (the console's delivery loop).

        A connection error while the services stop is expected and ends the loop quietly; any
        other failure is logged and the loop goes on after a short pause."""
        consumer = f"console-{self.chat}"
        while not self.stop.is_set():
            try:
                self._deliver_batch(consumer)
            except Exception:
                if self.stop.is_set():
                    return
                log.warning("the console could not read the table's news; retrying", exc_info=True)
                self.stop.wait(1.0)

    def _deliver_batch(self, consumer: str) -> None:
        for env in self.client.fetch(PLATFORM, consumer, block_ms=200):
            if self.stop.is_set():
                return
            message = env.message
            if message.get("game") != self.gid:
                self.client.ack(PLATFORM, env)
                continue
            if env.key not in self.printed and not self.client.already_sent(env):
                part = self.client.render(env)
                if part is not None:
                    self._print_message(message, part)
                self.client.mark_sent(env)
            self.printed.add(env.key)
            self.client.ack(PLATFORM, env)

    def _print_message(self, message: dict[str, object], part: Part) -> None:
        kind = message.get("type")
        who = str(message.get("user", "")).split(":", 1)[-1]
        if kind == "turn":
            # A move typed here is being answered: its reply comes first, then the turn post.
            self.released.wait(30)
            version = int(str(message.get("version", 0)))
            self.term.print("—" * 60)
            self.show([_without_echo(part, self.since_post)], version=version)
            self.since_post = []
            self.shown_v = max(self.shown_v, version)
            if "🏁" in part.text:
                self.over.set()
        elif kind == "prompt":
            # The hint below the prompt says whose turn it is; the full move list is one
            # `moves` away, so a prompt is not repeated here.
            return
        else:
            self.show([part], who=who if part.private else "")


def _without_echo(part: Part, echoed: list[str]) -> Part:
    """The turn post without the lines it opens with that the player just read as the reply
    to their own moves.

    Decision: a turn post repeats every event since the previous post, including the events of
    the moves typed here, which were printed a moment ago as their replies. Only that exact
    leading run is left out (the same lines, in the same order, since the last post); nothing
    else is ever dropped, so an opponent's whole turn and repeated refusals are always shown."""
    lines = part.text.splitlines()
    mine = [ln for ln in echoed if ln]
    if not mine or lines[: len(mine)] != mine:
        return part
    return replace(part, text="\n".join(lines[len(mine) :]))


def _display(user: str) -> str:
    """How a local player is named in the game: ``You``, or ``Friend`` in hot seat."""
    return user[:1].upper() + user[1:]
