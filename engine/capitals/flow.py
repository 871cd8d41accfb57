"""The round as a phase machine (spec §9): who decides now, and what runs on its own.

Why a machine with one awaited seat: every decision in The Capitals is taken by one city at a
time in a fixed order (old Start positions in the Political phase, start order elsewhere), so
``order``/``turn`` name the awaited seat. Tourism, the sliding and refill of the Projects
area, Evaluations and the final scoring need no decision and run inside :func:`advance`, as
do decisions with a single option (a construction marker with one possible corner, the last
free Start position).
"""

from __future__ import annotations

from engine.capitals.data import BOARD, ERA_TILES
from engine.capitals.expo import evaluation, final_payment, final_scoring
from engine.capitals.grid import edge_cells, is_full, perimeter_vertices, sites
from engine.capitals.names import seat_name
from engine.capitals.state import State
from engine.capitals.tourism import tourism_phase
from engine.capitals.tracks import Event, pay
from engine.core.text import count, join_words

HISTORY = 40


def log(s: State, line: str) -> None:
    """Add a public line to the history (trimmed by :func:`trim_history` after each move)."""
    s.history.append(line)


def trim_history(s: State) -> None:
    """Keep the last lines of the history only."""
    if len(s.history) > HISTORY:
        del s.history[: len(s.history) - HISTORY]


def available_positions(s: State) -> list[int]:
    """Start-track positions that may be bought in the Political phase (§3.3, D-02)."""
    return list(range(1, BOARD.political_positions[s.n] + 1))


def position_price(s: State, seat: int, pos: int) -> int:
    """$ of the new position × the multiplier of the old one (×1 from P5 in round 2 with 5)."""
    old = s.players[seat].old
    mult = BOARD.positions[old - 1].mult
    if s.n == 5 and s.round == 2 and old == 5:
        mult = 1
    return BOARD.positions[pos - 1].money * mult


def free_positions(s: State) -> list[int]:
    """Positions nobody has bought yet this Political phase."""
    taken = {p.pos for p in s.players if p.pos}
    return [q for q in available_positions(s) if q not in taken]


def allowance(s: State, seat: int) -> int:
    """Activations this Execution turn: the current station's, +1 with the Highest Culture
    marker, re-read after every activation (D-34)."""
    from engine.capitals.data import STATIONS

    bonus = int(BOARD.c["highest_culture_activations"]) if s.hc == seat else 0
    return STATIONS[s.players[seat].station].activations + bonus


def full_marker(s: State, seat: int) -> int:
    """Index of the first full construction marker of ``seat``, or -1."""
    p = s.players[seat]
    for i, v in enumerate(p.markers):
        if is_full(p, v):
            return i
    return -1


# ------------------------------------------------------------------ phase starts
def begin_political(s: State) -> None:
    """Every marker moves to the lower half; seats choose in their old order."""
    for p in s.players:
        p.old, p.pos = p.pos, 0
    s.phase = "political"
    s.order = sorted(range(s.n), key=lambda i: s.players[i].old)
    s.turn = 0


def begin_building(s: State) -> None:
    """Each city takes and places one tile, in start order."""
    for p in s.players:
        p.old = 0
    s.phase = "building"
    s.order = s.start_order()
    s.turn = 0


def begin_execution(s: State) -> None:
    """Tourism first (no decisions), then activations in start order."""
    high, moved = tourism_phase(s)
    texts = [f"{seat_name(high)} holds the Highest Culture marker"]
    for owner, to in moved:
        if owner == to:
            texts.append(f"the {seat_name(owner)} tourist returns home")
        else:
            texts.append(f"the {seat_name(owner)} tourist goes to {seat_name(to)}")
    log(s, "Tourism: " + join_words(texts) + ".")
    for t in s.tourists:
        t.moved = False
    s.phase = "execution"
    s.order = s.start_order()
    s.turn = 0
    s.acts = 0


def begin_relocate(s: State) -> None:
    """Management phase, steps 1-2: the neutral's Culture, then full markers move."""
    if s.neutral_cul is not None:
        s.neutral_cul = min(BOARD.tracks["CUL"].max, s.neutral_cul + int(BOARD.c["neutral_culture_gain"]))
    s.phase = "relocate"
    s.order = s.start_order()
    s.turn = 0
    s.relocating = -1


