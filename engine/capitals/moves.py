"""Legal moves of every phase, why a move is refused, and carrying a move out.

Why one module for the three: the legal list is the single source of truth (an action is
legal exactly when it is listed), the refusal message is derived from the same facts, and
``apply`` only ever sees actions that were listed.
"""

from __future__ import annotations

from itertools import combinations

from engine.capitals.actions import Action, colour
from engine.capitals.data import BOARD, STATIONS, TILES
from engine.capitals.effects import activation_cost, resolve_activation, resolve_build
from engine.capitals.flow import (
    advance,
    allowance,
    buy_position,
    free_positions,
    log,
    position_price,
    trim_history,
)
from engine.capitals.grid import cell_name, lake_cells, perimeter_vertices, placements
from engine.capitals.names import seat_name
from engine.capitals.prosperity import requirement_met
from engine.capitals.state import Cell, Placed, State
from engine.capitals.tracks import Event, can_afford_cost, change, pay, snapshot, summary
from engine.core.events import Event as ChatEvent
from engine.core.events import public
from engine.core.text import count, join_words


def row_of(s: State, tile: str) -> int:
    """Row index (0, 1, 2 for $0, $2, $4) of a tile in the Projects area, or -1."""
    for i, row in enumerate(s.rows):
        if tile in row:
            return i
    return -1


def row_cost(row: int) -> int:
    """The price of a row."""
    return int(BOARD.c["row_costs"][row])


def activations(s: State, seat: int) -> list[Action]:
    """Every affordable activation with every usable set of tourists (§9.4, §12.2)."""
    p = s.players[seat]
    out: list[Action] = []
    for cell in sorted(p.city, key=lambda c: (c[1], c[0])):
        placed = p.city[cell]
        if placed.lake:
            continue
        act = TILES[placed.tile].act
        if act is None or not can_afford_cost(s, seat, act.cost):
            continue
        cost = activation_cost(p, s, seat, cell)
        usable = sorted(t.owner for t in s.tourists if t.city == seat and not t.moved and t.cell != cell)
        if BOARD.c["tourist_limit"] == "per_player" and any(t.city == seat and t.moved for t in s.tourists):
            usable = []  # the alternative reading of D-32: tourists in one activation only
        for k in range(0, min(cost, len(usable)) + 1):
            if cost - k > p.nrg:
                continue
            for combo in combinations(usable, k):
                out.append(Action("activate", cell=cell, tourists=tuple(combo)))
    return out


def legal(s: State, seat: int) -> list[Action]:
    """Every legal move of ``seat`` now (empty when it is not awaited)."""
    if s.current != seat:
        return []
    p = s.players[seat]
    if s.phase == "political":
        return [Action("position", pos=q) for q in free_positions(s)]
    if s.phase == "building":
        out: list[Action] = []
        by_type: dict[str, list[Cell]] = {}
        for row in s.rows:
            for tile in sorted(row):
                typ = TILES[tile].type
                if typ not in by_type:
                    spots = placements(p, typ)
                    by_type[typ] = sorted(spots, key=lambda c: (spots[c], c[1], c[0]))
                out.extend(Action("build", tile=tile, cell=cell) for cell in by_type[typ])
        return out
    if s.phase == "execution":
        out = activations(s, seat) if s.acts < allowance(s, seat) else []
        if s.acts == 0:
            out += [Action("pass", choice="cube"), Action("pass", choice="money")]
        else:
            out.append(Action("done"))
        return out
    if s.phase == "relocate":
        return [Action("relocate", cell=v) for v in perimeter_vertices(p, s.relocating)]
    if s.phase == "prosperity":
        out = []
        for tile in p.hand:
            if requirement_met(s, seat, tile):
                for cell, _ in sorted(placements(p, "PRO").items(), key=lambda x: (x[1], x[0][1], x[0][0])):
                    out.append(Action("prosper", tile=tile, cell=cell))
        lakes = sorted(lake_cells(p), key=lambda c: (c[1], c[0]))
        for tile in p.hand:
            for cell in lakes:
                out.append(Action("lake", tile=tile, cell=cell))
        return out
    return []


