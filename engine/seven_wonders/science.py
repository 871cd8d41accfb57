"""Science scoring with wildcards and masks assigned optimally (A13, B6.1).

Why brute force: a city has at most a handful of wildcards (Babylon, Scientists Guild,
a copied Scientists Guild) and masks (three black cards), so trying every assignment is
exact and instant; greedy rules ("complete a set first") are wrong in corner cases.
"""

from __future__ import annotations

from engine.seven_wonders.data import CARDS, SYMBOLS
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import stage_effects

SET_BONUS = 7


def base_score(c: int, g: int, t: int) -> int:
    """c^2 + g^2 + t^2 + 7 per complete set."""
    return c * c + g * g + t * t + SET_BONUS * min(c, g, t)


def _splits(total: int) -> list[tuple[int, int, int]]:
    return [(a, b, total - a - b) for a in range(total + 1) for b in range(total - a + 1)]


def best_score(
    counts: tuple[int, int, int], wilds: int, masks: int = 0, copyable: tuple[int, int, int] = (0, 0, 0)
) -> int:
    """Best science score.

    Args:
        counts: compass, gear, tablet symbols of the city's green cards.
        wilds: symbols of free choice.
        masks: masks; each copies a different green card of a neighbour.
        copyable: symbols of the neighbours' green cards (left and right together).
    """
    best = 0
    k = min(masks, sum(copyable))
    mask_options = [m for m in _splits(k) if m[0] <= copyable[0] and m[1] <= copyable[1] and m[2] <= copyable[2]]
    wild_options = _splits(wilds)
    for ma, mb, mc in mask_options:
        for wa, wb, wc in wild_options:
            best = max(best, base_score(counts[0] + ma + wa, counts[1] + mb + wb, counts[2] + mc + wc))
    return best


def symbols(state: State, idx: int) -> tuple[int, int, int]:
    """Science symbols on the city's green cards."""
    counts = [0, 0, 0]
    for cid in state.cities[idx].built:
        sym = CARDS[cid].science
        if sym:
            counts[SYMBOLS.index(sym)] += 1
    return counts[0], counts[1], counts[2]


def wildcards(state: State, idx: int) -> int:
    """Wildcards of the city: Scientists Guild and Babylon stages (A13.2)."""
    city = state.cities[idx]
    n = sum(1 for cid in city.built if CARDS[cid].wild)
    return n + sum(1 for e in stage_effects(city) if e.type == "science_wild")


def masks(state: State, idx: int) -> int:
    """Mask symbols on the city's black cards."""
    return sum(1 for cid in state.cities[idx].built if CARDS[cid].mask)


def copyable(state: State, idx: int) -> tuple[int, int, int]:
    """Green symbols of both neighbours: what masks may copy (D-23: green cards only)."""
    a = symbols(state, state.left(idx))
    b = symbols(state, state.right(idx))
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def city_science(state: State, idx: int, extra_wilds: int = 0) -> int:
    """The city's science score; ``extra_wilds`` for a copied Scientists Guild."""
    return best_score(symbols(state, idx), wildcards(state, idx) + extra_wilds, masks(state, idx), copyable(state, idx))
