"""World Expo Evaluations (spec §9.7, sub-step order D-25) and the final scoring (§13).

Why sub-steps run for all players before the next sub-step: Public Services icons can change
money and Progress (station upgrades), and money breaks Public Services ranking ties, so every
icon must be applied, in start order, before the ranking is computed.
"""

from __future__ import annotations

from engine.capitals.data import BOARD, TILES
from engine.capitals.grid import neighbours
from engine.capitals.state import State
from engine.capitals.tracks import Event, apply_batch, pay


def labour_prestige(lab: int) -> int:
    """The prestige printed on a Labour level."""
    return BOARD.labour_prestige[lab - BOARD.tracks["LAB"].min]


def unemployment(pop: int, lab: int) -> int:
    """``max(LAB - POP, -cap)`` prestige (0 when everybody works; TC-EX-23)."""
    return max(lab - pop, -int(BOARD.c["unemployment_cap"]))


def ps_ranking(s: State) -> list[int]:
    """Seats by Public Services, ties to more money, then the leftmost Start position."""
    return sorted(
        range(s.n),
        key=lambda i: (-s.players[i].tracks["PS"], -s.players[i].tracks["ECO"], s.players[i].pos),
    )


def evaluation(s: State, final: bool) -> dict[int, int]:
    """One World Expo Evaluation; returns each seat's prestige change."""
    order = s.start_order()
    gained = {seat: s.players[seat].pre for seat in order}
    if final:
        for seat in order:  # step 0: end-game effects flagged "before the Evaluation"
            p = s.players[seat]
            for placed in p.city.values():
                if placed.lake:
                    continue
                for end in TILES[placed.tile].end:
                    if end.kind == "pre_eval":
                        apply_batch(s, Event(seat), end.gain)
    for seat in order:  # 1-2: Labour and unemployment
        p = s.players[seat]
        p.pre += labour_prestige(p.tracks["LAB"]) + unemployment(p.tracks["POP"], p.tracks["LAB"])
    for seat in order:  # 3: Public Services icons, each player one event
        p = s.players[seat]
        icons = BOARD.ps_icons.get(p.tracks["PS"], ())
        if icons:
            ev = Event(seat)
            apply_batch(s, ev, icons)
    ranked = ps_ranking(s)  # 4: ranking
    for i, seat in enumerate(ranked):
        s.players[seat].pre -= int(BOARD.c["ps_rank_penalty"]) * i
    for p in s.players:  # 5: cubes on building tiles go back to the supply
        for placed in p.city.values():
            placed.cubes = 0
    return {seat: s.players[seat].pre - gained[seat] for seat in order}


def end_effects(s: State, seat: int) -> int:
    """Prestige from the end-game effects of a city's tiles (never counting the tile itself)."""
    p = s.players[seat]
    total = 0
    for cell, placed in p.city.items():
        if placed.lake:
            continue
        for end in TILES[placed.tile].end:
            per = end.gain[0].d
            if end.kind == "adj":
                n = sum(1 for c in neighbours(cell) if c in p.city and not p.city[c].lake
                        and TILES[p.city[c].tile].type == end.type)
                total += per * n
            elif end.kind == "city":
                n = sum(1 for c, t in p.city.items() if c != cell and not t.lake and TILES[t.tile].type == end.type)
                total += per * n
            elif end.kind == "eco":
                total += per * (p.tracks["ECO"] // end.n)
    return total


def final_payment(s: State) -> None:
    """Each player pays once more for their Start position: $ × × (D-06), $1 floor (D-31)."""
    for seat in s.start_order():
        pos = BOARD.positions[s.players[seat].pos - 1]
        times = pos.mult if BOARD.c["final_payment"] == "money_times_mult" else 1
        pay(s, Event(seat), pos.money * times)


def final_scoring(s: State) -> None:
    """Final conversions (§13 step 3); the breakdown is kept in ``Player.final``."""
    c = BOARD.c
    for seat in range(s.n):
        p = s.players[seat]
        before = p.pre
        ends = end_effects(s, seat)
        p.pre += ends
        cubes = p.nrg // int(c["final_cubes_per_pre"])
        p.nrg -= cubes * int(c["final_cubes_per_pre"])
        money = p.tracks["ECO"] // int(c["final_money_per_pre"])
        p.tracks["ECO"] -= money * int(c["final_money_per_pre"])
        culture = p.tracks["CUL"] // int(c["final_culture_per_pre"])
        progress = p.prg
        p.pre += cubes + money + culture + progress
        p.final = {
            "before": before,
            "end_effects": ends,
            "energy": cubes,
            "money": money,
            "culture": culture,
            "progress": progress,
            "total": p.pre,
        }


def final_order(s: State) -> list[int]:
    """Seats best first: prestige, then leftover cubes, then money, then Start position."""
    return sorted(
        range(s.n),
        key=lambda i: (-s.players[i].pre, -s.players[i].nrg, -s.players[i].tracks["ECO"], s.players[i].pos),
    )
