"""The automatic player: a greedy evaluator of every legal move, fast and deterministic.

Why greedy with hand-set weights: every decision in The Capitals is local (a position, one
tile and its cell, an activation), and its effect on the city's tracks can be read from the
tile data; weighting the tracks by how they turn into prestige (Labour at every Evaluation,
Culture at the end, Public Services ranking, avoiding loans and placement penalties) beats a
random player by a wide margin without any search.
"""

from __future__ import annotations

from engine.capitals.actions import Action
from engine.capitals.data import BOARD, TILES, Delta, Tile
from engine.capitals.effects import activation_cost
from engine.capitals.flow import position_price
from engine.capitals.grid import placements, vertex_cells
from engine.capitals.moves import legal, row_cost
from engine.capitals.state import Player, State
from engine.capitals.tracks import loans_needed
from engine.core.rng import Rng

WEIGHTS = {"POP": 0.5, "LAB": 1.0, "PS": 0.7, "PRG": 0.5, "ECO": 0.2, "CUL": 0.6, "PRE": 1.0, "NRG": 0.5}


def delta_value(p: Player, items: tuple[Delta, ...] | list[Delta]) -> float:
    """Rough prestige-equivalent of some track changes for this city."""
    total = 0.0
    pop_gain = sum(d.d for d in items if d.track == "POP")
    room = p.tracks["POP"] + pop_gain - p.tracks["LAB"]
    for d in items:
        if d.track == "LAB" and d.d > 0:
            total += WEIGHTS["LAB"] * min(d.d, max(0, room))
        elif d.track == "PS" and d.d < 0 and p.tracks["PS"] + d.d < -2:
            total += 1.2 * d.d
        else:
            total += WEIGHTS.get(d.track, 0.0) * d.d
    return total


def tile_value(p: Player, tile: Tile) -> float:
    """Value of building ``tile`` (its immediate effects plus the promise of its others)."""
    items: list[Delta] = []
    for imm in tile.imm:
        if imm.kind in ("delta", "pay"):
            items.extend(imm.gain)
        elif imm.kind == "era":
            items.append(Delta(imm.gain[0].track, imm.by_era[1]))
        elif imm.kind == "per":
            have = p.tracks.get(imm.of, 0)
            items.extend(Delta(g.track, g.d * (have // imm.n)) for g in imm.gain)
        if imm.kind == "pay":
            items.append(Delta("ECO", -imm.cost))
    value = delta_value(p, items)
    if tile.act is not None:
        value += 2.0
    value += 1.0 * len(tile.perm) + 1.0 * len(tile.end) + 0.8 * len(tile.cons)
    return value


def _choose_position(s: State, seat: int, actions: list[Action]) -> Action:
    p = s.players[seat]

    def score(a: Action) -> float:
        price = position_price(s, seat, a.pos)
        loans = loans_needed(p.tracks["ECO"], price)
        early = (BOARD.political_positions[s.n] - a.pos) * (1.2 if p.tracks["ECO"] > 12 else 0.4)
        return early - 0.35 * price - 2.0 * loans

    return max(actions, key=score)


def _choose_build(s: State, seat: int, rng: Rng) -> Action | None:
    """The best tile and cell, generated from the same placement rules as the legal list
    (so it is legal by construction) without listing every move first."""
    p = s.players[seat]
    broken_by_type: dict[str, dict[tuple[int, int], int]] = {}
    best: tuple[float, Action] | None = None
    for row_index, row in enumerate(s.rows):
        cost = row_cost(row_index)
        for tid in sorted(row):
            tile = TILES[tid]
            value = tile_value(p, tile) - 0.25 * cost - 1.5 * loans_needed(p.tracks["ECO"], cost)
            if tile.type not in broken_by_type:
                broken_by_type[tile.type] = placements(p, tile.type)
            for cell, broken in sorted(broken_by_type[tile.type].items(), key=lambda x: (x[0][1], x[0][0])):
                score = value - 2.0 * broken + rng.below(100) / 1000
                if best is None or score > best[0]:
                    best = (score, Action("build", tile=tid, cell=cell))
    return None if best is None else best[1]


def _choose_activation(s: State, seat: int, actions: list[Action]) -> Action:
    p = s.players[seat]
    best: tuple[float, Action] | None = None
    for a in actions:
        if a.kind != "activate" or a.cell is None:
            continue
        tile = TILES[p.city[a.cell].tile]
        assert tile.act is not None
        cubes = activation_cost(p, s, seat, a.cell) - len(a.tourists)
        value = delta_value(p, [*tile.act.cost, *tile.act.gain]) - 0.45 * cubes
        if best is None or value > best[0]:
            best = (value, a)
    if best is not None and best[0] > 0:
        return best[1]
    for a in actions:
        if a.kind == "done" or (a.kind == "pass" and a.choice == "cube"):
            return a
    return actions[-1]


def _choose_relocation(s: State, seat: int, actions: list[Action]) -> Action:
    p = s.players[seat]

    def score(a: Action) -> tuple[int, int, int]:
        assert a.cell is not None
        free = sum(1 for c in vertex_cells(a.cell) if c not in p.city)
        return (free, -abs(a.cell[0]) - abs(a.cell[1]), 0)

    return max(actions, key=score)


def _choose_prosperity(s: State, seat: int, actions: list[Action]) -> Action:
    p = s.players[seat]
    pros = [a for a in actions if a.kind == "prosper"]
    if pros:
        from engine.capitals.grid import placements

        broken = placements(p, "PRO")
        return max(pros, key=lambda a: tile_value(p, TILES[a.tile]) - 2.0 * broken.get(a.cell or (0, 0), 0))
    return actions[0]


def auto_action(s: State, seat: int, seed: int) -> Action:
    """The automatic player's move (always one of ``legal``)."""
    rng = Rng.from_seed(seed)
    kind = s.phase
    if kind == "building" and s.current == seat:
        choice = _choose_build(s, seat, rng)
        if choice is not None:
            return choice
    actions = legal(s, seat)
    if not actions:
        raise ValueError("nothing to do")
    if kind == "political":
        return _choose_position(s, seat, actions)
    if kind == "execution":
        return _choose_activation(s, seat, actions)
    if kind == "relocate":
        return _choose_relocation(s, seat, actions)
    if kind == "prosperity":
        return _choose_prosperity(s, seat, actions)
    return actions[0]
