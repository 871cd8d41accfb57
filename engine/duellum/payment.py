"""Paying costs and receiving coins, with the coin-as-wildcard rules of §7.

Why one module: every action pays the same way (chips first, coins for the shortfall, surcharges
in coins only) and the bank's limited coins follow one rule (a missing coin becomes a chip of
the player's choice), so getting it right once keeps the actions simple.
"""

from __future__ import annotations

from engine.duellum.data import COIN, RES_WORDS
from engine.duellum.state import State


def shortfall(res: list[int], cost: tuple[int, int, int]) -> int:
    """Chips missing for ``cost`` (to be covered by coins)."""
    return sum(max(0, c - h) for c, h in zip(cost, res, strict=False))


def can_pay(res: list[int], cost: tuple[int, int, int], coins: int = 0) -> bool:
    """Whether ``cost`` chips plus ``coins`` coin-only surcharge are affordable.

    Decision: chips are used before coins (a coin can do everything a chip can, so spending the
    chip first never hurts the player); coins cover any missing chips.
    """
    return res[COIN] >= shortfall(res, cost) + coins


def pay(state: State, seat: int, cost: tuple[int, int, int], coins: int = 0) -> tuple[int, int, int, int]:
    """Pay ``cost`` (chips first, coins for the rest) plus a coin-only surcharge; returns what was paid."""
    res = state.players[seat].res
    paid = [0, 0, 0, 0]
    extra = coins
    for k in range(3):
        use = min(res[k], cost[k])
        res[k] -= use
        paid[k] = use
        extra += cost[k] - use
    res[COIN] -= extra
    paid[COIN] = extra
    state.bank_coins += extra
    return (paid[0], paid[1], paid[2], paid[3])


def pay_exact(state: State, seat: int, amounts: tuple[int, int, int, int]) -> None:
    """Pay exactly these chips and coins (rondel steps, where the player names the payment)."""
    res = state.players[seat].res
    for k in range(4):
        res[k] -= amounts[k]
    state.bank_coins += amounts[COIN]


def describe(paid: tuple[int, ...]) -> str:
    """``2 marble, 1 coin`` (``nothing`` when empty)."""
    parts = [f"{n} {RES_WORDS[k]}{'s' if k == COIN and n != 1 else ''}" for k, n in enumerate(paid) if n]
    return ", ".join(parts) if parts else "nothing"


def cost_text(cost: tuple[int, int, int], coins: int = 0) -> str:
    """A cost for messages: ``6 marble and 1 coin``."""
    parts = [f"{n} {RES_WORDS[k]}" for k, n in enumerate(cost) if n]
    if coins:
        parts.append(f"{coins} coin{'s' if coins != 1 else ''}")
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def holdings_text(res: list[int]) -> str:
    """What a player holds, for messages: ``4 marble, 1 iron, 0 gold, 2 coins``."""
    return f"{res[0]} marble, {res[1]} iron, {res[2]} gold, {res[3]} coin{'s' if res[3] != 1 else ''}"


def gain_coins(state: State, seat: int, n: int) -> int:
    """Give up to ``n`` coins from the bank; returns how many the bank lacked."""
    got = min(n, state.bank_coins)
    state.bank_coins -= got
    state.players[seat].res[COIN] += got
    return n - got
