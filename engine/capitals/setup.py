"""Setup for 3-5 players, the two-player changes and the prosperity module (spec §5).

Why every removal goes to ``box``: the invariant "tiles are conserved" is checked by summing
every place a tile can be (decks, rows, cities, hands, box), so nothing may simply vanish.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.capitals.data import (
    BOARD,
    BUILDING_TYPES,
    CITY_HALL,
    ERA_TILES,
    HOTEL,
    PROSPERITY,
    START_STATION,
    STATION_LEVELS,
    STATIONS,
    TILES,
)
from engine.capitals.state import NEUTRAL, Placed, Player, State, Tourist
from engine.core.errors import InvalidOptions
from engine.core.rng import Rng

OPTION_HELP = {
    "prosperity": "true/false (default false): the prosperity module — hidden hands of prosperity "
    "tiles built (or laid as lakes) at the end of rounds 3, 5, 7, 9 and 11.",
    "variant": "true/false (default false): full draw — every Management phase draws n + 2 tiles "
    "(6 with 5 players) however many remain.",
    "open_scores": "true/false (default false): everybody sees every city's prestige total; by default "
    "each player sees only their own until the end (prestige changes are always told).",
}
_BOOL = {"true": True, "false": False, "yes": True, "no": False, "on": True, "off": False, "1": True, "0": False}


def parse_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validated options with defaults."""
    # Decision: closed scores by default, as the spec recommends for a chat service (§17).
    out: dict[str, Any] = {"prosperity": False, "variant": False, "open_scores": False}
    for key, val in (options or {}).items():
        if key not in out:
            raise InvalidOptions(f"The Capitals has no option `{key}`. Options: {', '.join(sorted(out))}.")
        if isinstance(val, str) and val.lower() in _BOOL:
            val = _BOOL[val.lower()]
        if not isinstance(val, bool):
            raise InvalidOptions(f"The option `{key}` takes true or false.")
        out[key] = val
    return out


def new_player() -> Player:
    """A city on the start spaces with its City Hall, Hotel, markers and starting station."""
    tracks = {k: t.start for k, t in BOARD.tracks.items()}
    p = Player(tracks=tracks, prg=BOARD.prg_start, station=START_STATION, level=1,
               nrg=STATIONS[START_STATION].cubes)
    # City centre (§5.1 step 12, §8.2): Hotel at (0,0), City Hall at (1,0); markers on the
    # two ends of their shared edge.
    p.city[(0, 0)] = Placed(HOTEL)
    p.city[(1, 0)] = Placed(CITY_HALL)
    p.markers = [(1, 0), (1, 1)]
    return p


def initial_state(seed: int, players: int, options: Mapping[str, Any] | None) -> State:
    """A fresh game ready for the Building phase of round 1."""
    if not 2 <= players <= 5:
        raise InvalidOptions("The Capitals is for 2 to 5 players.")
    opts = parse_options(options)
    rng = Rng.from_seed(seed)
    s = State(n=players, options=opts, rng=rng, players=[new_player() for _ in range(players)])
    # Decks (§5.1 steps 1-4, §5.2 step 3).
    for era in (1, 2, 3):
        deck = sorted(ERA_TILES[era])
        if players <= 3:
            s.box.extend(t for t in deck if TILES[t].four_plus)
            deck = [t for t in deck if not TILES[t].four_plus]
        rng.shuffle(deck)
        if players == 2:
            trim = int(BOARD.c["two_player_trim_per_type"])
            for typ in BUILDING_TYPES:
                of_type = [t for t in deck if TILES[t].type == typ]
                for t in of_type[:trim]:  # the deck is shuffled: these are random and unseen
                    deck.remove(t)
                    s.box.append(t)
        s.decks[era] = deck
    # Power stations by level, most cubes first (§5.1 step 5).
    s.supply = {lvl: list(ids) for lvl, ids in STATION_LEVELS.items() if lvl >= 2}
    # Projects area: n + 2 Era I tiles in the $0 row (§5.1 step 6).
    for _ in range(players + 2):
        if s.decks[1]:
            s.rows[0].append(s.decks[1].pop())
    # Start track: random seating; each pays the $ of its position (steps 8-9).
    seats = list(range(players))
    rng.shuffle(seats)
    for i, seat in enumerate(seats):
        p = s.players[seat]
        p.pos = i + 1
        p.tracks["ECO"] -= BOARD.positions[i].money
    for seat in range(players):
        s.tourists.append(Tourist(seat, seat))
    if players == 2:
        s.neutral_cul = BOARD.tracks["CUL"].start
        s.tourists.append(Tourist(NEUTRAL, NEUTRAL))  # by the board, in no city (§5.2)
    # Prosperity hands (§5.3).
    pros = list(PROSPERITY)
    if opts["prosperity"]:
        rng.shuffle(pros)
        size = int(BOARD.c["prosperity_hand"][str(players)])
        for p in s.players:
            p.hand = sorted(pros[:size])
            pros = pros[size:]
    s.box.extend(sorted(pros))
    return s