def illegal_reason(s: State, seat: int, a: object) -> str:
    """Why a move is refused, in words that reveal nothing hidden."""
    if not isinstance(a, Action):
        return "That is not a move of The Capitals."
    if a.cell is not None and not _is_cell(a.cell):
        return "That is not a cell of the city grid. Cells are named like n12."
    if not isinstance(a.tile, str) or not isinstance(a.tourists, tuple):
        return "That move is not legal right now. Type `moves` to see what you can do."
    phase_verbs = {
        "political": "`position p<number>`",
        "building": "`build <tile> <cell>`",
        "execution": "`activate <tile>`, `done` or `pass cube` / `pass money`",
        "relocate": "`relocate <cell>`",
        "prosperity": "`prosper <tile> <cell>` or `lake <tile> <cell>`",
    }
    want = phase_verbs.get(s.phase, "nothing")
    expected = {"political": ("position",), "building": ("build",), "execution": ("activate", "done", "pass"),
                "relocate": ("relocate",), "prosperity": ("prosper", "lake")}.get(s.phase, ())
    if a.kind not in expected:
        return f"That move does not belong to this phase. Now you can play {want}."
    p = s.players[seat]
    if a.kind == "position" and a.pos not in free_positions(s):
        free = ", ".join(f"P{q}" for q in free_positions(s))
        return f"Position P{a.pos} cannot be bought now. Free positions: {free}."
    if a.kind == "build":
        if a.tile not in TILES or row_of(s, a.tile) < 0:
            return "That tile is not in the Projects area."
        return "That cell is not free next to your city. Type `moves` to see the legal cells."
    if a.kind == "activate":
        if a.cell is None or a.cell not in p.city or TILES[p.city[a.cell].tile].act is None:
            return "There is no tile with an activation on that cell of your city."
        if s.acts >= allowance(s, seat):
            return f"You have used all {count(allowance(s, seat), 'activation')} of this turn."
        act = TILES[p.city[a.cell].tile].act
        assert act is not None
        if not can_afford_cost(s, seat, act.cost):
            return "You cannot pay that tile's activation cost: the track would pass its start."
        cost = activation_cost(p, s, seat, a.cell)
        return (f"Activating it costs {count(cost, 'energy cube')}; you have {p.nrg} on your station, and a "
                "tourist pays only if it is in your city, has not moved this phase and is not on that tile.")
    if a.kind in ("done", "pass"):
        return "Use `pass cube` or `pass money` when you activate nothing, and `done` after an activation."
    if a.kind == "relocate":
        return "A construction marker goes to a street corner with a tile on one side and a free cell on another."
    if a.kind == "prosper":
        if a.tile not in p.hand:
            return "That prosperity tile is not in your hand."
        if not requirement_met(s, seat, a.tile):
            req = TILES[a.tile].req
            return f"Its requirement is not met: you need the {req.text() if req else 'requirement'}."
        return "That cell is not free next to your city."
    if a.kind == "lake":
        if a.tile not in p.hand:
            return "That prosperity tile is not in your hand."
        return "A lake goes on a free cell next to a building tile of your city."
    return "That move is not legal right now. Type `moves` to see what you can do."


