"""The action record and its chat notation.

Why one flat frozen record: actions are compared for legality (``action in legal``), stored
as hidden picks in the state and dumped to JSON; a flat record with defaults does all three
cheaply. Payments to the neighbours are part of the action because the rules let the buyer
choose whom to pay (A8.8), so two payments are two different moves.

Notation (what players type; matched leniently by :mod:`engine.core.notation`):

* ``play Baths`` — build a structure; ``play Caravansery pay left 2 right 1`` when the
  neighbours are paid; ``play Palace olympia`` uses Olympia's free build.
* ``wonder Loom`` — tuck Loom to build the next wonder stage (payment suffix as above).
* ``sell Altar`` (or ``discard Altar``) — discard for 3 coins.
* ``build Temple`` / ``skip`` — Halikarnassos: build a discarded card for free, or not.
* ``pay 2 debt 1`` — settle a coin loss: 2 coins to the bank and 1 debt token.
* ``city ...`` — the same moves made for the Free City in the two-player game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.seven_wonders.data import CARDS

PICK_KINDS = frozenset({"play", "wonder", "sell"})
VERBS = ("play", "wonder", "sell", "discard", "build", "skip", "pay", "city")


@dataclass(frozen=True, slots=True)
class Action:
    """One move.

    Attributes:
        kind: ``play`` | ``wonder`` | ``sell`` | ``build`` (Halikarnassos) | ``skip`` | ``pay``.
        city: the city the move is for (the seat's own, or the Free City).
        card: card id (play, wonder, sell, build).
        pay_left, pay_right: coins paid to the left / right neighbour for resources.
        stage: wonder: the 1-based stage built (always the next one when legal).
        via: play: ``""`` (paid), ``"chain"`` (free by chain), ``"olympia"`` (free build).
        coins, debt: pay: coins paid to the bank and debt tokens taken.
    """

    kind: str
    city: int
    card: str = ""
    pay_left: int = 0
    pay_right: int = 0
    stage: int = 0
    via: str = ""
    coins: int = 0
    debt: int = 0

    @property
    def trade(self) -> int:
        """Total coins paid to neighbours."""
        return self.pay_left + self.pay_right

    def to_json(self) -> dict[str, Any]:
        """Compact JSON (defaults omitted)."""
        out: dict[str, Any] = {"kind": self.kind, "city": self.city}
        for key in ("card", "via"):
            val = getattr(self, key)
            if val:
                out[key] = val
        for key in ("pay_left", "pay_right", "stage", "coins", "debt"):
            val = getattr(self, key)
            if val:
                out[key] = val
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_json`."""
        return cls(
            kind=str(raw["kind"]),
            city=int(raw["city"]),
            card=str(raw.get("card", "")),
            pay_left=int(raw.get("pay_left", 0)),
            pay_right=int(raw.get("pay_right", 0)),
            stage=int(raw.get("stage", 0)),
            via=str(raw.get("via", "")),
            coins=int(raw.get("coins", 0)),
            debt=int(raw.get("debt", 0)),
        )


def payment_suffix(action: Action) -> str:
    """`` pay left a right b`` when neighbours are paid, else nothing."""
    if action.trade:
        return f" pay left {action.pay_left} right {action.pay_right}"
    return ""


def base_text(action: Action) -> str:
    """The move without the Free City prefix and without the payment suffix."""
    kind = action.kind
    if kind == "skip":
        return "skip"
    if kind == "pay":
        return f"pay {action.coins} debt {action.debt}"
    name = CARDS[action.card].name
    if kind == "play" and action.via == "olympia":
        return f"play {name} olympia"
    return f"{kind} {name}"


def notation_text(action: Action, own_city: int) -> str:
    """Canonical notation; ``own_city`` is the acting seat's city (Free City moves get ``city``)."""
    text = base_text(action) + payment_suffix(action)
    if action.city != own_city:
        text = "city " + text
    return text


def alias_texts(action: Action, own_city: int, short: bool) -> list[str]:
    """Extra accepted spellings: the payment-free short form (``short``: for the cheapest
    payment), a one-sided payment without the zero side (``pay left 2``), and ``discard``
    for ``sell``."""
    prefix = "city " if action.city != own_city else ""
    out = []
    if short and action.trade:
        out.append(prefix + base_text(action))
    if action.trade and not (action.pay_left and action.pay_right):
        side = f"left {action.pay_left}" if action.pay_left else f"right {action.pay_right}"
        out.append(f"{prefix}{base_text(action)} pay {side}")
    if action.kind == "sell":
        out.append(prefix + "discard " + CARDS[action.card].name)
    return out


def well_formed(action: object) -> bool:
    """Whether ``action`` is an :class:`Action` whose fields have the right types and ranges.

    Why: parsers, buttons and autocomplete build actions; a field of the wrong type must be a
    refusal, never an exception deep in the rules."""
    if not isinstance(action, Action):
        return False
    ints = (action.city, action.pay_left, action.pay_right, action.stage, action.coins, action.debt)
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in ints):
        return False
    return (
        isinstance(action.kind, str)
        and isinstance(action.card, str)
        and isinstance(action.via, str)
        and (action.card == "" or action.card in CARDS)
    )
