"""The engine's fast forms of hot questions equal their plain definitions, on every state of
random games (issue 12: the CPU of a move and of its prompt).

Why: listing moves asks "is this a variant?" for every legal action (hundreds in a rondel step
with COMMERCIUM) and "would a unit fight there?" for every region; both are now answered from
values looked up once (and cached payments). A slip there would reorder move lists or change
which moves fight, so each fast form is compared with the rule as written, here in the test.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.testing import random_playout
from engine.duellum import duellum, militia, templum, turn
from engine.duellum.actions import (
    SPECIAL,
    Action,
    BuildTemple,
    BuildWall,
    BuyTech,
    Deploy,
    Found,
    Recruit,
    RondelMove,
    Trade,
)
from engine.duellum.commercium import GIVES, usable
from engine.duellum.data import COIN
from engine.duellum.state import State

from .builders import GAME


def usual_by_definition(res: list[int], k: int) -> tuple[int, int, int, int]:
    """Chips from the biggest pile (the first of equal piles), one at a time; coins when none is left."""
    left, out = list(res[:3]), [0, 0, 0, 0]
    for _ in range(k):
        biggest = max(left)
        if biggest > 0:
            i = left.index(biggest)
            left[i] -= 1
            out[i] += 1
        else:
            out[COIN] += 1
    return (out[0], out[1], out[2], out[3])


def variant_by_definition(state: State, seat: int, a: Action) -> bool:
    res = state.players[seat].res
    if isinstance(a, RondelMove):
        return a.pay != usual_by_definition(res, sum(a.pay))
    if isinstance(a, Trade):
        if not (a.give[COIN] or any(a.give[k] and a.get[k] for k in range(3))) or not usable(state, seat):
            return False
        return any(
            not g[COIN] and sum(1 for k in range(3) if g[k]) < 3 and all(g[k] <= res[k] for k in range(3))
            for g in GIVES
        )
    if isinstance(a, (BuildTemple, BuildWall, Deploy, BuyTech, Recruit, Found)):
        return a.pay is not None
    return False


def builds_by_definition(state: State, seat: int) -> list[Action]:
    """Temples, walls and deployments paid chips first: every one whose check passes."""
    cities = [r for r, o in enumerate(state.owner) if o == seat]
    out: list[Action] = [BuildTemple(r) for r in cities if templum.check_temple(state, seat, r) is None]
    out += [BuildWall(r) for r in cities if templum.check_wall(state, seat, r) is None]
    units = (0, 1, SPECIAL) if state.config.special_units else (0, 1)
    out += [
        Deploy(t, n, r)
        for r in cities
        for t in units
        for n in (1, 2, 3)
        if militia.check(state, seat, Deploy(t, n, r)) is None
    ]
    return out


@pytest.mark.parametrize(
    ("seed", "options", "reached"),
    [
        (3, {}, "Deploy variant"),
        (8, {"special_units": True}, "Trade variant"),  # a game where COMMERCIUM was bought
        (21, {"map": "greece-persia"}, "BuyTech variant"),
    ],
)
def test_variants_and_fights_equal_their_definitions(seed: int, options: dict[str, object], reached: str) -> None:
    seen: Counter[str] = Counter()

    def check(state: State) -> None:
        for seat in GAME.to_move(state):
            for t in (0, 1):
                plain = [duellum.enemy_present(state, seat, t, r) for r in range(state.map.size)]
                assert duellum.fighting(state, seat, t) == plain
                seen["fights"] += sum(plain)
            actions = turn.legal(state, seat)
            # Unaffordable builds are skipped before their check: the same ones are listed.
            listed = [a for a in actions if type(a) in (BuildTemple, BuildWall, Deploy) and a.pay is None]
            assert sorted(map(repr, listed)) == sorted(map(repr, builds_by_definition(state, seat)))
            seen["builds"] += len(listed)
            flags = [variant_by_definition(state, seat, a) for a in actions]
            assert [turn.is_variant(state, seat, a) for a in actions] == flags
            # Plain moves first, each group in the order the rules list them.
            assert flags == sorted(flags)
            for a, flag in zip(actions, flags, strict=True):
                seen[f"{type(a).__name__} variant" if flag else type(a).__name__] += 1

    random_playout(GAME, seed, 2, options, invariants=check, check_notation=0, check_replay=False)
    # The games reached what the fast forms decide: paid-otherwise rondel moves, hidden trades,
    # explicit payments, and moves into enemy units.
    assert seen["RondelMove"] and seen["fights"] and seen["builds"], seen
    assert seen["RondelMove variant"] and seen[reached] and seen[reached.removesuffix(" variant")], seen
