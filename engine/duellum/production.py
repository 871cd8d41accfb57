"""MARMOR / FERRUM / AURUM (§8.1): 1 chip per own city of the resource (3 with a temple), +1
with MONETA, plus 1 coin; a coin the bank does not have becomes a chip of the player's choice.

Why the coin substitute is a separate decision: the bank's coins are limited, and which chip to
take instead is the player's choice (D-20); it is asked only in that rare case.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.duellum.actions import TakeResource
from engine.duellum.data import COIN, RES_WORDS, RULES
from engine.duellum.log import Log
from engine.duellum.state import State

PRODUCES: dict[str, int] = {"MARMOR": 0, "FERRUM": 1, "AURUM": 2}


def produced_resource(state: State) -> int:
    """Resource index of the current production action, or -1."""
    if state.action < 0:
        return -1
    return PRODUCES.get(RULES.rondel[state.action], -1)


def amount(state: State, seat: int, res: int) -> int:
    """Chips a production of ``res`` yields now (cities, temples, MONETA; D-04: MONETA always +1)."""
    n = 0
    for r, o in enumerate(state.owner):
        if o == seat and state.cres[r] == res:
            n += RULES.production_temple if state.temple[r] else RULES.production
    if "MONETA" in state.players[seat].techs:
        n += 1
    return n


def produce(state: State, seat: int, res: int, log: Log) -> None:
    """Carry out the production action (the coin may turn into a pending choice)."""
    n = amount(state, seat, res)
    p = state.players[seat]
    p.res[res] += n
    if state.bank_coins > 0:
        state.bank_coins -= 1
        p.res[COIN] += 1
        coin = " and 1 coin"
    else:
        state.coin_choice = True
        coin = "; the bank has no coin left, so they will take a chip of their choice instead"
    regions = [r for r, o in enumerate(state.owner) if o == seat and state.cres[r] == res]
    log.say(f"{log.nation(seat)} produce {n} {RES_WORDS[res]}{coin}.", "production", regions)


def options(state: State) -> Iterator[TakeResource]:
    """The chip choices replacing a missing coin.

    Decision: the choice is a separate step (``take iron``) right after the production, asked
    only when the bank has no coin, rather than a variant of every rondel move.
    """
    for k in range(3):
        yield TakeResource(k)


def check(state: State, a: TakeResource) -> str | None:
    """Why the choice is illegal, or ``None``."""
    if not state.coin_choice:
        return "You only take a chip instead of a coin when a production finds the bank without coins."
    if not 0 <= a.res < 3:
        return "Choose marble, iron or gold."
    return None


def apply(state: State, seat: int, a: TakeResource, log: Log) -> None:
    """Take the chip instead of the coin."""
    state.players[seat].res[a.res] += 1
    state.coin_choice = False
    log.say(f"{log.nation(seat)} take 1 {RES_WORDS[a.res]} instead of a coin.", "production")
