"""The Tourism phase (spec §9.3, §12.1, §14): Highest Culture, attraction levels, tourists.

Why a pure ranking function: the same order (Culture, then money, then Start position; the
two-player neutral loses every tie) decides the Highest Culture city, the lowest city and
the attraction victims, and tests check it directly (TC-EX-14/15/16/39/42/47).
"""

from __future__ import annotations

from engine.capitals.data import BOARD
from engine.capitals.state import NEUTRAL, State


def ranking(s: State) -> list[int]:
    """Real seats and (two players) ``NEUTRAL``, highest Culture first."""
    seats = sorted(
        range(s.n),
        key=lambda i: (-s.players[i].tracks["CUL"], -s.players[i].tracks["ECO"], s.players[i].pos),
    )
    if s.neutral_cul is None:
        return seats
    out: list[int] = []
    placed = False
    for seat in seats:
        if not placed and s.neutral_cul > s.players[seat].tracks["CUL"]:
            out.append(NEUTRAL)
            placed = True
        out.append(seat)
    if not placed:
        out.append(NEUTRAL)
    return out


def attraction(culture: int) -> tuple[int, int | None]:
    """Attraction level of the Highest Culture city and its inclusive range (D-04)."""
    level, limit = 0, None
    for lvl, need, rng in BOARD.attraction:
        if culture >= need:
            level, limit = lvl, rng
    return level, limit


def destinations(s: State) -> tuple[int, dict[int, int]]:
    """The Highest Culture city and where each tourist (by owner) goes this round."""
    ranked = ranking(s)
    high = next(x for x in ranked if x != NEUTRAL)
    lowest = ranked[-1]
    _, limit = attraction(s.players[high].tracks["CUL"])
    dest: dict[int, int] = {}
    for seat in range(s.n):
        victim = seat != high and (seat == lowest or (limit is not None and s.players[seat].tracks["CUL"] <= limit))
        dest[seat] = high if victim else seat
    if s.neutral_cul is not None:
        dest[NEUTRAL] = high
    return high, dest


def tourism_phase(s: State) -> tuple[int, list[tuple[int, int]]]:
    """Give the Highest Culture marker and move the tourists (§12.1: a tourist whose city does
    not change stays where it is, on its tile or beside the city; otherwise it goes beside its
    new city). Returns the holder and the moved tourists as (owner, new city)."""
    high, dest = destinations(s)
    s.hc = high
    moved = []
    for t in s.tourists:
        to = dest[t.owner]
        if to != t.city:
            t.city = to
            t.cell = None
            moved.append((t.owner, to))
    return high, moved
