"""Victory points, tie-breaks and the outcome (rules section 17).

Why points are counted in halves: advances score ½ each, so integer halves keep the arithmetic
exact; the outcome shows the real values.
"""

from __future__ import annotations

from typing import Any

from engine.clash.data import RULES, TABLES
from engine.clash.state import State
from engine.core.api import Outcome


def breakdown(state: State, seat: int) -> dict[str, int]:
    """Points of ``seat`` per source, in halves (pieces, advances, wonders, objectives, events)."""
    p = state.pl[seat]
    vp = RULES["vp"]
    pieces = 0
    for c in state.cities:
        if c.owner == seat:
            pieces += 1
        pieces += sum(1 for col in c.pieces.values() if col == seat)
    wonders = sum(1 for c in state.cities if c.owner == seat and c.wonder)
    return {
        "pieces": 2 * vp["piece"] * pieces,
        "advances": vp["advance_halves"] * len(p.advances),
        "wonders": 2 * vp["wonder"] * wonders,
        "objectives": 2 * vp["objective"] * len(p.objectives),
        "events": p.event_halves,
    }


def halves(state: State, seat: int) -> int:
    """Total points in halves."""
    return sum(breakdown(state, seat).values())


def show(h: int) -> str:
    """Halves as points text: ``25`` or ``25.5``."""
    return f"{h // 2}" + (".5" if h % 2 else "")


def rank_key(state: State, seat: int) -> tuple[int, ...]:
    """Total, then the Pyramids owner (D-20), then pieces, advances, wonders, objectives, events."""
    b = breakdown(state, seat)
    pyramids = any(c.owner == seat and c.wonder == "pyramids" for c in state.cities)
    return (halves(state, seat), int(pyramids), b["pieces"], b["advances"], b["wonders"], b["objectives"], b["events"])


def outcome(state: State) -> Outcome:
    """Scores (points rounded down; exact values in the details), ranking with tie-breaks."""
    keys = {s: rank_key(state, s) for s in range(state.players)}
    tiers: list[tuple[int, ...]] = []
    for k in sorted(set(keys.values()), reverse=True):
        tiers.append(tuple(s for s in range(state.players) if keys[s] == k))
    names = TABLES.colours
    top = tiers[0]
    best = show(halves(state, top[0]))
    who = " and ".join(names[s] for s in top)
    reason = f"{who} {'wins' if len(top) == 1 else 'share the victory'} with {best} points ({state.end_reason})."
    details: dict[str, Any] = {
        names[s]: {k: show(v) for k, v in breakdown(state, s).items()} | {"total": show(halves(state, s))}
        for s in range(state.players)
    }
    return Outcome(
        scores={s: halves(state, s) // 2 for s in range(state.players)},
        ranking=tuple(tiers),
        reason=reason,
        details=details,
    )
