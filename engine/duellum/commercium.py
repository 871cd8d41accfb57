"""COMMERCIUM trading (§11): give any 3 chips, receive any 2 chips (never coins), repeatable, at
any time of the owner's turn except the turn the technology was bought.

Every trade the rules allow is legal, including one that receives a type it gives (with 1
marble, 1 iron and 1 gold "marble iron gold for gold gold" is the only trade there is) and one
that gives coins (allowed, though a coin is worth more than a chip). The list of moves stays
short by ordering: such trades are variants (:func:`is_variant`), listed on request.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations_with_replacement

from engine.duellum.actions import Trade
from engine.duellum.data import COIN, RULES
from engine.duellum.log import Log
from engine.duellum.payment import describe, holdings_text
from engine.duellum.state import State

TECH = "COMMERCIUM"


def _multisets(kinds: int, size: int) -> list[tuple[int, ...]]:
    out = []
    for combo in combinations_with_replacement(range(kinds), size):
        counts = [0] * kinds
        for k in combo:
            counts[k] += 1
        out.append(tuple(counts))
    return out


GIVES: tuple[tuple[int, int, int, int], ...] = tuple((g[0], g[1], g[2], g[3]) for g in _multisets(4, RULES.trade_give))
GETS: tuple[tuple[int, int, int], ...] = tuple((g[0], g[1], g[2]) for g in _multisets(3, RULES.trade_get))
BY_GIVE: tuple[tuple[tuple[int, int, int, int], tuple[Trade, ...]], ...] = tuple(
    (give, tuple(Trade(give, get) for get in GETS)) for give in GIVES
)


def overlaps(a: Trade) -> bool:
    """Whether the trade receives a resource type it also gives (a smaller exchange)."""
    return any(a.give[k] and a.get[k] for k in range(3))


def is_variant(state: State, seat: int, a: Trade) -> bool:
    """A trade hidden from the short list of moves: one that gives coins, or receives a type it
    gives, when the player can make a plain trade (chips for other chips) instead.

    Why: with 3 of each chip there are over a hundred trades; the plain ones are the useful
    ones, and the rest stay available through ``moves all`` and by typing them."""
    return hides(a) and variants_possible(state, seat)


def hides(a: Trade) -> bool:
    """Whether the trade is of a kind :func:`is_variant` hides (it gives coins, or receives a
    type it gives), whatever the player holds."""
    return bool(a.give[COIN]) or overlaps(a)


def variants_possible(state: State, seat: int) -> bool:
    """Whether ``seat``'s trades of the kinds :func:`hides` names are variants now: it may
    trade, and its chips allow a plain trade."""
    if not usable(state, seat):
        return False
    res = state.players[seat].res
    return _plain_trade_possible(res[0], res[1], res[2])


@lru_cache(maxsize=1024)
def _plain_trade_possible(marble: int, iron: int, gold: int) -> bool:
    """Whether chips held allow a trade that gives no coins and at most two kinds (so a
    plain trade, for other kinds, exists). Cached: asked for every trade of a list of moves,
    and it depends only on the chips held."""
    res = (marble, iron, gold)
    return any(
        not give[COIN] and sum(1 for k in range(3) if give[k]) < 3 and all(give[k] <= res[k] for k in range(3))
        for give in GIVES
    )


def usable(state: State, seat: int) -> bool:
    """Whether ``seat`` owns COMMERCIUM bought before this turn."""
    turn = state.players[seat].techs.get(TECH)
    return turn is not None and turn < state.turn


def check(state: State, seat: int, a: Trade) -> str | None:
    """Why the trade is illegal, or ``None`` (the turn window is checked by the caller)."""
    p = state.players[seat]
    if TECH not in p.techs:
        return "Trading needs the COMMERCIUM technology."
    if not usable(state, seat):
        return "COMMERCIUM cannot be used in the turn it was acquired."
    if sum(a.give) != RULES.trade_give or sum(a.get) != RULES.trade_get or min(a.give) < 0 or min(a.get) < 0:
        return f"A trade gives exactly {RULES.trade_give} chips and receives {RULES.trade_get} (never coins)."
    if any(a.give[k] > p.res[k] for k in range(4)):
        return f"You cannot give {describe(a.give)}: you have {holdings_text(p.res)}."
    return None


def options(state: State, seat: int) -> Iterator[Trade]:
    """Every legal trade (the caller checks the turn window)."""
    if not usable(state, seat):
        return
    res = state.players[seat].res
    for give, trades in BY_GIVE:
        if give[0] <= res[0] and give[1] <= res[1] and give[2] <= res[2] and give[3] <= res[3]:
            yield from trades


def apply(state: State, seat: int, a: Trade, log: Log) -> None:
    """Exchange with the bank (coins given go to the bank)."""
    p = state.players[seat]
    for k in range(4):
        p.res[k] -= a.give[k]
    for k in range(3):
        p.res[k] += a.get[k]
    state.bank_coins += a.give[COIN]
    log.say(f"{log.nation(seat)} trade {describe(a.give)} for {describe(a.get)}.", "trade")
