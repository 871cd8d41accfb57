"""Glue between the card decks and the rest of the rules: what happens after every action
(card draws due, this turn's facts, immediate objectives, queued card steps) and the hidden
hands in views and texts.

Why one after-action hook: the first part of the game records card draws (``card_log``) and
event draws (``event_log``) where they happen; reading those records and the action just taken
here keeps the edits to the shared rules modules to a few calls.
"""

from __future__ import annotations

from typing import Any

from engine.clash import combat_cards  # noqa: F401  (registers the combat abilities with the combat rules)
from engine.clash.action_cards import new_turn, turn_key
from engine.clash.actions import Action
from engine.clash.battle_facts import battle_keys, record
from engine.clash.card_flow import busy, run_steps
from engine.clash.cards_data import DECKS
from engine.clash.decks import add_fact, deal, in_play
from engine.clash.objectives import check_immediate, start_claims
from engine.clash.state import State
from engine.clash.trade_cards import card_name
from engine.core.events import Event, private


def snapshot(state: State) -> dict[str, Any]:
    """Before an action: start the turn's card bookkeeping if a new turn began, and note what
    :func:`after_action` compares with (wonders standing before the action)."""
    if in_play(state):
        _turn_changes(state, turn_key(state))
    return {
        "wonders": {c.space: c.wonder for c in state.cities if c.wonder},
        "key": turn_key(state),
        "battles": battle_keys(state),
    }


def _turn_changes(state: State, key: list[int]) -> None:
    """A new turn began: this turn's facts and card effects end, lost actions are taken."""
    if state.decks.get("turn_key") == key:
        return
    state.decks["turn_key"] = key
    if key[3]:
        new_turn(state)
    if state.turn == 1 and state.phase == "turn":
        state.decks["wonders_round"] = []


def draw_logged(state: State) -> list[Event]:
    """Deal the cards the rules recorded as due (Writing, status step 3), privately announced."""
    events: list[Event] = []
    done = int(state.decks["logs"][1])
    for seat, _what in state.card_log[done:]:
        got_a, got_o = deal(state, int(seat), 1, 1)
        names = [DECKS.actions[c].name for c in got_a] + [card_name(c) for c in got_o]
        if names:
            events.append(private(int(seat), "You draw: " + "; ".join(names) + ".", "card"))
    state.decks["logs"][1] = len(state.card_log)
    return events


def after_action(state: State, seat: int, action: Action, before: dict[str, Any]) -> list[Event]:
    """Facts, card draws, objectives and card steps after ``action`` was carried out."""
    if not in_play(state):
        return []
    events = draw_logged(state)
    if seat == state.active and not (action.kind == "play" and action.name == "negotiations"):
        state.decks["acted"] = True
    if action.kind == "found":
        add_fact(state, seat, f"found:{action.space}")
    elif action.kind == "build" and "draft" in action.flags:
        add_fact(state, seat, "draft")
    elif action.kind == "influence" and "cultural_takeover" in state.decks["flags"][seat]:
        state.decks["flags"][seat].remove("cultural_takeover")  # the card's next influence is spent
    elif action.kind == "collect" and ({"focus", "mass"} & set(action.flags)):
        used = "production_focus" if "focus" in action.flags else "mass_production"
        state.decks["flags"][seat].remove(used)
    record(state, before["battles"])
    for c in state.cities:
        if c.wonder and before["wonders"].get(c.space) != c.wonder and c.owner >= 0:
            add_fact(state, c.owner, "wonder")
            state.decks.setdefault("wonders_round", []).append(c.owner)
    if busy(state) and not state.pending:
        events.extend(run_steps(state))
    if state.phase == "status" and not state.pending:
        # A choice of another part of the rules ended (a Barbarian symbol's, say): go on.
        from engine.clash.rounds import run_status

        events.extend(run_status(state))
    state.decks["actor"] = seat
    events.extend(check_immediate(state))
    state.decks["actor"] = -1
    _turn_changes(state, turn_key(state))
    events.extend(draw_logged(state))
    return events


def status_claims(state: State, order: list[int]) -> list[Event]:
    """Status step 1: queue each player's objective declarations and resolve what needs no choice."""
    if not in_play(state):
        return []
    if state.status_step == 1 and not state.decks.get("claims_started"):
        state.decks["claims_started"] = True
        start_claims(state, order)
    events = run_steps(state)
    if not state.pending:
        state.decks["claims_started"] = False
    return events


def hidden_view(state: State, seat: int | None) -> dict[str, Any]:
    """The card part of a view: counts for everybody, the cards themselves only for ``seat``."""
    if not in_play(state):
        return {}
    d = state.decks
    out: dict[str, Any] = {
        "card_counts": [
            {"actions": len(d["hands"][s]), "objectives": len(d["goals"][s])} for s in range(state.players)
        ],
        "completed": [
            [
                {"card": c.split(":")[0], "name": DECKS.objectives[c.split(":")[0]].half(c.split(":")[1]).name}
                for c in d["done"][s]
            ]
            for s in range(state.players)
        ],
        "great_persons": [[DECKS.events[c].name for c in d["great"][s]] for s in range(state.players)],
        "last_event": DECKS.events[d["last_event"]].name if d["last_event"] else "",
        "decks": {k: len(d[k]) for k in ("event", "action", "objective")},
    }
    if seat is not None and 0 <= seat < state.players:
        out["hand"] = [
            {
                "id": c,
                "name": DECKS.actions[c].name,
                "text": DECKS.actions[c].text,
                "cost": _cost_words(c),
                "combat": DECKS.abilities[DECKS.actions[c].combat].name,
                "combat_text": DECKS.abilities[DECKS.actions[c].combat].text,
            }
            for c in d["hands"][seat]
        ]
        out["objectives"] = [
            {
                "id": c,
                "upper": _half(c, "upper"),
                "lower": _half(c, "lower"),
            }
            for c in d["goals"][seat]
        ]
    return out


def _half(card: str, half: str) -> dict[str, str]:
    o = DECKS.objectives[card].half(half)
    return {"name": o.name, "text": o.text, "when": "status phase" if o.timing == "S" else "at once"}


def _cost_words(card: str) -> str:
    c = DECKS.actions[card]
    parts = []
    if c.costs_action:
        parts.append("an action")
    if c.culture:
        parts.append(f"{c.culture} culture token" + ("s" if c.culture > 1 else ""))
    return " and ".join(parts) if parts else "free"


def private_summary(state: State, seat: int) -> str:
    """The seat's hand in words (for the private ``hand`` reply)."""
    if not in_play(state):
        return ""
    view = hidden_view(state, seat)
    acts = [f"{h['name']} ({h['cost']}; in battle: {h['combat']})" for h in view["hand"]]
    objs = [f"{o['upper']['name']} or {o['lower']['name']}" for o in view["objectives"]]
    return (
        "Your action cards: " + ("; ".join(acts) if acts else "none") + ". "
        "Your objective cards: " + ("; ".join(objs) if objs else "none") + "."
    )


def secret_choice(state: State) -> bool:
    """The open choice names hidden cards (claims, Spy, New Plans)."""
    return state.pending.get("kind") == "card" and bool(state.pending.get("secret"))
