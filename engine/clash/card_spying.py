"""Action cards that handle hidden cards: Spy (look at a player's hands, swap one card) and
New Plans (draw two objective cards, keep one or both) (data file 7.1).

Why apart from :mod:`engine.clash.action_cards`: their choices name cards in hands, so they are
secret choices (offered only in private) and their narration says only what is public.
"""

from __future__ import annotations

from engine.clash.action_cards import action_label, objective_label
from engine.clash.card_effects import colour, colour_word, seat_of
from engine.clash.card_flow import Step, handler, push
from engine.clash.cards_data import DECKS
from engine.clash.decks import hand, shuffle_back
from engine.clash.state import State
from engine.core.events import Event, private, public
from engine.core.text import join_words


# ------------------------------------------------------------------ Spy
@handler(
    "spy",
    lambda s, st: [
        colour_word(o) for o in range(s.players) if o != int(st["seat"]) and (hand(s, o) or s.decks["goals"][o])
    ],
    lambda s, st: "choose the player you spy on",
)
def _spy(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    other = seat_of(choice)
    cards = [DECKS.actions[c].name for c in hand(state, other)]
    goals = [
        f"{DECKS.objectives[c].upper.name} / {DECKS.objectives[c].lower.name}" for c in state.decks["goals"][other]
    ]
    text = (
        f"{colour(other)} holds: action cards {join_words(cards) or 'none'}; "
        f"objective cards {join_words(goals) or 'none'}."
    )
    push(state, {"do": "spy_swap", "seat": seat, "other": other})
    return [public(f"{colour(seat)} spies on {colour(other)}.", "card"), private(seat, text, "card")]


def _swap_options(state: State, step: Step) -> list[str] | None:
    seat, other = int(step["seat"]), int(step["other"])
    out = ["none"]
    for mine in dict.fromkeys(action_label(c) for c in hand(state, seat)):
        for theirs in dict.fromkeys(action_label(c) for c in hand(state, other)):
            out.append(f"{mine}-for-{theirs}")
    for mine in dict.fromkeys(objective_label(c) for c in state.decks["goals"][seat]):
        for theirs in dict.fromkeys(objective_label(c) for c in state.decks["goals"][other]):
            out.append(f"{mine}-for-{theirs}")
    return out


@handler(
    "spy_swap",
    _swap_options,
    lambda s, st: "swap one of your cards for one of his of the same type, or `choose none`",
    secret=True,
    always_ask=True,
)
def _spy_swap(state: State, step: Step, choice: str) -> list[Event]:
    if choice == "none":
        return []
    seat, other = int(step["seat"]), int(step["other"])
    mine, theirs = choice.split("-for-")
    for key, label in (("hands", action_label), ("goals", objective_label)):
        a = next((c for c in state.decks[key][seat] if label(c) == mine), "")
        b = next((c for c in state.decks[key][other] if label(c) == theirs), "")
        if a and b:
            state.decks[key][seat].remove(a)
            state.decks[key][other].remove(b)
            state.decks[key][seat].append(b)
            state.decks[key][other].append(a)
            what = "an action card" if key == "hands" else "an objective card"
            return [public(f"{colour(seat)} swaps {what} with {colour(other)}.", "card")]
    raise AssertionError("spy swap of unknown cards")


# ------------------------------------------------------------------ New Plans
def _plans_options(state: State, step: Step) -> list[str] | None:
    return list(dict.fromkeys(objective_label(c) for c in step["held_objectives"]))


@handler("plans_keep", _plans_options, lambda s, st: "choose the objective card you keep", secret=True)
def _plans_keep(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    drawn = list(step["held_objectives"])
    kept = next(c for c in drawn if objective_label(c) == choice)
    drawn.remove(kept)
    state.decks["goals"][seat].append(kept)
    if drawn:
        push(state, {"do": "plans_more", "seat": seat, "held_objectives": drawn})
    return [public(f"{colour(seat)} keeps a new objective card.", "card")]


@handler(
    "plans_more",
    lambda s, st: ["none", *dict.fromkeys(objective_label(c) for c in s.decks["goals"][int(st["seat"])])],
    lambda s, st: "discard an objective card from your hand to keep the other new one too, or `choose none`",
    secret=True,
    always_ask=True,
)
def _plans_more(state: State, step: Step, choice: str) -> list[Event]:
    seat = int(step["seat"])
    rest = list(step["held_objectives"])
    if choice != "none":
        old = next(c for c in state.decks["goals"][seat] if objective_label(c) == choice)
        state.decks["goals"][seat].remove(old)
        state.decks["goals"][seat].extend(rest)
        shuffle_back(state, "objective", [old])
        return [public(f"{colour(seat)} exchanges an objective card.", "card")]
    shuffle_back(state, "objective", rest)
    return []
