"""A new game: civilizations, neutrals, the basic or advanced (36-point) setup, starting roles.

Why the setup is data driven: every piece comes from ``data/setups.json`` (player aids) and
``data/map.json``, so the printed aids can replace the stand-ins without code changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import InvalidOptions
from engine.core.rng import Rng
from engine.mare_nostrum.data import (
    ADVANCED_POINTS,
    BUILDING_SUPPLY,
    CARDS,
    CIV_DATA,
    CIVS,
    DECK,
    NEUTRAL_CAPITAL,
    NEUTRAL_OTHER,
    PROVINCES,
    RECOMMENDED_ABSENT,
)
from engine.mare_nostrum.state import Prov, State, Unit

OPTION_HELP: dict[str, str] = {
    "setup": '"basic" (default: the player aids) or "advanced" (36 build points per player).',
    "civs": "the civilizations played, one per seat (default: leave out Babylon with 4 players, "
            "Rome and Egypt with 3).",
    "neutral_provinces": '"start_provinces" (default) or "all_land_neighbours": which provinces a neutral '
                         "civilization holds besides its capital.",
    "doc_compensation_excludes_acquired": "true: the Director of Commerce may not give a card just acquired "
                                          "in trading (default false).",
    "pillage_buildings_per_turn": "buildings a player may pillage per province and military turn (default 1).",
    "annex_requires_adjacency": "true: completing an annexation also needs the influence adjacency rule "
                                "(default false).",
    "agreed_draw": "true: a player may propose a draw on their own turn; if every other player accepts, the "
                   "game ends with no winner (default false).",
}
_KNOWN = {"setup", "civs", "neutral_provinces", "doc_compensation_excludes_acquired", "pillage_buildings_per_turn",
          "annex_requires_adjacency", "agreed_draw"}


def _options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    opts = dict(options or {})
    unknown = sorted(set(opts) - _KNOWN)
    if unknown:
        raise InvalidOptions(f"Unknown option {unknown[0]!r}. Options: {', '.join(sorted(_KNOWN))}.")
    if not 3 <= players <= 5:
        raise InvalidOptions("Mare Nostrum is played by 3, 4 or 5 players.")
    setup = opts.get("setup", "basic")
    if setup not in ("basic", "advanced"):
        raise InvalidOptions('The option setup must be "basic" or "advanced".')
    civs = opts.get("civs")
    if civs is None:
        civs = [c for c in CIVS if c not in RECOMMENDED_ABSENT[players]]
    if isinstance(civs, str):
        civs = [c.strip().lower() for c in civs.replace(",", " ").split()]
    civs = [str(c).lower() for c in civs]
    if len(civs) != players or len(set(civs)) != players or any(c not in CIVS for c in civs):
        raise InvalidOptions(f"Choose {players} different civilizations among {', '.join(CIVS)}.")
    neutral = opts.get("neutral_provinces", "start_provinces")
    if neutral not in ("start_provinces", "all_land_neighbours"):
        raise InvalidOptions('The option neutral_provinces must be "start_provinces" or "all_land_neighbours".')
    pillage = opts.get("pillage_buildings_per_turn", 1)
    if not isinstance(pillage, int) or isinstance(pillage, bool) or not 1 <= pillage <= 8:
        raise InvalidOptions("The option pillage_buildings_per_turn must be a whole number from 1 to 8.")
    return {"setup": setup, "civs": list(civs), "neutral_provinces": neutral,
            "doc_compensation_excludes_acquired": bool(opts.get("doc_compensation_excludes_acquired", False)),
            "pillage_buildings_per_turn": pillage,
            "annex_requires_adjacency": bool(opts.get("annex_requires_adjacency", False)),
            **({"agreed_draw": True} if opts.get("agreed_draw") else {})}


def initial_state(seed: int, players: int, options: Mapping[str, Any] | None) -> State:
    """The state before the first setup prompt (Rome's caravans or the advanced purchases)."""
    opts = _options(players, options)
    rng = Rng.from_seed(seed)
    # Decision: seats follow the civilizations' canonical order; the random seat order of 5.1
    # is kept separately for the tie-breaks that need it.
    seats = [c for c in CIVS if c in opts["civs"]]
    order = list(seats)
    rng.shuffle(order)
    s = State(players=players, seats=seats, neutrals=[c for c in CIVS if c not in seats], options=opts,
              rng=rng.state, seat_order=order)
    s.bank = dict(DECK)
    s.supply = dict(BUILDING_SUPPLY[players])
    s.provs = {p: Prov() for p in PROVINCES}
    s.hands = {c: {} for c in seats}
    s.cards = {c: [] for c in seats}
    s.used = {c: [] for c in seats}
    s.market = [k for k, c in CARDS.items() if c.civ is None or c.civ in seats]
    for civ in s.neutrals:
        _neutral(s, civ)
    if opts["setup"] == "basic":
        for civ in seats:
            _basic(s, civ)
        choices = [[p, piece.split(":", 1)[1]] for civ in seats for p, pieces in CIV_DATA[civ].basic.items()
                   for piece in pieces if piece.startswith("caravan:") and "|" in piece]
        s.pending["setup"] = {"mode": "basic", "choices": choices}
    else:
        for civ in seats:
            cap = CIV_DATA[civ].capital
            s.provs[cap].owner = civ
        # AD-29: the capital marker is mandatory and costs 3 of the 36 points.
        s.pending["setup"] = {"mode": "advanced", "queue": list(order), "points": ADVANCED_POINTS - 3}
    s.phase = "setup"
    return s


def _neutral(s: State, civ: str) -> None:
    """5.4/AD-43: influence and a legion in each neutral province, plus a fortress in the capital."""
    data = CIV_DATA[civ]
    others = [p for p in data.start if p != data.capital]
    if s.options["neutral_provinces"] == "all_land_neighbours":
        others += [p for p in PROVINCES[data.capital].land if p not in others]
    for pid, pieces in [(data.capital, NEUTRAL_CAPITAL), *((p, NEUTRAL_OTHER) for p in others)]:
        for piece in pieces:
            if piece == "influence":
                s.provs[pid].owner = civ
            else:
                s.units.append(Unit(civ, piece, pid))


def _basic(s: State, civ: str) -> None:
    """The civilization's player aid; ``caravan:a|b`` choices are left to the setup prompt."""
    data = CIV_DATA[civ]
    for pid, pieces in data.basic.items():
        for piece in pieces:
            kind, _, arg = piece.partition(":")
            if kind == "influence":
                s.provs[pid].owner = civ
            elif kind == "city":
                s.provs[pid].cities.append(arg)
                s.supply["city"] -= 1
            elif kind == "caravan" and "|" not in arg:
                s.provs[pid].caravans.append(arg)
                s.supply["caravan"] -= 1
            elif kind in ("fortress", "legion"):
                s.units.append(Unit(civ, kind, pid))
    s.cards[civ].append(data.hero)
    s.market.remove(data.hero)


def setup_chooser(s: State) -> str:
    """The civilization that must answer the current setup prompt."""
    info = s.pending["setup"]
    if info["mode"] == "basic":
        pid = info["choices"][0][0]
        return next(c for c in s.seats if pid in CIV_DATA[c].basic)
    return str(info["queue"][0])


def zone(civ: str) -> list[str]:
    """5.3/5.7: the advanced-setup zone: the capital, its land neighbours, Greece's Aegean extras."""
    data = CIV_DATA[civ]
    return [data.capital, *PROVINCES[data.capital].land, *data.advanced_extra]
