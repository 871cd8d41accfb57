"""Options and the starting position (§4).

Why options are validated strictly: a typo such as ``{"map": "greece"}`` must not silently start
the wrong map, so unknown keys and values raise ``InvalidOptions`` naming what is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import InvalidOptions
from engine.core.rng import Rng
from engine.duellum.data import COIN, FACE_UP_ROW, MAPS, PERSONALITIES, RULES, SIDE_ALIASES, full_deck
from engine.duellum.log import Log
from engine.duellum.state import FORTRESS_POLICIES, SPECIAL_BOX, SPECIAL_NONE, Config, Player, State
from engine.duellum.turn import start_turn

OPTIONS_HELP: dict[str, str] = {
    "map": "rome-carthage (side A, default) or greece-persia (side B); also A / B",
    "special_units": "true/false (default false): the optional special-units variant",
    "navigator_counts_coastal": "true/false (default false): coastal city regions count 1 sea point",
    "duellum_to_duellum_allowed": "true/false (default true): the stone may move DUELLUM → DUELLUM",
    "fortress_policy": (
        "ASK (default): a defender holding a Fortress card is asked whether to play it when a city of"
        " theirs is attacked; AUTO_FIRST_CONQUEST: it is played on the first conquest of a turn; NEVER:"
        " it is never played"
    ),
}


def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
        return value.strip().lower() in ("true", "yes", "on", "1")
    raise InvalidOptions(f"Option `{key}` must be true or false, not {value!r}.")


def parse_options(options: Mapping[str, Any] | None) -> Config:
    """Validate the options; raises ``InvalidOptions`` listing what is accepted."""
    opts = dict(options or {})
    unknown = sorted(k for k in opts if k not in OPTIONS_HELP)
    if unknown:
        listing = "; ".join(f"{k}: {v}" for k, v in OPTIONS_HELP.items())
        raise InvalidOptions(f"Unknown option(s) {', '.join(unknown)}. Antike Duellum accepts: {listing}.")
    cfg = Config()
    if "map" in opts:
        raw = str(opts["map"]).strip().lower()
        name = SIDE_ALIASES.get(raw, raw)
        if name not in MAPS:
            raise InvalidOptions(f"Unknown map {opts['map']!r}. Maps: rome-carthage (or A), greece-persia (or B).")
        cfg.map_id = name
    if "special_units" in opts:
        cfg.special_units = _bool("special_units", opts["special_units"])
    if "navigator_counts_coastal" in opts:
        cfg.navigator_counts_coastal = _bool("navigator_counts_coastal", opts["navigator_counts_coastal"])
    if "duellum_to_duellum_allowed" in opts:
        cfg.duellum_to_duellum_allowed = _bool("duellum_to_duellum_allowed", opts["duellum_to_duellum_allowed"])
    if "fortress_policy" in opts:
        pol = str(opts["fortress_policy"]).strip().upper()
        if pol not in FORTRESS_POLICIES:
            raise InvalidOptions(
                f"Unknown fortress_policy {opts['fortress_policy']!r}. Accepted: {', '.join(FORTRESS_POLICIES)}."
            )
        cfg.fortress_policy = pol
    return cfg


def new_state(seed: int, players: int, options: Mapping[str, Any] | None) -> State:
    """The starting position: 3 cities, M3 I3 G3, 1 wall, 1 legion + 1 galley in the box each;
    the deck shuffled with 3 cards face up; a random start player, the other gets 1 coin."""
    if players != 2:
        raise InvalidOptions(f"Antike Duellum is for exactly 2 players, not {players}.")
    cfg = parse_options(options)
    m = MAPS[cfg.map_id]
    rng = Rng.from_seed(seed)
    n = m.size
    plist = []
    for _ in range(2):
        plist.append(
            Player(
                res=list(RULES.start_resources),
                box=list(RULES.start_box),
                supply=[RULES.units_per_player[t] - RULES.start_box[t] for t in (0, 1)],
                walls=RULES.start_walls,
                techs={},
                pers=[0] * len(PERSONALITIES),
                special=SPECIAL_BOX if cfg.special_units else SPECIAL_NONE,
            )
        )
    owner = [-1] * n
    cres = [-1] * n
    tokens = list(RULES.city_tokens)
    for seat in (0, 1):
        for region, res in m.start[seat]:
            owner[region] = seat
            cres[region] = res
            tokens[res] -= 1
    deck = full_deck()
    rng.shuffle(deck)
    row = [deck.pop() for _ in range(min(FACE_UP_ROW, len(deck)))]
    state = State(
        config=cfg,
        rng=rng,
        players=plist,
        owner=owner,
        cres=cres,
        temple=[False] * n,
        wall=[False] * n,
        units=[[[0] * n for _ in range(2)] for _ in range(2)],
        bank_coins=RULES.coin_supply,
        bank_temples=RULES.temples,
        bank_walls=RULES.walls - 2 * RULES.start_walls,
        bank_tokens=tokens,
        bank_pers=list(RULES.personalities),
        draw=deck,
        row=row,
        discard=[],
    )
    # Decision: seat 0 plays brown (Carthaginians / Greeks), seat 1 beige (Romans / Persians);
    # the start player is drawn at random (§4.7), so the seat order does not favour anyone.
    first = rng.below(2)
    state.start_player = first
    second = 1 - first
    state.players[second].res[COIN] += RULES.second_player_coins
    state.bank_coins -= RULES.second_player_coins
    start_turn(state, first)
    log = Log(state)
    log.say(
        f"{m.title}: the {m.nations[first]} begin; the {m.nations[second]} receive "
        f"{RULES.second_player_coins} coin as compensation.",
        "setup",
    )
    return state
