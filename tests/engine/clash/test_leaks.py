"""Nothing face down leaks: unrevealed regions and the wonder deck stay out of every view and
every event until they are revealed."""

from __future__ import annotations

import json

from engine.clash.builder import GAME
from engine.clash.data import TABLES


def test_views_and_events_never_show_face_down_things() -> None:
    s = GAME.new_game(3, 3)
    steps = 0
    while GAME.outcome(s) is None and steps < 400:
        hidden_tiles = {sl.tile for sl in s.slots if not sl.revealed}
        hidden_wonders = {TABLES.wonders[w].name for w in s.wonder_deck} | set(s.wonder_deck)
        for seat in (None, 0, 1, 2):
            text = json.dumps(GAME.view(s, seat))
            assert not any(f'"{t}"' in text for t in hidden_tiles)
            assert not any(w in text for w in hidden_wonders)
            assert '"tile"' not in text
        seat = next(iter(GAME.to_move(s)))
        step = GAME.apply(s, seat, GAME.auto_action(s, seat, steps))
        for ev in step.events:
            assert ev.public or ev.kind == "card"  # a card drawn or seen is told to its seat alone
            assert not any(w in ev.text for w in {TABLES.wonders[x].name for x in step.state.wonder_deck})
        s = step.state
        steps += 1


def test_exploring_is_not_undoable() -> None:
    from engine.clash.builder import Position

    pos = Position(2).clear_units().units(0, "d2", settler=1).turn(0)
    action = GAME.parse(pos.state, 0, "move d2 d3 settler")
    step = GAME.apply(pos.state, 0, action)
    assert not step.undoable
    action = GAME.parse(pos.state, 0, "move d2 d1 settler")
    assert GAME.apply(pos.state, 0, action).undoable
