"""The game state: map slots, cities, units, players, the round/turn machine and pending choices.

Why plain mutable dataclasses with a hand-written ``clone``: ``Game.apply`` copies the state before
every action and a game takes several hundred actions; ``copy.deepcopy`` would dominate. Every
field is JSON-able through :func:`dump_state` / :func:`load_state`.

Pending choices (``State.pending``): a decision the rules give to one seat in the middle of
something else (the orientation of an explored region, where Barbarians appear, the status-phase
free advance, ...). While one is open, only that seat moves (``to_move``), so the battles and card
plays of the second part fit the same mechanism: the defending seat is simply the pending seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from engine.clash.data import TABLES
from engine.core.rng import Rng

BARBARIAN = -1
"""Owner id of Barbarian cities and units."""
MOODS = ("angry", "neutral", "happy")


@dataclass(slots=True)
class Slot:
    """A region slot of the layout; ``tile`` is a regular tile id or ``start:A``/``start:B``."""

    id: str
    hexes: list[str]
    tile: str
    revealed: bool = False
    rotated: bool = False
    home: int = -1


@dataclass(slots=True)
class City:
    """A city (player or Barbarian). ``pieces`` maps building -> colour (seat) of the piece."""

    id: int
    owner: int
    space: str
    name: str
    mood: str = "neutral"
    pieces: dict[str, int] = field(default_factory=dict)
    port_space: str = ""
    activations: int = 0
    wonder: str = ""

    @property
    def size(self) -> int:
        """Settlement plus buildings (rules 5.1)."""
        return 1 + len(self.pieces)


@dataclass(slots=True)
class Unit:
    """One settler, army unit or ship. ``carrier`` is the ship id a land unit is aboard."""

    id: int
    owner: int
    kind: str
    space: str
    carrier: int = -1
    number: int = 0
    """Ships only: 1..4, the name players use (``ship2``)."""
    moved: int = -1
    """Serial of the Move action in which the unit last moved (each unit moves once per action)."""
    embarked: int = -1
    """Serial of the Move action in which the unit boarded a ship (no disembarking in it)."""
    stopped: bool = False
    """Entered a Mountain (or explored onto one): no more moves this turn."""
    forest: bool = False
    """Entered a Forest this turn: may move again, but not into a battle (D-07)."""
    fought: bool = False


@dataclass(slots=True)
class Player:
    """One seat's board: resources, tokens, levels, advances and per-turn usage."""

    seat: int
    res: dict[str, int]
    mood_tokens: int = 0
    culture_tokens: int = 0
    culture_level: int = 0
    happiness_level: int = 0
    advances: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    """Once-per-turn abilities already used this turn."""
    collects: int = 0
    """Collect actions taken this turn (Free Economy)."""
    free_economy: bool = False
    """Free Economy was owned when this turn began (CC-EX-31)."""
    forced_labor: bool = False
    writing_cards: bool = False
    """Writing's one-time card draw has happened (D-22)."""
    event_halves: int = 0
    """Victory points from events, in halves."""
    objectives: list[str] = field(default_factory=list)
    levels_reached: list[str] = field(default_factory=list)
    """Event thresholds already reached, e.g. ``culture3``."""
    start_space: str = ""


