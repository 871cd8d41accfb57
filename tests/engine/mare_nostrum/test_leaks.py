"""Engine leak test (AD-30): hands, offers before the reveal and the cards a player chooses in
private never reach another seat's view, the spectator's view or a public event.

Method: along whole games, swap hidden cards between two other players (hand sizes and the
bank unchanged) or change a hidden offer; the viewer's view must not change. Every public
event of a private choice must name no card."""

from __future__ import annotations

import pytest

from engine.core.rng import Rng
from engine.mare_nostrum.data import CARD_TYPES, GOODS
from engine.mare_nostrum.positions import GAME
from engine.mare_nostrum.state import State, add


def _free(s: State, civ: str) -> list[str]:
    """Cards of ``civ`` that are in no face-up or pending offer and in no payment."""
    hand = dict(s.hands[civ])
    if s.trade is not None:
        for card, n in s.trade.offers.get(civ, {}).items():
            hand[card] = hand.get(card, 0) - n
    return [c for c in CARD_TYPES if hand.get(c, 0) > 0]


def _perturb(s: State, viewer: int | None) -> State | None:
    others = [c for i, c in enumerate(s.seats) if i != viewer]
    for y in others:
        for z in others:
            if y >= z:
                continue
            for cy in _free(s, y):
                for cz in _free(s, z):
                    if cy != cz:
                        t = s.clone()
                        add(t.hands[y], cy, -1)
                        add(t.hands[y], cz)
                        add(t.hands[z], cz, -1)
                        add(t.hands[z], cy)
                        return t
    return None


def _perturb_offer(s: State, viewer: int | None) -> State | None:
    t = s.trade
    if t is None or t.revealed:
        return None
    for i, civ in enumerate(s.seats):
        if i == viewer or civ not in t.offers or not t.offers[civ]:
            continue
        free = _free(s, civ)
        for card in list(t.offers[civ]):
            for other in free:
                if other != card:
                    u = s.clone()
                    assert u.trade is not None
                    add(u.trade.offers[civ], card, -1)
                    add(u.trade.offers[civ], other)
                    return u
    return None


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 5)])
def test_views_hide_other_hands_and_offers(seed: int, players: int) -> None:
    s = GAME.new_game(seed, players, {})
    rng = Rng.from_seed(seed)
    steps = checked = 0
    words = set(GOODS) | {"tax card"}
    while GAME.outcome(s) is None and steps < 1500:
        seat = rng.choice(sorted(GAME.to_move(s)))
        action = GAME.auto_action(s, seat, rng.next64() & 0xFFFF)
        step = GAME.apply(s, seat, action)
        if action.kind in ("offer", "give", "keep", "artemis", "swap"):
            for e in step.events:
                if e.public and e.kind != "reveal":
                    assert not any(w in e.text for w in words), e.text
        if action.kind == "pay":
            assert not any("pay" in e.text for e in step.events if e.public)
        s = step.state
        steps += 1
        if steps % 13 and s.phase != "offer":
            continue
        for viewer in [None, *range(players)]:
            base = GAME.view(s, viewer)
            for other in (_perturb(s, viewer), _perturb_offer(s, viewer)):
                if other is not None:
                    assert GAME.view(other, viewer) == base, (viewer, s.phase)
                    assert GAME.status(other, viewer) == GAME.status(s, viewer)
                    checked += 1
    assert checked > 30


def test_the_perturbation_is_seen_by_its_owner() -> None:
    """The method can fail: the seat whose hand changed sees the change."""
    s = GAME.new_game(3, 3, {})
    other = _perturb(s, None)
    assert other is not None
    changed = [i for i in range(3) if GAME.view(other, i) != GAME.view(s, i)]
    assert len(changed) == 2