def refill_count(s: State) -> int:
    """Tiles to draw into the $0 row (§9.5 step 6, §15 variant)."""
    if s.options.get("variant"):
        return min(s.n + 2, int(BOARD.c["variant_draw_max"]))
    current = set(ERA_TILES[s.era])
    present = sum(1 for row in s.rows for t in row if t in current)
    return max(0, s.n + 2 - present)


def slide_and_refill(s: State) -> None:
    """Management steps 3-6: slide the rows, advance time, change era, refill."""
    s.box.extend(s.rows[2])
    s.rows = [[], s.rows[0], s.rows[1]]
    ended = s.round
    if ended >= BOARD.rounds:
        return
    s.round += 1
    if s.era != (ended - 1) // BOARD.per_era + 1:
        old = (ended - 1) // BOARD.per_era + 1
        s.box.extend(s.decks[old])
        s.decks[old] = []
        log(s, f"Era {'I' * s.era} begins.")
    deck = s.decks[s.era]
    drawn = 0
    for _ in range(refill_count(s)):
        if not deck:
            break
        s.rows[0].append(deck.pop())
        drawn += 1
    if drawn:
        log(s, f"{count(drawn, 'new tile')} enter the Projects area.")


def begin_prosperity(s: State) -> None:
    """Prosperity step: each city builds a prosperity tile or a lake, in start order."""
    s.phase = "prosperity"
    s.order = s.start_order()
    s.turn = 0


def after_management(s: State, ended: int) -> None:
    """Evaluation after rounds 4, 8 and 12; the end of the game; or the next round."""
    if ended in BOARD.evaluations:
        final = ended >= BOARD.rounds
        deltas = evaluation(s, final)
        era = "I" * ((ended - 1) // BOARD.per_era + 1)
        parts = [f"{seat_name(seat)} {d:+d}" for seat, d in deltas.items()]
        log(s, f"World Expo Evaluation of Era {era}: prestige {join_words(parts)}.")
    if ended >= BOARD.rounds:
        final_payment(s)
        final_scoring(s)
        s.phase = "over"
        s.order = []
        s.turn = 0
        log(s, "The game is over.")
        return
    begin_political(s)


def finish_phase(s: State) -> None:
    """Move on from a phase whose awaited seats are all done."""
    if s.phase == "political":
        begin_building(s)
    elif s.phase == "building":
        begin_execution(s)
    elif s.phase == "execution":
        begin_relocate(s)
    elif s.phase == "relocate":
        ended = s.round
        slide_and_refill(s)
        if s.options.get("prosperity") and ended in BOARD.prosperity_rounds:
            begin_prosperity(s)
        else:
            after_management(s, ended)
    elif s.phase == "prosperity":
        after_management(s, s.round - 1)


# ------------------------------------------------------------------ automatic steps
def _auto_step(s: State, seat: int) -> bool:
    """Handle ``seat``'s turn without a decision when possible; True if it was handled."""
    p = s.players[seat]
    if s.phase == "political":
        free = free_positions(s)
        if len(free) == 1:
            price = buy_position(s, seat, free[0])
            log(s, f"{seat_name(seat)} takes the last free position, P{free[0]}, for ${price}.")
            return True
        return False
    if s.phase == "building":
        if not any(s.rows):
            log(s, f"{seat_name(seat)} cannot build: the Projects area is empty.")  # D-26
            return True
        if not sites(p) and not edge_cells(p):
            # Decision: a city that reached the edge of the named grid everywhere skips
            # its build (cannot happen with 19 tiles at most; kept so play never stalls).
            log(s, f"{seat_name(seat)} has no free cell to build on.")
            return True
        return False
    if s.phase == "relocate":
        idx = full_marker(s, seat)
        if idx < 0:
            s.relocating = -1
            return True
        s.relocating = idx
        options = perimeter_vertices(p, idx)
        if not options:  # cannot happen in a finite city; the marker simply stays
            s.relocating = -1
            return True
        if len(options) == 1:
            p.markers[idx] = options[0]
            return _auto_step(s, seat)
        return False
    if s.phase == "prosperity":
        return not p.hand
    return False


def advance(s: State) -> None:
    """Run everything that needs no decision until a seat must choose or the game ends."""
    while s.phase != "over":
        if s.turn >= len(s.order):
            finish_phase(s)
            continue
        seat = s.order[s.turn]
        if _auto_step(s, seat):
            s.turn += 1
            continue
        return


def buy_position(s: State, seat: int, pos: int) -> int:
    """Buy a Start-track position; returns the price paid."""
    price = position_price(s, seat, pos)
    pay(s, Event(seat), price)
    s.players[seat].pos = pos
    return price
