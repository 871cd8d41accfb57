"""The card decks load from the data file and a replaced deck is validated (data file 7-9)."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engine.clash.cards_data import DECKS, build_decks
from engine.clash.data import read_json


def test_deck_sizes_and_copies() -> None:
    assert (len(DECKS.actions), len(DECKS.objectives), len(DECKS.events)) == (42, 32, 38)
    assert set(Counter(c.effect for c in DECKS.actions.values()).values()) == {2}
    symbols = Counter(c.symbol for c in DECKS.events.values())
    assert symbols == {"barbarian_attack": 8, "barbarians_appear": 8, "exhausted_land": 5, "gold_mine": 6, "": 11}
    assert len(DECKS.abilities) == 16


def test_unknown_effects_are_refused() -> None:
    raw = read_json("cards.json")
    for deck, key in (("action_cards", "effect"), ("event_cards", "effect")):
        bad = copy.deepcopy(raw)
        bad[deck][0][key] = "teleport"
        with pytest.raises(ValueError):
            build_decks(bad)
    bad = copy.deepcopy(raw)
    bad["objective_cards"][0]["upper"]["check"] = "rule_the_world"
    with pytest.raises(ValueError):
        build_decks(bad)


def test_a_replaced_deck_with_known_effects_loads() -> None:
    raw = read_json("cards.json")
    raw["action_cards"] = raw["action_cards"][:10]
    raw["event_cards"][0]["name"] = "Black Death"
    decks = build_decks(raw)
    assert len(decks.actions) == 10 and decks.events["evt01"].name == "Black Death"
