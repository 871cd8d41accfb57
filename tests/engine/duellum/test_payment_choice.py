"""Paying in coins or chips (§7): coins MAY replace marble, iron or gold 1:1, so the player
chooses; the chips-first form is the plain move, listed first, the others are variants."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.duellum.actions import BuildTemple, BuyTech, Found

from .builders import GAME, Board

ROMANS, CARTHAGINIANS = 1, 0


def test_temple_paid_in_coins_keeps_the_marble() -> None:
    b = Board(active=ROMANS).resources(ROMANS, marble=6, iron=0, gold=0, coins=10).city("Ancona", ROMANS, "gold")
    b.action("TEMPLUM")
    r = b.r("Ancona")
    acts = GAME.legal_actions(b.state, ROMANS)
    temples = [a for a in acts if isinstance(a, BuildTemple) and a.region == r]
    assert temples[0] == BuildTemple(r) and not GAME.action_variant(b.state, ROMANS, temples[0])
    assert GAME.action_cost(b.state, ROMANS, temples[0]) == "6 marble"
    assert BuildTemple(r, (0, 0, 0, 6)) in temples and all(GAME.action_variant(b.state, ROMANS, a) for a in temples[1:])
    # Plain moves come before every variant.
    flags = [GAME.action_variant(b.state, ROMANS, a) for a in acts]
    assert flags == sorted(flags)
    b.play(ROMANS, "temple Ancona pay 6 coins")
    assert b.res(ROMANS) == (6, 0, 0, 4)


def test_plain_form_pays_chips_first_and_says_what_it_costs() -> None:
    b = Board(active=ROMANS).resources(ROMANS, marble=0, iron=0, gold=1, coins=9).action("SCIENTIA")
    plain = BuyTech("NAVIGATIO")
    assert GAME.action_cost(b.state, ROMANS, plain) == "1 gold and 5 coins"
    assert GAME.notation(b.state, ROMANS, plain) == "buy Navigatio"
    # The usual payment spelled out is the same move.
    assert GAME.parse(b.state, ROMANS, "buy navigatio pay gold 5 coins") == plain
    assert GAME.parse(b.state, ROMANS, "buy Navigatio pay 6 coins") == BuyTech("NAVIGATIO", (0, 0, 0, 6))
    b.play(ROMANS, "buy navigatio pay 6 coins")
    assert b.res(ROMANS) == (0, 0, 1, 3)


def test_found_with_coins_for_one_chip_kind() -> None:
    b = Board(active=CARTHAGINIANS).resources(CARTHAGINIANS, marble=1, iron=1, gold=1, coins=4)
    b.units(CARTHAGINIANS, "numantia", legions=1).founding_step()
    r = b.r("numantia")
    variants = [a for a in GAME.legal_actions(b.state, CARTHAGINIANS) if isinstance(a, Found) and a.pay]
    assert Found(r, 2, (1, 0, 1, 1)) in variants  # coin instead of iron
    b.play(CARTHAGINIANS, "found Numantia gold pay marble gold coin")
    assert b.res(CARTHAGINIANS) == (0, 1, 0, 3)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("temple Ancona pay 7 coins", "That costs 6 marble"),
        ("temple Ancona pay 5 marble", "That costs 6 marble"),
    ],
)
def test_impossible_payments_are_refused(text: str, reason: str) -> None:
    b = Board(active=ROMANS).resources(ROMANS, marble=6, coins=10).city("Ancona", ROMANS, "gold").action("TEMPLUM")
    assert GAME.action_cost(b.state, ROMANS, BuildTemple(b.r("Ancona"))) == "6 marble"
    with pytest.raises(IllegalAction, match=reason):
        b.play(ROMANS, text)


def test_surcharge_must_stay_in_coins() -> None:
    b = Board(active=ROMANS).resources(ROMANS, marble=7, coins=5).city("Ancona", ROMANS, "gold")
    b.city("Roma", ROMANS, "marble", temple=True).action("TEMPLUM")
    with pytest.raises(IllegalAction, match="surcharge must be paid in coins"):
        GAME.apply(b.state, ROMANS, BuildTemple(b.r("Ancona"), (7, 0, 0, 0)))


def test_usual_payment_is_the_plain_move_not_a_second_one() -> None:
    b = Board(active=ROMANS).resources(ROMANS, marble=6, coins=10).city("Ancona", ROMANS, "gold").action("TEMPLUM")
    r = b.r("Ancona")
    assert GAME.parse(b.state, ROMANS, "temple Ancona pay 6 marble") == BuildTemple(r)
    with pytest.raises(IllegalAction, match="That is the usual payment"):
        GAME.apply(b.state, ROMANS, BuildTemple(r, (6, 0, 0, 0)))
