"""A game as the pipeline reads it: :class:`Loaded` (meta, seats, the state at one version).

Why a module of its own: every change of a game - a move, undo, a timeout, the automatic
player, the command layer's reads - starts from the same consistent read of the game, and the
rules about seats (who is a bot, who is on autopilot) are asked of it everywhere.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine import AnyGame, find_game
from workers.results import Rejected
from workers.store import Store

BOT = "bot"
K = TypeVar("K")
V = TypeVar("V")


@dataclass(slots=True)
class Loaded:
    """A game read from the store at one version."""

    gid: str
    meta: dict[str, str]
    game: AnyGame
    version: int
    state: Any
    seats: dict[int, str]
    # The snapshot text ``state`` was parsed from, when it was (``loaded_from``); empty for a
    # state computed in hand (a step just applied). What is worked out from a state alone can
    # be kept under this text (``commands.play.move_entries``): engine states never change in
    # place (``Game.apply`` returns a new one), so the text always describes ``state``.
    snap: str = ""

    @property
    def home(self) -> tuple[str, str]:
        platform, _, chat = self.meta.get("home", "console:local").partition(":")
        return platform, chat

    @property
    def tables(self) -> list[tuple[str, str]]:
        """Every chat that shows this game: the home chat, then the chats that joined it by
        its join code (``meta["tables"]``, ``platform:chat`` separated by spaces)."""
        extra = [t.partition(":") for t in self.meta.get("tables", "").split()]
        return [self.home, *[(p, c) for p, _, c in extra if c and (p, c) != self.home]]

    def seats_of(self, user: str) -> list[int]:
        return sorted(s for s, u in self.seats.items() if u == user)

    def automatic(self, seat: int) -> bool:
        """Whether the automatic player moves for ``seat``: a bot's seat, or a human's seat on
        autopilot after missed deadlines (until they type ``back``)."""
        return automatic(self.meta, self.seats, seat)


def automatic(meta: Mapping[str, str], seats: Mapping[int, str], seat: int) -> bool:
    """See :meth:`Loaded.automatic` (also used on a meta about to be committed)."""
    return seats.get(seat, BOT) == BOT or meta.get(f"auto:{seat}") == "1"


def load(store: Store, gid: str) -> Loaded:
    """Read meta, seats and the snapshot of ``gid``.

    Raises:
        Rejected: no such game, or it has not started.
    """
    # One MULTI for meta, snapshot and seats: read apart, a commit landing in between paired
    # the old meta (posted_v, deadline_at, status) with the new state and version.
    return loaded_from(gid, store.game_record(gid))


def loaded_from(gid: str, record: tuple[dict[str, str], int, str | None, dict[int, str]]) -> Loaded:
    """A :class:`Loaded` from a record read by the store (raises :class:`Rejected`)."""
    meta, version, snap, seats = record
    if not meta:
        raise Rejected("game/not_found", f"There is no game `{gid}`.")
    if meta.get("status") == "lobby":
        raise Rejected("game/not_started", "The game has not started yet. Use `begin` once everyone has joined.")
    if snap is None:
        raise Rejected("game/not_found", f"Game `{gid}` has no saved state.")
    game = find_game(meta["game"])
    return Loaded(gid, meta, game, version, parsed_state(game, snap), seats, snap)


class Kept(Generic[K, V]):
    """The newest ``size`` values this process worked out, by key (least recently used out
    first); shared by threads. For what is worked out from a snapshot's text alone (the parsed
    state here, a seat's move list in ``commands.play``), so a kept value cannot go stale."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


# Decision: the newest 64 snapshots read by this process are kept parsed (a few hundred KB).
# The outbox consumer builds a turn post and a prompt per seat from the same version (7 Wonders:
# up to 8 messages of one version), and each parsed the same snapshot again.
PARSED_KEPT = 64
_parsed: Kept[str, tuple[AnyGame, Any]] = Kept(PARSED_KEPT)


def parsed_state(game: AnyGame, snap: str) -> Any:
    """``game.load(json.loads(snap))``, from a copy kept of the same snapshot text when this
    process parsed it lately (issue 12: the CPU of a move).

    Why this cannot go stale: the key is the snapshot's whole text, not the game's id or
    version, so a different state (another move, an undo, another process's commit, a database
    flushed and refilled) is a different key; and every caller gets a copy of its own
    (``game.clone``, a deep copy by contract), so nothing a caller does to its state reaches the
    kept one."""
    hit = _parsed.get(snap)
    if hit is not None and hit[0] is game:
        return game.clone(hit[1])
    state = game.load(json.loads(snap))
    _parsed.put(snap, (game, game.clone(state)))
    return state


def display_names(store: Store, loaded: Loaded, names: Mapping[str, str] | None = None) -> list[str]:
    """``Romans (alice)`` per seat: the game's seat name plus who sits there (``names``: the
    game's names as read already, else read here)."""
    base = loaded.game.seat_names(loaded.state)
    if names is None:
        names = store.names(loaded.gid)
    out = []
    for seat, label in enumerate(base):
        who = names.get(str(seat))
        out.append(f"{label} ({who})" if who else label)
    return out
