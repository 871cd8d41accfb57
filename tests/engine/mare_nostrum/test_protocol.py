"""The engine protocol: the action contract by property over random positions, notation round
trips, dump/load, views, timeouts, status text and help."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import EngineError, IllegalAction, InvalidSave
from engine.core.rng import Rng
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.positions import GAME, Position
from engine.mare_nostrum.state import State


def _positions(seed: int, players: int, every: int = 17, limit: int = 60) -> list[State]:
    s = GAME.new_game(seed, players, {})
    rng = Rng.from_seed(seed)
    out = []
    step = 0
    while GAME.outcome(s) is None and len(out) < limit:
        seat = rng.choice(sorted(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
        step += 1
        if step % every == 0:
            out.append(s)
    return out


MALFORMED: list[Any] = [
    Action("buy", ("city", "atlantis", "Nowhere")), Action("buy", ()), Action("take", ("gold", "persia")),
    Action("trade", ("-1",)), Action("trade", ("999",)), Action("offer", ()), Action("offer", ("diamonds",)),
    Action("march", ("roma",)), Action("attack", ("rome", "roma", "99", "0")), Action("zzz"),
    Action("pay", ("taxes", "twice")), Action("lose", ("dragon",)), Action("next", ("persia",)),
    Action("give_role", ("commerce",)), "buy city", None, 42, ("buy", "city"),
]


@pytest.mark.parametrize("seed", [1, 2])
def test_action_contract_over_random_positions(seed: int) -> None:
    for s in _positions(seed, 3 + seed):
        before = GAME.dumps(s)
        for seat in range(s.players):
            legal = GAME.legal_actions(s, seat)
            assert bool(legal) == (seat in GAME.to_move(s))
            for a in legal[:8]:
                assert GAME.parse(s, seat, GAME.notation(s, seat, a)) == a
            for bad in MALFORMED:
                if bad in legal:
                    continue
                with pytest.raises(EngineError):
                    GAME.apply(s, seat, bad)
            assert GAME.dumps(s) == before


def test_illegal_action_says_why_and_changes_nothing() -> None:
    pos = Position(5).build_turn("greece").hand("greece", tax=3)
    before = GAME.dumps(pos.state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(pos.state, pos.seat("greece"), Action("buy", ("temple", "athenae")))
    assert "one set of 6 cards" in info.value.user_message and GAME.dumps(pos.state) == before
    with pytest.raises(IllegalAction) as info2:
        pos.play("greece", "buy temple athenae")
    assert "buy" in info2.value.user_message


def test_dump_load_round_trip_and_bad_saves() -> None:
    for s in _positions(3, 5, every=29, limit=10):
        assert GAME.dumps(GAME.load(GAME.dump(s))) == GAME.dumps(s)
    with pytest.raises(InvalidSave):
        GAME.load({"game": "duellum", "schema": 1, "state": {}})
    with pytest.raises(InvalidSave):
        GAME.load({"game": "mare-nostrum", "schema": 1, "state": {"players": 3}})


def test_on_timeout_is_legal_everywhere() -> None:
    for s in _positions(4, 4, every=13, limit=40):
        for seat in GAME.to_move(s):
            assert GAME.on_timeout(s, seat) in GAME.legal_actions(s, seat)


def test_status_help_and_names() -> None:
    s = Position(5).state
    assert "Waiting for Carthage" in GAME.status(s)
    assert GAME.seat_names(s) == ["Rome", "Greece", "Carthage", "Egypt", "Babylon"]
    assert "trade 3" in GAME.help_text() and "pay taxes" in GAME.help_text()
    assert len(GAME.status_lines(s, None)) == 5


def test_private_actions() -> None:
    s = Position(5).state
    assert GAME.private_action(s, 0, Action("offer", ("tax",)))
    assert not GAME.private_action(s, 0, Action("march", ("roma", "sardinia")))


def test_registry_finds_the_game() -> None:
    from engine.core.registry import find_game
    from engine.mare_nostrum import MareNostrumGame

    g = find_game("Mare Nostrum")
    assert isinstance(g, MareNostrumGame) and find_game("mn") is g
    assert (g.info.min_players, g.info.max_players) == (3, 5)


def test_timeouts_follow_the_spec() -> None:
    pos = Position(5).roles(political="egypt").build_phase()
    assert GAME.on_timeout(pos.state, pos.seat("egypt")) == Action("next", (pos.state.seat_order[0],))
    pos.play("egypt", "next greece")
    pos.hand("greece", tax=3)
    assert GAME.on_timeout(pos.state, pos.seat("greece")) == Action("done")
    pos.play("greece", "buy legion athenae")
    assert GAME.on_timeout(pos.state, pos.seat("greece")) == Action("cancel")


def test_config_options() -> None:
    pos = Position(5, pillage_buildings_per_turn=2).legion("rome", "numidia")
    s = pos.state
    s.units = [u for u in s.units if not (u.loc == "numidia" and u.civ == "carthage")]
    pos.city("numidia", "Cirta").military_turn("rome")
    pos.play("rome", "pillage numidia caravan slaves")
    assert "pillage numidia city cirta" in pos.legal("rome")
    pos = Position(5, annex_requires_adjacency=True).legion("rome", "cyprus", place="influence")
    pos.state.provs["cyprus"].owner = "egypt"
    pos.build_turn("rome").hand("rome", tax=3)
    assert "annex cyprus" not in pos.legal("rome")
    with pytest.raises(Exception, match="pillage_buildings_per_turn"):
        GAME.new_game(1, 5, {"pillage_buildings_per_turn": 0})


def test_action_cost_is_shown() -> None:
    pos = Position(5).build_turn("rome").hand("rome", tax=3)
    s, seat = pos.state, pos.seat("rome")
    assert GAME.action_cost(s, seat, Action("buy", ("legion", "roma"))) == "2 cards"
    assert GAME.action_cost(s, seat, Action("done")) == ""


def test_refusals_say_why() -> None:
    pos = Position(5).build_turn("greece").hand("greece", tax=3, grain=1)
    with pytest.raises(IllegalAction, match="one set of 6 cards"):
        GAME.apply(pos.state, pos.seat("greece"), Action("buy", ("temple", "athenae")))
    pos = Position(5).legion("rome", "macedonia").legion("greece", "macedonia").military_turn("rome")
    with pytest.raises(IllegalAction, match="Macedonia must fight first"):
        GAME.apply(pos.state, pos.seat("rome"), Action("done"))


def test_two_word_places_may_be_typed_by_their_first_word() -> None:
    s = GAME.new_game(2, 5, {})
    assert GAME.parse(s, 0, "caravan gallia grain") == Action("caravan", ("gallia_cisalpina", "grain"))
    assert GAME.parse(s, 0, "caravan gallia cisalpina grain") == Action("caravan", ("gallia_cisalpina", "grain"))
