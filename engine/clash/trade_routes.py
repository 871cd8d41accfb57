"""Trade Routes (rules 18.6): a maximum matching between your settlers/ships and other players'
non-angry cities within 2 spaces, capped at 4.

Why a real matching: each unit serves one city and each city one unit (CC-EX-12); a greedy pairing
can miss routes when one unit is near two cities.
"""

from __future__ import annotations

from engine.clash.board import distances_from
from engine.clash.state import State


def route_count(state: State, seat: int) -> int:
    """Number of trade routes of ``seat`` now (at most 4)."""
    targets = [c for c in state.cities if c.owner >= 0 and c.owner != seat and c.mood != "angry"]
    if not targets:
        return 0
    units = [u for u in state.units if u.owner == seat and u.kind in ("settler", "ship")]
    edges: list[list[int]] = []
    for u in units:
        dist = distances_from(state, u.space, 2)
        edges.append([i for i, c in enumerate(targets) if dist.get(c.space, 99) <= 2])
    match: dict[int, int] = {}

    def augment(ui: int, seen: set[int]) -> bool:
        for ci in edges[ui]:
            if ci in seen:
                continue
            seen.add(ci)
            if ci not in match or augment(match[ci], seen):
                match[ci] = ui
                return True
        return False

    n = 0
    for ui in range(len(units)):
        if augment(ui, set()):
            n += 1
    return min(4, n)
