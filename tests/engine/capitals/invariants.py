"""Invariants derived from the spec, checked after every step of the random games: track
limits, Labour never above Population, the money floor, tiles, stations, tourists and cubes
conserved, construction markers and connected cities."""

from __future__ import annotations

from collections import Counter

from engine.capitals.data import BOARD, CITY_HALL, ERA_TILES, HOTEL, PROSPERITY, STATIONS
from engine.capitals.grid import neighbours
from engine.capitals.state import NEUTRAL, State

UNIVERSE = Counter([*ERA_TILES[1], *ERA_TILES[2], *ERA_TILES[3], *PROSPERITY])
ALL_STATIONS = Counter(i for i, st in STATIONS.items() if st.level >= 2)


class Invariants:
    """Callable checker; remembers the cube total to check that cubes never vanish."""

    def __init__(self) -> None:
        self.cubes: int | None = None
        self.round = 0
        self.phase = ""

    def __call__(self, s: State) -> None:
        places: Counter[str] = Counter(s.box)
        for deck in s.decks.values():
            places.update(deck)
        for row in s.rows:
            places.update(row)
        stations: Counter[str] = Counter(x for x in s.spent_stations if x != "S-PWR")
        for lst in s.supply.values():
            stations.update(lst)
        cubes = 0
        for i, p in enumerate(s.players):
            places.update(p.hand)
            starts = Counter(t.tile for t in p.city.values() if t.tile in (HOTEL, CITY_HALL))
            assert starts == {HOTEL: 1, CITY_HALL: 1}, "starting tiles"
            places.update(t.tile for t in p.city.values() if t.tile not in (HOTEL, CITY_HALL))
            if p.station != "S-PWR":
                stations[p.station] += 1
            assert STATIONS[p.station].level == p.level
            for k, v in p.tracks.items():
                tdef = BOARD.tracks[k]
                assert tdef.min <= v <= tdef.max, f"{k} out of range: {v}"
            assert p.tracks["LAB"] <= p.tracks["POP"], "Labour above Population"
            if s.phase != "over":
                assert p.tracks["ECO"] >= BOARD.c["min_eco_after_payment"], "money below the floor"
            assert p.tracks["ECO"] >= 0 and p.nrg >= 0
            assert 0 <= p.prg < BOARD.prg_length
            assert all(t.cubes >= 0 for t in p.city.values())
            assert all(not t.cubes for t in p.city.values() if t.lake)
            cubes += p.nrg + sum(t.cubes for t in p.city.values())
            assert len(p.markers) == 2 and p.markers[0] != p.markers[1]
            # one connected group (8-neighbourhood)
            cells = set(p.city)
            seen = {next(iter(cells))}
            todo = list(seen)
            while todo:
                c = todo.pop()
                for n in neighbours(c):
                    if n in cells and n not in seen:
                        seen.add(n)
                        todo.append(n)
            assert seen == cells, f"city {i} is not connected"
        assert places == UNIVERSE, "a tile is missing or duplicated"
        assert stations == ALL_STATIONS, "a power station is missing or duplicated"
        owners = sorted(t.owner for t in s.tourists)
        assert owners == sorted([*range(s.n), *([NEUTRAL] if s.n == 2 else [])])
        for t in s.tourists:
            if t.city == NEUTRAL:
                assert t.owner == NEUTRAL and s.hc is None
                continue
            assert 0 <= t.city < s.n
            if t.cell is not None:
                placed = s.players[t.city].city.get(t.cell)
                assert placed is not None and not placed.lake, "tourist on no tile"
        if s.phase not in ("political", "over"):
            assert sorted(p.pos for p in s.players) == list(range(1, s.n + 1))[: s.n] or len(
                {p.pos for p in s.players}) == s.n, "two cities on one Start position"
        # cubes never vanish except at an Evaluation (tiles cleared) or the final conversion
        if self.cubes is not None and cubes < self.cubes:
            assert s.phase == "over" or (self.round in BOARD.evaluations and s.round != self.round), (
                f"cubes went from {self.cubes} to {cubes}")
        self.cubes, self.round, self.phase = cubes, s.round, s.phase
