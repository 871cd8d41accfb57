"""Deck state: the event, action and objective decks, their discard piles, the hands, and the
card effects in play, all kept in ``State.decks`` (JSON-able).

Why one dict and a deck RNG of its own: the first part of the game left room for the decks in a
single field, so the card rules add no field to the shared state classes; the decks shuffle from
their own seeded generator (stored in the state, so a game stays deterministic) and the map and
dice draws of the rest of the game are not shifted by card draws.

Layout of ``State.decks``::

    rng                 deck generator state (string)
    event, action, objective                 face-down decks (top = index 0)
    event_discard, action_discard, objective_discard
    hands[seat]         action cards in hand (hidden)
    goals[seat]         objective cards in hand (hidden)
    done[seat]          completed objectives as ``card:half`` (public)
    great[seat]         great persons kept face up (public event cards)
    steps               card and event steps still to resolve (:mod:`engine.clash.card_flow`)
    facts[seat]         what happened this turn for immediate objectives and cards
    lost[seat]          actions lost in the seat's next turn (Assassination, Revolution)
    flags[seat]         card effects active this turn (Production Focus, Negotiations, ...)
    last_event          the last event card drawn (public)
"""

from __future__ import annotations

from typing import Any

from engine.clash.cards_data import DECKS
from engine.clash.state import State
from engine.core.rng import Rng

KINDS = ("event", "action", "objective")


def in_play(state: State) -> bool:
    """Whether the game has its card decks (a state saved before the decks existed has none)."""
    return bool(state.decks)


def init_decks(state: State, seed: int) -> None:
    """Shuffle the three decks and deal each player 1 action and 1 objective card (rules 3.1 step 6)."""
    rng = Rng.from_seed(seed * 7919 + 104729)
    decks: dict[str, Any] = {}
    for kind, cards in (("event", DECKS.events), ("action", DECKS.actions), ("objective", DECKS.objectives)):
        pile = list(cards)
        rng.shuffle(pile)
        decks[kind] = pile
        decks[kind + "_discard"] = []
    n = state.players
    decks.update(
        hands=[[] for _ in range(n)],
        goals=[[] for _ in range(n)],
        done=[[] for _ in range(n)],
        great=[[] for _ in range(n)],
        facts=[[] for _ in range(n)],
        lost=[0] * n,
        flags=[[] for _ in range(n)],
        steps=[],
        last_event="",
        logs=[0, 0],
        rng=str(rng.state),
    )
    state.decks = decks
    for seat in state.clockwise_from(state.first):
        deal(state, seat, 1, 1)


def copy_decks(d: dict[str, Any]) -> dict[str, Any]:
    """A copy for ``State.clone`` (decks and hands are lists of card ids, one level of nesting;
    only the queued steps need a deep copy)."""
    from engine.clash.state import _deep

    out: dict[str, Any] = {}
    for k, v in d.items():
        if k in ("steps", "founder", "truces"):
            out[k] = _deep(v)
        elif isinstance(v, list):
            out[k] = [list(x) if isinstance(x, list) else x for x in v]
        else:
            out[k] = v
    return out


def _rng(state: State) -> Rng:
    return Rng(int(state.decks["rng"]))


def draw(state: State, kind: str) -> str:
    """The top card of a deck; an empty deck is refilled from its shuffled discards (D-18).
    ``""`` when both are empty."""
    d = state.decks
    if not d[kind]:
        if not d[kind + "_discard"]:
            return ""
        rng = _rng(state)
        pile = list(d[kind + "_discard"])
        rng.shuffle(pile)
        d[kind] = pile
        d[kind + "_discard"] = []
        d["rng"] = str(rng.state)
    card: str = d[kind].pop(0)
    return card


def shuffle_back(state: State, kind: str, cards: list[str]) -> None:
    """Return cards to a deck and shuffle it (New Plans)."""
    d = state.decks
    d[kind].extend(cards)
    rng = _rng(state)
    rng.shuffle(d[kind])
    d["rng"] = str(rng.state)


def deal(state: State, seat: int, actions: int, objectives: int) -> tuple[list[str], list[str]]:
    """Draw cards into ``seat``'s hands; returns what was drawn (private to the seat)."""
    got_a: list[str] = []
    got_o: list[str] = []
    for _ in range(actions):
        card = draw(state, "action")
        if card:
            state.decks["hands"][seat].append(card)
            got_a.append(card)
    for _ in range(objectives):
        card = draw(state, "objective")
        if card:
            state.decks["goals"][seat].append(card)
            got_o.append(card)
    return got_a, got_o


def hand(state: State, seat: int) -> list[str]:
    """Action cards of ``seat`` (hidden from the others)."""
    return list(state.decks["hands"][seat]) if in_play(state) else []


def goals(state: State, seat: int) -> list[str]:
    """Objective cards of ``seat`` in hand (hidden from the others)."""
    return list(state.decks["goals"][seat]) if in_play(state) else []


def flags(state: State, seat: int) -> list[str]:
    """Card effects active for ``seat`` this turn."""
    return list(state.decks["flags"][seat]) if in_play(state) else []


def add_fact(state: State, seat: int, fact: str) -> None:
    """Record something that happened this turn (``found:c4``, ``draft:3``, ``won_land:7``...),
    for immediate objectives and the cards that need it (Hero General, Great Ideas, Inspiration)."""
    if in_play(state) and 0 <= seat < state.players:
        state.decks["facts"][seat].append(fact)


def facts(state: State, seat: int) -> list[str]:
    """Facts of ``seat`` this turn."""
    return list(state.decks["facts"][seat]) if in_play(state) else []


def card_total(state: State) -> dict[str, int]:
    """Cards of each deck wherever they are (decks, discards, hands, completed, great persons,
    cards being resolved): the conservation invariant."""
    d = state.decks
    out = {k: len(d[k]) + len(d[k + "_discard"]) for k in KINDS}
    out["action"] += sum(len(h) for h in d["hands"])
    out["objective"] += sum(len(h) for h in d["goals"]) + sum(len(h) for h in d["done"])
    out["event"] += sum(len(h) for h in d["great"])
    for step in d["steps"]:
        for key, kind in (("event_card", "event"), ("held_objectives", "objective")):
            if key in step:
                out[kind] += 1 if isinstance(step[key], str) else len(step[key])
    pend = state.pending.get("step", {}) if state.pending.get("kind") == "card" else {}
    for key, kind in (("event_card", "event"), ("held_objectives", "objective")):
        if key in pend:
            out[kind] += 1 if isinstance(pend[key], str) else len(pend[key])
    return out


def truce_forbids(state: State, attacker: int, target: int) -> bool:
    """Negotiations: ``attacker`` may not attack ``target`` in this turn."""
    if not in_play(state):
        return False
    now = int(state.decks.get("turn_no", 0))
    return any(
        t["attacker"] == attacker and t["target"] == target and t["turn"] == now for t in state.decks.get("truces", [])
    )


def advance_truces(state: State) -> None:
    """A new turn: truces waiting for their attacker's next turn start, past ones end."""
    d = state.decks
    d["turn_no"] = int(d.get("turn_no", 0)) + 1
    kept = []
    for t in d.get("truces", []):
        if t["turn"] == -1 and t["attacker"] == state.active and state.phase == "turn":
            t["turn"] = d["turn_no"]
        if t["turn"] == -1 or t["turn"] >= d["turn_no"]:
            kept.append(t)
    d["truces"] = kept
