"""Chat notation of The Capitals: short tile labels a person types comfortably, every move
``moves`` lists typeable exactly as shown (and parsing back to the same action), the old
slugs and whole names still accepted, and the cost of every bid and build shown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine.capitals.actions import Action
from engine.capitals.builder import GAME, Table
from engine.capitals.data import TILES
from engine.capitals.labels import label, name_words
from engine.core.errors import AmbiguousAction
from engine.core.notation import tokens
from engine.core.rng import Rng


def _states(seed: int, players: int, **options: Any) -> Iterator[tuple[Any, int]]:
    s = GAME.new_game(seed, players, options)
    rng = Rng.from_seed(seed)
    while GAME.outcome(s) is None:
        seat = next(iter(GAME.to_move(s)))
        yield s, seat
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state


def test_labels_are_unique_short_and_name_the_tile() -> None:
    labels = {tid: label(tid) for tid in TILES}
    assert len(set(labels.values())) == len(labels)
    for tid, text in labels.items():
        words = name_words(tid)
        assert words[: len(text.split())] == text.split() or text == TILES[tid].slug
        # No label is the beginning of another tile's name, so a typed label names one tile.
        assert not any(o != tid and name_words(o)[: len(text.split())] == text.split() for o in TILES)
    assert label("I-19") == "museum" and TILES["I-19"].name == "Museum of Industry"
    king = next(t for t in TILES if TILES[t].name == "King George Mansion")
    assert label(king) == "king"


@pytest.mark.parametrize(("seed", "players", "options"), [(5, 5, {}), (6, 3, {"prosperity": True}),
                                                          (7, 2, {"prosperity": True, "variant": True})])
def test_every_listed_move_is_typeable_exactly_as_shown(seed: int, players: int, options: dict[str, Any]) -> None:
    kinds = set()
    for i, (s, seat) in enumerate(_states(seed, players, **options)):
        if i % 5:
            continue
        for a in GAME.legal_actions(s, seat):
            shown = GAME.notation(s, seat, a)
            assert "-" not in shown.split(" ", 1)[-1] or a.kind in ("pass",), shown  # no slugs
            assert GAME.parse(s, seat, shown) == a, shown
            assert GAME.parse(s, seat, shown.upper()) == a, shown
            kinds.add(a.kind)
    assert {"position", "build", "activate", "relocate"} <= kinds


def test_slug_whole_name_prefix_and_case_are_accepted() -> None:
    t = Table().clear_rows().row(0, "King George Mansion", "Market").building(0)
    king = next(x for x in TILES if TILES[x].name == "King George Mansion")
    a = Action("build", tile=king, cell=(0, -1))
    s = t.state
    assert GAME.notation(s, 0, a) == "build king m12"
    for text in ("build king m12", "Build King M12", "build kin m12", "build king george mansion m12",
                 "build king-george-mansion m12", "build king 0 -1", "build KING-GEORGE-MANSION 0,-1"):
        assert GAME.parse(s, 0, text) == a, text


def test_two_word_label_and_an_ambiguous_prefix() -> None:
    deco = next(x for x in TILES if TILES[x].name == "Art Deco Flats")
    museum = next(x for x in TILES if TILES[x].name == "Art Museum")
    assert label(deco) == "art deco" and label(museum) == "art museum"
    t = Table().clear_rows().row(0, "Art Deco Flats", "Art Museum").building(0)
    s = t.state
    shown = [GAME.notation(s, 0, a) for a in GAME.legal_actions(s, 0)]
    assert "build art deco m12" in shown and "build art museum m12" in shown
    assert GAME.parse(s, 0, "build art deco m12") == Action("build", tile=deco, cell=(0, -1))
    assert GAME.parse(s, 0, "build art d m12") == Action("build", tile=deco, cell=(0, -1))
    with pytest.raises(AmbiguousAction):
        GAME.parse(s, 0, "build art m12")
    assert GAME.action_group("build art deco m12") == "build art deco"


def test_activation_by_label_with_tourists() -> None:
    t = Table(players=3).city(0, "Market", "n13").tourist(1, 0).execution(0)
    s = t.state
    shown = {GAME.notation(s, 0, a): a for a in GAME.legal_actions(s, 0)}
    assert "activate market" in shown and "activate market tourists blue" in shown
    assert GAME.parse(s, 0, "activate market tourist blue") == shown["activate market tourists blue"]
    assert GAME.action_group("activate city hall tourists blue") == "activate city hall"
    assert all(tokens(n)[0] in ("activate", "pass", "done") for n in shown)


def test_every_bid_and_build_shows_its_cost() -> None:
    t = Table(players=5).political(2, round=2)
    s = t.state
    for a in GAME.legal_actions(s, 2):
        cost = GAME.action_cost(s, 2, a)
        assert cost == "free" or cost.startswith("$"), cost
    prices = {GAME.notation(s, 2, a): GAME.action_cost(s, 2, a) for a in GAME.legal_actions(s, 2)}
    assert prices["position p5"] == "free" and prices["position p1"].startswith("$")
    t = Table().clear_rows().row(2, "Market").row(0, "Bakery").building(0)
    s = t.state
    costs = {GAME.notation(s, 0, a): GAME.action_cost(s, 0, a) for a in GAME.legal_actions(s, 0)}
    assert costs["build market m12"] == "$4" and costs["build bakery m12"] == ""
    assert costs["build market l12"] == "$4, -2 prestige: 1 placement rule broken"
    assert costs["build bakery l12"] == "-2 prestige: 1 placement rule broken"
    assert all(cost.startswith("$4") for move, cost in costs.items() if move.startswith("build market"))
