"""Resolving a build (spec §7.4) and an activation (§9.4) as one batch each.

Why collect-then-apply: the spec makes one build (the tile's immediate and construction
effects plus the triggers of tiles already built) or one activation (its effect plus the
permanent reactions of other tiles) a single batch whose POP changes come before its LAB
changes (D-20, TC-EX-46). Which effects fire, and how often, is decided first in step order
from the city as it stands; then :func:`engine.capitals.tracks.apply_batch` applies them.
Decision: a conditional ("per 3 POP") counts the state when the batch is collected; no known
or stand-in tile's batch changes what its own conditional counts (D-20).
"""

from __future__ import annotations

from engine.capitals.data import BOARD, TILES, Cons, Delta, Tile
from engine.capitals.grid import neighbours
from engine.capitals.state import Cell, Placed, Player, State
from engine.capitals.tracks import Event, apply_batch, pay


def _matches(tile: Tile, typ: str, density: str | None) -> bool:
    return tile.type == typ and (density is None or tile.density == density)


def _neighbour_tiles(p: Player, c: Cell, exclude: Cell | None = None) -> list[Tile]:
    out = []
    for n in neighbours(c):
        placed = p.city.get(n)
        if placed is None or placed.lake or n == exclude:
            continue
        out.append(TILES[placed.tile])
    return out


def own_construction_count(p: Player, cell: Cell, tile: Tile, cons: Cons) -> int:
    """How often the new tile's own construction effect fires at build (step 5)."""
    if cons.type == "new":
        kinds = {t.type for t in _neighbour_tiles(p, cell)} - {tile.type}
        return len(kinds)
    if cons.scope == "adj":
        return sum(1 for t in _neighbour_tiles(p, cell) if _matches(t, cons.type, cons.density))
    return sum(1 for c, placed in p.city.items()
               if c != cell and not placed.lake and _matches(TILES[placed.tile], cons.type, cons.density))


def trigger_fires(p: Player, at: Cell, owner: Tile, cons: Cons, cell: Cell, new: Tile) -> bool:
    """Whether an already-built tile's construction effect fires once for the new tile
    (step 6). ``adj(new type)``: the type must be new among its other neighbours (D-10)."""
    adjacent = abs(at[0] - cell[0]) <= 1 and abs(at[1] - cell[1]) <= 1
    if cons.type == "new":
        if not adjacent or new.type == owner.type:
            return False
        others = {t.type for t in _neighbour_tiles(p, at, exclude=cell)}
        return new.type not in others
    if cons.scope == "adj" and not adjacent:
        return False
    return _matches(new, cons.type, cons.density)


def immediate_items(s: State, seat: int, tile: Tile, era: int, ev: Event) -> list[Delta]:
    """Step 4: plain deltas, then mandatory payments, then conditionals. Payments are made
    here (loans as needed, D-28); conditionals are counted, never funded (§7.1)."""
    p = s.players[seat]
    items: list[Delta] = []
    for imm in tile.imm:
        if imm.kind == "delta":
            items.extend(imm.gain)
        elif imm.kind == "era":
            g = imm.gain[0]
            items.append(Delta(g.track, imm.by_era[max(1, min(3, era)) - 1]))
    for imm in tile.imm:
        if imm.kind == "pay":
            pay(s, ev, imm.cost)
            items.extend(imm.gain)
    for imm in tile.imm:
        if imm.kind == "per":
            have = p.tracks[imm.of] if imm.of != "PRG" else p.prg
            times = max(0, have) // imm.n
            items.extend(Delta(g.track, g.d * times) for g in imm.gain if times)
    return items


def resolve_build(s: State, seat: int, tile_id: str, cell: Cell, broken: int, era: int, ev: Event) -> None:
    """Place ``tile_id`` on ``cell`` and resolve it (§7.4 steps 2-7). The row cost was paid."""
    p = s.players[seat]
    tile = TILES[tile_id]
    p.city[cell] = Placed(tile_id, False, 0, s.round)
    if broken:
        p.pre -= int(BOARD.c["penalty_per_rule"]) * broken
    items = immediate_items(s, seat, tile, era, ev)
    for cons in tile.cons:
        times = own_construction_count(p, cell, tile, cons)
        for _ in range(times):
            items.extend(cons.gain)
    for at in sorted(p.city, key=lambda c: (c[1], c[0])):
        placed = p.city[at]
        if at == cell or placed.lake:
            continue
        owner = TILES[placed.tile]
        for cons in owner.cons:
            if trigger_fires(p, at, owner, cons, cell, tile):
                items.extend(cons.gain)
    apply_batch(s, ev, items)


def activation_cost(p: Player, s: State, seat: int, cell: Cell) -> int:
    """1 + printed cubes + cubes on the tile + tourists on it (§9.4, TC-EX-17/18)."""
    placed = p.city[cell]
    act = TILES[placed.tile].act
    printed = act.printed if act else 0
    tourists = sum(1 for t in s.tourists if t.city == seat and t.cell == cell)
    return 1 + printed + placed.cubes + tourists


def resolve_activation(s: State, seat: int, cell: Cell, ev: Event) -> None:
    """The activation effect and the permanent reactions of the other tiles, one batch."""
    p = s.players[seat]
    tile = TILES[p.city[cell].tile]
    assert tile.act is not None
    items: list[Delta] = [*tile.act.cost, *tile.act.gain]
    for at in sorted(p.city, key=lambda c: (c[1], c[0])):
        placed = p.city[at]
        if at == cell or placed.lake:
            continue
        other = TILES[placed.tile]
        adjacent = abs(at[0] - cell[0]) <= 1 and abs(at[1] - cell[1]) <= 1
        for perm in other.perm:
            near = perm.on == "adj_activated" and adjacent and perm.filter in (None, tile.type)
            if near or (perm.on == "activate" and perm.filter == tile.type):
                items.extend(perm.gain)
    apply_batch(s, ev, items)
