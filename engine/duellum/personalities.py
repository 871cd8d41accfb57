"""Personalities (§10, turn step 3): Kings per 5 cities, Scholars per first technology, Generals
per destroyed temple, Navigators per 7 sea points, Citizens per 3 temples; walls from the VP
track; the opponent's event-card picks.

Why thresholds compare with cards held: a personality is never lost and each threshold pays
once (``gain = min(supply, floor(metric / step) - held)``), so regaining 10 cities after losing
one gives nothing, and a threshold missed because the supply was empty is not owed later (D-24).
"""

from __future__ import annotations

from engine.duellum.data import GENERAL, KING, NAVIGATOR, PERSONALITIES, RULES, SCHOLAR
from engine.duellum.log import Log
from engine.duellum.state import State

NAMES = ("King", "Scholar", "General", "Navigator", "Citizen")


def sea_points(state: State, seat: int) -> int:
    """Sea points now: 2 per cityless SEA region and 1 per island SEA region with an own galley.

    With ``navigator_counts_coastal`` (D-02's other reading) a MIXED city region also counts 1.
    The Admiral counts as a galley (D-35d).
    """
    m = state.map
    gal = state.units[seat][1]
    admiral = state.players[seat].special if state.config.special_units and seat == 1 else -9
    coastal = state.config.navigator_counts_coastal
    pts = 0
    for r in range(m.size):
        w = m.sea_weight[r]
        if not w and coastal and m.coastal_site[r]:
            w = RULES.sea_weight_site
        if w and (gal[r] > 0 or admiral == r):
            pts += w
    return pts


def cities(state: State, seat: int) -> int:
    """Cities owned."""
    return sum(1 for o in state.owner if o == seat)


def temples(state: State, seat: int) -> int:
    """Temples standing in own cities."""
    return sum(1 for r, o in enumerate(state.owner) if o == seat and state.temple[r])


def metric(state: State, seat: int, kind: int) -> int:
    """The measure a threshold personality counts."""
    if kind == KING:
        return cities(state, seat)
    if kind == NAVIGATOR:
        return sea_points(state, seat)
    return temples(state, seat)


def due(state: State, seat: int) -> list[int]:
    """Personalities ``seat`` would gain now, by type (before the supply limit)."""
    held = state.players[seat].pers
    out = [0] * len(PERSONALITIES)
    for kind, step in RULES.steps.items():
        out[kind] = max(0, metric(state, seat, kind) // step - held[kind])
    if seat == state.active:
        out[SCHOLAR] = state.scholars
        out[GENERAL] = state.temples_destroyed
    return out


def walls_between(a: int, b: int) -> int:
    """Wall symbols reached when the VP marker moves from ``a`` to ``b`` (``a < w <= b``)."""
    return sum(1 for w in RULES.wall_symbols if a < w <= b)


def award(state: State, log: Log) -> list[int]:
    """Award personalities (active player first, D-14) and walls; returns the gains per seat."""
    gains = [0, 0]
    for seat in (state.active, 1 - state.active):
        p = state.players[seat]
        before = p.vp
        wanted = due(state, seat)
        got: list[str] = []
        for kind, n in enumerate(wanted):
            n = min(n, state.bank_pers[kind])
            if n > 0:
                state.bank_pers[kind] -= n
                p.pers[kind] += n
                got.append(f"{n} {NAMES[kind]}{'s' if n != 1 else ''}")
        gained = p.vp - before
        if not gained:
            continue
        gains[seat] = gained
        walls = min(walls_between(before, p.vp), state.bank_walls)
        state.bank_walls -= walls
        p.walls += walls
        wall_text = f" and {walls} wall{'s' if walls != 1 else ''}" if walls else ""
        log.say(
            f"{log.nation(seat)} gain {', '.join(got)}{wall_text} (personalities {before} → {p.vp}).",
            "personality",
        )
    return gains
