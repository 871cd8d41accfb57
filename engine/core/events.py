"""Events: what ``apply`` narrates, each with an audience.

Why an audience on every event: the same step can tell the table "Rome bought a card" while
telling only Rome which card. Adapters deliver ``public`` events to the game's channel and
private ones only to the seats listed; nothing else decides who sees what.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One sentence for the chat log.

    Attributes:
        text: a human sentence, already safe for its audience.
        seats: ``None`` for a public event, else the seats that may see it.
        kind: a short machine tag (``"move"``, ``"battle"``, ``"reveal"``) for styling.
        data: JSON-able details for renderers (e.g. the regions to highlight).
    """

    text: str
    seats: frozenset[int] | None = None
    kind: str = "info"
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def public(self) -> bool:
        """True when every player and spectator may see it."""
        return self.seats is None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) may see this event."""
        return self.seats is None or (seat is not None and seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        """JSON form, used by the store and the outbox."""
        return {
            "text": self.text,
            "seats": None if self.seats is None else sorted(self.seats),
            "kind": self.kind,
            "data": dict(self.data),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        seats = data.get("seats")
        return cls(
            text=str(data["text"]),
            seats=None if seats is None else frozenset(int(s) for s in seats),
            kind=str(data.get("kind", "info")),
            data=dict(data.get("data") or {}),
        )


def public(text: str, kind: str = "info", **data: Any) -> Event:
    """A public event."""
    return Event(text, None, kind, data)


def private(seats: int | Iterable[int], text: str, kind: str = "info", **data: Any) -> Event:
    """An event only ``seats`` may see."""
    group = frozenset([seats]) if isinstance(seats, int) else frozenset(seats)
    return Event(text, group, kind, data)
