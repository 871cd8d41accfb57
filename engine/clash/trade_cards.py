"""Action and objective cards in trade offers (rules 8.7): which cards an offer may name, how the
answering seat picks the cards asked of it, and the atomic hand-to-hand move.

Why cards are offered differently on the two sides: the writer of an offer knows his own hand,
so he names the very cards he gives (``give card hero-general-wedge-formation``), while he cannot
see the other hand, so he asks for a number of cards of a deck (``get 1 action card``) and the
answering seat picks which ones when accepting (``accept <card> ...``). Card identities never
reach a public text, the public view or an image: the public offer says "1 action card"; the
names go only to the two seats of the trade (private events and their own views).

Decisions:
- Cards have no cap (no hand limit), so they may stand on both sides of one offer (a swap).
- At most :data:`MAX_ASK` cards of each deck may be asked in one offer, so that the answering
  seat's choices (every set of cards it might hand over) stay a short list.
- Only objective cards still in the hand are tradeable; completed ones lie face up and stay.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

from engine.clash.actions import Action
from engine.clash.cards_data import DECKS, slug
from engine.clash.decks import in_play
from engine.clash.state import State

DECK_ITEMS: tuple[str, ...] = ("action", "objective")
"""Card goods of an offer: counts in ``give``/``get`` (the public part)."""
MAX_ASK = 3
_HANDS = {"action": "hands", "objective": "goals"}


def deck_of(card: str) -> str:
    """``action`` or ``objective``."""
    return "action" if card in DECKS.actions else "objective"


def hand(state: State, seat: int, deck: str) -> list[str]:
    """The seat's hidden cards of one deck (the list itself, for moving cards)."""
    cards: list[str] = state.decks[_HANDS[deck]][seat]
    return cards


def card_name(card: str) -> str:
    """``Hero General (Wedge Formation)`` / ``Large Civilization or Draft`` for the private texts."""
    if card in DECKS.actions:
        c = DECKS.actions[card]
        return f"{c.name} ({DECKS.abilities[c.combat].name})"
    o = DECKS.objectives[card]
    return f"{o.upper.name} or {o.lower.name}"


def card_word(card: str) -> str:
    """One typeable word for a card: an action card by name and combat ability (several cards
    share a name), an objective card by its upper objective, with the lower one when needed."""
    if card in DECKS.actions:
        c = DECKS.actions[card]
        return f"{slug(c.name)}-{slug(DECKS.abilities[c.combat].name)}"
    o = DECKS.objectives[card]
    same = sum(1 for x in DECKS.objectives.values() if x.upper.name == o.upper.name)
    return slug(o.upper.name) if same == 1 else f"{slug(o.upper.name)}-{slug(o.lower.name)}"


def give_options(state: State, pend: dict[str, Any]) -> list[Action]:
    """Add one of the writer's own cards to the offer, or take one back."""
    if not in_play(state):
        return []
    seat = int(pend["seat"])
    chosen: list[str] = pend.get("cards", [])
    out = []
    for deck in DECK_ITEMS:
        for c in hand(state, seat, deck):
            out.append(Action("give", name="card", items=(c,), n=0 if c in chosen else 1))
    return out


def get_options(state: State, pend: dict[str, Any]) -> list[Action]:
    """Ask the other seat for up to :data:`MAX_ASK` cards of a deck (it picks which)."""
    if not in_play(state):
        return []
    other = int(pend["to"])
    out: list[Action] = []
    for deck in DECK_ITEMS:
        top = min(MAX_ASK, len(hand(state, other, deck)))
        now = int(pend["get"].get(deck, 0))
        out.extend(Action("get", name=deck, n=n) for n in range(top + 1) if n != now)
    return out


def set_card(pend: dict[str, Any], a: Action) -> None:
    """A ``give card`` step: the card joins or leaves the offer; the public count follows."""
    cards: list[str] = pend.setdefault("cards", [])
    card = a.items[0]
    if a.n:
        cards.append(card)
    else:
        cards.remove(card)
    for deck in DECK_ITEMS:
        n = sum(1 for c in cards if deck_of(c) == deck)
        if n:
            pend["give"][deck] = n
        else:
            pend["give"].pop(deck, None)


def accept_choices(state: State, pend: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every set of cards the answering seat may hand over for the cards asked of it (one empty
    set when none are asked)."""
    seat = int(pend["seat"])
    per_deck = []
    for deck in DECK_ITEMS:
        n = int(pend["get"].get(deck, 0))
        mine = sorted(hand(state, seat, deck))
        per_deck.append(list(combinations(mine, n)) if n else [()])
    return [tuple(x for part in combo for x in part) for combo in product(*per_deck)]


def cards_possible(state: State, pend: dict[str, Any]) -> bool:
    """The writer still holds every card he gives (cards can leave a hand while an offer waits)."""
    giver = int(pend["from"])
    return all(c in hand(state, giver, deck_of(c)) for c in pend.get("cards", []))


def move(state: State, src: int, dst: int, cards: tuple[str, ...] | list[str]) -> None:
    """Move cards from one hand to the other (the caller has checked that all are there)."""
    for c in cards:
        deck = deck_of(c)
        hand(state, src, deck).remove(c)
        hand(state, dst, deck).append(c)


def names(cards: tuple[str, ...] | list[str]) -> str:
    """``Hero General (Wedge Formation) and Wealth or Large Fleet`` for a private text."""
    from engine.core.text import join_words

    return join_words([card_name(c) for c in cards])
