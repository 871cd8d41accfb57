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
from workers.client import HIDDEN_REFUSAL, Client, Context, Part

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
        private_echo: private lines of those replies (a hand, a secret choice) that the
            outbox's private message for the same move would print a second time.
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
    private_echo: list[str] = field(default_factory=list)
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
        """``g1-turn-018-board.png``: by game, step (moves so far, the number `log` gives) and kind."""
        return self.images / f"{self.gid}-turn-{version:03d}-{kind}.png"

    def show(self, parts: list[Part], *, version: int | None = None, who: str = "") -> None:
        """Print every part of a reply; images become files named after the turn."""
        detailed = any(p.private and not p.ok for p in parts)
        for part in parts:
            if detailed and part.text == HIDDEN_REFUSAL:
                # A chat keeps a refusal's hidden reason for the private chat; the terminal prints
                # that reason right here, so "only given in our private chat" would be false.
                continue
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
        """Remember the events of a successful move reply (the next turn post repeats them), and
        its private lines (the private message the move queued repeats those)."""
        for part in parts:
            if part.ok and not part.private:
                self.since_post += part.text.splitlines()
            elif part.ok:
                self.private_echo += [line for line in part.text.splitlines() if line]
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
            self.private_echo = []  # a move's private message comes before its turn post
            self.shown_v = max(self.shown_v, version)
            if "🏁" in part.text:
                self.over.set()
        elif kind == "prompt":
            # The hint below the prompt says whose turn it is; the full move list is one
            # `moves` away, so a prompt is not repeated here.
            return
        elif kind == "private":
            self.released.wait(30)  # the reply to a move typed here comes first
            if not _echoed_already(part.text, self.private_echo):
                self.show([part], who=who)
        else:
            self.show([part], who=who if part.private else "")


def _echoed_already(text: str, echoed: list[str]) -> bool:
    """Whether every line of a private message was just printed as part of the reply to a move
    typed here (then those lines are taken out of ``echoed``, and the message is not printed).

    Why: the reply to a secret choice shows the choice and the hand left, and the private
    message the move queued for that seat says the same; the console, where both reach the
    same person, printed them twice in a row. A message with any line not in the reply (what
    another seat's move did to this hand, a hot-seat friend's hand) is printed whole."""
    lines = [line for line in text.splitlines() if line]
    rest = list(echoed)
    for line in lines:
        if line not in rest:
            return False
        rest.remove(line)
    if not lines:
        return False
    echoed[:] = rest
    return True


def _without_echo(part: Part, echoed: list[str]) -> Part:
    """The turn post without the lines that the player just read as the reply to their own
    moves.

    Decision: a turn post repeats every event since the previous post, including the events of
    the moves typed here, which were printed a moment ago as their replies. Only that exact run
    is left out (the same lines, in the same order, as one block: at the start of the post, or
    after the lines of moves made before the typed one, such as the automatic players' secret
    choices in a simultaneous round of 7 Wonders); nothing else is ever dropped, so an
    opponent's whole turn and repeated refusals are always shown."""
    lines = part.text.splitlines()
    mine = [ln for ln in echoed if ln]
    if not mine:
        return part
    for at in range(len(lines) - len(mine) + 1):
        if lines[at : at + len(mine)] == mine:
            return replace(part, text="\n".join(lines[:at] + lines[at + len(mine) :]))
    return part


def _display(user: str) -> str:
    """How a local player is named in the game: ``You``, or ``Friend`` in hot seat."""
    return user[:1].upper() + user[1:]
