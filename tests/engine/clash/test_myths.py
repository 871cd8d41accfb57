"""Myths (rules 12.4): 1 mood token per city keeps an event's mood decrease away, city by city."""

from __future__ import annotations

import pytest

from engine.clash.builder import GAME, Position
from engine.clash.myths import event_mood_loss
from engine.core.errors import IllegalAction


def _pos(tokens: int) -> Position:
    pos = Position(2).clear_units()
    pos.city(0, "d2", name="Athens", mood="happy")
    pos.city(0, "c2", name="Corinth")
    pos.advances(0, "myths").tokens(0, happiness_level=3, mood=tokens)
    return pos.turn(0)


def test_cc_ex_36_myths_protects_one_city_per_token() -> None:
    pos = _pos(1)
    pos.events.extend(event_mood_loss(pos.state, 0, ["d2", "c2"]))
    assert pos.state.pending["kind"] == "myths"
    assert GAME.to_move(pos.state) == frozenset({0})
    assert pos.moves(0) == ["myths athens", "myths corinth", "no myths"]
    pos.play(0, "myths athens")
    assert pos.state.pending == {}  # no token left: the other city drops
    assert pos.state.pl[0].mood_tokens == 0
    assert pos.state.city_at("d2").mood == "happy"  # type: ignore[union-attr]
    assert pos.state.city_at("c2").mood == "angry"  # type: ignore[union-attr]


def test_myths_can_protect_both_or_none() -> None:
    pos = _pos(2)
    event_mood_loss(pos.state, 0, ["d2", "c2"], angry=True)
    pos.play(0, "myths corinth")
    assert pos.moves(0) == ["myths athens", "no myths"]
    pos.play(0, "no myths")
    assert pos.state.city_at("d2").mood == "angry"  # type: ignore[union-attr]
    assert pos.state.city_at("c2").mood == "neutral"  # type: ignore[union-attr]
    assert pos.state.pl[0].mood_tokens == 1


def test_without_myths_or_tokens_the_moods_drop_at_once() -> None:
    pos = _pos(0)
    event_mood_loss(pos.state, 0, ["d2", "c2"])
    assert pos.state.pending == {}
    assert [c.mood for c in pos.state.cities_of(0)] == ["neutral", "angry"]
    with pytest.raises(IllegalAction):
        pos.play(0, "myths athens")


def test_myths_reopens_the_callers_choice() -> None:
    pos = _pos(1)
    then = {"kind": "first", "seat": 1}
    event_mood_loss(pos.state, 0, ["c2"], then=then)
    pos.play(0, "no myths")
    assert pos.state.pending == then
