"""Engine-level leak test: whole games where, after every step, no public event and no view of
another seat or of a spectator names a card that is hidden at that moment (in a hand, a
pending pick, the decks, the Free City pile, under a wonder, in the discard pile or out of
the game) — unless a card of that name stands face up in some city."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.events import Event
from engine.core.rng import Rng
from engine.seven_wonders.data import CARDS
from engine.seven_wonders.state import State
from engine.seven_wonders.wonders import halikarnassos_choices

from .builders import G


def _strings(obj: Any, skip: frozenset[str] = frozenset({"chain_from"})) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            if k not in skip:
                yield from _strings(v, skip)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v, skip)


def _mate(seat: int) -> int:
    return seat + 1 if seat % 2 == 0 else seat - 1


def allowed(s: State, viewer: int | None) -> set[str]:
    """Card ids ``viewer`` may know: public cities, and for a seat its own hand, picks,
    tucked cards, the teammate's hand, the Free City cards it decides for, the discard pile
    while choosing a Halikarnassos build."""
    ok = {c for city in s.cities for c in city.built}
    if viewer is None:
        return ok
    ok.update(s.hands[viewer])
    ok.update(s.cities[viewer].tucked)
    for city, a in s.pending.items():
        if s.controller(city) == viewer:
            ok.add(a.card)
    if s.teams:
        ok.update(s.hands[_mate(viewer)])
    if s.players == 2 and s.fc_ctrl == viewer:
        ok.update(s.hand_of(s.free_city))
    if s.step == "hali" and s.hali and s.controller(s.hali[0]) == viewer:
        ok.update(halikarnassos_choices(s, s.hali[0]))
    return ok


def check_view(s: State, viewer: int | None, about: str) -> None:
    ok = allowed(s, viewer)
    ok_names = {CARDS[c].name for c in ok}
    bad_ids = {c for c in CARDS if c not in ok}
    bad_names = {CARDS[c].name for c in bad_ids} - ok_names
    for text in _strings(G.view(s, viewer)):
        assert text not in bad_ids, f"{about}: view of {viewer} shows hidden card id {text!r}"
        assert text not in bad_names, f"{about}: view of {viewer} shows hidden card {text!r}"


def check_events(before: State, after: State, events: tuple[Event, ...], about: str) -> None:
    public_ok = allowed(after, None)
    public_names = {CARDS[c].name for c in public_ok}
    for e in events:
        viewers: list[int | None] = [None] if e.seats is None else sorted(e.seats)
        for v in viewers:
            ok = public_ok if v is None else allowed(before, v) | allowed(after, v)
            ok_names = {CARDS[c].name for c in ok} | public_names
            text = e.text
            for name in sorted(ok_names, key=len, reverse=True):  # "Siege Workshop" is not "Workshop"
                text = text.replace(name, "#")
            for cid, card in CARDS.items():
                if cid in ok or card.name in ok_names:
                    continue
                assert not re.search(rf"\b{re.escape(card.name)}\b", text), f"{about}: {e.text!r} to {v}"
                for text in _strings(dict(e.data)):
                    assert text != cid and text != card.name, f"{about}: event data {e.data!r} to {v}"


@pytest.mark.parametrize(
    ("seed", "n", "opts"),
    [
        (1, 3, {}),
        (2, 2, {}),
        (3, 2, {"cities": False, "side": "B"}),
        (4, 4, {"teams": True, "side": "B"}),
        (5, 7, {"cities": False, "side": "random"}),
        (6, 5, {"side": "B"}),
    ],
)
def test_no_hidden_card_leaks(seed: int, n: int, opts: dict[str, Any]) -> None:
    rng = Rng.from_seed(seed)
    s = G.new_game(seed, n, opts)
    steps = 0
    while G.outcome(s) is None:
        movers = sorted(G.to_move(s))
        seat = rng.choice(movers)
        action = G.auto_action(s, seat, rng.next64() & 65535) if rng.below(2) else rng.choice(G.legal_actions(s, seat))
        step = G.apply(s, seat, action)
        about = f"step {steps} seat {seat} {G.notation(s, seat, action)!r}"
        check_events(s, step.state, step.events, about)
        s = step.state
        for viewer in [None, *range(n)]:
            if viewer != seat or steps % 5 == 0:
                check_view(s, viewer, about)
        assert "rng" not in G.view(s, None) and "decks" in G.view(s, None)
        steps += 1
    assert steps > 40
