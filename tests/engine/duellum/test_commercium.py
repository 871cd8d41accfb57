"""COMMERCIUM (§11): give any 3 chips, receive any 2; malformed trades are refused."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.duellum.actions import RondelMove, Trade
from engine.duellum.commercium import is_variant

from .builders import GAME, Board, space_index

ROMANS = 1


def _trader(marble: int, iron: int, gold: int, coins: int = 0) -> Board:
    b = Board(active=ROMANS).techs(ROMANS, "Commercium")
    return b.resources(ROMANS, marble=marble, iron=iron, gold=gold, coins=coins)


def test_one_of_each_chip_may_still_trade() -> None:
    b = _trader(1, 1, 1)
    trades = [a for a in GAME.legal_actions(b.state, ROMANS) if isinstance(a, Trade)]
    assert Trade((1, 1, 1, 0), (0, 0, 2)) in trades
    # With no plain trade possible, these are not hidden as variants.
    assert not any(GAME.action_variant(b.state, ROMANS, t) for t in trades)
    b.play(ROMANS, "trade marble iron gold for gold gold")
    assert b.res(ROMANS) == (0, 0, 2, 0)


def test_every_trade_the_rules_allow_is_listed_plain_ones_first() -> None:
    b = _trader(3, 3, 3, 3)
    trades = [a for a in GAME.legal_actions(b.state, ROMANS) if isinstance(a, Trade)]
    # 20 ways to give 3 of marble/iron/gold/coins, 6 ways to receive 2 chips.
    assert len(trades) == 20 * 6
    assert Trade((2, 1, 0, 0), (1, 0, 1)) in trades and is_variant(b.state, ROMANS, Trade((2, 1, 0, 0), (1, 0, 1)))
    assert not is_variant(b.state, ROMANS, Trade((3, 0, 0, 0), (0, 1, 1)))


@pytest.mark.parametrize(
    "action",
    [
        Trade((3, 0, 0, 0), (0, 0, 0, 2)),  # type: ignore[arg-type]
        Trade((0, 0, 0, 0, 3), (2, 0, 0)),  # type: ignore[arg-type]
        Trade((3, 0, 0, 0), (2, 0)),  # type: ignore[arg-type]
        Trade((4, -1, 0, 0), (2, 0, 0)),
        RondelMove(space_index("MILITIA"), (0, 0, 0, 0, 1)),  # type: ignore[arg-type]
    ],
)
def test_malformed_actions_raise_illegal_action_and_change_nothing(action: object) -> None:
    b = _trader(3, 3, 3)
    before = GAME.dumps(b.state)
    assert not GAME.is_legal(b.state, ROMANS, action)
    with pytest.raises(IllegalAction):
        GAME.apply(b.state, ROMANS, action)
    assert GAME.dumps(b.state) == before
