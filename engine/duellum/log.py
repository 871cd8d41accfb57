"""Narration: public and private events, and the running record of the turn for the view.

Why a collector object: every rule module narrates what it did; the collector adds the touched
region ids to the event data (the renderer highlights them) and keeps ``last_turn`` in the state
up to date, so no rule module has to know about either.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.events import Event
from engine.duellum.state import State

SUMMARY_LIMIT = 40


class Log:
    """Collects the events of one ``apply``."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def nation(self, seat: int) -> str:
        """The seat's nation name (``Romans``)."""
        return self.state.map.nations[seat]

    def region(self, r: int) -> str:
        """A region's display name."""
        return self.state.map.names[r]

    def say(self, text: str, kind: str = "info", regions: Iterable[int] = (), **data: Any) -> None:
        """A public event; its regions are recorded for ``last_turn``."""
        regs = list(dict.fromkeys(regions))
        ids = self.state.map.ids
        payload: dict[str, Any] = {"regions": [ids[r] for r in regs]}
        payload.update(data)
        self.events.append(Event(text, None, kind, payload))
        rec = self.state.record
        for r in regs:
            if r not in rec.regions:
                rec.regions.append(r)
        if len(rec.summary) < SUMMARY_LIMIT:
            rec.summary.append(text)

    def tell(self, seat: int, text: str, kind: str = "info", **data: Any) -> None:
        """A private event for one seat only."""
        self.events.append(Event(text, frozenset([seat]), kind, dict(data)))
