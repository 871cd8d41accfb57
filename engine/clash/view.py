"""What a seat may see: the revealed map, cities, units, every player's public board.

Why no per-seat difference yet: in this part of the game nothing is hidden from any seat except the
face-down regions (hidden from everybody) and the wonder deck; the hands of the second part will
be added to the owner's view only.
"""

from __future__ import annotations

from typing import Any

from engine.clash.data import ADVANCES, TABLES
from engine.clash.scoring import halves, show
from engine.clash.state import State


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    """JSON-able view (renderer input)."""
    slots = []
    for s in state.slots:
        row: dict[str, Any] = {"id": s.id, "hexes": list(s.hexes), "revealed": s.revealed, "home": s.home}
        if s.revealed:
            row["terrain"] = [state.terrain[h] for h in s.hexes]
        slots.append(row)
    cities = [
        {
            "name": c.name,
            "owner": c.owner,
            "space": c.space,
            "size": c.size,
            "mood": c.mood,
            "pieces": dict(c.pieces),
            "port_space": c.port_space,
            "wonder": c.wonder,
            "activations": c.activations,
        }
        for c in state.cities
    ]
    units = []
    for u in state.units:
        units.append(
            {
                "owner": u.owner,
                "kind": u.kind,
                "space": u.space,
                "number": u.number,
                "aboard": state.unit(u.carrier).number if u.carrier >= 0 else 0,
            }
        )
    players = []
    for p in state.pl:
        players.append(
            {
                "seat": p.seat,
                "colour": TABLES.colours[p.seat],
                "resources": dict(p.res),
                "mood_tokens": p.mood_tokens,
                "culture_tokens": p.culture_tokens,
                "culture_level": p.culture_level,
                "happiness_level": p.happiness_level,
                "advances": sorted(p.advances, key=TABLES.advance_order.index),
                "government": next(
                    (ADVANCES[a].category for a in p.advances if ADVANCES[a].category in TABLES.governments), ""
                ),
                "points": show(halves(state, p.seat)),
                "vp": _vp(halves(state, p.seat)),
                "wonders": [
                    {"id": c.wonder, "name": TABLES.wonders[c.wonder].name, "city": c.name}
                    for c in state.cities
                    if c.owner == p.seat and c.wonder
                ],
                "reserved_wonders": [TABLES.wonders[w].name for w, s in state.reserved.items() if s == p.seat],
            }
        )
    return {
        "game": "clash",
        "player_count": state.players,
        "order": list(state.order or range(state.players)),
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "active": state.active,
        "first": state.first,
        "actions_left": state.actions_left,
        "pending": pending_view(state),
        "slots": slots,
        "cities": cities,
        "units": units,
        "exhausted": list(state.exhausted),
        "players": players,
        "changed": sorted(set(state.changed or state.prev_changed)),
        "viewer": seat,
        "revealed_wonders": list(state.revealed_wonders),
        "reserved": dict(state.reserved),
        "wonders": {c.wonder: {"city": c.name, "owner": c.owner} for c in state.cities if c.wonder},
        "wonders_on_offer": [
            {"id": w, "name": TABLES.wonders[w].name, "reserved_by": state.reserved.get(w, -1)}
            for w in state.revealed_wonders
        ],
        "battles": battles_view(state),
        "result": _result(state),
    }


def _result(state: State) -> str:
    """Who won and why, once the game is over (the image's header says it)."""
    from engine.clash.scoring import outcome

    return outcome(state).reason if state.phase == "over" else ""


def battles_view(state: State) -> list[dict[str, Any]]:
    """The battles to show on the turn's image (all public: dice are rolled in the open)."""
    from engine.clash.combat import shown_battles

    keys = ("kind", "attacker", "defender", "space", "origin", "rounds", "result", "city", "captured", "lost")
    rows = shown_battles(state) + ([state.battle] if state.battle else [])
    return [{k: b.get(k) for k in keys} for b in rows]


def orient_choices(state: State) -> dict[str, dict[str, str]]:
    """For an open orientation choice: the terrain each orientation would give, per hex.

    Public on purpose: the tile is face up on the table while the explorer turns it."""
    from engine.clash.board import placement

    pend = state.pending
    slot = next(s for s in state.slots if s.id == pend["slot"])
    return {("turned" if o else "base"): placement(slot, bool(o)) for o in pend["options"]}


def pending_view(state: State) -> dict[str, Any]:
    """The open choice as everyone may see it."""
    out: dict[str, Any] = {k: v for k, v in state.pending.items() if k in ("kind", "seat")}
    if state.pending.get("kind") == "orient":
        out["choices"] = orient_choices(state)
    elif state.pending.get("kind") in ("anchor", "barbarians"):
        out["options"] = list(state.pending["options"])
    elif state.pending.get("kind") in ("offer", "trade"):
        from engine.clash.trading import offer_view

        out["offer"] = offer_view(state.pending)
    return out


def _vp(h: int) -> float | int:
    """Points as a number (whole when possible)."""
    return h // 2 if h % 2 == 0 else h / 2
