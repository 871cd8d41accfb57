"""The help's examples are accepted exactly as printed, in positions where they are legal."""

from __future__ import annotations

import re

from engine.seven_wonders.position import city, hands, table

from .builders import G


def test_pick_examples_parse_as_printed() -> None:
    s = table("Gizah", "Babylon", "Ephesos")
    city(s, "Gizah", built=["Quarry", "East Trading Post"], coins=5)
    city(s, "Babylon", built=["Lumber Yard"])
    city(s, "Ephesos", built=["Lumber Yard"])
    hands(s, ["Baths", "Loom", "Altar", "Caravansery"], ["Altar", "Baths"], ["Altar", "Baths"])
    examples = re.findall(r"`([^`]+)`", G.help_text().split("Examples:")[1])
    assert examples == ["play baths", "wonder loom", "sell altar", "play caravansery pay left 2 right 1"]
    for text in [*examples, "play Caravansery pay left 2 right 1", "discard Altar"]:
        a = G.parse(s, 0, text)
        assert G.is_legal(s, 0, a), text


def test_free_city_example_parses_as_printed() -> None:
    s = G.new_game(3, 2, {})
    seat = s.fc_ctrl
    names = {G.notation(s, seat, a) for a in G.legal_actions(s, seat)}
    city_moves = sorted(t for t in names if t.startswith("city play ") and " pay " not in t)
    assert city_moves
    assert G.parse(s, seat, city_moves[0]) in G.legal_actions(s, seat)
