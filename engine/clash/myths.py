"""Myths (rules 12.4, 18.5): 1 mood token per city prevents an event's mood decrease there.

Why an entry point for the event cards (:func:`event_mood_loss`) instead of code inside each
event: every event that lowers moods (Plague, Flood, Migration, Civil War, Earthquake, Famine's
"becomes angry") must offer the same choice, city by city, to the player who owns Myths; the
event code calls this once with the cities it hits and, if it has more to do afterwards, passes
its own pending choice as ``then``, which is reopened when the Myths choice is over.
Barbarian attacks do not use it (Myths cannot prevent their consequences, rules 11.3).
"""

from __future__ import annotations

from typing import Any

from engine.clash.actions import Action
from engine.clash.data import TABLES
from engine.clash.state import MOODS, City, State
from engine.core.events import Event, public
from engine.core.text import join_words


def colour(seat: int) -> str:
    """Seat display name."""
    return TABLES.colours[seat]


def _lower(city: City, angry: bool) -> None:
    city.mood = "angry" if angry else MOODS[max(0, MOODS.index(city.mood) - 1)]


def event_mood_loss(
    state: State, seat: int, spaces: list[str], angry: bool = False, then: dict[str, Any] | None = None
) -> list[Event]:
    """An event lowers the mood of ``seat``'s cities on ``spaces`` one step (``angry``: makes
    them angry). With Myths and a mood token the player first chooses the cities he protects.

    When the choice is opened (``state.pending`` is then a ``myths`` choice) the caller stops and
    ``then`` is reopened once the choice is over; otherwise everything happened at once, the caller
    simply goes on and ``then`` is not used."""
    hit = [s for s in spaces if (c := state.city_at(s)) is not None and c.owner == seat and c.mood != "angry"]
    p = state.pl[seat]
    if hit and "myths" in p.advances and p.mood_tokens >= 1:
        state.pending = {"kind": "myths", "seat": seat, "cities": hit, "angry": angry, "then": then or {}}
        return [public(f"{colour(seat)} may pay 1 mood token per city to keep its mood (Myths).", "event")]
    return _finish(state, seat, hit, angry, None, resume=False)


def myths_options(state: State) -> list[Action]:
    """Protect one of the cities still hit, or let the rest lose their mood."""
    return [Action("myths", space=s) for s in state.pending["cities"]] + [Action("nomyths")]


def answer_myths(state: State, seat: int, a: Action) -> list[Event]:
    """Pay for one city (and ask again while tokens and cities are left) or finish."""
    pend = state.pending
    hit = [s for s in pend["cities"] if s != a.space]
    angry = bool(pend["angry"])
    then = dict(pend.get("then") or {})
    state.pending = {}
    events: list[Event] = []
    if a.kind == "myths":
        p = state.pl[seat]
        p.mood_tokens -= 1
        city = state.city_at(a.space)
        name = city.name if city is not None else a.space.upper()
        events.append(public(f"{colour(seat)} pays 1 mood token: {name} keeps its mood (Myths).", "event"))
        if hit and p.mood_tokens >= 1:
            state.pending = {"kind": "myths", "seat": seat, "cities": hit, "angry": angry, "then": then}
            return events
    events.extend(_finish(state, seat, hit, angry, then, resume=True))
    return events


def _finish(
    state: State, seat: int, hit: list[str], angry: bool, then: dict[str, Any] | None, resume: bool
) -> list[Event]:
    """Lower the moods; after an answered choice, reopen ``then`` or go on with the status phase."""
    cities = [c for s in hit if (c := state.city_at(s)) is not None]
    for c in cities:
        _lower(c, angry)
        state.changed.append(c.space)
    events = []
    if cities:
        what = join_words(f"{c.name} becomes {c.mood}" for c in cities)
        events.append(public(f"{colour(seat)}: {what}.", "event"))
    if not resume:
        return events
    if then:
        state.pending = dict(then)
    elif state.phase == "status" and not state.pending:
        from engine.clash.turns import run_status

        events.extend(run_status(state))
    return events
