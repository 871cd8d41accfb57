"""Engine-level leak test for the hands (rules 4.4): whole games where, after every step, no
public event, no view of another seat or of a spectator, no status and no public image names an
action or objective card held in a hand — unless a card of that name is public at that moment
(played and discarded, or completed face up)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import renderer
from engine.clash.builder import GAME
from engine.clash.cards_data import DECKS
from engine.clash.data import TABLES
from engine.clash.state import State


def _strings(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def public_names(s: State) -> set[str]:
    """Card names anyone may see now."""
    d = s.decks
    names = {DECKS.actions[c].name for c in d["action_discard"]}
    names |= {DECKS.abilities[DECKS.actions[c].combat].name for c in d["action_discard"]}
    for seat in range(s.players):
        for done in d["done"][seat]:
            card, half = done.split(":")
            names.add(DECKS.objectives[card].half(half).name)
        names.update(DECKS.events[c].name for c in d["great"][seat])
    names.update(DECKS.events[c].name for c in DECKS.events)  # event cards are drawn face up
    # Words that are also names of public things ("Draft" is an advance and an objective).
    names.update(a.name for a in TABLES.advances.values())
    names.update(w.name for w in TABLES.wonders.values())
    return names


def hidden(s: State, seat: int) -> tuple[set[str], set[str]]:
    """Ids and names (combat abilities included) of the cards in ``seat``'s hands that are not
    public."""
    d = s.decks
    ids = set(d["hands"][seat]) | set(d["goals"][seat])
    names = {DECKS.actions[c].name for c in d["hands"][seat]}
    names |= {DECKS.abilities[DECKS.actions[c].combat].name for c in d["hands"][seat]}
    for c in d["goals"][seat]:
        names |= {DECKS.objectives[c].upper.name, DECKS.objectives[c].lower.name}
    return ids, names - public_names(s)


def assert_clean(text: str, ids: set[str], names: set[str], allowed: set[str], where: str) -> None:
    for name in sorted(allowed, key=len, reverse=True):  # "Great Ideas" is not "Ideas"
        text = text.replace(name, "")
    for cid in ids:
        assert not re.search(rf"\b{cid}\b", text), f"{where}: card id {cid} in {text[:200]!r}"
    for name in names:
        assert not re.search(rf"\b{re.escape(name)}\b", text), f"{where}: hidden card {name!r} in {text[:300]!r}"


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (4, 5)])
def test_hands_never_leak(players: int, seed: int) -> None:
    s = GAME.new_game(seed, players)
    steps = 0
    images = 0
    while GAME.outcome(s) is None and steps < 700:
        allowed = public_names(s)
        for owner in range(players if steps % 4 == 0 else 0):  # views every 4th step: the test stays quick
            ids, names = hidden(s, owner)
            for viewer in [None, *[v for v in range(players) if v != owner]]:
                view = GAME.view(s, viewer)
                if viewer is None:
                    assert "hand" not in view and "objectives" not in view
                own = hidden(s, viewer)[1] if viewer is not None else set()  # a copy of the same card
                assert_clean(" | ".join(_strings(view)), ids, names - own, allowed | own, f"view of {viewer}")
            assert_clean(GAME.status(s), ids, names, allowed, "status")
        if steps % 151 == 0:
            public = renderer.render("clash", GAME.view(s, None))
            assert all(renderer.render("clash", GAME.view(s, v)) == public for v in range(players))
            images += 1
        rng_seat = next(iter(GAME.to_move(s)))
        action = GAME.auto_action(s, rng_seat, steps)
        step = GAME.apply(s, rng_seat, action)
        after = step.state
        allowed_after = public_names(after) | allowed
        for ev in step.events:
            mine = set()  # a private event may name its recipients' own cards
            for seat in ev.seats or ():
                mine |= hidden(s, seat)[1] | hidden(after, seat)[1]
            for owner in range(players):
                if ev.seats is not None and owner in ev.seats:
                    continue
                ids_b, names_b = hidden(s, owner)
                ids_a, names_a = hidden(after, owner)
                assert_clean(
                    ev.text, ids_b | ids_a, (names_b | names_a) - mine, allowed_after | mine, f"event {ev.kind}"
                )
        s = after
        steps += 1
    assert images >= 2


def test_private_image_only_for_a_seat() -> None:
    s = GAME.new_game(2, 3)
    assert renderer.render_private("clash", GAME.view(s, None)) is None
    png = renderer.render_private("clash", GAME.view(s, 1))
    assert png is not None and png[:4] == b"\x89PNG"


def test_refusal_of_a_card_not_held_names_nothing_hidden() -> None:
    s = GAME.new_game(2, 2)
    seat = s.active
    other = 1 - seat
    held = DECKS.actions[s.decks["hands"][other][0]]
    from engine.clash.actions import Action

    reason = GAME.illegal_reason(s, seat, Action("play", name=held.effect))
    assert held.name not in reason