@dataclass(slots=True)
class State:
    """A whole game."""

    players: int
    options: dict[str, Any]
    slots: list[Slot]
    cities: list[City]
    units: list[Unit]
    pl: list[Player]
    rng: Rng
    order: list[int] = field(default_factory=list)
    """Seats clockwise around the table (turn order); the 4-player game seats at random."""
    next_id: int = 1
    exhausted: list[str] = field(default_factory=list)
    wonder_deck: list[str] = field(default_factory=list)
    revealed_wonders: list[str] = field(default_factory=list)
    reserved: dict[str, int] = field(default_factory=dict)
    """Monuments reservations: wonder -> seat (public, D-37)."""
    round: int = 1
    turn: int = 1
    first: int = 0
    active: int = 0
    actions_left: int = 3
    phase: str = "turn"
    """``turn`` | ``status`` | ``over``."""
    status_step: int = 0
    status_queue: list[int] = field(default_factory=list)
    pending: dict[str, Any] = field(default_factory=dict)
    mode: str = ""
    """``move`` or ``civic`` while a Move / Civic Improvement action takes further steps."""
    mode_left: int = 0
    move_serial: int = 0
    event_log: list[list[Any]] = field(default_factory=list)
    """Event draws due (seat, track, level): the hook the event deck of the second part uses."""
    card_log: list[list[Any]] = field(default_factory=list)
    """Card draws due (seat, what): the hook the card decks of the second part use."""
    decks: dict[str, Any] = field(default_factory=dict)
    """The three card decks, hands, discards and card effects in play (:mod:`engine.clash.decks`)."""
    end_reason: str = ""
    wonder_end: bool = False
    """A Wonderful End: a wonder was built in the last five turns; the round ends the game."""
    changed: list[str] = field(default_factory=list)
    """Hexes changed since the active player's turn began (image highlight)."""
    prev_changed: list[str] = field(default_factory=list)
    """Hexes changed in the previous turn (highlighted until the new turn changes something)."""
    terrain: dict[str, str] = field(default_factory=dict)
    """Derived: terrain of every revealed hex (rebuilt on load)."""
    battle: dict[str, Any] = field(default_factory=dict)
    """The battle being fought (empty when none); see :mod:`engine.clash.combat`."""
    battles: list[dict[str, Any]] = field(default_factory=list)
    """Finished battles of this turn and the previous one (``when``: the turn), for the image and
    the objectives; a finished record never changes."""

    # --------------------------------------------------------------- helpers
    def player(self, seat: int) -> Player:
        """The board of ``seat``."""
        return self.pl[seat]

    def left_of(self, seat: int) -> int:
        """The next seat clockwise (the player to the left, rules 6.1)."""
        order = self.order or list(range(self.players))
        return order[(order.index(seat) + 1) % self.players]

    def clockwise_from(self, seat: int) -> list[int]:
        """Every seat clockwise starting with ``seat``."""
        order = self.order or list(range(self.players))
        i = order.index(seat)
        return order[i:] + order[:i]

    def city_at(self, space: str) -> City | None:
        """The city on ``space``, if any."""
        for c in self.cities:
            if c.space == space:
                return c
        return None

    def cities_of(self, seat: int) -> list[City]:
        """The cities of ``seat`` in founding order."""
        return [c for c in self.cities if c.owner == seat]

    def units_at(self, space: str) -> list[Unit]:
        """Every unit on ``space`` (ships and their cargo included)."""
        return [u for u in self.units if u.space == space]

    def unit(self, uid: int) -> Unit:
        """The unit with id ``uid``."""
        for u in self.units:
            if u.id == uid:
                return u
        raise KeyError(uid)

    def new_id(self) -> int:
        """A fresh id for a city or unit."""
        self.next_id += 1
        return self.next_id - 1

    def clone(self) -> State:
        """Independent copy (much faster than deepcopy)."""
        from engine.clash.decks import copy_decks

        return State(
            players=self.players,
            options=dict(self.options),
            slots=[Slot(s.id, list(s.hexes), s.tile, s.revealed, s.rotated, s.home) for s in self.slots],
            cities=[
                City(c.id, c.owner, c.space, c.name, c.mood, dict(c.pieces), c.port_space, c.activations, c.wonder)
                for c in self.cities
            ],
            units=[
                Unit(
                    u.id,
                    u.owner,
                    u.kind,
                    u.space,
                    u.carrier,
                    u.number,
                    u.moved,
                    u.embarked,
                    u.stopped,
                    u.forest,
                    u.fought,
                )
                for u in self.units
            ],
            pl=[_copy_player(p) for p in self.pl],
            rng=Rng(self.rng.state),
            order=list(self.order),
            next_id=self.next_id,
            exhausted=list(self.exhausted),
            wonder_deck=list(self.wonder_deck),
            revealed_wonders=list(self.revealed_wonders),
            reserved=dict(self.reserved),
            round=self.round,
            turn=self.turn,
            first=self.first,
            active=self.active,
            actions_left=self.actions_left,
            phase=self.phase,
            status_step=self.status_step,
            status_queue=list(self.status_queue),
            pending=_deep(self.pending),
            mode=self.mode,
            mode_left=self.mode_left,
            move_serial=self.move_serial,
            event_log=[list(e) for e in self.event_log],
            card_log=[list(e) for e in self.card_log],
            decks=copy_decks(self.decks) if self.decks else {},
            end_reason=self.end_reason,
            wonder_end=self.wonder_end,
            changed=list(self.changed),
            prev_changed=list(self.prev_changed),
            terrain=dict(self.terrain),
            battle=_deep(self.battle),
            battles=_deep(self.battles),
        )


