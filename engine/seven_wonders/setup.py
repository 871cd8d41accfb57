"""Options, deck composition per player count and mode, wonder assignment (A3, B2, B11, B12).

Why all three Age decks are shuffled at setup: every use of chance then happens inside
``new_game``, so no later action draws on the RNG and undo is decided only by hidden
information (picks revealed), never by dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import InvalidOptions
from engine.core.rng import Rng
from engine.seven_wonders.data import CARDS, TABLES, Mode
from engine.seven_wonders.state import City, State

OPTION_HELP = {
    "cities": "true (default) plays with the Cities expansion (2-8 players); false plays the base game (2-7).",
    "side": '"A" (default), "B" or "random" (each board at random): the wonder side for everyone.',
    "teams": "true plays the Cities team variant (4, 6 or 8 players, Cities only); default false.",
}
SIDES = ("A", "B", "random")
DEFAULT_SIDE = "A"
"""Decision D-28: side A for everyone unless the table asks otherwise."""


def _accepted() -> str:
    return "; ".join(f"{k}: {v}" for k, v in OPTION_HELP.items())


def parse_options(players: int, options: Mapping[str, Any] | None) -> tuple[bool, str, bool, Mode]:
    """Validate options and the player count; return (cities, side, teams, mode)."""
    opts = dict(options or {})
    unknown = sorted(k for k in opts if k not in OPTION_HELP)
    if unknown:
        raise InvalidOptions(f"Unknown option(s) {', '.join(unknown)}. Accepted options: {_accepted()}")
    cities = opts.get("cities", True)
    if not isinstance(cities, bool):
        raise InvalidOptions(f"Option cities must be true or false, not {cities!r}.")
    side = opts.get("side", DEFAULT_SIDE)
    if isinstance(side, str) and side.upper() in ("A", "B"):
        side = side.upper()
    elif isinstance(side, str) and side.lower() == "random":
        side = "random"
    else:
        raise InvalidOptions(f'Option side must be "A", "B" or "random", not {side!r}.')
    teams = opts.get("teams", False)
    if not isinstance(teams, bool):
        raise InvalidOptions(f"Option teams must be true or false, not {teams!r}.")
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidOptions("The number of players must be a whole number.")
    mode = TABLES.mode(players, cities)
    if mode is None:
        counts = sorted(m.players for m in TABLES.modes if m.cities == cities)
        what = "with Cities" if cities else "without Cities"
        raise InvalidOptions(
            f"7 Wonders {what} takes {counts[0]}-{counts[-1]} players, not {players}"
            + (" (8 players need Cities)." if players == 8 and not cities else ".")
        )
    if teams:
        if not cities:
            raise InvalidOptions("The team variant is part of Cities: use cities true with teams true.")
        if players not in TABLES.team_players:
            allowed = ", ".join(str(p) for p in TABLES.team_players)
            raise InvalidOptions(f"The team variant needs {allowed} players, not {players}.")
    return cities, side, teams, mode


def _copies(c_labels: tuple[int, ...], upto: int) -> int:
    return sum(1 for lab in c_labels if lab <= upto)


def build_decks(rng: Rng, mode: Mode, cities: bool) -> tuple[list[list[str]], list[str]]:
    """The three shuffled Age decks and the cards left out of the game (A3.4-A3.6, B2)."""
    decks: list[list[str]] = [[], [], []]
    unused: list[str] = []
    guilds: list[str] = []
    black: list[list[str]] = [[], [], []]
    for cid in TABLES.card_order:
        c = CARDS[cid]
        if c.expansion == "cities" and not cities:
            continue
        if c.color == "purple":
            guilds.append(cid)
        elif c.color == "black":
            black[c.age - 1].append(cid)
        else:
            used = _copies(c.copies, mode.copies_for)
            decks[c.age - 1].extend([cid] * used)
            unused.extend([cid] * (len(c.copies) - used))
    rng.shuffle(guilds)
    decks[2].extend(guilds[: mode.guilds])
    unused.extend(guilds[mode.guilds :])
    for age in range(3):
        pool = black[age]
        rng.shuffle(pool)
        decks[age].extend(pool[: mode.black_per_age])
        unused.extend(pool[mode.black_per_age :])
    for deck in decks:
        rng.shuffle(deck)
    return decks, unused


def assign_wonders(rng: Rng, n: int, cities: bool, side: str) -> list[City]:
    """Deal one board per city from the pool (Cities boards only with Cities, D-35)."""
    pool = [w for w in TABLES.wonder_order if cities or TABLES.wonders[w].expansion == "base"]
    rng.shuffle(pool)
    out = []
    for i in range(n):
        s = side if side != "random" else ("A", "B")[rng.below(2)]
        out.append(City(wonder=pool[i], side=s, coins=TABLES.start_coins))
    return out


def initial_state(seed: int, players: int, options: Mapping[str, Any] | None) -> State:
    """A new game before Age I is dealt."""
    cities, side, teams, mode = parse_options(players, options)
    rng = Rng.from_seed(seed)
    boards = assign_wonders(rng, mode.n_cities, cities, side)
    decks, unused = build_decks(rng, mode, cities)
    return State(
        players=players,
        cities_opt=cities,
        side_opt=side,
        teams=teams,
        hand_size=mode.hand,
        cities=boards,
        hands=[[] for _ in range(players)],
        decks=decks,
        rng=rng,
        unused=unused,
        age=0,
        turn=0,
    )
