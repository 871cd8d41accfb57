"""What a seat (or a spectator) may see, per docs/duellum-view.md, plus status sentences.

Why a separate projection: the renderer and the chat adapters draw only from this dict, so it is
the one place that decides what is hidden — the opponent's hand is a count, the draw pile is a
size, and the RNG state never leaves the engine.
"""

from __future__ import annotations

from typing import Any

from engine.core.text import count
from engine.duellum.actions import SPECIAL_WORDS
from engine.duellum.data import CARDS, COLOURS, PERSONALITIES, RES_WORDS, RULES, TECH_ORDER, TECHS
from engine.duellum.duellum import defence
from engine.duellum.personalities import cities, sea_points, temples
from engine.duellum.scientia import price
from engine.duellum.state import (
    PHASE_ACTION,
    PHASE_CONQUER,
    PHASE_FORTRESS,
    PHASE_FOUNDING,
    PHASE_LOSSES,
    PHASE_MOVE,
    PHASE_OVER,
    PHASE_RONDEL,
    SPECIAL_BOX,
    State,
    TurnRecord,
)
from engine.duellum.turn import to_move

SPECIAL_NAMES = ("General-unit", "Admiral")


def phase_tag(state: State) -> str:
    """Machine tag of what is awaited."""
    if state.phase == PHASE_OVER:
        return "over"
    if state.phase == PHASE_FORTRESS:
        return "fortress"
    if state.players[state.active].owed > 0 or state.active not in to_move(state):
        return "card_pick"
    if state.coin_choice:
        return "coin_choice"
    return state.phase


def awaiting(state: State) -> str:
    """One sentence on what is awaited (public facts only)."""
    m = state.map
    if state.phase == PHASE_OVER:
        return f"The game is over: the {m.nations[state.winner]} won."
    a = state.active
    who = m.nations[a]
    if state.phase == PHASE_FORTRESS and state.pending is not None:
        return (
            f"The {m.nations[1 - a]} decide whether to play a Fortress against the conquest of "
            f"{m.names[state.pending.region]}."
        )
    owed = [p.owed for p in state.players]
    movers = to_move(state)
    if owed[a] > 0:
        return f"The {who} take {count(owed[a], 'event card')} from the row before moving their stone."
    if len(movers) == 1 and owed[1 - a] > 0:
        return f"The {m.nations[1 - a]} take {count(owed[1 - a], 'event card')} from the row now."
    waiting = count(owed[1 - a], "owed event card")
    extra = f" (The {m.nations[1 - a]} may take {waiting} meanwhile.)" if owed[1 - a] else ""
    if state.coin_choice:
        return f"The {who} choose a chip instead of the coin the bank lacks.{extra}"
    if state.phase == PHASE_RONDEL:
        return f"The {who} move their stone on the rondel.{extra}"
    if state.phase == PHASE_ACTION:
        return f"The {who} carry out {RULES.rondel[state.action]} (type `done` when finished).{extra}"
    if state.phase == PHASE_MOVE:
        return f"The {who} move units in DUELLUM (type `done` to go on to conquests).{extra}"
    if state.phase == PHASE_CONQUER:
        return f"The {who} may conquer enemy cities (type `done` when finished).{extra}"
    if state.phase == PHASE_LOSSES and state.pending is not None:
        return f"The {who} choose which units the conquest of {m.names[state.pending.region]} costs.{extra}"
    if state.phase == PHASE_FOUNDING:
        return f"The {who} may found cities (type `done` to end the turn).{extra}"
    return f"Waiting for the {who}.{extra}"


