"""What a seat may see (spec §17): everything public, its own prosperity hand, and other
cities' prestige only with ``open_scores``.

Why views are plain JSON built here: the renderer, the chat status and the leak tests all
read the same data, so hidden things (stack order, other hands, closed scores) are left out in
one place.
"""

from __future__ import annotations

from typing import Any

from engine.capitals.actions import colour
from engine.capitals.data import BOARD, STATIONS, TILES
from engine.capitals.flow import allowance
from engine.capitals.grid import cell_name, is_full
from engine.capitals.labels import label
from engine.capitals.names import seat_name
from engine.capitals.state import NEUTRAL, State
from engine.core.text import count

PHASE_WORDS = {
    "political": "Political phase",
    "building": "Building phase",
    "execution": "Execution phase",
    "relocate": "Management phase",
    "prosperity": "Prosperity step",
    "over": "Game over",
}


def awaiting(s: State) -> str:
    """``Red to build a tile``: what is awaited, worded like the other games' ``awaiting``."""
    seat = s.current
    if seat is None:
        return "The game is over."
    what = {
        "political": "to buy a Start position",
        "building": "to build a tile",
        "execution": "to activate tiles",
        "relocate": "to move a construction marker",
        "prosperity": "to build a prosperity tile or a lake",
    }[s.phase]
    return f"{seat_name(seat)} {what}"


def tile_view(tile_id: str) -> dict[str, Any]:
    """Public facts of a tile for images and lists (``label``: how moves name it)."""
    t = TILES[tile_id]
    return {"id": t.id, "name": t.name, "label": label(tile_id), "type": t.type, "era": t.era, "slug": t.slug,
            "density": t.density, "act": None if t.act is None else t.act.printed}


def build_view(s: State, seat: int | None) -> dict[str, Any]:
    """The JSON view for ``seat`` (``None``: a spectator)."""
    open_scores = bool(s.options.get("open_scores", False)) or s.phase == "over"
    players = []
    for i, p in enumerate(s.players):
        city = []
        for c in sorted(p.city, key=lambda c: (c[1], c[0])):
            placed = p.city[c]
            city.append({
                "cell": cell_name(c), "x": c[0], "y": c[1], "lake": placed.lake,
                "tile": None if placed.lake else tile_view(placed.tile),
                "cubes": placed.cubes, "round": placed.round,
                "tourists": [colour(t.owner) for t in s.tourists if t.city == i and t.cell == c],
            })
        st = STATIONS[p.station]
        players.append({
            "seat": i,
            "name": seat_name(i),
            "colour": colour(i),
            "tracks": dict(p.tracks),
            "progress": p.prg,
            "prestige": p.pre if (open_scores or seat == i) else None,
            "station": {"name": st.name, "level": p.level, "activations": st.activations, "cubes": p.nrg},
            "city": city,
            "markers": [{"corner": cell_name(v), "x": v[0], "y": v[1], "full": is_full(p, v)} for v in p.markers],
            "beside": [colour(t.owner) for t in s.tourists if t.city == i and t.cell is None],
            "position": p.pos or None,
            "old_position": p.old or None,
            "hand_size": len(p.hand),
            "loans": p.loans,
            "highest_culture": s.hc == i,
            "final": dict(p.final) if s.phase == "over" else {},
        })
    view: dict[str, Any] = {
        "game": "capitals",
        "round": s.round,
        "era": s.era,
        "phase": s.phase,
        "phase_name": PHASE_WORDS[s.phase],
        "awaiting": awaiting(s),
        "current": s.current,
        "players": players,
        "rows": [[tile_view(t) for t in row] for row in s.rows],
        "row_costs": list(BOARD.c["row_costs"]),
        "deck_size": len(s.decks.get(s.era, [])),
        "start_track": [{"pos": q.pos, "money": q.money, "mult": q.mult,
                         "available": q.pos <= BOARD.political_positions[s.n],
                         "seat": next((i for i, p in enumerate(s.players) if p.pos == q.pos), None),
                         "old": next((i for i, p in enumerate(s.players) if p.old == q.pos), None)}
                        for q in BOARD.positions],
        "neutral": None if s.neutral_cul is None else {
            "culture": s.neutral_cul,
            "tourist_in": next((t.city for t in s.tourists if t.owner == NEUTRAL), None),
        },
        "evaluations": list(BOARD.evaluations),
        "prosperity_rounds": list(BOARD.prosperity_rounds) if s.options.get("prosperity") else [],
        "recent": [dict(r) for r in s.recent],
        "history": list(s.history[-8:]),
        "open_scores": open_scores,
    }
    if s.phase == "execution" and s.current is not None:
        view["activations_left"] = allowance(s, s.current) - s.acts
    if seat is not None and 0 <= seat < s.n:
        view["you"] = seat
        hand = []
        for t in s.players[seat].hand:
            req = TILES[t].req
            hand.append(dict(tile_view(t), requirement=req.text() if req is not None else ""))
        view["hand"] = hand
    return view


def _position(position: int | None) -> str:
    """A city's Start position in words: "P2" alone puzzled players who had not bought one yet."""
    return f"Start position {position}" if position else "no Start position yet"


def status_lines(s: State, seat: int | None) -> list[str]:
    """One line per city: tracks, station, prestige (when visible)."""
    v = build_view(s, seat)
    out = []
    for p in v["players"]:
        t = p["tracks"]
        pre = "" if p["prestige"] is None else f", {count(p['prestige'], 'prestige point')}"
        out.append(
            f"{p['name']} ({_position(p['position'])}): Population {t['POP']}, Labour {t['LAB']}, "
            f"Public Services {t['PS']}, Progress {p['progress']}, ${t['ECO']}, Culture {t['CUL']}; "
            f"station level {p['station']['level']} with {count(p['station']['cubes'], 'cube')}{pre}"
        )
    return out
