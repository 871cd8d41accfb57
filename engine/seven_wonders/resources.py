"""Production, trading prices and the payment search (rules A7, A8, B6.7-B6.9).

Why a search with caches: a cost is payable when some assignment of the city's choice
sources ("X/Y" cards, Caravansery, Forum, Alexandria, Secret Warehouse, Black Market) plus
purchases from the two neighbours covers it (A7.5). The sets involved are tiny, but legal
move generation asks the question for every card in hand at every step, so the pure
functions below are memoised on their (hashable, small) inputs.

The search returns every distinct ``(pay_left, pay_right)`` pair a legal purchase plan can
produce: the buyer may choose whom to pay (A8.8), so each pair is its own move. Purchases
only ever cover the shortfall left after the city's own production (A8.9, D-15).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from engine.seven_wonders.data import CARDS, MANUFACTURED, RAW, WONDERS, Vec
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import stage_effects

Choice = tuple[int, ...]
ALL_TYPES = frozenset(range(7))
BASE_PRICE = 2
DISCOUNT_PRICE = 1


@dataclass(frozen=True, slots=True)
class Supply:
    """Units a city can use (or sell): fixed units plus one-of-several choice sources."""

    fixed: Vec
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class Terms:
    """What the two neighbours sell and at which unit prices, plus Clandestine Docks."""

    left: Supply
    right: Supply
    price_left: Vec
    price_right: Vec
    dock_left: bool
    dock_right: bool


def _vec(counts: list[int]) -> Vec:
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6])


def own_supply(state: State, idx: int) -> Supply:
    """Everything the city produces for its own constructions this turn (A7.2)."""
    city = state.cities[idx]
    start = WONDERS[city.wonder].resource
    fixed = [0] * 7
    fixed[start] += 1
    produced = {start}
    choices: list[Choice] = []
    warehouses = markets = 0
    for cid in city.built:
        c = CARDS[cid]
        basic = c.color in ("brown", "grey")
        for e in c.effects:
            if e.type == "produce":
                for ch in e.res:
                    t = "WSCOGPL".index(ch)
                    fixed[t] += 1
                    if basic:
                        produced.add(t)
            elif e.type == "produce_any":
                types = tuple(sorted("WSCOGPL".index(ch) for ch in e.res))
                choices.append(types)
                if basic:
                    produced.update(types)
            elif e.type == "produce_owned":
                warehouses += 1
            elif e.type == "produce_missing":
                markets += 1
    for e in stage_effects(city):
        if e.type == "produce_any":
            choices.append(tuple(sorted("WSCOGPL".index(ch) for ch in e.res)))
    # Secret Warehouse doubles a type made by brown/grey cards or the board, X/Y included
    # (B6.8, D-11); Black Market makes a type none of those make (B6.9).
    owned = tuple(sorted(produced))
    missing = tuple(sorted(ALL_TYPES - produced))
    choices.extend([owned] * warehouses)
    if missing:
        choices.extend([missing] * markets)
    return Supply(_vec(fixed), tuple(sorted(choices)))


def sellable(state: State, idx: int) -> Supply:
    """What neighbours may buy from the city: board resource, brown and grey cards (A8.2)."""
    city = state.cities[idx]
    fixed = [0] * 7
    fixed[WONDERS[city.wonder].resource] += 1
    choices: list[Choice] = []
    for cid in city.built:
        c = CARDS[cid]
        if c.color not in ("brown", "grey"):
            continue
        for e in c.effects:
            if e.type == "produce":
                for ch in e.res:
                    fixed["WSCOGPL".index(ch)] += 1
            elif e.type == "produce_any":
                choices.append(tuple(sorted("WSCOGPL".index(ch) for ch in e.res)))
    return Supply(_vec(fixed), tuple(sorted(choices)))


def trade_terms(state: State, idx: int) -> Terms:
    """Neighbours' sellable production and this city's unit prices (A8.3, B6.7)."""
    city = state.cities[idx]
    left = [BASE_PRICE] * 7
    right = [BASE_PRICE] * 7
    dock_left = dock_right = False
    effects = [e for cid in city.built for e in CARDS[cid].effects]
    effects.extend(stage_effects(city))
    for e in effects:
        if e.type == "discount":
            goods = RAW if e.goods == "raw" else MANUFACTURED
            for t in goods:
                if e.side in ("left", "both"):
                    left[t] = DISCOUNT_PRICE
                if e.side in ("right", "both"):
                    right[t] = DISCOUNT_PRICE
        elif e.type == "dock":
            if e.side == "left":
                dock_left = True
            else:
                dock_right = True
    return Terms(
        sellable(state, state.left(idx)),
        sellable(state, state.right(idx)),
        _vec(left),
        _vec(right),
        dock_left,
        dock_right,
    )


@lru_cache(maxsize=1 << 16)
def shortfalls(need: Vec, choices: tuple[Choice, ...]) -> tuple[int, tuple[Vec, ...]]:
    """Smallest number of units own choice sources leave uncovered, and every distinct
    uncovered vector reaching it. ``need`` is the cost after the fixed units.

    Why only "useful" branches: at an optimum an unused choice source has none of its types
    still needed (otherwise using it would lower the total), so branching only on needed
    types reaches every optimal vector.
    """
    useful = sorted(tuple(t for t in ch if need[t] > 0) for ch in choices)
    useful = [u for u in useful if u]
    if not useful:
        return sum(need), (need,)
    memo: dict[tuple[int, Vec], tuple[int, frozenset[Vec]]] = {}

    def rec(i: int, cur: Vec) -> tuple[int, frozenset[Vec]]:
        key = (i, cur)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if i == len(useful) or not any(cur):
            res = (sum(cur), frozenset({cur}))
        else:
            types = [t for t in useful[i] if cur[t] > 0]
            if not types:
                res = rec(i + 1, cur)
            else:
                best = 1 << 30
                vecs: set[Vec] = set()
                for t in types:
                    lst = list(cur)
                    lst[t] -= 1
                    tot, vs = rec(i + 1, _vec(lst))
                    if tot < best:
                        best, vecs = tot, set(vs)
                    elif tot == best:
                        vecs |= vs
                res = (best, frozenset(vecs))
        memo[key] = res
        return res

    total, vecs = rec(0, need)
    return total, tuple(sorted(vecs))


@lru_cache(maxsize=1 << 16)
def can_supply(want: Vec, supply: Supply) -> bool:
    """Whether a neighbour's sellable production can provide ``want`` in one turn; each
    choice card sells one unit of one of its types (A8.5)."""
    excess = [max(0, want[t] - supply.fixed[t]) for t in range(7)]
    total = sum(excess)
    if total == 0:
        return True
    if total > len(supply.choices):
        return False
    units = [t for t in range(7) for _ in range(excess[t])]
    choices = supply.choices

    def rec(i: int, used: int) -> bool:
        if i == len(units):
            return True
        t = units[i]
        return any(not used & 1 << j and t in ch and rec(i + 1, used | 1 << j) for j, ch in enumerate(choices))

    return rec(0, 0)


def _max_from(supply: Supply, t: int) -> int:
    return supply.fixed[t] + sum(1 for ch in supply.choices if t in ch)


@lru_cache(maxsize=1 << 16)
def purchase_pairs(short: Vec, terms: Terms) -> tuple[tuple[int, int], ...]:
    """Every distinct (coins to left, coins to right) of plans buying exactly ``short``."""
    types = [t for t in range(7) if short[t]]
    ranges = []
    for t in types:
        lo = max(0, short[t] - _max_from(terms.right, t))
        hi = min(short[t], _max_from(terms.left, t))
        if lo > hi:
            return ()
        ranges.append(range(lo, hi + 1))
    pairs: set[tuple[int, int]] = set()
    for combo in product(*ranges):
        lv = [0] * 7
        rv = [0] * 7
        for t, k in zip(types, combo, strict=True):
            lv[t] = k
            rv[t] = short[t] - k
        lvec, rvec = _vec(lv), _vec(rv)
        if any(lv) and not can_supply(lvec, terms.left):
            continue
        if any(rv) and not can_supply(rvec, terms.right):
            continue
        cl = sum(lv[t] * terms.price_left[t] for t in types)
        cr = sum(rv[t] * terms.price_right[t] for t in types)
        # Clandestine Dock: -1 on the total paid to that side when buying there (D-12).
        if terms.dock_left and any(lv):
            cl = max(0, cl - 1)
        if terms.dock_right and any(rv):
            cr = max(0, cr - 1)
        pairs.add((cl, cr))
    return tuple(sorted(pairs, key=lambda p: (p[0] + p[1], p[0])))


@lru_cache(maxsize=1 << 17)
def payment_options(cost: Vec, own: Supply, terms: Terms) -> tuple[tuple[int, int], ...]:
    """Every distinct neighbour payment that pays the resource part of ``cost``, cheapest
    first (ties: less to the left first). ``((0, 0),)`` when the city covers it alone;
    ``()`` when no legal plan exists (coins not considered)."""
    need = _vec([max(0, cost[t] - own.fixed[t]) for t in range(7)])
    if not any(need):
        return ((0, 0),)
    missing, vectors = shortfalls(need, own.choices)
    if missing == 0:
        return ((0, 0),)
    pairs: set[tuple[int, int]] = set()
    for short in vectors:
        pairs.update(purchase_pairs(short, terms))
    return tuple(sorted(pairs, key=lambda p: (p[0] + p[1], p[0])))


def missing_units(cost: Vec, own: Supply) -> tuple[int, tuple[Vec, ...]]:
    """How many units the city must buy for ``cost`` and which vectors (for messages)."""
    need = _vec([max(0, cost[t] - own.fixed[t]) for t in range(7)])
    if not any(need):
        return 0, (need,)
    return shortfalls(need, own.choices)