def apply_action(s: State, seat: int, a: Action) -> list[ChatEvent]:
    """Carry out a legal move, then everything automatic up to the next decision."""
    name = seat_name(seat)
    p = s.players[seat]
    before = snapshot(s, seat)
    ev = Event(seat)
    text = ""
    s.recent = []
    if a.kind == "position":
        price = position_price(s, seat, a.pos)
        buy_position(s, seat, a.pos)
        text = f"{name} takes Start position P{a.pos} for ${price}"
        s.recent.append({"seat": seat, "what": "position", "pos": a.pos})
        s.turn += 1
    elif a.kind == "build":
        assert a.cell is not None
        row = row_of(s, a.tile)
        s.rows[row].remove(a.tile)
        pay(s, ev, row_cost(row))
        broken = placements(p, TILES[a.tile].type)[a.cell]
        resolve_build(s, seat, a.tile, a.cell, broken, s.era, ev)
        text = f"{name} builds the {TILES[a.tile].name} on {cell_name(a.cell)}"
        if row:
            text += f" for ${row_cost(row)}"
        if broken:
            text += f", breaking {count(broken, 'placement rule')}"
        s.recent.append({"seat": seat, "what": "build", "cell": cell_name(a.cell), "tile": a.tile})
        s.turn += 1
    elif a.kind == "activate":
        assert a.cell is not None
        cost = activation_cost(p, s, seat, a.cell)
        cubes = cost - len(a.tourists)
        p.nrg -= cubes
        before["NRG"] -= cubes  # the payment is told in words, not as a lost cube
        p.city[a.cell].cubes += cubes
        for t in s.tourists:
            if t.city == seat and t.owner in a.tourists:
                t.cell = a.cell
                t.moved = True
        resolve_activation(s, seat, a.cell, ev)
        s.acts += 1
        tile = TILES[p.city[a.cell].tile]
        paid = [count(cubes, "cube")] if cubes else []
        paid += [f"the {colour(o).capitalize()} tourist" for o in a.tourists]
        text = f"{name} activates the {tile.name} (paying {join_words(paid)})"
        s.recent.append({"seat": seat, "what": "activate", "cell": cell_name(a.cell), "tile": tile.id})
        if s.acts >= allowance(s, seat):
            s.turn += 1
            s.acts = 0
    elif a.kind in ("done", "pass"):
        if a.kind == "pass":
            if a.choice == "cube":
                change(s, ev, "NRG", int(BOARD.c["pass_cubes"]))
            else:
                change(s, ev, "ECO", int(BOARD.c["pass_money"]))
            text = f"{name} activates nothing and takes the pass bonus"
        else:
            text = f"{name} ends the activations"
        s.recent.append({"seat": seat, "what": a.kind})
        s.turn += 1
        s.acts = 0
    elif a.kind == "relocate":
        assert a.cell is not None
        p.markers[s.relocating] = a.cell
        text = f"{name} moves a construction marker to the corner of {cell_name(a.cell)}"
        s.recent.append({"seat": seat, "what": "relocate", "cell": cell_name(a.cell)})
        from engine.capitals.flow import full_marker

        if full_marker(s, seat) < 0:
            s.turn += 1
            s.relocating = -1
        else:
            s.relocating = full_marker(s, seat)
    elif a.kind == "prosper":
        assert a.cell is not None
        p.hand.remove(a.tile)
        broken = placements(p, "PRO")[a.cell]
        era = (s.round - 2) // BOARD.per_era + 1
        resolve_build(s, seat, a.tile, a.cell, broken, era, ev)
        text = f"{name} builds the prosperity tile {TILES[a.tile].name} on {cell_name(a.cell)}"
        if broken:
            text += f", breaking {count(broken, 'placement rule')}"
        s.recent.append({"seat": seat, "what": "build", "cell": cell_name(a.cell), "tile": a.tile})
        s.turn += 1
    elif a.kind == "lake":
        assert a.cell is not None
        p.hand.remove(a.tile)
        p.city[a.cell] = Placed(a.tile, True, 0, s.round - 1)
        change(s, ev, "NRG", int(BOARD.c["lake_cubes"]))
        text = f"{name} reveals the {TILES[a.tile].name} and lays it as a lake on {cell_name(a.cell)}"
        s.recent.append({"seat": seat, "what": "lake", "cell": cell_name(a.cell)})
        s.turn += 1
    gains = summary(before, snapshot(s, seat)) if a.kind != "position" else ""
    if gains:
        text += f": {gains}"
    if ev.notes:
        text += f" ({'; '.join(ev.notes)})"
    text += "."
    log(s, text)
    mark = len(s.history)
    advance(s)
    events = [public(text, kind="move", seat=seat)]
    events += [public(line, kind="info") for line in s.history[mark:]]
    trim_history(s)
    return events


def station_text(s: State, seat: int) -> str:
    """``level 2 (1 activation)`` for status lines."""
    st = STATIONS[s.players[seat].station]
    return f"level {st.level} ({count(st.activations, 'activation')})"


def _is_cell(c: object) -> bool:
    """A well-formed cell: a pair of plain integers."""
    return isinstance(c, tuple) and len(c) == 2 and all(type(v) is int for v in c)


def is_legal(s: State, seat: int, a: object) -> bool:
    """Exactly ``a in legal(s, seat)``, with a fast path for builds (the longest list)."""
    if not isinstance(a, Action) or s.current != seat:
        return False
    if a.kind == "build" and s.phase == "building":
        if a.pos or a.tourists or a.choice or not isinstance(a.tile, str) or a.tile not in TILES:
            return False
        if row_of(s, a.tile) < 0:
            return False
        if not _is_cell(a.cell):
            return False
        return a.cell in placements(s.players[seat], TILES[a.tile].type)
    return a in legal(s, seat)