def _record(state: State, r: TurnRecord) -> dict[str, Any]:
    rondel = None
    if r.rondel_to >= 0:
        rondel = {
            "seat": r.seat,
            "from": RULES.rondel[r.rondel_from] if r.rondel_from >= 0 else None,
            "to": RULES.rondel[r.rondel_to],
            "from_index": r.rondel_from if r.rondel_from >= 0 else None,
            "to_index": r.rondel_to,
        }
    return {
        "seat": r.seat if r.seat >= 0 else None,
        "regions": [state.map.ids[i] for i in r.regions],
        "rondel": rondel,
        "summary": list(r.summary),
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON view for ``seat`` (``None``: spectator)."""
    m = state.map
    players = []
    for s, p in enumerate(state.players):
        special: dict[str, Any] | None = None
        if state.config.special_units:
            loc = "box" if p.special == SPECIAL_BOX else m.ids[p.special] if p.special >= 0 else None
            special = {"name": SPECIAL_NAMES[s], "word": SPECIAL_WORDS[s], "location": loc}
        players.append(
            {
                "seat": s,
                "nation": m.nations[s],
                "colour": COLOURS[s],
                "resources": {"marble": p.res[0], "iron": p.res[1], "gold": p.res[2], "coins": p.res[3]},
                "recruitment_box": {"legion": p.box[0], "galley": p.box[1]},
                "supply": {"legion": p.supply[0], "galley": p.supply[1]},
                "walls_in_supply": p.walls,
                "techs": [t for t in TECH_ORDER if t in p.techs],
                # Gold this seat would pay now for each technology it lacks (first/second
                # buyer and a Library discount included): the board shows the prices.
                "tech_prices": {t: price(state, s, t) for t in TECH_ORDER if t not in p.techs},
                "personalities": {k.lower(): p.pers[i] for i, k in enumerate(PERSONALITIES)},
                "vp": p.vp,
                "sea_points": sea_points(state, s),
                "rondel": RULES.rondel[p.stone] if p.stone >= 0 else None,
                "rondel_index": p.stone if p.stone >= 0 else None,
                "hand": list(p.hand) if seat == s else None,
                "hand_count": len(p.hand),
                "owed_picks": p.owed,
                "cities": cities(state, s),
                "temples": temples(state, s),
                "special_unit": special,
            }
        )
    regions = []
    for r in range(m.size):
        city = None
        if state.owner[r] >= 0:
            city = {
                "owner": state.owner[r],
                "resource": RES_WORDS[state.cres[r]],
                "temple": state.temple[r],
                "wall": state.wall[r],
                "defence": defence(state, r, 1 - state.owner[r]),
            }
        units = []
        for s in (0, 1):
            leg, gal = state.units[s][0][r], state.units[s][1][r]
            sp = state.config.special_units and state.players[s].special == r
            if leg or gal or sp:
                entry: dict[str, Any] = {"owner": s, "legion": leg, "galley": gal}
                if state.config.special_units:
                    entry["special"] = 1 if sp else 0
                units.append(entry)
        regions.append(
            {
                "id": m.ids[r],
                "name": m.names[r],
                "kind": m.kinds[r],
                "city_site": m.site[r],
                "x": m.xy[r][0],
                "y": m.xy[r][1],
                "city": city,
                "units": units,
            }
        )
    # Decision: D-13 makes hands public at the table, but the view contract shows the opponent's
    # hand only as a count (cards taken from the public row can be remembered by the players).
    visible = list(dict.fromkeys(state.row + (state.players[seat].hand if seat is not None else [])))
    rec = state.record if state.record.summary else state.prev_record
    pend = None
    if state.pending is not None:
        pend = {"region": m.ids[state.pending.region], "card": state.pending.card or None}
    return {
        "game": "duellum",
        "viewer": seat,
        "map": m.id,
        "map_side": m.side,
        "map_status": m.status,
        "turn": state.turn,
        "active": state.active,
        "to_move": sorted(to_move(state)),
        "phase": phase_tag(state),
        "awaiting": awaiting(state),
        "over": state.phase == PHASE_OVER,
        "winner": state.winner if state.winner >= 0 else None,
        "players": players,
        "rondel_spaces": list(RULES.rondel),
        "action": RULES.rondel[state.action] if state.action >= 0 else None,
        "regions": regions,
        "borders": [{"a": m.ids[a], "b": m.ids[b], "colour": c} for a, b, c in m.borders],
        "event_row": list(state.row),
        "deck_size": len(state.draw),
        "discard_size": len(state.discard),
        "bank": {
            "coins": state.bank_coins,
            "temples": state.bank_temples,
            "walls": state.bank_walls,
            "city_tokens": {RES_WORDS[k]: state.bank_tokens[k] for k in range(3)},
            "personalities": {k.lower(): state.bank_pers[i] for i, k in enumerate(PERSONALITIES)},
        },
        "cards": {c: {"name": CARDS[c].name, "text": CARDS[c].text} for c in visible},
        "technologies": [
            {
                "id": t,
                "name": TECHS[t].name,
                "first": TECHS[t].first,
                "second": TECHS[t].second,
                "text": TECHS[t].effect,
                "price_now": [price(state, s, t, 0) for s in (0, 1)],
                "owners": [s for s in (0, 1) if t in state.players[s].techs],
            }
            for t in TECH_ORDER
        ],
        "pending_conquest": pend,
        "options": {
            "special_units": state.config.special_units,
            "navigator_counts_coastal": state.config.navigator_counts_coastal,
            "duellum_to_duellum_allowed": state.config.duellum_to_duellum_allowed,
            "fortress_policy": state.config.fortress_policy,
        },
        "last_turn": _record(state, rec),
    }


def status(state: State, seat: int | None) -> str:
    """One or two sentences: whose turn and what is awaited."""
    m = state.map
    if state.phase == PHASE_OVER:
        p = state.players[state.winner]
        return f"The game is over: the {m.nations[state.winner]} won with {p.vp} personalities."
    score = f"Personalities: {m.nations[0]} {state.players[0].vp}, {m.nations[1]} {state.players[1].vp}."
    wait = awaiting(state)
    return f"Turn {state.turn}: {wait[0].lower()}{wait[1:]} {score}"
