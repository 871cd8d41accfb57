"""Public position builder for tests and examples: a few readable lines set up who owns what
and whose step it is.

Why it lives in the engine package: rule tests, benchmarks and the renderer's samples all
need mid-game positions; every helper here takes tiles from where they are (stack, row, box,
hand) so the "tiles are conserved" invariant still holds in a built position.

>>> t = Table(players=3)
>>> _ = t.city(0, "Market", "m12").tracks(0, ECO=5)
>>> t.state.players[0].tracks["ECO"]
5
"""

from __future__ import annotations

from typing import Any

from engine.capitals.actions import Action
from engine.capitals.data import BY_SLUG, STATION_LEVELS, STATIONS, TILES, slugify
from engine.capitals.flow import begin_execution, begin_political
from engine.capitals.game import CapitalsGame
from engine.capitals.grid import parse_cell_name
from engine.capitals.state import Cell, Placed, State, Tourist
from engine.core.events import Event

GAME = CapitalsGame()


def tile_id(name: str) -> str:
    """A tile id from its id, name or slug (``Market``, ``market``, ``I-18``)."""
    if name in TILES:
        return name
    return BY_SLUG[slugify(name)].id


def cell(name: str | Cell) -> Cell:
    """A cell from ``m13`` or ``(x, y)``."""
    if isinstance(name, tuple):
        return name
    c = parse_cell_name(name)
    if c is None:
        raise ValueError(f"no cell {name!r}")
    return c


class Table:
    """A game in round 1 whose pieces tests rearrange; ``play`` then applies real moves."""

    def __init__(self, players: int = 4, seed: int = 1, **options: Any) -> None:
        self.game = GAME
        self.state: State = GAME.new_game(seed, players, options)
        self.events: list[Event] = []

    # ----------------------------------------------------------- pieces
    def _take(self, tid: str) -> None:
        s = self.state
        for deck in s.decks.values():
            if tid in deck:
                deck.remove(tid)
                return
        for row in s.rows:
            if tid in row:
                row.remove(tid)
                return
        if tid in s.box:
            s.box.remove(tid)
            return
        for p in s.players:
            if tid in p.hand:
                p.hand.remove(tid)
                return
        raise ValueError(f"tile {tid} is not available (already in a city?)")

    def city(self, seat: int, name: str, at: str | Cell, *, lake: bool = False, cubes: int = 0) -> Table:
        """Put a tile (or a lake) into a city without resolving any effect."""
        tid = tile_id(name)
        self._take(tid)
        self.state.players[seat].city[cell(at)] = Placed(tid, lake, cubes, self.state.round)
        return self

    def row(self, index: int, *names: str) -> Table:
        """Put tiles into a Projects row (0: $0, 1: $2, 2: $4)."""
        for name in names:
            tid = tile_id(name)
            self._take(tid)
            self.state.rows[index].append(tid)
        return self

    def clear_rows(self) -> Table:
        """Empty the Projects area into the box."""
        for row in self.state.rows:
            self.state.box.extend(row)
            row.clear()
        return self

    def hand(self, seat: int, *names: str) -> Table:
        """Give a seat these prosperity tiles (its old hand goes to the box)."""
        p = self.state.players[seat]
        self.state.box.extend(p.hand)
        p.hand = []
        for name in names:
            tid = tile_id(name)
            self._take(tid)
            p.hand.append(tid)
        return self

    def tracks(self, seat: int, **values: int) -> Table:
        """Set track levels; ``PRG`` is the loop space, ``PRE`` prestige, ``NRG`` cubes."""
        p = self.state.players[seat]
        for k, v in values.items():
            if k == "PRG":
                p.prg = v
            elif k == "PRE":
                p.pre = v
            elif k == "NRG":
                p.nrg = v
            else:
                p.tracks[k] = v
        return self

    def station(self, seat: int, level: int, cubes: int | None = None) -> Table:
        """Give a seat a station of ``level`` (the best one left) and optionally its cubes."""
        s = self.state
        p = s.players[seat]
        if level != p.level:
            new = STATION_LEVELS[level][0] if level == 1 else s.supply[level].pop(0)
            if p.station != "S-PWR":
                s.spent_stations.append(p.station)
            p.station, p.level = new, level
        p.nrg = STATIONS[p.station].cubes if cubes is None else cubes
        return self

    def tourist(self, owner: int, city: int, at: str | Cell | None = None) -> Table:
        """Move a tourist marker into a city (on a tile, or beside it)."""
        for t in self.state.tourists:
            if t.owner == owner:
                t.city = city
                t.cell = None if at is None else cell(at)
                t.moved = False
                return self
        self.state.tourists.append(Tourist(owner, city, None if at is None else cell(at)))
        return self

    def markers(self, seat: int, *corners: str | Cell) -> Table:
        """Put the construction markers on these corners."""
        self.state.players[seat].markers = [cell(c) for c in corners]
        return self

    def positions(self, *seats: int) -> Table:
        """Start-track order: ``positions(2, 0, 1)`` puts seat 2 on P1, seat 0 on P2 ..."""
        for i, seat in enumerate(seats):
            self.state.players[seat].pos = i + 1
        return self

    # ----------------------------------------------------------- phases
    def building(self, seat: int, round: int | None = None) -> Table:
        """Make it ``seat``'s turn in the Building phase."""
        s = self.state
        if round is not None:
            s.round = round
        s.phase = "building"
        s.order = s.start_order()
        s.turn = s.order.index(seat)
        return self

    def political(self, seat: int, round: int = 2) -> Table:
        """Start the Political phase of ``round`` and make it ``seat``'s turn (earlier seats
        in the old order are skipped without buying)."""
        s = self.state
        s.round = round
        begin_political(s)
        s.turn = s.order.index(seat)
        return self

    def execution(self, seat: int, *, tourism: bool = False) -> Table:
        """Make it ``seat``'s Execution turn (``tourism``: run the Tourism phase first)."""
        s = self.state
        if tourism:
            begin_execution(s)
        else:
            s.phase = "execution"
            s.order = s.start_order()
            for t in s.tourists:
                t.moved = False
        s.turn = s.order.index(seat)
        s.acts = 0
        return self

    def prosperity(self, seat: int, round: int = 4) -> Table:
        """Make it ``seat``'s prosperity step (after round ``round - 1``)."""
        s = self.state
        s.round = round
        s.phase = "prosperity"
        s.order = s.start_order()
        s.turn = s.order.index(seat)
        return self

    # ----------------------------------------------------------- moves
    def legal(self, seat: int | None = None) -> list[str]:
        """Notations of the legal moves of ``seat`` (default: the awaited seat)."""
        s = self.state
        who = s.current if seat is None else seat
        if who is None:
            return []
        return [GAME.notation(s, who, a) for a in GAME.legal_actions(s, who)]

    def play(self, text: str, seat: int | None = None) -> Table:
        """Parse and apply a move of ``seat`` (default: the awaited seat)."""
        s = self.state
        who = s.current if seat is None else seat
        assert who is not None, "nobody is awaited"
        action: Action = GAME.parse(s, who, text)
        step = GAME.apply(s, who, action)
        self.state = step.state
        self.events.extend(step.events)
        return self

    def p(self, seat: int) -> Any:
        """The seat's player record."""
        return self.state.players[seat]
