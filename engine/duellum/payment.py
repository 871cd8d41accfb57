"""Paying costs and receiving coins, with the coin-as-wildcard rules of §7.

Why one module: every action pays the same way (chips first, coins for the shortfall, surcharges
in coins only) and the bank's limited coins follow one rule (a missing coin becomes a chip of
the player's choice), so getting it right once keeps the actions simple.
"""

from __future__ import annotations

from engine.core.text import count, join_words
from engine.duellum.data import COIN, RES_WORDS
from engine.duellum.state import State

Pay = tuple[int, int, int, int]


def shortfall(res: list[int], cost: tuple[int, int, int]) -> int:
    """Chips missing for ``cost`` (to be covered by coins)."""
    return sum(max(0, c - h) for c, h in zip(cost, res, strict=False))


def can_pay(res: list[int], cost: tuple[int, int, int], coins: int = 0) -> bool:
    """Whether ``cost`` chips plus ``coins`` coin-only surcharge are affordable (chips first)."""
    return res[COIN] >= shortfall(res, cost) + coins


def chips_first(res: list[int], cost: tuple[int, int, int], coins: int = 0) -> Pay:
    """The usual payment: every chip the player has towards ``cost``, coins for the rest and
    for the surcharge.

    Decision: this is the form an action without an explicit payment uses (``temple roma``),
    listed first; paying more in coins is a variant the player may choose (§7: coins MAY
    replace chips, e.g. to keep chips when Burglary threatens half the coins).
    """
    used = [min(res[k], cost[k]) for k in range(3)]
    return (used[0], used[1], used[2], coins + sum(cost) - sum(used))


def payments(res: list[int], cost: tuple[int, int, int], coins: int = 0) -> list[Pay]:
    """Every affordable exact payment of ``cost`` plus a coin surcharge, chips-first first,
    then with ever more coins (each chip kind replaced in marble, iron, gold order)."""
    out: list[Pay] = []
    for m in range(min(res[0], cost[0]), -1, -1):
        for i in range(min(res[1], cost[1]), -1, -1):
            for g in range(min(res[2], cost[2]), -1, -1):
                c = coins + sum(cost) - m - i - g
                if c <= res[COIN]:
                    out.append((m, i, g, c))
    out.sort(key=lambda p: p[COIN])
    return out


def check_choice(res: list[int], cost: tuple[int, int, int], coins: int, choice: Pay | None) -> str | None:
    """Why an explicit payment ``choice`` does not pay ``cost`` (+ surcharge), or ``None``.

    ``None`` (chips first) is judged by :func:`can_pay` by the caller; an explicit choice must
    pay exactly the cost, may not overpay a chip kind, must be affordable, and must differ from
    the chips-first payment (that one is the plain form of the move)."""
    if choice is None:
        return None
    want = cost_text(cost, coins)
    if choice[COIN] < coins:
        return f"That costs {want}; the surcharge must be paid in coins."
    if any(choice[k] > cost[k] for k in range(3)) or sum(choice) != sum(cost) + coins:
        return f"That costs {want}; a payment names those chips, with coins in place of any of them."
    if any(choice[k] > res[k] for k in range(4)):
        return f"You cannot pay {describe(choice)}: you have {holdings_text(res)}."
    if choice == chips_first(res, cost, coins):
        return "That is the usual payment: type the move without `pay`."
    return None


def settle(state: State, seat: int, cost: tuple[int, int, int], coins: int, choice: Pay | None) -> Pay:
    """Pay ``cost`` plus the surcharge chips first, or exactly as ``choice`` says; returns it."""
    if choice is None:
        return pay(state, seat, cost, coins)
    pay_exact(state, seat, choice)
    return choice


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
    """``2 marble and 1 coin`` (``nothing`` when empty)."""
    return join_words(count(n, RES_WORDS[k]) for k, n in enumerate(paid) if n) or "nothing"


def cost_text(cost: tuple[int, int, int], coins: int = 0) -> str:
    """A cost for messages: ``6 marble and 1 coin``."""
    return describe((*cost, coins))


def holdings_text(res: list[int]) -> str:
    """What a player holds, for messages: ``4 marble, 1 iron, 0 gold and 2 coins``."""
    return join_words(count(res[k], RES_WORDS[k]) for k in range(4))


def gain_coins(state: State, seat: int, n: int) -> int:
    """Give up to ``n`` coins from the bank; returns how many the bank lacked."""
    got = min(n, state.bank_coins)
    state.bank_coins -= got
    state.players[seat].res[COIN] += got
    return n - got