def _copy_player(p: Player) -> Player:
    return Player(
        p.seat,
        dict(p.res),
        p.mood_tokens,
        p.culture_tokens,
        p.culture_level,
        p.happiness_level,
        list(p.advances),
        list(p.used),
        p.collects,
        p.free_economy,
        p.forced_labor,
        p.writing_cards,
        p.event_halves,
        list(p.objectives),
        list(p.levels_reached),
        p.start_space,
    )


def _deep(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _deep(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deep(v) for v in x]
    return x


def slot_terrain(slot: Slot) -> dict[str, str]:
    """Terrain of each hex of a revealed slot (rotated: hex i gets tile index 3-i, data 3.1)."""
    ter = TABLES.start_sides[slot.tile[6:]] if slot.tile.startswith("start:") else TABLES.tiles[slot.tile].terrain
    return {h: ter[3 - i if slot.rotated else i] for i, h in enumerate(slot.hexes)}


def rebuild_terrain(state: State) -> None:
    """Recompute the derived terrain map from the revealed slots."""
    state.terrain = {}
    for s in state.slots:
        if s.revealed:
            state.terrain.update(slot_terrain(s))


def _obj(cls: Any, raw: Mapping[str, Any]) -> Any:
    return cls(**{f.name: _deep(raw[f.name]) for f in fields(cls) if f.name in raw})


def _row(obj: Any) -> dict[str, Any]:
    return {f.name: _deep(getattr(obj, f.name)) for f in fields(obj)}


def dump_state(state: State) -> dict[str, Any]:
    """JSON-able form (the derived terrain map is left out)."""
    out: dict[str, Any] = {}
    for f in fields(state):
        val = getattr(state, f.name)
        if f.name == "terrain":
            continue
        if f.name == "rng":
            out["rng"] = str(val.state)
        elif f.name in ("slots", "cities", "units", "pl"):
            out[f.name] = [_row(x) for x in val]
        else:
            out[f.name] = _deep(val)
    return out


def load_state(raw: Mapping[str, Any]) -> State:
    """Inverse of :func:`dump_state`."""
    state = State(
        players=int(raw["players"]),
        options=dict(raw["options"]),
        slots=[_obj(Slot, s) for s in raw["slots"]],
        cities=[_obj(City, c) for c in raw["cities"]],
        units=[_obj(Unit, u) for u in raw["units"]],
        pl=[_obj(Player, p) for p in raw["pl"]],
        rng=Rng(int(raw["rng"])),
    )
    skip = {"players", "options", "slots", "cities", "units", "pl", "rng", "terrain"}
    for f in fields(State):
        if f.name not in skip and f.name in raw:
            setattr(state, f.name, _deep(raw[f.name]))
    for c in state.cities:
        c.pieces = {str(k): int(v) for k, v in c.pieces.items()}
    rebuild_terrain(state)
    return state
