"""What a submitted move is told: :class:`MoveResult`, and :class:`Rejected` for a refusal
before any engine call.

Why a module of its own: the answer crosses every boundary of a move - the worker stores it
for the move's idempotency key, the client waits for it in its mailbox, the command layer
turns it into the player's reply - so its shape is kept apart from the code that makes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class MoveResult:
    """What the submitter is told. ``message`` is always safe to show to that user."""

    ok: bool
    code: str
    message: str
    version: int = 0
    seat: int | None = None
    notation: str = ""
    duplicate: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    public_move: bool = False
    """The move itself is public knowledge (not a secret pick, not a card from a hand): in a
    game with hidden information its reply may then name it ("Done: buy legion roma.") where
    it otherwise says only "Done.". False by default, so an answer stored without it (before
    this field) never names a move."""
    # Not sent anywhere: whether the commit left work for the ``kick`` task (an automatic
    # player to wake, a finished game to archive), whether it posted a turn whose board is to
    # be drawn, and the game as the move left it (to draw that board without reading it).
    follow: bool = True
    board: bool = False
    after: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "code": self.code,
            "message": self.message,
            "version": self.version,
            "seat": self.seat,
            "notation": self.notation,
            "duplicate": self.duplicate,
            "events": self.events,
            "over": self.over,
            **({"public_move": True} if self.public_move else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MoveResult:
        return cls(**{k: data[k] for k in cls.__slots__ if k in data})  # type: ignore[attr-defined]


class Rejected(Exception):
    """A submission refused before any engine call (no game, not a player...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
