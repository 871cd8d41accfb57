"""The public position builder: boards, structures and hands named as printed."""

from __future__ import annotations

import pytest

from engine.seven_wonders import SevenWondersGame
from engine.seven_wonders.position import PositionError, city, hands, table

G = SevenWondersGame()


def test_a_table_by_printed_names() -> None:
    s = table("Gizah", "Rhodos", "Ephesos", coins=4)
    city(s, "Rhodos", built=["Lumber Yard", "Stone Pit"], coins=6)
    hands(s, ["Baths", "Altar"], ["Theater", "Altar"], ["Loom", "Altar"])
    assert [c.wonder for c in s.cities] == ["gizah", "rhodos", "ephesos"]
    assert s.cities[1].built == ["lumber_yard", "stone_pit"] and s.cities[1].coins == 6 and s.cities[0].coins == 4
    assert s.hands[0] == ["baths", "altar"] and s.step == "pick"
    assert "play Baths" in [G.notation(s, 0, a) for a in G.legal_actions(s, 0)]


@pytest.mark.parametrize(
    "make",
    [
        lambda: table("Atlantis", "Rhodos", "Ephesos"),
        lambda: table("Gizah", "Rhodos", "Ephesos", players=4),
        lambda: city(table("Gizah", "Rhodos", "Ephesos"), "Babylon"),
        lambda: hands(table("Gizah", "Rhodos", "Ephesos"), ["Flying Carpet"]),
    ],
)
def test_impossible_positions_are_refused(make: object) -> None:
    with pytest.raises(PositionError):
        make()  # type: ignore[operator]
