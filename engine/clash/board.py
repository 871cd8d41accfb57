"""The map: layout geometry, revealed terrain, distances, sea groups, exploration and Navigation.

Why geometry is cached per player count: the layouts are fixed data (data file section 4), so the
in-map neighbours of every hex, the slot of every hex and which hexes touch the map edge are
computed once; the state only records which tile lies face up in which slot and how it is turned.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from engine.clash.data import TABLES
from engine.clash.hexes import ring_neighbours
from engine.clash.state import Slot, State, slot_terrain


@dataclass(frozen=True, slots=True)
class Geometry:
    """Fixed facts of one layout."""

    hexes: frozenset[str]
    neighbours: dict[str, tuple[str, ...]]
    slot_of: dict[str, str]
    edge: frozenset[str]
    """Hexes with at least one side facing outside the layout."""
    ring: tuple[str, ...]


@lru_cache(maxsize=8)
def geometry(players: int) -> Geometry:
    """Geometry of the layout for ``players``."""
    layout = TABLES.layouts[players]
    hexes = {h for s in layout.slots for h in s.hexes}
    slot_of = {h: s.id for s in layout.slots for h in s.hexes}
    nb = {h: tuple(n for n in ring_neighbours(h) if n in hexes) for h in hexes}
    edge = frozenset(h for h in hexes if len(nb[h]) < 6)
    return Geometry(frozenset(hexes), nb, slot_of, edge, layout.ring)


def neighbours(state: State, space: str) -> tuple[str, ...]:
    """In-map neighbours of ``space`` (revealed or not)."""
    return geometry(state.players).neighbours[space]


def slot_of(state: State, space: str) -> Slot:
    """The slot holding ``space``."""
    sid = geometry(state.players).slot_of[space]
    for s in state.slots:
        if s.id == sid:
            return s
    raise KeyError(space)


def revealed(state: State, space: str) -> bool:
    """Whether ``space`` lies in a face-up region."""
    return space in state.terrain


def terrain(state: State, space: str) -> str:
    """Terrain of a revealed space (``""`` for an unrevealed one)."""
    return state.terrain.get(space, "")


def is_land(state: State, space: str) -> bool:
    """A revealed space that is not Sea."""
    t = state.terrain.get(space, "")
    return bool(t) and t != "sea"


def distances_from(state: State, start: str, limit: int = 99) -> dict[str, int]:
    """Distance to every space reachable through revealed spaces only (glossary: counting spaces)."""
    dist = {start: 0}
    queue = deque([start])
    nb = geometry(state.players).neighbours
    while queue:
        h = queue.popleft()
        d = dist[h]
        if d >= limit:
            continue
        for n in nb[h]:
            if n not in dist and n in state.terrain:
                dist[n] = d + 1
                queue.append(n)
    return dist


def distance(state: State, a: str, b: str) -> int:
    """Rules distance (paths through revealed spaces only); a large number when unreachable."""
    return distances_from(state, a).get(b, 999)


def sea_group(state: State, space: str) -> frozenset[str]:
    """The revealed Sea spaces connected to ``space`` by adjacency (``space`` included)."""
    seen = {space}
    queue = deque([space])
    nb = geometry(state.players).neighbours
    while queue:
        h = queue.popleft()
        for n in nb[h]:
            if n not in seen and state.terrain.get(n) == "sea":
                seen.add(n)
                queue.append(n)
    return frozenset(seen)


# ------------------------------------------------------------------ exploration
def placement(slot: Slot, rotated: bool) -> dict[str, str]:
    """Terrain per hex if the slot's tile were placed with this orientation."""
    return slot_terrain(Slot(slot.id, slot.hexes, slot.tile, True, rotated, slot.home))


def _connects(state: State, ter: dict[str, str], group: frozenset[str] | None) -> bool:
    """Some Sea hex of the placement is adjacent to revealed Sea (or to ``group``)."""
    nb = geometry(state.players).neighbours
    for h, t in ter.items():
        if t != "sea":
            continue
        for n in nb[h]:
            if group is None and state.terrain.get(n) == "sea":
                return True
            if group is not None and n in group:
                return True
    return False


def _touches_edge(state: State, ter: dict[str, str]) -> bool:
    edge = geometry(state.players).edge
    return any(t == "sea" and h in edge for h, t in ter.items())


def rules_2_3(state: State, slot: Slot, cands: list[bool]) -> list[bool]:
    """Exploration rules 2 (connect Sea) and 3 (Sea at the edge, D-09) on the remaining orientations."""
    if len(cands) < 2:
        return cands
    conn = [_connects(state, placement(slot, o), None) for o in cands]
    if conn[0] != conn[1]:
        return [o for o, c in zip(cands, conn, strict=True) if c]
    edge = [_touches_edge(state, placement(slot, o)) for o in cands]
    if edge[0] != edge[1]:
        return [o for o, e in zip(cands, edge, strict=True) if e]
    return cands


def land_orientations(state: State, slot: Slot, dest: str) -> list[bool]:
    """Orientations (``False`` = base, ``True`` = rotated 180°) left for a land explorer entering
    ``dest`` (rules 9.6: rule 1, then 2, then 3; two left = the explorer chooses)."""
    cands = [o for o in (False, True) if placement(slot, o)[dest] != "sea"]
    return rules_2_3(state, slot, cands)


def ship_orientations(state: State, slot: Slot, group: frozenset[str]) -> tuple[list[bool], bool]:
    """Orientations for a ship exploring from sea group ``group`` (rules 9.7), and whether the
    ship can enter the region (some orientation connects its Sea to the group)."""
    conn = [o for o in (False, True) if _connects(state, placement(slot, o), group)]
    if len(conn) == 1:
        return conn, True
    if len(conn) == 2:
        return rules_2_3(state, slot, [False, True]), True
    return rules_2_3(state, slot, [False, True]), False


def reveal(state: State, slot: Slot, rotated: bool) -> None:
    """Turn the slot's tile face up with the given orientation."""
    slot.revealed = True
    slot.rotated = rotated
    state.terrain.update(slot_terrain(slot))


def unrevealed_slots_next_to(state: State, spaces: frozenset[str] | set[str]) -> dict[str, list[str]]:
    """Unrevealed slots with a hex adjacent to ``spaces``: slot id -> those hexes, sorted."""
    out: dict[str, set[str]] = {}
    geo = geometry(state.players)
    for h in spaces:
        for n in geo.neighbours[h]:
            if n not in state.terrain:
                out.setdefault(geo.slot_of[n], set()).add(n)
    return {k: sorted(v) for k, v in sorted(out.items())}


# ------------------------------------------------------------------ navigation
def navigation_targets(state: State, group: frozenset[str]) -> list[tuple[str, str]]:
    """Where a ship of ``group`` may go around the board edge (data file 4.5).

    Returns ``(kind, where)`` pairs: ``("sea", hex)`` for every hex of a reached sea group,
    ``("explore", hex)`` for the hex of an unrevealed region reached first."""
    ring = geometry(state.players).ring
    n = len(ring)
    exits = [i for i, h in enumerate(ring) if h in group]
    found: set[tuple[str, str]] = set()
    for e in exits:
        for step in (1, -1):
            i = e
            for _ in range(n):
                i = (i + step) % n
                h = ring[i]
                if h not in state.terrain:
                    found.add(("explore", h))
                    break
                if h in group or state.terrain[h] != "sea":
                    continue
                for g in sea_group(state, h):
                    found.add(("sea", g))
                break
    return sorted(found)
