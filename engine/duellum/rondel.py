"""The rondel (§6): first placement free, then 1-3 free steps clockwise, each further step costs
one resource or coin of the player's choice, no staying, a full circle (8 steps) costs 5.

Why the payment is part of the rondel action: which chips pay the extra steps is a real choice
(they are needed elsewhere), and making it one action keeps a turn to few chat messages.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from engine.duellum.actions import RondelMove
from engine.duellum.data import COIN, RULES
from engine.duellum.log import Log
from engine.duellum.payment import describe, holdings_text, pay_exact
from engine.duellum.state import State

SPACES = len(RULES.rondel)
ORACLE_KIND = "rondel_free_steps_bonus"


def steps(frm: int, to: int) -> int:
    """Clockwise steps from ``frm`` to ``to`` (8 when equal: a full circle)."""
    s = (to - frm) % SPACES
    return s if s else SPACES


def free_steps(state: State) -> int:
    """Free steps for the current move (3, more with Oracle cards played this turn)."""
    return RULES.free_steps + state.mods.get(ORACLE_KIND, 0)


def cost(state: State, seat: int, to: int) -> int:
    """Resources/coins to pay for moving ``seat``'s stone to ``to`` (0 on the first placement)."""
    stone = state.players[seat].stone
    if stone < 0:
        return 0
    return max(0, steps(stone, to) - free_steps(state))


def _duellum_switch(stone: int, to: int) -> bool:
    return stone >= 0 and stone != to and RULES.rondel[stone] == RULES.rondel[to]


def payments(res: list[int], k: int) -> Iterator[tuple[int, int, int, int]]:
    """Every way to pay ``k`` with marble/iron/gold/coins the player holds."""
    for m in range(min(k, res[0]) + 1):
        for i in range(min(k - m, res[1]) + 1):
            for g in range(min(k - m - i, res[2]) + 1):
                c = k - m - i - g
                if c <= res[COIN]:
                    yield (m, i, g, c)


def usual_payment(res: list[int], k: int) -> tuple[int, int, int, int]:
    """The payment listed first for ``k`` extra steps: chips from the biggest pile, one at a
    time, coins only when the chips run out.

    Decision: chips before coins, as for every other cost (a coin can replace any chip, so it
    is the more flexible thing to keep); the biggest pile first keeps the player's options.
    """
    return usual_of(res[0], res[1], res[2], k)


@lru_cache(maxsize=4096)
def usual_of(marble: int, iron: int, gold: int, k: int) -> tuple[int, int, int, int]:
    """:func:`usual_payment` of the chips held (marble, iron, gold).

    Why cached: sorting the legal moves asks it once per listed rondel payment (hundreds per
    list), and it depends only on these four small numbers."""
    left = [marble, iron, gold]
    out = [0, 0, 0, 0]
    for _ in range(k):
        best = max(range(3), key=lambda i: (left[i], -i))
        if left[best] > 0:
            left[best] -= 1
            out[best] += 1
        else:
            out[COIN] += 1
    return (out[0], out[1], out[2], out[3])


def options(state: State, seat: int) -> Iterator[RondelMove]:
    """Legal rondel moves (the phase is checked by the caller): destinations cheapest first
    (free ones first, then by distance), each with its usual payment before the others."""
    p = state.players[seat]
    dests = []
    for to in range(SPACES):
        if p.stone >= 0 and not state.config.duellum_to_duellum_allowed and _duellum_switch(p.stone, to):
            continue
        k = cost(state, seat, to)
        if k <= sum(p.res):
            dests.append((k, steps(p.stone, to) if p.stone >= 0 else to, to))
    for k, _, to in sorted(dests):
        usual = usual_payment(p.res, k)
        yield RondelMove(to, usual)
        for pay in payments(p.res, k):
            if pay != usual:
                yield RondelMove(to, pay)


def check(state: State, seat: int, a: RondelMove) -> str | None:
    """Why ``a`` is illegal, or ``None``."""
    if not 0 <= a.space < SPACES:
        return "There is no such rondel space."
    p = state.players[seat]
    if p.stone >= 0 and not state.config.duellum_to_duellum_allowed and _duellum_switch(p.stone, a.space):
        return "In this game the stone may not move from one DUELLUM space to the other."
    k = cost(state, seat, a.space)
    if any(x < 0 for x in a.pay) or sum(a.pay) != k:
        if k == 0:
            return f"Moving to {RULES.rondel[a.space]} is free; do not add a payment."
        s = steps(p.stone, a.space)
        return (
            f"Moving to {RULES.rondel[a.space]} is {s} steps and costs {k} (resources or coins of your choice); "
            f"name exactly {k}, e.g. `pay iron`."
        )
    if any(a.pay[i] > p.res[i] for i in range(4)):
        return f"You cannot pay {describe(a.pay)}: you have {holdings_text(p.res)}."
    return None


def apply(state: State, seat: int, a: RondelMove, log: Log) -> None:
    """Pay, move the stone and record the move (the action itself is started by the turn module)."""
    p = state.players[seat]
    frm = p.stone
    pay_exact(state, seat, a.pay)
    p.stone = a.space
    state.mods.pop(ORACLE_KIND, None)
    state.record.rondel_from = frm
    state.record.rondel_to = a.space
    paid = f", paying {describe(a.pay)}" if any(a.pay) else ""
    where = "place their stone on" if frm < 0 else "move to"
    log.say(f"{log.nation(seat)} {where} {RULES.rondel[a.space]}{paid}.", "rondel")
