"""The game state: board, hands, bank, roles, the phase machine and the trading record.

Why plain mutable dataclasses with a hand-written ``clone`` and JSON form: ``Game.apply``
copies the state before every action; ``copy.deepcopy`` would dominate a playout. Sides are
civilization ids (``"rome"`` …) so neutral civilizations are handled by the same code as
players; ``seats[i]`` is the civilization of seat ``i``.

Phases (``State.phase``): ``setup`` (Rome's caravan choices; advanced-setup purchases),
``roles`` (a holder breaks a reassignment tie), ``artemis``, ``commerce_n`` (the DoC picks N),
``offer`` (simultaneous hidden offers), ``take``, ``ulysses``, ``give`` (the DoC's
compensation), ``build``, ``gardens`` (keep one goods card), ``military``, ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Counts = dict[str, int]


def add(counts: Counts, card: str, n: int = 1) -> None:
    """Add ``n`` cards of ``card`` (removing the key at zero keeps dumps canonical)."""
    v = counts.get(card, 0) + n
    if v < 0:
        raise ValueError(f"negative count of {card}")
    if v:
        counts[card] = v
    else:
        counts.pop(card, None)


def total(counts: Mapping[str, int]) -> int:
    """Number of cards in a multiset."""
    return sum(counts.values())


@dataclass(slots=True)
class Prov:
    """Per-province board state. ``cities`` and ``caravans`` list the filled sites / icons."""

    owner: str | None = None
    cities: list[str] = field(default_factory=list)
    caravans: list[str] = field(default_factory=list)
    temple: bool = False
    market: bool = False
    fresh: bool = False
    """Influence placed (or annexation completed) here this round (R-B3)."""

    def copy(self) -> Prov:
        return Prov(self.owner, list(self.cities), list(self.caravans), self.temple, self.market, self.fresh)

    def to_json(self) -> dict[str, Any]:
        return {"owner": self.owner, "cities": list(self.cities), "caravans": list(self.caravans),
                "temple": self.temple, "market": self.market, "fresh": self.fresh}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Prov:
        return cls(raw["owner"], [str(x) for x in raw["cities"]], [str(x) for x in raw["caravans"]],
                   bool(raw["temple"]), bool(raw["market"]), bool(raw["fresh"]))

    def buildings(self) -> list[str]:
        """Building slots as placement ids: ``city:<site>``, ``caravan:<goods>``, ``temple``, ``market``."""
        out = [f"city:{c}" for c in self.cities] + [f"caravan:{g}" for g in self.caravans]
        if self.temple:
            out.append("temple")
        if self.market:
            out.append("market")
        return out


@dataclass(slots=True)
class Unit:
    """A military unit on the board.

    ``loc`` is a province (legion, fortress, docked trireme) or a sea zone (trireme at sea).
    ``place`` is ``""``, a building id (occupation) or ``"influence"`` (annexation).
    ``moved``/``fought``/``used`` are reset at the start of each military turn.
    """

    civ: str
    kind: str
    loc: str
    docked: bool = False
    place: str = ""
    moved: bool = False
    fought: bool = False
    used: bool = False

    def copy(self) -> Unit:
        return Unit(self.civ, self.kind, self.loc, self.docked, self.place, self.moved, self.fought, self.used)

    def to_json(self) -> list[Any]:
        return [self.civ, self.kind, self.loc, self.docked, self.place, self.moved, self.fought, self.used]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Unit:
        return cls(str(raw[0]), str(raw[1]), str(raw[2]), bool(raw[3]), str(raw[4]), bool(raw[5]),
                   bool(raw[6]), bool(raw[7]))


@dataclass(slots=True)
class Trade:
    """The commerce phase's trading record.

    ``offers`` holds each participant's offered cards still face up (before the reveal: the
    hidden picks so far). ``acquired`` are cards taken, face down in front of the taker.
    """

    n: int
    participants: list[str]
    offers: dict[str, Counts]
    revealed: bool = False
    acquired: dict[str, Counts] = field(default_factory=dict)
    taker: str = ""
    history: list[list[str]] = field(default_factory=list)
    forced: str = ""
    """Victim the taker must take from (after Ulysses redirected a take)."""
    last_card: str = ""
    start_sizes: dict[str, int] = field(default_factory=dict)

    def copy(self) -> Trade:
        return Trade(self.n, list(self.participants), {k: dict(v) for k, v in self.offers.items()},
                     self.revealed, {k: dict(v) for k, v in self.acquired.items()}, self.taker,
                     [list(h) for h in self.history], self.forced, self.last_card, dict(self.start_sizes))

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "participants": list(self.participants),
                "offers": {k: dict(sorted(v.items())) for k, v in self.offers.items()},
                "revealed": self.revealed, "acquired": {k: dict(sorted(v.items())) for k, v in self.acquired.items()},
                "taker": self.taker, "history": [list(h) for h in self.history], "forced": self.forced,
                "last_card": self.last_card, "start_sizes": dict(self.start_sizes)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Trade:
        return cls(int(raw["n"]), [str(x) for x in raw["participants"]],
                   {str(k): {str(c): int(n) for c, n in v.items()} for k, v in raw["offers"].items()},
                   bool(raw["revealed"]),
                   {str(k): {str(c): int(n) for c, n in v.items()} for k, v in raw["acquired"].items()},
                   str(raw["taker"]), [[str(a), str(b)] for a, b in raw["history"]], str(raw["forced"]),
                   str(raw["last_card"]), {str(k): int(v) for k, v in raw["start_sizes"].items()})


@dataclass(slots=True)
class State:
    """Everything about one game. See the module docstring for the phases."""

    players: int
    seats: list[str]
    neutrals: list[str]
    options: dict[str, Any]
    rng: int
    seat_order: list[str]
    """Random order of the player civilizations, for the tie-breaks that need one (AD-24, AD-49)."""
    phase: str = "setup"
    round: int = 1
    roles: dict[str, str] = field(default_factory=dict)
    hands: dict[str, Counts] = field(default_factory=dict)
    bank: Counts = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=dict)
    provs: dict[str, Prov] = field(default_factory=dict)
    units: list[Unit] = field(default_factory=list)
    cards: dict[str, list[str]] = field(default_factory=dict)
    market: list[str] = field(default_factory=list)
    start_owned: dict[str, list[str]] = field(default_factory=dict)
    used: dict[str, list[str]] = field(default_factory=dict)
    """Once-per-round/phase powers already used: ``hammurabi``, ``cleopatra``, ``helen``, ``ulysses``."""
    done: list[str] = field(default_factory=list)
    """Players who have had their turn in the current build or military phase."""
    active: str = ""
    trade: Trade | None = None
    pending: dict[str, Any] = field(default_factory=dict)
    """Sub-prompt data: ``setup`` queue and points, ``ties``, ``artemis``, ``buy``, ``losses``,
    ``helen``, ``gardens``, ``ulysses``, and the military turn's record (``land``,
    ``attacked``, ``closed``, ``pillaged``)."""
    winner: str = ""
    last: list[str] = field(default_factory=list)
    """Provinces and sea zones changed by the last action (renderer highlight)."""

    def seat_of(self, civ: str) -> int:
        """Seat index of a player civilization."""
        return self.seats.index(civ)

    def is_player(self, civ: str | None) -> bool:
        return civ is not None and civ in self.seats

    def clone(self) -> State:
        """Independent copy (much faster than ``deepcopy``)."""
        return State(
            self.players, list(self.seats), list(self.neutrals), dict(self.options), self.rng,
            list(self.seat_order), self.phase, self.round, dict(self.roles),
            {k: dict(v) for k, v in self.hands.items()}, dict(self.bank), dict(self.supply),
            {k: p.copy() for k, p in self.provs.items()}, [u.copy() for u in self.units],
            {k: list(v) for k, v in self.cards.items()}, list(self.market),
            {k: list(v) for k, v in self.start_owned.items()}, {k: list(v) for k, v in self.used.items()},
            list(self.done), self.active, self.trade.copy() if self.trade else None,
            _deep(self.pending), self.winner, list(self.last),
        )


def _deep(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _deep(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_deep(v) for v in obj]
    return obj


def dump_state(s: State) -> dict[str, Any]:
    """JSON-able form; :func:`load_state` is its inverse."""
    return {
        "players": s.players, "seats": list(s.seats), "neutrals": list(s.neutrals), "options": dict(s.options),
        "rng": s.rng, "seat_order": list(s.seat_order), "phase": s.phase, "round": s.round,
        "roles": dict(s.roles), "hands": {k: dict(sorted(v.items())) for k, v in s.hands.items()},
        "bank": dict(sorted(s.bank.items())), "supply": dict(s.supply),
        "provs": {k: p.to_json() for k, p in s.provs.items()}, "units": [u.to_json() for u in s.units],
        "cards": {k: list(v) for k, v in s.cards.items()}, "market": list(s.market),
        "start_owned": {k: list(v) for k, v in s.start_owned.items()},
        "used": {k: list(v) for k, v in s.used.items()}, "done": list(s.done), "active": s.active,
        "trade": s.trade.to_json() if s.trade else None, "pending": _deep(s.pending), "winner": s.winner,
        "last": list(s.last),
    }


def load_state(raw: Mapping[str, Any]) -> State:
    """Inverse of :func:`dump_state`."""
    return State(
        int(raw["players"]), [str(x) for x in raw["seats"]], [str(x) for x in raw["neutrals"]],
        dict(raw["options"]), int(raw["rng"]), [str(x) for x in raw["seat_order"]], str(raw["phase"]),
        int(raw["round"]), {str(k): str(v) for k, v in raw["roles"].items()},
        {str(k): {str(c): int(n) for c, n in v.items()} for k, v in raw["hands"].items()},
        {str(k): int(v) for k, v in raw["bank"].items()}, {str(k): int(v) for k, v in raw["supply"].items()},
        {str(k): Prov.from_json(v) for k, v in raw["provs"].items()}, [Unit.from_json(u) for u in raw["units"]],
        {str(k): [str(x) for x in v] for k, v in raw["cards"].items()}, [str(x) for x in raw["market"]],
        {str(k): [str(x) for x in v] for k, v in raw["start_owned"].items()},
        {str(k): [str(x) for x in v] for k, v in raw["used"].items()}, [str(x) for x in raw["done"]],
        str(raw["active"]), Trade.from_json(raw["trade"]) if raw["trade"] else None, _deep(dict(raw["pending"])),
        str(raw["winner"]), [str(x) for x in raw["last"]],
    )
