"""Board queries the rules refer to by name (spec section 16): adjacency through trireme
chains, war-torn and blocked provinces, credited buildings, role scores, piece supplies.

Why one module of pure queries: every phase needs them, and keeping them side-effect free
(except :func:`clear_war_placements`) makes the rules modules read like the spec.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.mare_nostrum.data import CIV_DATA, PLAYER_PIECES, PROVINCES, SEAS
from engine.mare_nostrum.state import State, Unit

LAND = ("legion", "fortress")


def capital(civ: str) -> str:
    """The civilization's fixed capital province."""
    return CIV_DATA[civ].capital


def units_at(s: State, loc: str, civ: str | None = None, kinds: Iterable[str] = LAND) -> list[Unit]:
    """Units standing at ``loc`` (of ``civ`` if given) of the given kinds; docked triremes are
    never land units."""
    ks = tuple(kinds)
    return [u for u in s.units if u.loc == loc and u.kind in ks and (civ is None or u.civ == civ)]


def sides_in(s: State, pid: str) -> list[str]:
    """Sides with land units (legions or fortresses) in ``pid``, in canonical order."""
    seen: list[str] = []
    for u in s.units:
        if u.loc == pid and u.kind in LAND and u.civ not in seen:
            seen.append(u.civ)
    return seen


def war_torn(s: State, pid: str) -> bool:
    """D8: land units of two or more sides."""
    return len(sides_in(s, pid)) > 1


def blocked(s: State, pid: str, civ: str) -> bool:
    """D9/AD-10: war-torn, or another side's legion stands there; never the own capital."""
    if capital(civ) == pid:
        return False
    if war_torn(s, pid):
        return True
    return any(u.loc == pid and u.kind == "legion" and u.civ != civ for u in s.units)


def sea_reach(s: State, civ: str, pid: str) -> set[str]:
    """Provinces sea-linked to ``pid`` for ``civ`` (D3): chains of its triremes at sea."""
    ships = {u.loc for u in s.units if u.civ == civ and u.kind == "trireme" and not u.docked}
    start = [z for z in PROVINCES[pid].seas if z in ships]
    seen = set(start)
    stack = list(start)
    while stack:
        z = stack.pop()
        for nz in SEAS[z].adjacent:
            if nz in ships and nz not in seen:
                seen.add(nz)
                stack.append(nz)
    out: set[str] = set()
    for z in seen:
        out.update(SEAS[z].coasts)
    out.discard(pid)
    return out


def neighbours(s: State, civ: str, pid: str) -> set[str]:
    """Provinces adjacent to ``pid`` for ``civ``: land neighbours plus sea links."""
    return set(PROVINCES[pid].land) | sea_reach(s, civ, pid)


def owned(s: State, civ: str) -> list[str]:
    """Provinces holding ``civ``'s influence marker."""
    return [p for p, pr in s.provs.items() if pr.owner == civ]


def credited(s: State, pid: str, building: str) -> str | None:
    """D10: the occupier if another player's legion is placed on it, else the owner if a player."""
    for u in s.units:
        if u.loc == pid and u.kind == "legion" and u.place == building:
            return u.civ
    owner = s.provs[pid].owner
    return owner if s.is_player(owner) else None


def on_board(s: State, civ: str, kind: str) -> int:
    """Pieces of ``kind`` (legion, fortress, trireme, influence) of ``civ`` on the board."""
    if kind == "influence":
        return sum(1 for p in s.provs.values() if p.owner == civ)
    return sum(1 for u in s.units if u.civ == civ and u.kind == kind)


def in_supply(s: State, civ: str, kind: str) -> int:
    """Pieces of ``kind`` still in ``civ``'s supply (3.3: hard limits)."""
    return PLAYER_PIECES[kind] - on_board(s, civ, kind)


def scores(s: State, civ: str) -> dict[str, int]:
    """Role scores (7.2) over the current board, credited buildings per D10, hero bonuses."""
    com = pol = 0
    for pid, pr in s.provs.items():
        for b in pr.buildings():
            if credited(s, pid, b) != civ:
                continue
            if b.startswith("caravan") or b == "market":
                com += 1
            else:
                pol += 1
    mil = sum(1 for u in s.units if u.civ == civ)
    mine = s.cards.get(civ, [])
    return {
        "commerce": com + (2 if "agamemnon" in mine else 0),
        "political": pol + (2 if "solomon" in mine else 0),
        "military": mil + (2 if "archimedes" in mine else 0),
    }


def clear_war_placements(s: State) -> None:
    """AD-42: every legion placement in a war-torn province is cleared."""
    torn = {p for p in s.provs if war_torn(s, p)}
    for u in s.units:
        if u.place and u.loc in torn:
            u.place = ""


def has(s: State, civ: str, card: str) -> bool:
    """Whether ``civ`` owns the hero or wonder ``card``."""
    return card in s.cards.get(civ, [])


def fortress_cap_for(s: State, civ: str) -> int:
    """R-B4/AD-33: one fortress per province, two with the Statue of Zeus."""
    return 2 if has(s, civ, "zeus") else 1
